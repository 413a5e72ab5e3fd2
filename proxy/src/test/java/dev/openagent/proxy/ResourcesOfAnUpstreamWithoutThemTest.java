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
 * resources/list, resources/read and resources/templates/list sent to an upstream that offers no resources: each is
 * -32601, as prompts/list is, and the upstream is kept (it was reported as failed and restarted: the MCP Java SDK
 * client refuses such a request before sending it, and that refusal read as a broken server).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ResourcesOfAnUpstreamWithoutThemTest {
    @TempDir
    Path dir;

    @Test
    void eachIsMethodNotFoundAndTheUpstreamStays() throws Exception {
        try (Upstream upstream = PlainUpstream.start(dir, Duration.ofSeconds(30))) {
            ProxySession session = PlainUpstream.session(upstream);
            String[] requests = {
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/list\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///x\"}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/templates/list\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resources/subscribe\",\"params\":{\"uri\":\"file:///x\"}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"prompts/list\"}"};
            for (String request : requests) {
                JsonNode r = PlainUpstream.answer(session, request);
                assertEquals(-32601, r.path("error").path("code").asInt(), request + " -> " + r);
                assertTrue(r.path("error").path("message").asText().startsWith("method not found"), r.toString());
            }
            assertEquals(1, upstream.starts(), "the upstream was not restarted");
            JsonNode echo = PlainUpstream.answer(session, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"still here\"}}}");
            assertEquals("still here", echo.path("result").path("content").get(0).path("text").asText(), echo.toString());
            assertEquals(1, upstream.starts());
        }
    }
}
