package dev.openagent.export;

import dev.openagent.registry.Environments;
import dev.openagent.episode.Message;
import dev.openagent.episode.Stats;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.policy.ShiftSampler;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.ToolSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertIterableEquals;

/**
 * The exported JSONL, byte for byte as recorded before the chat codec was shared with the model
 * client and the model endpoint (commit 9a79662): every format, every environment, static and
 * PAFT (alpha 0.5) exports; one line per file holds its SHA-256, preceded for poi by its first
 * record in full, and hand-written edge cases (a call whose arguments are not JSON, blank
 * arguments, two calls in one turn) are kept in full. To re-record after a deliberate change:
 * {@code -Dgolden.write=true}.
 */
class ExportBytesTest {
    private static final Path GOLDEN = Path.of("src/test/resources/golden/export.txt");

    @TempDir
    Path dir;

    @Test
    void exportsAreTheRecordedBytes() throws Exception {
        List<String> lines = new ArrayList<>();
        for (TrainingExport.Format format : TrainingExport.Format.values()) {
            lines.add(Json.write(TrainingExport.convert(EDGE_CASE, format)));
            for (String id : List.of("poi", "medical", "retail", "travel", "household")) {
                Environment env = Environments.get(id);
                for (double alpha : new double[]{0, 0.5}) {
                    Path out = dir.resolve(id + "-" + format.id() + "-" + alpha + ".jsonl");
                    TrainingExport.write(env, format, alpha, ShiftSampler.catalog(env.info()), 6, 3, out);
                    if (id.equals("poi") && alpha > 0) lines.add(Files.readAllLines(out, StandardCharsets.UTF_8).getFirst());
                    byte[] bytes = Files.readAllBytes(out);
                    lines.add(out.getFileName() + " " + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
                }
            }
        }
        if (Boolean.getBoolean("golden.write")) {
            Files.createDirectories(GOLDEN.getParent());
            Files.write(GOLDEN, lines, StandardCharsets.UTF_8);
        }
        assertIterableEquals(Files.readAllLines(GOLDEN, StandardCharsets.UTF_8), lines, "the lines of " + GOLDEN);
    }

    private static final Trajectory EDGE_CASE = new Trajectory("poi", "t1", "train", 1, 1, "kind", true, List.of(), "oracle",
            List.of(new ToolSpec("get_place", "Looks up a place \"by id\" \u00e9", Json.object().put("type", "object"))),
            List.of(Message.system("rules"), Message.user("line one\nline two"),
                    Message.assistantCalls(List.of(Message.ToolCall.of("c1", "get_place", "not json"),
                            Message.ToolCall.of("c2", "get_place", ""))),
                    Message.tool("c1", "get_place", "Error [INVALID_ARGUMENTS]: not JSON", "INVALID_ARGUMENTS"),
                    Message.tool("c2", "get_place", null, null),
                    Message.assistantCalls(List.of(Message.ToolCall.of("c3", "get_place", "{\"id\": \"P1\"}"))),
                    Message.tool("c3", "get_place", "{\"id\":\"P1\"}", null),
                    Message.assistant(null)),
            new Outcome(true, Outcome.End.ANSWERED, "ok"), new Stats(3, 3, 1, Map.of("INVALID_ARGUMENTS", 1), 0, 0));
}
