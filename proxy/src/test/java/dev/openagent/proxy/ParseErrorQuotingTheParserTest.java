package dev.openagent.proxy;

import dev.openagent.server.mcp.JsonRpcCheck;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A request line that is not valid JSON is -32700 with one short line: the parser's message for an unclosed array or
 * object embedded its location, "(start marker at [Source: REDACTED (`StreamReadFeature...` disabled) ...)", and for
 * text after the value it named its classes ("bound as `com.fasterxml...JsonNode`"). Found by
 * the proxy's fuzzing pass (ProxyRequestFuzzTest) in the shape check the proxy's transports share with serve mcp.
 */
class ParseErrorQuotingTheParserTest {
    @Test
    void theMessageSaysWhatIsWrongAndNothingElse() {
        for (String text : new String[] {"\t[2", "{\"jsonrpc\": \"2.0\", \"params\": [1, ", "{\"a\": {", "[", "{\"a\" 1}", "{} 1", "{}{}"}) {
            JsonRpcCheck.Refusal r = JsonRpcCheck.check(text.getBytes(StandardCharsets.UTF_8));
            assertNotNull(r, text);
            assertEquals(-32700, r.code(), text);
            for (String internal : new String[] {"[Source", "REDACTED", "StreamReadFeature", "`", "jackson", "\n"}) assertFalse(r.message().contains(internal), r.message());
        }
        String unclosed = JsonRpcCheck.check("\t[2".getBytes(StandardCharsets.UTF_8)).message();
        assertTrue(unclosed.startsWith("the message ends before its JSON value is complete (line 1, column "), unclosed);
        assertEquals("the message has more text after its JSON value", JsonRpcCheck.check("{} 1".getBytes(StandardCharsets.UTF_8)).message());
    }
}
