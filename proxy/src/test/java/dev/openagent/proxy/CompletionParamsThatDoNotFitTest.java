package dev.openagent.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * completion/complete (and the other forwarded requests with params) whose params do not fit: one -32602 line saying
 * what the method takes, never the mapper's text (it quoted the SDK's McpSchema$CompleteReference and
 * "at [Source: REDACTED").
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CompletionParamsThatDoNotFitTest {
    @TempDir
    Path dir;

    @Test
    void oneLineSayingWhatTheMethodTakes() throws Exception {
        try (Upstream upstream = PlainUpstream.start(dir, Duration.ofSeconds(30))) {
            ProxySession session = PlainUpstream.session(upstream);
            String[] params = {"{\"ref\":{\"type\":\"ref/nothing\"},\"argument\":{\"name\":\"a\",\"value\":\"b\"}}", "{\"ref\":5}", "{\"ref\":{\"type\":\"ref/prompt\",\"name\":[1]}}",
                    "{\"argument\":\"x\"}"};
            for (String p : params) {
                JsonNode r = PlainUpstream.answer(session, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"completion/complete\",\"params\":" + p + "}");
                assertEquals(-32602, r.path("error").path("code").asInt(), p + " -> " + r);
                String message = r.path("error").path("message").asText();
                assertTrue(message.startsWith("invalid params for completion/complete: it takes {ref:"), message);
                for (String internal : new String[] {"McpSchema", "$", "[Source", "REDACTED", "Exception", "\n"}) {
                    assertFalse(message.contains(internal), "'" + internal + "' in: " + message);
                }
            }
            JsonNode ok = PlainUpstream.answer(session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"completion/complete\",\"params\":"
                    + "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"p\"},\"argument\":{\"name\":\"a\",\"value\":\"o\"}}}");
            assertEquals("one", ok.path("result").path("completion").path("values").get(0).asText(), ok.toString());
            assertEquals(1, upstream.starts());
        }
    }
}
