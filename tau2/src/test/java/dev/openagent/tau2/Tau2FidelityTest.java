package dev.openagent.tau2;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.Episodes;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * This environment against tau2-bench's own Python environment (python/tau2_replay.py and tau2_fidelity.py), when
 * python3 with pydantic is on the machine (CI has it): the database loads the same, every gold action of every task
 * answers the same, and the oracle's episodes end with tau2's final database, field by field.
 */
class Tau2FidelityTest {
    private static final Path SCRIPTS = Path.of("python");
    /** tau2's replay of every task (responses, changes, the database as loaded), as tau2_fidelity.py dumped it. */
    private static JsonNode tau2;
    /** What tau2_fidelity.py printed comparing the oracle's episodes of all 114 tasks with tau2's replay. */
    private static String comparison;
    private static int exit;

    @BeforeAll
    static void compareWithTau2(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(python(), "python3 with pydantic is not on this machine");
        Tau2Retail env = Checkouts.retail();
        Path file = dir.resolve("trajectories.jsonl");
        List<String> lines = new ArrayList<>();
        for (Split split : Split.values()) {
            for (int i = 0; i < env.tasks(split); i++) lines.add(Episodes.run(env.create(), new OracleAgent(), new TaskRequest(split, i, 0)).toJson());
        }
        Files.write(file, lines, StandardCharsets.UTF_8);
        Path dump = dir.resolve("tau2.json");
        Process p = new ProcessBuilder("python3", SCRIPTS.resolve("tau2_fidelity.py").toString(), Checkouts.shared().toString(), file.toString(),
                "--require-success", "--dump", dump.toString()).redirectErrorStream(true).start();
        comparison = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), "tau2_fidelity.py took longer than 10 minutes");
        exit = p.exitValue();
        System.out.print(comparison);
        tau2 = Json.MAPPER.readTree(dump.toFile());
    }

    private static boolean python() {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import pydantic").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    @Test
    void theDatabaseLoadsAsTau2LoadsIt() {
        RetailDb db = Checkouts.retail().db();
        ObjectNode ours = Json.object();
        ObjectNode products = ours.putObject("products");
        db.products().forEach((id, x) -> products.set(id, x.json()));
        ObjectNode users = ours.putObject("users");
        db.users().forEach((id, x) -> users.set(id, x.json()));
        ObjectNode orders = ours.putObject("orders");
        db.orders().forEach((id, x) -> orders.set(id, x.json()));
        List<String> d = DbDiff.all(ours, tau2.get("initial"), 10);
        assertTrue(d.isEmpty(), "the loaded database differs from tau2's: " + d);
        assertEquals(1550, db.products().size() + db.users().size() + db.orders().size());
    }

    @Test
    void everyGoldActionAnswersAsInTau2() {
        Tau2Retail env = Checkouts.retail();
        List<String> wrong = new ArrayList<>();
        int actions = 0;
        for (JsonNode task : tau2.get("tasks")) {
            Tau2Retail.Gold g = env.gold(task.get("id").asText());
            Env e = env.create();
            e.reset(request(env, g));
            for (int i = 0; i < g.task().actions().size(); i++) {
                Tau2Task.Action a = g.task().actions().get(i);
                Step s = e.step(Action.CallTools.of("call_" + i, a.name(), Json.write(a.arguments())));
                Observation o = s.observations().getFirst();
                JsonNode theirs = task.get("responses").get(i);
                actions++;
                if (o.isError() != theirs.get("error").asBoolean() || !same(o.text(), theirs.get("content").asText())) {
                    wrong.add("task " + g.task().id() + " action " + i + " " + a.name() + ": " + o.text() + " (tau2: " + theirs.get("content").asText() + ")");
                }
            }
            Tau2Retail.Gold replayed = env.gold(g.task().id());
            if (!DbDiff.all(e.dbChanges(), task.get("db_changes"), 1).isEmpty()) wrong.add("task " + g.task().id() + ": " + DbDiff.first(e.dbChanges(), task.get("db_changes")));
            if (!DbDiff.all(replayed.changes().json(), task.get("db_changes"), 1).isEmpty()) wrong.add("task " + g.task().id() + ": gold replay differs");
        }
        System.out.println("tau2 fidelity: " + actions + " gold actions of " + tau2.get("tasks").size() + " tasks replayed; "
                + (actions - wrong.size()) + " answered as in tau2");
        assertEquals(114, tau2.get("tasks").size());
        assertTrue(wrong.isEmpty(), wrong.size() + " differ:\n" + String.join("\n", wrong));
    }

    @Test
    void theOraclesEpisodesEndWithTau2sDatabaseFieldByField() {
        assertEquals(0, exit, comparison);
        assertTrue(comparison.contains("114 episodes over 114 tasks: final database equal to tau2's replay field by field in 114, different in 0"), comparison);
    }

    /**
     * The tools as tau2 shows them to an agent (its Tool.openai_schema: name, description, parameter schema), when the
     * docstring_parser package tau2 parses docstrings with is importable (CI lacks it: PyPI is not reachable there).
     */
    @Test
    void theToolsAreShownAsTau2ShowsThem() throws Exception {
        Process check = new ProcessBuilder("python3", "-c", "import docstring_parser").redirectErrorStream(true).start();
        check.getInputStream().readAllBytes();
        Assumptions.assumeTrue(check.waitFor(60, TimeUnit.SECONDS) && check.exitValue() == 0, "docstring_parser is not importable");
        Process p = new ProcessBuilder("python3", SCRIPTS.resolve("tau2_replay.py").toString(), "schemas", Checkouts.shared().toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        JsonNode theirs = Json.MAPPER.readTree(p.getInputStream());
        assertTrue(p.waitFor(5, TimeUnit.MINUTES));
        List<dev.openagent.sandbox.ToolSpec> ours = Checkouts.retail().create().reset(new TaskRequest(Split.TEST, 0, 0)).tools().stream()
                .filter(t -> !t.name().equals(dev.openagent.sandbox.Protocol.ASK_USER)).toList();
        assertEquals(theirs.size(), ours.size());
        for (var t : ours) {
            JsonNode f = theirs.get(t.name());
            assertEquals(f.get("description").asText(), t.description(), t.name());
            assertEquals(Json.write(f.get("parameters")), Json.write(t.parameters()), t.name());
        }
        System.out.println("tau2 fidelity: the " + ours.size() + " tools' names, descriptions and parameter schemas are tau2's, character for character");
    }

    /** The same response: equal JSON values (numbers by value), or equal text. */
    private static boolean same(String ours, String theirs) {
        if (ours.equals(theirs)) return true;
        try {
            return DbDiff.all(Json.MAPPER.readTree(ours), Json.MAPPER.readTree(theirs), 1).isEmpty();
        } catch (IOException e) {
            return false;
        }
    }

    private static TaskRequest request(Tau2Retail env, Tau2Retail.Gold g) {
        Split split = Split.parse(g.task().split());
        return new TaskRequest(split, env.split(split).indexOf(g), 0);
    }
}
