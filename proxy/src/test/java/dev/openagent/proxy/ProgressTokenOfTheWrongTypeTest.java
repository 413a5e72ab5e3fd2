package dev.openagent.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * tools/call whose _meta.progressToken is not a string or an integer (or whose _meta is not an object) is -32602 and
 * never reaches the upstream (it was forwarded, and the official filesystem server never answered it).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ProgressTokenOfTheWrongTypeTest {
    @TempDir
    Path dir;

    @Test
    void isInvalidParamsAndNotForwarded() throws Exception {
        try (Upstream upstream = PlainUpstream.start(dir, Duration.ofSeconds(30))) {
            ProxySession session = PlainUpstream.session(upstream);
            for (String meta : new String[] {"{\"progressToken\":{\"a\":1}}", "{\"progressToken\":[1]}", "{\"progressToken\":1.5}", "\"x\""}) {
                JsonNode r = PlainUpstream.answer(session, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                        + "\"arguments\":{\"text\":\"hi\"},\"_meta\":" + meta + "}}");
                assertEquals(-32602, r.path("error").path("code").asInt(), meta + " -> " + r);
                assertTrue(r.path("error").path("message").asText().contains("_meta"), r.toString());
            }
            assertTrue(session.calls().isEmpty(), "nothing was forwarded: " + session.calls());
            for (String token : new String[] {"\"p-1\"", "7"}) {
                JsonNode ok = PlainUpstream.answer(session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                        + "\"arguments\":{\"text\":\"hi\"},\"_meta\":{\"progressToken\":" + token + "}}}");
                assertEquals("hi", ok.path("result").path("content").get(0).path("text").asText(), ok.toString());
            }
        }
    }
}
