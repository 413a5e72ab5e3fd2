package dev.openagent.cli;

import dev.openagent.registry.Catalog;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.registry.Environments;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.openagent.cli.CliTest.assertBad;
import static dev.openagent.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Commands CliTest leaves out, each with what a user relies on and its bad input: shifts, envs, validate, bench, report --run. */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class CommandsTest {
    @TempDir
    Path dir;

    @Test
    void shiftsJsonListsTheCatalogAndWithEnvSaysWhereEachApplies() {
        CliTest.Result all = run("shifts", "--json");
        assertEquals(0, all.code(), all.err());
        List<String> ids = new ArrayList<>();
        for (JsonNode s : all.json()) {
            ids.add(s.path("id").asText());
            assertTrue(s.path("description").asText().length() > 20, s.toString());
            assertTrue(s.path("tier").isTextual() && s.path("params").isArray() && !s.has("applicable"), s.toString());
        }
        assertEquals(ShiftCatalog.all().stream().map(Shift::id).toList(), ids);

        CliTest.Result household = run("shifts", "--json", "--env", "household");
        assertEquals(0, household.code(), household.err());
        Map<String, JsonNode> byId = new HashMap<>();
        household.json().forEach(s -> byId.put(s.path("id").asText(), s));
        // Pinned here, not read from the catalog: a text-command environment has no results to blank or tools to add.
        for (String yes : List.of("query.paraphrase", "obs.format", "tool.semantic-rename", "task.unsolvable")) {
            assertTrue(byId.get(yes).path("applicable").asBoolean(), yes + " applies to household");
            assertTrue(byId.get(yes).path("reason").isMissingNode(), yes);
        }
        for (String no : List.of("obs.missing-values", "tool.distractors", "logic.conflict", "domain.policy-update")) {
            assertEquals(false, byId.get(no).path("applicable").asBoolean(true), no + " does not apply to household");
            assertTrue(byId.get(no).path("reason").asText().startsWith("not for text-command environments"), byId.get(no).toString());
            assertEquals("household", byId.get(no).path("env").asText());
        }
        CliTest.Result text = run("shifts", "--env", "household");
        assertEquals(0, text.code(), text.err());
        assertTrue(text.out().contains("not applicable to household: not for text-command environments"), text.out());
        assertBad(run("shifts", "--env", "atlantis"), "atlantis");
    }

    /** The open-world shifts (#18), pinned with their tier and dimension: {@code shifts --json} lists each with a description and params. */
    @Test
    void shiftsJsonListsTheOpenWorldShiftsWithTierDimensionAndParams() {
        Map<String, String> expected = Map.of(
                "obs.injection", "security O", "tool.poisoned-description", "security A", "query.intent-drift", "reasoning Q",
                "tool.set-change", "interaction A", "obs.schema-drift", "interaction O", "obs.auth-expiry", "interaction O",
                "obs.malformed-output", "interaction O", "interface.action-list", "interaction A");
        Map<String, JsonNode> byId = new HashMap<>();
        run("shifts", "--json").json().forEach(s -> byId.put(s.path("id").asText(), s));
        expected.forEach((id, tierDim) -> {
            JsonNode s = byId.get(id);
            assertTrue(s != null, id + " is listed");
            assertEquals(tierDim, s.path("tier").asText() + " " + s.path("dimension").asText(), id);
            assertTrue(s.path("description").asText().length() > 40, s.toString());
            assertEquals("severity", s.path("params").path(0).path("name").asText(), s.toString());
        });
        assertTrue(byId.get("obs.injection").path("description").asText().contains("cancel"), "the goals the description names");
    }

    @Test
    void shiftsExamplesShowEveryShiftOnTheEnvironment() {
        CliTest.Result r = run("shifts", "--examples", "--env", "retail");
        assertEquals(0, r.code(), r.err());
        for (Shift s : ShiftCatalog.all()) {
            assertTrue(r.out().contains("### `" + s.id() + "`"), s.id());
        }
        assertTrue(r.out().contains("Query before: "), "a before/after example");
        assertTrue(r.out().contains("% of tasks (retail, 200 tasks"), "coverage on the environment asked for");
    }

    @Test
    void envsListsEveryRegisteredEnvironment() {
        CliTest.Result json = run("envs", "--json");
        assertEquals(0, json.code(), json.err());
        List<String> ids = new ArrayList<>();
        json.json().forEach(e -> ids.add(e.path("id").asText()));
        assertEquals(Environments.ids(), ids);
        CliTest.Result text = run("envs");
        assertEquals(0, text.code(), text.err());
        for (String id : Environments.ids()) assertTrue(text.out().contains(id), id + " in " + text.out());
        assertEquals(2, run("envs", "--frobnicate").code(), "an unknown option is refused");
    }

    @Test
    void validatePassesWhereTheOracleSolvesEveryTaskAndRefusesBadInput() {
        CliTest.Result r = run("validate", "--env", "medical", "--shift", "obs.format;logic.conflict", "--tasks", "6");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("2 conditions, 24 episodes: all passed"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("logic.conflict") && l.endsWith("ok")), r.out());
        CliTest.Result household = run("validate", "--env", "household", "--shift", "query.paraphrase;obs.missing-values", "--tasks", "2");
        assertEquals(0, household.code(), household.err());
        assertTrue(household.out().contains("not applicable: obs.missing-values: not for text-command environments"), household.out());
        // When no condition applies nothing was validated: an error, never "0 conditions: all passed".
        assertBad(run("validate", "--env", "household", "--shift", "obs.missing-values", "--tasks", "2"),
                "nothing to validate: no condition of --shift 'obs.missing-values' applies to household (obs.missing-values: not for text-command environments");
        assertBad(run("validate", "--tasks", "0"), "--tasks must be at least 1");
        assertBad(run("validate", "--env", "atlantis"), "atlantis");
    }

    @Test
    void validateExitsOneAndNamesTheConditionWhenAFileTaskCannotPassItsCheck() throws Exception {
        String good = InlineEnvFile.write(dir.resolve("good"), "codes", InlineEnvFile.SOLVABLE).toString();
        CliTest.Result ok = run("validate", "--env", good, "--shift", "query.paraphrase", "--tasks", "2");
        assertEquals(0, ok.code(), ok.out() + ok.err());
        assertTrue(ok.out().contains("1 condition, 4 episodes: all passed"), ok.out());

        String broken = InlineEnvFile.write(dir.resolve("broken"), "broken-codes", InlineEnvFile.BROKEN).toString();
        CliTest.Result r = run("validate", "--env", broken, "--shift", "query.paraphrase;obs.format", "--tasks", "2");
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("query.paraphrase") && l.endsWith("FAIL (2)")), r.out());
        assertTrue(r.out().contains("FAILED obs.format (oracle): 2 episode(s)"), r.out());
        assertTrue(r.out().contains("t1 (task): ANSWERED state check 0 (lookup): the result lacks 'Gamma'"), r.out());
        assertTrue(r.out().contains("2 conditions, 8 episodes: 4 check(s) FAILED"), r.out());
        // Nothing applies (no tool declares person_name): an error naming the missing fact, not a pass.
        assertBad(run("validate", "--env", good, "--shift", "domain.policy-update"),
                "nothing to validate: no condition of --shift 'domain.policy-update' applies to codes (domain.policy-update: no tool declares 'person_name'");
    }

    @Test
    void benchMeasuresTheEnvironmentAndRefusesBadInput() {
        CliTest.Result r = run("bench", "--env", "travel", "--seconds", "0.2", "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode b = r.json();
        assertEquals("travel", b.path("env").asText(), b.toString());
        for (String k : List.of("resets_per_cpu_second", "end_to_end_steps_per_cpu_second", "steps_per_episode")) {
            assertTrue(b.path(k).asDouble() > 0, k + " in " + b);
        }
        // Env.step alone is timed directly, so even at a tiny budget its rate is positive, below a
        // step per 10 CPU nanoseconds, and not far below the end-to-end rate, which does every step's
        // work plus a reset and the oracle (half of it: short measurements on a shared machine are
        // noisy). It once came out negative (-78746) at --seconds 0.2.
        double step = b.path("step_calls_per_cpu_second").asDouble();
        assertTrue(step > 0 && step < 1e8, b.toString());
        assertTrue(step > b.path("end_to_end_steps_per_cpu_second").asDouble() / 2, b.toString());
        assertBad(run("bench", "--env", "atlantis"), "atlantis");
    }

    @Test
    void reportOfAnUnknownRunNamesTheRunsThereAre() {
        Path store = dir.resolve("runs.db");
        CliTest.Result eval = run("eval", "--agent", "oracle", "--tasks", "2", "--store", store.toString(), "--no-progress", "--json");
        assertEquals(0, eval.code(), eval.err());
        String id = eval.json().path("run").asText();
        assertBad(run("report", "--store", store.toString(), "--run", "no-such-run", "--out", dir.resolve("r").toString()),
                "no run 'no-such-run' in " + store + " (runs: " + id + ")");
        assertBad(run("report", "--store", store.toString(), "--run", id), "--out DIR is required");
        CliTest.Result ok = run("report", "--store", store.toString(), "--run", id, "--out", dir.resolve("r").toString());
        assertEquals(0, ok.code(), ok.err());
    }

    /** Every command's --help prints its usage and nothing else: a bare '%' in a description made picocli warn on stderr. */
    @Test
    void everyCommandsHelpPrintsWithoutWarnings() {
        List<List<String>> paths = new ArrayList<>();
        collect(new picocli.CommandLine(new Main(new Catalog())), new ArrayList<>(), paths);
        assertTrue(paths.size() > 20, paths.toString());
        for (List<String> path : paths) {
            List<String> args = new ArrayList<>(path);
            args.add("--help");
            CliTest.Result r = run(args.toArray(String[]::new));
            assertEquals(0, r.code(), path + ": " + r.err());
            assertTrue(r.out().startsWith("Usage: openagent"), path + ": " + r.out());
            assertFalse((r.out() + r.err()).contains("WARN"), path + ": " + r.err());
        }
    }

    private static void collect(picocli.CommandLine command, List<String> path, List<List<String>> out) {
        for (var e : command.getSubcommands().entrySet()) {
            if (!e.getValue().getCommandName().equals(e.getKey()) || e.getKey().equals("help")) continue;   // an alias, picocli's help
            List<String> p = new ArrayList<>(path);
            p.add(e.getKey());
            out.add(p);
            collect(e.getValue(), p, out);
        }
    }
}
