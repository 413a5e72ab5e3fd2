package dev.openagent.agent.openai;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.agent.RandomAgent;
import dev.openagent.registry.Environments;
import dev.openagent.episode.Agent;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Message;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertIterableEquals;

/**
 * The request bodies the openai agent sends, byte for byte as recorded before the chat codec was
 * shared with the model endpoint and the training export (commit 9a79662). Every environment, the
 * oracle and the random agent (malformed calls, unknown tools), static and shifted episodes
 * (errors, XML observations, questions to the user), both tool protocols, every turn of each
 * episode through one {@link ChatRequests} (so the per-message cache is exercised).
 * <p>
 * The golden file holds one line per episode and protocol: the SHA-256 of every body of the
 * episode in order; for a few episodes and for hand-written edge cases, the last body comes first
 * in full (a failure there shows the bytes that differ). To
 * re-record after a deliberate change of the wire format: {@code -Dgolden.write=true}.
 */
class RequestBytesTest {
    private static final Path GOLDEN = Path.of("src/test/resources/golden/request-bodies.txt");

    static List<Trajectory> episodes() {
        List<Trajectory> out = new ArrayList<>();
        for (String env : List.of("poi", "medical", "retail", "travel", "household")) {
            for (String spec : List.of("none", "obs.format:format=xml", "query.underspecified", "obs.runtime-error")) {
                ShiftStack stack = ShiftSpec.expand(spec).getFirst();
                if (stack.notApplicable(Environments.get(env).info()).isPresent()) continue;
                for (Agent agent : List.<Agent>of(new OracleAgent(), new RandomAgent(3))) {
                    for (long seed = 1; seed <= 2; seed++) {
                        out.add(Episodes.run(stack.apply(Environments.get(env).create()), agent, new TaskRequest(Split.TEST, seed, 0)));
                    }
                }
            }
        }
        return out;
    }

    /** Episodes whose last body is kept in full: a question to the user, malformed calls, a text-command episode. */
    private static final List<String> IN_FULL = List.of("poi query.underspecified:severity=2 oracle 1", "poi none random 1",
            "household none oracle 1");

    private static List<String> render() throws Exception {
        OpenAiConfig nativeConfig = new OpenAiConfig(URI.create("http://127.0.0.1:1/v1"), "model-\"x\"", null, ToolProtocol.NATIVE,
                0.2, 256, 5L, null, Duration.ofSeconds(5), null, null);
        OpenAiConfig textConfig = new OpenAiConfig(URI.create("http://127.0.0.1:1/v1"), "m", null, ToolProtocol.TEXT, null, null, null, null, null,
                null, null);
        List<String> lines = new ArrayList<>();
        for (OpenAiConfig config : List.of(nativeConfig, textConfig)) {
            lines.addAll(bodies("edge cases " + config.protocol().id(), config, List.of(TOOL), EDGE_CASES, true));
        }
        for (Trajectory t : episodes()) {
            String name = t.env() + " " + t.shiftSpec() + " " + t.agent() + " " + t.seed();
            for (OpenAiConfig config : List.of(nativeConfig, textConfig)) {
                lines.addAll(bodies(name + " " + config.protocol().id(), config, t.tools(), t.messages(), IN_FULL.contains(name)));
            }
        }
        return lines;
    }

    /** The digest of the bodies sent before each assistant turn and, when asked, the last body. */
    private static List<String> bodies(String name, OpenAiConfig config, List<ToolSpec> tools, List<Message> m, boolean full)
            throws Exception {
        ChatRequests requests = new ChatRequests(config, tools, 1);
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        String last = null;
        for (int i = 1; i <= m.size(); i++) {
            if (i < m.size() && !m.get(i).role().equals("assistant")) continue;
            last = requests.body(m.subList(0, i));
            sha.update(last.getBytes(StandardCharsets.UTF_8));
        }
        String digest = name + " " + HexFormat.of().formatHex(sha.digest());
        return full ? List.of(last, digest) : List.of(digest);
    }

    private static final ToolSpec TOOL = new ToolSpec("get_place", "Looks up a place <by id> & \"quotes\" \u00e9", Json.object());

    /** Messages no environment writes today but the codec must render as before. */
    private static final List<Message> EDGE_CASES = List.of(
            new Message("system", null, null, null, null, null),
            Message.user("line one\nline two \u2603 </tool_response>"),
            new Message("assistant", "thinking aloud", List.of(Message.ToolCall.of("c1", "get_place", "{\"id\": 1}")), null, null, null),
            Message.tool("c1", "get_place", null, "NOT_FOUND"),
            Message.assistantCalls(List.of(Message.ToolCall.of("", "get_place", ""), Message.ToolCall.of("c3", "", "not json"),
                    new Message.ToolCall("c4", null, new Message.Function("ask_user", "[1, 2]")))),
            new Message("tool", "{\"a\": [1, 2]}", null, "c3", null, null),
            new Message("user", "from the environment", null, null, null, "STEP_LIMIT"),
            new Message("user", "", null, "odd", "named", null),
            Message.assistant(null));

    @Test
    void requestBodiesAreTheRecordedBytes() throws Exception {
        List<String> now = render();
        if (Boolean.getBoolean("golden.write")) {
            Files.createDirectories(GOLDEN.getParent());
            Files.write(GOLDEN, now, StandardCharsets.UTF_8);
        }
        assertIterableEquals(Files.readAllLines(GOLDEN, StandardCharsets.UTF_8), now, "the lines of " + GOLDEN);
    }
}
