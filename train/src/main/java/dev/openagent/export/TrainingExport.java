package dev.openagent.export;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.oracle.OracleAgent;
import dev.openagent.chat.ChatCodec;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Message;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.policy.ShiftSampler;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.ShiftStack;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Training data for external trainers: oracle trajectories on the training split (a fraction
 * alpha of them under shifts drawn from the catalog, PAFT-style), each with the tool schemas it
 * saw, in one of three shapes:
 * <ul>
 *   <li>{@code openai}: OpenAI fine-tuning JSONL, {@code messages} + {@code tools}
 *       ({@code {"type":"function","function":{...}}}); tool-call arguments are JSON strings;</li>
 *   <li>{@code sharegpt}: {@code conversations} of {@code from}/{@code value} turns (human,
 *       function_call, observation, gpt), {@code system}, and {@code tools} as a JSON string, as
 *       LLaMA-Factory reads it;</li>
 *   <li>{@code messages}: the chat format of Hugging Face chat templates and TRL, {@code messages}
 *       + {@code tools}, with tool-call arguments as JSON objects and tool results naming their tool.</li>
 * </ul>
 */
public final class TrainingExport {
    public enum Format {
        OPENAI, SHAREGPT, MESSAGES;

        public String id() { return name().toLowerCase(Locale.ROOT); }

        public static Format parse(String s) {
            return Arrays.stream(values()).filter(f -> f.id().equalsIgnoreCase(s.strip())).findFirst().orElseThrow(() ->
                    new UserInputException("unknown format '" + s + "' (" + String.join(", ", Arrays.stream(values()).map(Format::id).toList()) + ")"));
        }
    }

    /** What an export wrote. */
    public record Written(int examples, int shifted) {}

    private TrainingExport() {}

    /**
     * Writes {@code n} examples as JSON lines. Episodes the oracle does not solve (there should be
     * none) are left out, so every example is a correct demonstration.
     */
    public static Written write(Environment env, Format format, double alpha, ShiftSampler shifts, int n, long seed, Path out) {
        if (n < 1) throw new UserInputException("n must be at least 1");
        if (alpha < 0 || alpha > 1) throw new UserInputException("alpha must be in [0, 1]");
        if (alpha > 0 && shifts.isEmpty()) {
            throw new UserInputException("alpha > 0 needs shifts, and the shift catalog has none for " + env.id());
        }
        SplittableRandom rnd = new SplittableRandom(Seeds.mix(seed, 0xE4));
        OracleAgent oracle = new OracleAgent();
        int written = 0;
        int shifted = 0;
        try {
            if (out.toAbsolutePath().getParent() != null) Files.createDirectories(out.toAbsolutePath().getParent());
            try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
                for (long i = 0; written < n; i++) {
                    ShiftStack stack = alpha > 0 && rnd.nextDouble() < alpha ? shifts.sample(rnd) : ShiftStack.NONE;
                    Trajectory t = Episodes.run(stack.apply(env.create()), oracle, new TaskRequest(Split.TRAIN, Seeds.mix(seed, i), 0));
                    if (!t.success()) continue;
                    writeRecord(w, t, format);
                    written++;
                    if (!stack.isStatic()) shifted++;
                }
            }
        } catch (IOException e) {
            throw new UserInputException("cannot write " + out + ": " + e.getMessage(), e);
        }
        return new Written(written, shifted);
    }

    /**
     * Writes demonstrations made elsewhere (recorded proxy sessions that succeeded, {@code export --from-store}) as
     * JSON lines, each checked against the format like the oracle's.
     *
     * @return how many were written
     */
    public static int write(List<Trajectory> demonstrations, Format format, Path out) {
        try {
            if (out.toAbsolutePath().getParent() != null) Files.createDirectories(out.toAbsolutePath().getParent());
            try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
                for (Trajectory t : demonstrations) writeRecord(w, t, format);
            }
        } catch (IOException e) {
            throw new UserInputException("cannot write " + out + ": " + e.getMessage(), e);
        }
        return demonstrations.size();
    }

    private static void writeRecord(Writer w, Trajectory t, Format format) throws IOException {
        ObjectNode record = convert(t, format);
        List<String> problems = ExportFormats.problems(record, format);
        if (!problems.isEmpty()) throw new IllegalStateException("export produced an invalid " + format.id() + " record: " + problems);
        w.write(Json.write(record));
        w.write('\n');
    }

    /** One trajectory in the format. */
    public static ObjectNode convert(Trajectory t, Format format) {
        return switch (format) {
            case OPENAI -> chat(t, ChatCodec.Dialect.FINE_TUNING).put("parallel_tool_calls", false);
            case SHAREGPT -> sharegpt(t);
            case MESSAGES -> chat(t, ChatCodec.Dialect.CHAT_TEMPLATE);
        };
    }

    private static ObjectNode chat(Trajectory t, ChatCodec.Dialect dialect) {
        ObjectNode o = Json.object();
        o.set("messages", ChatCodec.messages(t.messages(), dialect));
        o.set("tools", ChatCodec.tools(t.tools()));
        return o;
    }

    private static ObjectNode sharegpt(Trajectory t) {
        ObjectNode o = Json.object();
        ArrayNode conv = o.putArray("conversations");
        for (Message m : t.messages()) {
            switch (m.role()) {
                case "system" -> o.put("system", m.content());
                case "user" -> turn(conv, "human", m.content());
                case "tool" -> turn(conv, "observation", m.content());
                case "assistant" -> {
                    if (m.toolCalls() == null) {
                        turn(conv, "gpt", m.content());
                    } else {
                        List<ObjectNode> calls = new ArrayList<>();
                        for (Message.ToolCall c : m.toolCalls()) {
                            calls.add(ChatCodec.namedCall(c.function().name(), ChatCodec.argumentsOrRaw(c.function().arguments())));
                        }
                        turn(conv, "function_call", Json.write(calls.size() == 1 ? calls.getFirst() : calls));
                    }
                }
                default -> throw new IllegalStateException("unexpected role " + m.role());
            }
        }
        ArrayNode tools = Json.array();
        for (ToolSpec s : t.tools()) tools.add(ChatCodec.function(s));
        o.put("tools", Json.write(tools));
        return o;
    }

    /**
     * ShareGPT alternates human/observation with gpt/function_call; a user message that arrives beside
     * a tool result (a request revised mid-episode) joins the turn before it, marked as the user's.
     */
    private static void turn(ArrayNode conv, String from, String value) {
        String text = value == null ? "" : value;
        if (!conv.isEmpty() && agentSide(from) == agentSide(conv.get(conv.size() - 1).path("from").asText())) {
            ObjectNode last = (ObjectNode) conv.get(conv.size() - 1);
            last.put("value", last.path("value").asText() + "\n\n" + (from.equals("human") ? "User: " : "") + text);
            return;
        }
        conv.addObject().put("from", from).put("value", text);
    }

    private static boolean agentSide(String from) {
        return from.equals("gpt") || from.equals("function_call");
    }
}
