package dev.openagent.watch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A small run of the confusion matrix ({@code openagent watch matrix}, docs/watch.md): one seed per server, shorter
 * sessions, fewer unshifted ones. The watch must still name the applied shift first in most sessions at severity
 * 2 and up, and raise nothing on unshifted traffic.
 */
class WatchMatrixTest {
    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void namesTheAppliedShiftAndRaisesNothingWithoutOne(@TempDir Path dir) {
        Servers.requireToday();
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        Matrix.Result r = Matrix.run(Servers.EXAMPLES, dir, 1, 40, 20, 10, Watcher.ALPHA, true, new PrintStream(progress, true, StandardCharsets.UTF_8));
        String log = progress.toString(StandardCharsets.UTF_8);
        assertEquals(0, r.falseEvents(), r.falseExamples() + "\n" + log);
        int sessions = 0, first = 0, tier = 0;
        for (Matrix.Row row : r.rows()) {
            if (row.severity() < 2) continue;
            // each shift named first on at least one of the two servers (obs.malformed-output shows nothing on the filesystem server's text)
            assertTrue(row.first() >= 1, row + "\n" + log);
            sessions += row.sessions();
            first += row.first();
            tier += row.rightTier();
        }
        // Every tool.* and obs.* shift but obs.missing-values (no record_of on these servers) and obs.type-drift (no sign), at
        // severities 2 and 3, on both servers.
        assertEquals(25 * 2 * 2, sessions, log);
        assertTrue(tier >= 0.9 * sessions, "right tier first in " + tier + " of " + sessions + "\n" + log);
        assertTrue(first >= 0.8 * sessions, "the applied shift first in " + first + " of " + sessions + "\n" + log);
    }
}
