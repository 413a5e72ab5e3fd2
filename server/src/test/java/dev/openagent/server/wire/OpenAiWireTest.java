package dev.openagent.server.wire;

import dev.openagent.chat.ChatCodec;
import dev.openagent.episode.Message;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.server.http.ApiError;
import dev.openagent.domain.Param;
import dev.openagent.domain.Params;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OpenAiWireTest {
    private static String text(SplittableRandom r) {
        String alphabet = "abc XYZ 019 \"'\\{}[]:,\n\té漢🙂";
        StringBuilder sb = new StringBuilder();
        int n = r.nextInt(0, 30);
        for (int i = 0; i < n; ) {
            int cp = alphabet.codePointAt(alphabet.offsetByCodePoints(0, r.nextInt(alphabet.codePointCount(0, alphabet.length()))));
            sb.appendCodePoint(cp);
            i++;
        }
        return sb.toString();
    }

    @Test
    void everyActionSurvivesTheWireForAllSeeds() {
        for (long seed = 0; seed < 500; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            Action a = switch (r.nextInt(5)) {
                case 0 -> {
                    List<Action.ToolCall> calls = new ArrayList<>();
                    for (int i = 0, n = r.nextInt(1, 4); i < n; i++) calls.add(new Action.ToolCall("call_" + r.nextInt(99), text(r), text(r)));
                    yield new Action.CallTools(calls);
                }
                case 1 -> new Action.Answer(text(r));
                case 2 -> new Action.Refuse(text(r));
                case 3 -> new Action.AskUser(text(r));
                default -> new Action.Command(text(r));
            };
            String wire = Json.write(OpenAiWire.action(a));
            assertEquals(a, OpenAiWire.parseAction(Json.parse(wire), "x"), "seed " + seed + ": " + wire);
        }
    }

    @Test
    void assistantMessagesAreActions() {
        assertEquals(new Action.Answer("The code is K-1."),
                OpenAiWire.parseAction(Json.parse("{\"role\":\"assistant\",\"content\":\"The code is K-1.\",\"refusal\":null}"), "c"));
        assertInstanceOf(Action.Refuse.class,
                OpenAiWire.parseAction(Json.parse("{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"CANNOT COMPLETE: gone\"}]}"), "c"));
        Action calls = OpenAiWire.parseAction(Json.parse(
                "{\"role\":\"assistant\",\"content\":\"let me look\",\"tool_calls\":[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":{\"a\":1}}}]}"), "c_");
        assertEquals(Action.CallTools.of("c_0", "f", "{\"a\":1}"), calls);
        assertThrows(ApiError.class, () -> OpenAiWire.parseAction(Json.parse("{\"tool_calls\":[{\"function\":{\"name\":\"f\"}}],\"answer\":\"x\"}"), "c"));
    }

    @Test
    void toolsAndMessagesRoundTrip() {
        ToolSpec t = new ToolSpec("find", "Finds things.", Params.of(Param.string("q", "Query."), Param.integer("n", "How many.", 1, 5).optional()).schema());
        assertEquals(List.of(t), OpenAiWire.parseTools(ChatCodec.tools(List.of(t))));
        List<Message> messages = List.of(Message.system("s"), Message.user("u"),
                Message.assistantCalls(List.of(Message.ToolCall.of("call_0", "find", "{\"q\":\"x\"}"))),
                Message.tool("call_0", "find", "[]", null), Message.assistant("done"));
        assertEquals(messages, OpenAiWire.parseMessages(ChatCodec.messages(messages, ChatCodec.Dialect.RESPONSE)));
        ApiError e = assertThrows(ApiError.class, () -> OpenAiWire.parseMessages(Json.parse("[{\"role\":\"robot\",\"content\":\"x\"}]")));
        assertTrue(e.getMessage().contains("messages[0].role"), e.getMessage());
    }
}
