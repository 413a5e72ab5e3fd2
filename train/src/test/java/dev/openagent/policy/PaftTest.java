package dev.openagent.policy;

import dev.openagent.registry.Environments;
import dev.openagent.export.ExportFormats;
import dev.openagent.export.TrainingExport;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.EnvWrapper;
import dev.openagent.sandbox.ShiftRecord;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftParam;
import dev.openagent.shift.Tier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** PAFT plumbing, with a shift of this test's own (the catalog is filled elsewhere). */
class PaftTest {
    /** A query shift for tests only: the agent reads the request in capitals. */
    static final Shift SHOUTING_SHIFT = new Shift("test.shouting", Tier.PERCEPTION, Dimension.Q, "the request in capitals",
            List.of(new ShiftParam("severity", "unused", "1", List.of("1", "2"))),
            (inner, params) -> new EnvWrapper(inner) {
                @Override
                protected ShiftRecord record() { return new ShiftRecord("test.shouting", params, episodeSeed()); }

                @Override
                public Start reset(TaskRequest request) {
                    Start s = inner.reset(request);
                    return s.withQuery(s.query().toUpperCase(Locale.ROOT));
                }

                @Override
                public Task task() {
                    Task t = inner.task();
                    return t.withQuery(t.query().toUpperCase(Locale.ROOT));
                }
            });

    static final ShiftSampler SHOUTING = ShiftSampler.of(List.of(SHOUTING_SHIFT));

    @TempDir
    Path dir;

    @Test
    void shiftedDemonstrationsComeFromTheOracleThroughTheShift() {
        Demonstrations demos = new Demonstrations(Environments.get("poi"), 1.0, SHOUTING, 4);
        for (int i = 0; i < 20; i++) {
            Demonstrations.Episode e = demos.next();
            assertTrue(e.success());
            assertEquals("test.shouting", e.shifts().label().split(":")[0]);
            String q = e.steps().getFirst().view().query();
            assertEquals(q.toUpperCase(Locale.ROOT), q);
        }
    }

    @Test
    void paftMixesShiftedTrajectoriesAtRateAlpha() {
        Trainer.Result r = Trainer.train(TrainingTest.tiny(Trainer.Method.PAFT, 12, 3).withAlpha(0.5).withShifts(SHOUTING), line -> {});
        r.policy().close();
        int episodes = r.info().path("episodes").asInt();
        int shifted = r.info().path("shifted_episodes").asInt();
        assertTrue(shifted > episodes / 4 && shifted < episodes * 3 / 4, shifted + " of " + episodes);
        assertEquals(0.5, r.info().path("alpha").asDouble());
    }

    @Test
    void paftDataExportsWithTheShiftedView() throws Exception {
        Path out = dir.resolve("paft.jsonl");
        TrainingExport.Written w = TrainingExport.write(Environments.get("poi"), TrainingExport.Format.OPENAI, 1.0, SHOUTING, 10, 2, out);
        assertEquals(10, w.shifted());
        for (String line : Files.readAllLines(out)) {
            var record = Json.parse(line);
            assertEquals(List.of(), ExportFormats.problems(record, TrainingExport.Format.OPENAI));
            String query = record.at("/messages/1/content").asText();
            assertEquals(query.toUpperCase(Locale.ROOT), query);
        }
    }

    /**
     * The PAFT mix: spread by tier, each tier gets the same share whatever its number of shifts; a
     * fixed share of refusal demonstrations is drawn as often as asked.
     */
    @Test
    void theMixSpreadsShiftsByTierAndGivesRefusalItsShare() {
        var poi = Environments.get("poi").info();
        ShiftSampler byTier = ShiftSampler.catalog(poi, new ShiftSampler.Mix(true, -1));
        Map<Tier, Double> perTier = new java.util.EnumMap<>(Tier.class);
        byTier.shifts().forEach(x -> perTier.merge(x.tier(), byTier.weights().get(x.id()), Double::sum));
        perTier.values().forEach(w -> assertEquals(0.25, w, 0.001, perTier.toString()));
        ShiftSampler refusing = ShiftSampler.catalog(poi, new ShiftSampler.Mix(true, 0.3));
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(3);
        int unsolvable = 0;
        for (int i = 0; i < 4000; i++) if (refusing.sample(rnd).label().startsWith(ShiftSampler.UNSOLVABLE)) unsolvable++;
        assertEquals(0.3, unsolvable / 4000.0, 0.03);
        assertEquals(1.0, refusing.weights().values().stream().mapToDouble(Double::doubleValue).sum(), 0.001);
        double uniform = ShiftSampler.catalog(poi).weights().get(ShiftSampler.UNSOLVABLE);
        assertEquals(1.0 / ShiftSampler.catalog(poi).shifts().size(), uniform, 0.001);
    }

    /**
     * A mix over some tiers draws only their shifts, each equally likely, besides the refusal
     * demonstrations at their share (task.unsolvable belongs to none of the tiers listed).
     */
    @Test
    void aMixOverSomeTiersDrawsOnlyTheirShiftsAndTheRefusalShare() {
        var poi = Environments.get("poi").info();
        ShiftSampler pi = ShiftSampler.catalog(poi, new ShiftSampler.Mix(false, 0.15).only(Tier.PERCEPTION, Tier.INTERACTION));
        Map<String, Double> w = pi.weights();
        assertEquals(0.15, w.get(ShiftSampler.UNSOLVABLE), 0.001);
        long drawn = ShiftSampler.catalog(poi).shifts().stream()
                .filter(x -> x.tier() == Tier.PERCEPTION || x.tier() == Tier.INTERACTION).count();
        assertEquals(drawn + 1, pi.shifts().size());
        for (var x : pi.shifts()) {
            if (x.id().equals(ShiftSampler.UNSOLVABLE)) continue;
            assertTrue(x.tier() == Tier.PERCEPTION || x.tier() == Tier.INTERACTION, x.id());
            assertEquals(0.85 / drawn, w.get(x.id()), 0.001, x.id());
        }
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(5);
        for (int i = 0; i < 500; i++) {
            Tier t = pi.sample(rnd).layers().getFirst().shift().tier();
            assertTrue(t != Tier.REASONING, "no reasoning shift is drawn");
        }
        // Without a refusal share, the tiers left out are left out entirely.
        assertTrue(ShiftSampler.catalog(poi, ShiftSampler.Mix.UNIFORM.only(Tier.PERCEPTION)).shifts().stream()
                .allMatch(x -> x.tier() == Tier.PERCEPTION));
    }

    /** A task pool of n draws the same n training tasks over and over (the data-scaling ablation's unit). */
    @Test
    void aTaskPoolCyclesThroughItsTasks() {
        Demonstrations pooled = new Demonstrations(Environments.get("poi"), 0, ShiftSampler.of(List.of()), 4).withTaskPool(5);
        List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 15; i++) ids.add(pooled.next().steps().getFirst().task().id());
        assertEquals(ids.subList(0, 5), ids.subList(5, 10));
        assertEquals(ids.subList(0, 5), ids.subList(10, 15));
        assertEquals(5, new java.util.HashSet<>(ids).size());
    }

    @Test
    void paftWithoutAnyShiftFallsBackToSftAndSaysSo() {
        StringBuilder log = new StringBuilder();
        Trainer.Result r = Trainer.train(TrainingTest.tiny(Trainer.Method.PAFT, 2, 3).withShifts(ShiftSampler.of(List.of())),
                line -> log.append(line).append('\n'));
        r.policy().close();
        assertTrue(log.toString().contains("PAFT reduces to SFT"), log.toString());
        assertEquals(0, r.info().path("shifted_episodes").asInt());
    }
}
