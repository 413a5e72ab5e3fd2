package dev.openagent.cli;

import dev.openagent.registry.Catalog;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.agent.GullibleAgent;
import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.Agent;
import dev.openagent.episode.Episodes;
import dev.openagent.json.Json;
import dev.openagent.results.EpisodeResult;
import dev.openagent.run.EvalRunner;
import dev.openagent.run.Experiment;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.store.ResultStore;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Attack success (the security tier: {@code obs.injection}, {@code tool.poisoned-description}) through
 * {@code eval}, the results store and {@code report}. The expected figures come from the same episodes
 * played in this process (the gullible agent obeys every injected instruction, the oracle none): each
 * figure is the share of attacked episodes in which the attack happened, and episodes nobody attacked
 * (the unshifted condition) count in neither part. Every figure must come out the same in eval's
 * summary, after a resume that reads the episodes back from the store, per episode in the store, and
 * in report.md, summary.json and report.html's data.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class AttackSuccessReportTest {
    static final List<String> ENVS = List.of("poi", "medical", "household");   // household: text commands, injection only
    static final String SHIFT = "tier:security";
    static final int TASKS = 5;
    static final long SEED = 3;
    static final List<Agent> AGENTS = List.of(new GullibleAgent(), new OracleAgent());

    /** One episode as played here: who, where, under what, and whether it was attacked (null: nobody attacked it). */
    record Played(String agent, String env, String shift, long taskSeed, Boolean attacked) {
        String key() { return agent + " " + env + " " + shift + " " + taskSeed; }
    }

    static List<Played> played;

    @TempDir
    static Path dir;

    @BeforeAll
    static void playTheSameEpisodesHere() {
        Experiment exp = new Experiment(null, List.of(), ENVS, List.of(SHIFT), TASKS, 1, SEED, "test", 0, 1, null);
        List<String> notApplicable = new ArrayList<>();
        List<EvalRunner.Condition> conditions = EvalRunner.conditions(new Catalog(), exp, notApplicable);
        List<TaskRequest> requests = new TaskPlan(exp.splitValue(), TASKS, SEED, 0).requests();
        played = new ArrayList<>();
        for (EvalRunner.Condition c : conditions) {
            for (TaskRequest r : requests) {
                for (Agent a : AGENTS) {
                    var t = Episodes.run(c.stack().apply(c.environment().create()), a, r);
                    played.add(new Played(a.name(), c.env(), c.label(), r.seed(), t.outcome().attacked()));
                }
            }
        }
        // What makes the figures below mean something: both agents attacked under both shifts, the gullible one
        // attacked successfully, the oracle never, and the unshifted episodes attacked by nobody.
        for (String shift : List.of("obs.injection", "tool.poisoned-description")) {
            assertTrue(played.stream().anyMatch(p -> p.shift.equals(shift) && p.agent.equals("gullible") && Boolean.TRUE.equals(p.attacked)), shift);
            assertTrue(played.stream().anyMatch(p -> p.shift.equals(shift) && p.agent.equals("oracle") && Boolean.FALSE.equals(p.attacked)), shift);
        }
        assertTrue(played.stream().filter(p -> p.shift.equals("none")).allMatch(p -> p.attacked == null));
        assertTrue(notApplicable.stream().anyMatch(n -> n.contains("household")), "tool.poisoned-description leaves household out: " + notApplicable);
    }

    /** Attacked episodes in which the attack happened, over attacked episodes, as the reports round it; null when none was attacked. */
    static Double expected(Predicate<Played> which) {
        List<Boolean> attacked = played.stream().filter(which).map(Played::attacked).filter(Objects::nonNull).toList();
        if (attacked.isEmpty()) return null;
        double rate = (double) attacked.stream().filter(Boolean::booleanValue).count() / attacked.size();
        return Math.round(rate * 10000) / 10000.0;
    }

    static void assertRate(Double want, JsonNode got, String what) {
        if (want == null) {
            assertTrue(got == null || got.isMissingNode() || got.isNull(), what + ": no attacked episode, so no attack success, but " + got);
        } else {
            assertNotNull(got, what);
            assertTrue(got.isNumber(), what + ": " + got);
            assertEquals(want, got.asDouble(), 1e-9, what);
        }
    }

    static Predicate<Played> agent(String a) { return p -> p.agent.equals(a); }

    static Predicate<Played> shift(String s) { return p -> p.shift.equals(s); }

    static final List<String> SHIFTS = List.of("none", "obs.injection", "tool.poisoned-description");

    /** The figures of a scorecard's JSON (eval's summary, summary.json): overall, by shift, by tier, by agent and by agent and shift. */
    static void assertScorecard(JsonNode s, String what) {
        assertRate(expected(p -> true), s.get("attack_success_rate"), what + " overall");
        assertRate(0.5, s.get("attack_success_rate"), what + " overall: one agent always attacked, one never, as often");
        for (String shift : SHIFTS) assertRate(expected(shift(shift)), s.path("by_shift").path(shift).get("attack_success_rate"), what + " " + shift);
        assertRate(expected(p -> !p.shift.equals("none")), s.path("by_tier").path("security").get("attack_success_rate"), what + " security tier");
        assertRate(null, s.path("by_tier").path("static").get("attack_success_rate"), what + " static tier");
        for (String env : ENVS) assertRate(expected(p -> p.env.equals(env)), s.path("by_env").path(env).get("attack_success_rate"), what + " " + env);
        for (String a : List.of("gullible", "oracle")) {
            JsonNode byAgent = s.path("by_agent").path(a);
            assertRate(expected(agent(a)), byAgent.get("attack_success_rate"), what + " " + a);
            for (String shift : SHIFTS) {
                assertRate(expected(agent(a).and(shift(shift))), byAgent.path("by_shift").path(shift).get("attack_success_rate"), what + " " + a + " " + shift);
            }
        }
        assertRate(1.0, s.path("by_agent").path("gullible").path("by_shift").path("obs.injection").get("attack_success_rate"), what + ": the gullible agent obeys");
        assertRate(0.0, s.path("by_agent").path("oracle").path("by_shift").path("obs.injection").get("attack_success_rate"), what + ": the oracle never does");
    }

    private static String[] evalArgs(Path store) {
        return new String[]{"eval", "--agent", "gullible,oracle", "--env", String.join(",", ENVS), "--shift", SHIFT, "--tasks", String.valueOf(TASKS),
                "--seed", String.valueOf(SEED), "--store", store.toString(), "--no-progress", "--json"};
    }

    @Test
    void attackSuccessIsCountedStoredAndReported() throws Exception {
        Path store = dir.resolve("runs.db");
        CliTest.Result first = CliTest.run(evalArgs(store));
        assertEquals(0, first.code(), first.err());
        JsonNode ran = first.json();
        assertEquals(played.size(), ran.path("ran").asInt(), "every episode played here is run by eval: " + first.out());
        assertScorecard(ran, "eval");

        // In the store, episode by episode: whether it was attacked, as it happened here.
        Map<String, Played> byKey = new HashMap<>();
        for (Played p : played) byKey.put(p.key(), p);
        try (ResultStore results = ResultStore.openExisting(store)) {
            List<EpisodeResult> stored = results.episodes(ran.path("run").asText());
            assertEquals(played.size(), stored.size());
            for (EpisodeResult e : stored) {
                Played p = byKey.get(e.agent() + " " + e.env() + " " + e.shift() + " " + e.key().taskSeed());
                assertNotNull(p, "an episode eval ran and this test did not: " + e.id());
                assertEquals(p.attacked(), e.attacked(), "stored " + p.key());
            }
        }

        // A resume reads every episode back from the store: the same figures.
        CliTest.Result again = CliTest.run(evalArgs(store));
        assertEquals(0, again.code(), again.err());
        assertEquals(played.size(), again.json().path("reused").asInt(), again.out());
        assertEquals(0, again.json().path("ran").asInt(), again.out());
        assertScorecard(again.json(), "eval resumed from the store");

        Path out = dir.resolve("report");
        CliTest.Result report = CliTest.run("report", "--store", store.toString(), "--out", out.toString());
        assertEquals(0, report.code(), report.err());
        assertScorecard(Json.parse(Files.readString(out.resolve("summary.json"))), "summary.json");
        assertReportData(htmlData(Files.readString(out.resolve("report.html"), StandardCharsets.UTF_8)));
        assertMarkdown(Files.readString(out.resolve("report.md"), StandardCharsets.UTF_8));
    }

    /** The JSON the page embeds (and draws from). */
    static JsonNode htmlData(String html) {
        String open = "<script type=\"application/json\" id=\"report-data\">";
        int from = html.indexOf(open);
        assertTrue(from >= 0, "report.html embeds its data");
        return Json.parse(html.substring(from + open.length(), html.indexOf("</script>", from)));
    }

    /** report.html's data: its summary, and every agent x shift cell (over all environments and per environment). */
    static void assertReportData(JsonNode data) {
        assertScorecard(data.path("summary"), "report.html's summary");
        int cells = 0;
        for (JsonNode c : data.path("cells")) {
            String a = c.path("agent").asText(), env = c.path("env").asText(), shift = c.path("shift").asText();
            if (shift.equals("*")) continue;
            Predicate<Played> which = agent(a).and(shift(shift)).and(p -> env.equals("*") || p.env.equals(env));
            assertRate(expected(which), c.get("attack_success_rate"), "report.html cell " + a + " " + env + " " + shift);
            cells++;
        }
        assertEquals(2 * SHIFTS.size() * (1 + ENVS.size()) - 2, cells, "a cell per agent, shift and environment (household has no poisoned tools), and over all environments");
    }

    /** report.md: the overall row, and the attack success column of the agent x shift table, as percentages. */
    static void assertMarkdown(String md) {
        assertTrue(md.contains("| attack success rate (attacked episodes) | " + pct(expected(p -> true)) + " |"), md);
        List<String> lines = md.lines().toList();
        int header = lines.indexOf(lines.stream().filter(l -> l.startsWith("| agent | shift | tier |")).findFirst().orElseThrow(() -> new AssertionError(md)));
        List<String> columns = cells(lines.get(header));
        int col = columns.indexOf("attack success");
        assertTrue(col > 0, lines.get(header));
        int rows = 0;
        for (String line : lines.subList(header + 2, lines.size())) {
            if (!line.startsWith("|")) break;
            List<String> row = cells(line);
            String a = row.get(0), shift = row.get(1).replace("`", "");
            assertEquals(pct(expected(agent(a).and(shift(shift)))), row.get(col), "report.md " + a + " " + shift + ": " + line);
            rows++;
        }
        assertEquals(2 * SHIFTS.size(), rows, md);
    }

    static List<String> cells(String line) {
        String inner = line.strip().substring(1, line.strip().length() - 1);
        return Arrays.stream(inner.split("\\|")).map(String::strip).toList();
    }

    static String pct(Double v) {
        return v == null ? "–" : String.format(Locale.ROOT, "%.1f%%", 100 * v);
    }
}
