package dev.openagent.byo;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.oracle.ViewSolver;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * query.intent-drift in an environment file: the user revises the request mid-episode, and the episode is judged by
 * the revised request's own answer and state checks, on the real filesystem server. (The file's checks are found by
 * task id; the revision is recorded under the original's id, and was once judged by the original's state checks.)
 */
class IntentDriftInFileEnvironmentTest {
    @TempDir
    static Path dir;
    static FileEnvironment file;

    @BeforeAll
    static void load() throws Exception {
        ReferenceServers.require();
        Path server = ReferenceServers.EXAMPLES.resolve("mcp-servers/node_modules/.bin/mcp-server-filesystem");
        Files.createDirectories(dir.resolve("fixtures"));
        Files.writeString(dir.resolve("fixtures/readme.txt"), "Markers go here.\n");
        Files.writeString(dir.resolve("env.yaml"), """
                id: markers
                description: Marker files in a folder, written through the MCP filesystem server.
                mcp:
                  command: ["%s", "{workdir}"]
                  timeout_seconds: 20
                reset:
                  copy: fixtures/
                tools:
                  list_directory: {read_only: true}
                  read_text_file: {read_only: true}
                tasks: tasks.jsonl
                """.formatted(server));
        StringBuilder tasks = new StringBuilder();
        for (String name : new String[]{"out", "ready", "shipped"}) {
            tasks.append("""
                    {"id": "%1$s", "kind": "marker", "query": "Look in {workdir}, then write the word done into {workdir}/%1$s.txt.", \
                    "gold": [{"tool": "list_directory", "args": {"path": "{workdir}"}}, {"tool": "write_file", "args": {"path": "{workdir}/%1$s.txt", "content": "done"}}], \
                    "answer": "done", "check": {"state": [{"tool": "read_text_file", "args": {"path": "{workdir}/%1$s.txt"}, "result_contains": "done"}]}}
                    """.formatted(name));
        }
        Files.writeString(dir.resolve("tasks.jsonl"), tasks);
        file = FileEnvironment.load(dir.resolve("env.yaml"));
    }

    @org.junit.jupiter.api.AfterAll
    static void stop() {
        if (file != null) file.close();
    }

    private static final ShiftStack DRIFT = ShiftSpec.parseStack("query.intent-drift:severity=1");

    @Test
    void theRevisedRequestIsJudgedByItsOwnStateChecks() {
        for (long seed = 0; seed < 6; seed++) {
            TaskRequest r = new TaskRequest(Split.TEST, seed, 0);
            Env env = DRIFT.apply(file.create());
            Trajectory oracle = Episodes.run(env, new OracleAgent(), r);
            assertTrue(oracle.outcome().success(), "the oracle carries out the revision and is judged by it: " + oracle.outcome());
            Trajectory seen = Episodes.run(ViewSolver.watched(DRIFT, file.create()), new ViewSolver(), r);
            assertTrue(ViewSolver.solved(seen), "solved from what the agent is shown: " + ViewSolver.finding(seen).orElse(seen.outcome().toString()));
        }
    }

    @Test
    void anAgentThatIgnoresTheRevisionFailsOnTheRevisedChecks() {
        TaskRequest r = new TaskRequest(Split.TEST, 1, 0);
        Env env = DRIFT.apply(file.create());
        env.reset(r);
        String original = env.task().id();
        String path = env.task().plan().calls().get(1).args().get("path").asText();
        Step first = env.step(Action.CallTools.of("c0", "list_directory", Json.write(Json.object("path", Path.of(path).getParent().toString()))));
        assertTrue(first.observations().stream().anyMatch(o -> o.source() == Observation.Source.USER && o.text().startsWith("Change of plan")),
                "the user revises the request after the first result: " + first.observations());
        String revisedPath = env.task().plan().calls().get(1).args().get("path").asText();
        assertNotEquals(path, revisedPath, "the revision writes another file");
        assertEquals(original, env.task().id(), "the revision keeps the episode's id");
        // Carry out the original request: its own checks would pass, the revision's fail.
        env.step(Action.CallTools.of("c1", "write_file", Json.write(Json.object("path", path, "content", "done"))));
        Step end = env.step(new Action.Answer("done"));
        assertFalse(end.outcome().success(), "judged by the revised request: " + end.outcome());
        assertTrue(end.outcome().detail().contains("state check"), end.outcome().detail());
    }
}
