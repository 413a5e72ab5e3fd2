package dev.openagent.proxy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An upstream that writes a line that is not JSON-RPC on stdout before every answer: each answer is delivered and the
 * stray lines are logged. (The MCP Java SDK's stdio transport stopped reading at the first such line: every answer
 * after it was lost, the call waited for the whole timeout and the upstream was restarted.)
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StrayLineOnTheUpstreamsStdoutTest {
    @TempDir
    Path dir;

    @Test
    void theAnswersBehindStrayLinesArrive() throws Exception {
        try (Upstream upstream = PlainUpstream.start(dir, Duration.ofSeconds(20), "--noise")) {
            ProxySession session = PlainUpstream.session(upstream);
            for (int i = 0; i < 3; i++) {
                ProxySession.Reply r = session.call("echo", Map.of("text", "answer " + i));
                assertFalse(r.error(), r.text());
                assertEquals("answer " + i, r.text());
            }
            assertEquals(1, upstream.starts());
            String log = Files.readString(dir.resolve("upstream.log"));
            assertTrue(log.contains("skipped a line of the server's stdout that is not a JSON-RPC message: debug: handling a request"), log);
        }
    }
}
