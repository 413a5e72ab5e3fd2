package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.byo.FileEnvironment;
import dev.openagent.export.ExportFormats;
import dev.openagent.export.TrainingExport;
import dev.openagent.json.Json;
import dev.openagent.proxy.ProxySession;
import dev.openagent.proxy.SessionRecorder;
import dev.openagent.proxy.Upstream;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import dev.openagent.store.ResultStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code export --from-store}: proxy sessions recorded in front of the official filesystem server, scored by a task of
 * an environment file, become training data when they succeeded, as the agent saw them (shifted names included), and
 * only then.
 */
class ExportSessionsTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void succeededSessionsAreExportedAsTheAgentSawThem() throws Exception {
        ProxyMcpCommandTest.require();
        Path work = Files.createDirectories(dir.resolve("work"));
        Files.writeString(work.resolve("project.txt"), "Deadline: 2026-12-04\n");
        Path envDir = Files.createDirectories(dir.resolve("env"));
        Files.writeString(envDir.resolve("env.yaml"), "id: export-sessions\nmcp:\n  command: [\"" + ProxyMcpCommandTest.FILESYSTEM + "\", \"{workdir}\"]\n"
                + "tasks: tasks.jsonl\n");
        Files.writeString(envDir.resolve("tasks.jsonl"), """
                {"id": "deadline", "query": "What deadline is written in project.txt?", "gold": [{"tool": "read_text_file", "args": {"path": "{workdir}/project.txt"}}], "answer": "2026-12-04"}
                """);
        FileEnvironment.ScoredTask task;
        try (FileEnvironment env = FileEnvironment.load(envDir.resolve("env.yaml"))) {
            task = env.scoredTask("deadline", work.toString(), 1);
        }
        Path store = dir.resolve("runs.db");
        Upstream upstream = new Upstream(List.of(ProxyMcpCommandTest.FILESYSTEM.toString(), work.toString()), null, Duration.ofSeconds(120),
                dir.resolve("upstream.log"));
        ShiftStack stack = ShiftSpec.parseStack("tool.identity-erasure:severity=1");
        String readTool;
        try (upstream; SessionRecorder recorder = SessionRecorder.toStore(ResultStore.open(store), "filesystem", stack)) {
            // Right: reads the file under the erased name it is shown, answers right.
            ProxySession right = new ProxySession(upstream, stack, 1, Map.of(), task);
            readTool = right.tools().stream().filter(t -> t.description().startsWith("Read the complete contents of a file"))
                    .map(t -> t.name()).findFirst().orElseThrow(() -> new AssertionError("a read tool under an erased name: " + right.tools()));
            assertTrue(readTool.startsWith("fn_"), readTool);
            assertFalse(right.call(readTool, Map.of("path", work.resolve("project.txt").toString())).error());
            assertFalse(right.call(ProxySession.SUBMIT_ANSWER, Map.of("answer", "The deadline is 2026-12-04.")).error());
            right.client("agent-a");
            recorder.record(right);
            // Wrong: answers wrong; silent: never answers.
            ProxySession wrong = new ProxySession(upstream, stack, 2, Map.of(), task);
            wrong.call(ProxySession.SUBMIT_ANSWER, Map.of("answer", "2026-12-05"));
            recorder.record(wrong);
            recorder.record(new ProxySession(upstream, stack, 3, Map.of(), task));
        }

        Path out = dir.resolve("sessions.jsonl");
        CliTest.Result r = CliTest.run("export", "--from-store", store.toString(), "--format", "openai", "--out", out.toString(), "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode summary = r.json();
        assertEquals(3, summary.path("sessions").asInt(), summary.toString());
        assertEquals(1, summary.path("examples").asInt(), summary.toString());
        assertEquals(2, summary.path("passed_over").path("it did not succeed").asInt(), summary.toString());

        List<String> lines = Files.readAllLines(out);
        assertEquals(1, lines.size());
        JsonNode example = Json.parse(lines.getFirst());
        assertTrue(ExportFormats.problems((com.fasterxml.jackson.databind.node.ObjectNode) example, TrainingExport.Format.OPENAI).isEmpty(), example.toString());
        JsonNode messages = example.path("messages");
        assertEquals("user", messages.get(0).path("role").asText());
        assertEquals("What deadline is written in project.txt?", messages.get(0).path("content").asText(), "the task's request comes first");
        assertEquals(readTool, messages.get(1).path("tool_calls").get(0).path("function").path("name").asText(), "the call under the name the agent saw");
        assertEquals("tool", messages.get(2).path("role").asText());
        assertTrue(messages.get(2).path("content").asText().contains("Deadline: 2026-12-04"), messages.get(2).toString());
        JsonNode last = messages.get(messages.size() - 1);
        assertEquals("assistant", last.path("role").asText());
        assertEquals("The deadline is 2026-12-04.", last.path("content").asText(), "the submitted answer ends it");
        assertEquals(4, messages.size(), "request, call, result, answer; nothing of the upstream's side: " + messages);
        for (JsonNode tool : example.path("tools")) {
            assertFalse(tool.path("function").path("name").asText().equals(ProxySession.SUBMIT_ANSWER), "submit_answer is the proxy's, not a tool to learn");
        }
        assertTrue(example.path("tools").size() > 3, example.path("tools").toString());

        CliTest.Result plain = CliTest.run("export", "--from-store", store.toString(), "--format", "openai", "--out", out.toString());
        assertEquals("wrote 1 openai example from 3 recorded sessions (1 proxy run) to " + out + "\n  passed over 2: it did not succeed\n",
                plain.out().replace("\r\n", "\n"), plain.err());
        for (String format : List.of("sharegpt", "messages")) {
            Path o = dir.resolve(format + ".jsonl");
            assertEquals(0, CliTest.run("export", "--from-store", store.toString(), "--format", format, "--out", o.toString()).code(), format);
            JsonNode line = Json.parse(Files.readAllLines(o).getFirst());
            assertTrue(ExportFormats.problems((com.fasterxml.jackson.databind.node.ObjectNode) line, TrainingExport.Format.parse(format)).isEmpty(), line.toString());
        }

        CliTest.assertBad(CliTest.run("export", "--from-store", store.toString(), "--format", "openai", "--n", "5", "--out", out.toString()),
                "--from-store exports recorded sessions as they are");
        CliTest.assertBad(CliTest.run("export", "--from-store", store.toString(), "--run", "nope", "--format", "openai", "--out", out.toString()),
                "no run 'nope'");
        CliTest.assertBad(CliTest.run("export", "--format", "openai", "--out", out.toString()), "--n is required");
    }
}
