package dev.openagent.chat;

import dev.openagent.episode.Message;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Protocol;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ChatCodecTest {
    private static final Message CALLS = Message.assistantCalls(List.of(Message.ToolCall.of("c1", "find", "{\"q\": \"fig\"}"),
            Message.ToolCall.of("c2", "find", "not json")));
    private static final Message RESULT = Message.tool("c1", "find", "{\"n\": 1}", null);

    private static String write(Message m, ChatCodec.Dialect d) {
        return Json.write(ChatCodec.message(m, d));
    }

    @Test
    void theDialectsDifferOnlyWhereTheirReadersDo() {
        String calls = "\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"find\",\"arguments\":\"{\\\"q\\\": \\\"fig\\\"}\"}},"
                + "{\"id\":\"c2\",\"type\":\"function\",\"function\":{\"name\":\"find\",\"arguments\":\"not json\"}}]";
        assertEquals("{\"role\":\"assistant\",\"content\":\"\"," + calls + "}", write(CALLS, ChatCodec.Dialect.REQUEST));
        assertEquals("{\"role\":\"assistant\",\"content\":null," + calls + "}", write(CALLS, ChatCodec.Dialect.RESPONSE));
        assertEquals("{\"role\":\"assistant\"," + calls + "}", write(CALLS, ChatCodec.Dialect.FINE_TUNING));
        assertEquals("{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"find\",\"arguments\":{\"q\":\"fig\"}}},"
                + "{\"id\":\"c2\",\"type\":\"function\",\"function\":{\"name\":\"find\",\"arguments\":{\"raw\":\"not json\"}}}]}",
                write(CALLS, ChatCodec.Dialect.CHAT_TEMPLATE));

        assertEquals("{\"role\":\"tool\",\"content\":\"{\\\"n\\\": 1}\",\"tool_call_id\":\"c1\"}", write(RESULT, ChatCodec.Dialect.REQUEST));
        assertEquals("{\"role\":\"tool\",\"content\":\"{\\\"n\\\": 1}\",\"tool_call_id\":\"c1\",\"name\":\"find\"}", write(RESULT, ChatCodec.Dialect.RESPONSE));
        assertEquals("{\"role\":\"tool\",\"content\":\"{\\\"n\\\": 1}\",\"tool_call_id\":\"c1\",\"name\":\"find\"}",
                write(RESULT, ChatCodec.Dialect.CHAT_TEMPLATE));
        assertEquals("{\"role\":\"assistant\",\"content\":\"\"}", write(Message.assistant(null), ChatCodec.Dialect.FINE_TUNING));
        assertEquals("{\"role\":\"assistant\",\"content\":null}", write(Message.assistant(null), ChatCodec.Dialect.RESPONSE));
    }

    @Test
    void whatTheEndpointWritesTheClientReads() throws Exception {
        ChatCompletion c = ChatCompletion.parse(Json.write(ChatCodec.completion("chatcmpl-1", 0, "m", CALLS, 30, 4)));
        assertEquals(List.of(new ChatCompletion.Call("c1", "find", "{\"q\": \"fig\"}"), new ChatCompletion.Call("c2", "find", "not json")),
                c.toolCalls());
        assertEquals("tool_calls", c.finishReason());
        assertEquals(30, c.promptTokens());
        assertEquals(4, c.completionTokens());
        ChatCompletion answer = ChatCompletion.parse(Json.write(ChatCodec.completion("chatcmpl-2", 0, "m", Message.assistant("42"), 1, 1)));
        assertEquals("42", answer.content());
        assertEquals("stop", answer.finishReason());
    }

    @Test
    void aLoneAskUserCallIsAQuestionReadByTheProtocol() {
        Action.ToolCall ask = new Action.ToolCall("a", Protocol.ASK_USER, "{\"question\": \"Which city?\"}");
        assertEquals(new Action.AskUser("Which city?"), ChatCodec.toolCallsAction(List.of(ask)));
        assertEquals(new Action.AskUser("not json"), ChatCodec.toolCallsAction(List.of(new Action.ToolCall("a", Protocol.ASK_USER, "not json"))));
        Action.ToolCall find = new Action.ToolCall("b", "find", "{}");
        assertEquals(new Action.CallTools(List.of(ask, find)), ChatCodec.toolCallsAction(List.of(ask, find)));
    }
}
