package dev.openagent.watch;

import dev.openagent.proxy.ProxySession;
import dev.openagent.proxy.Upstream;
import dev.openagent.shift.ShiftSpec;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * What the watch adds to the proxy's per-call time: the same read of a file through two proxy sessions, each on an
 * upstream process of its own, one of them watched against a baseline, alternating call by call so machine load
 * hits both alike. A benchmark: run with
 * {@code ./mvnw -pl proxy -am test -Dexcluded.groups=none -Dtest=WatchLatencyBench -Dsurefire.failIfNoSpecifiedTests=false -Dfuzz.skip=true}.
 */
@Tag("benchmark")
class WatchLatencyBench {
    private static final int CALLS = 1000;
    private static final String SPEC = "tool.identity-erasure+obs.format:format=xml";

    @Test
    void addedLatencyPerCall(@TempDir Path dir) throws Exception {
        Servers.requireToday();
        Path file = dir.resolve("project.txt");
        Files.writeString(file, "Deadline: 2026-12-04\n".repeat(20));
        List<String> cmd = List.of(Servers.FILESYSTEM.toString(), dir.toString());
        PrintStream log = new PrintStream(new ByteArrayOutputStream());
        Path baseline = dir.resolve("baseline.json");
        try (Upstream learnt = new Upstream(cmd, null, Duration.ofSeconds(30), dir.resolve("learn.log"));
             ProxyWatch recording = ProxyWatch.recording(learnt, baseline, 100, log)) {
            for (int i = 0; i < 100; i++) learnt.call("read_text_file", dev.openagent.json.Json.object().put("path", file.toString()));
        }
        try (Upstream plain = new Upstream(cmd, null, Duration.ofSeconds(30), dir.resolve("plain.log"));
             Upstream watchedUpstream = new Upstream(cmd, null, Duration.ofSeconds(30), dir.resolve("watched.log"));
             ProxyWatch watch = ProxyWatch.watching(watchedUpstream, Snapshot.read(baseline), dir.resolve("events.jsonl"), null, log)) {
            ProxySession bare = new ProxySession(plain, ShiftSpec.parseStack(SPEC), 1);
            ProxySession watched = new ProxySession(watchedUpstream, ShiftSpec.parseStack(SPEC), 1);
            String name = bare.tools().stream().filter(t -> t.description().startsWith("Read the complete contents of a file from the file system as text")).findFirst().orElseThrow().name();
            String param = bare.tools().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow().parameters().path("required").get(0).asText();
            Map<String, Object> args = Map.of(param, file.toString());
            List<Long> without = new ArrayList<>(), with = new ArrayList<>();
            for (int i = 0; i < 50; i++) {   // warm-up
                bare.call(name, args);
                watched.call(name, args);
            }
            for (int i = 0; i < CALLS; i++) {
                long t0 = System.nanoTime();
                assertFalse(bare.call(name, args).error());
                long t1 = System.nanoTime();
                assertFalse(watched.call(name, args).error());
                long t2 = System.nanoTime();
                without.add(t1 - t0);
                with.add(t2 - t1);
            }
            watch.idle(Duration.ofSeconds(30));
            assertEquals(List.of(), watch.watcher().events().stream().filter(e -> !e.change().kind().equals("output-schema-changed")).toList());
            System.out.printf("watch latency (%s, %d calls each, alternating, shared machine):%n", SPEC, CALLS);
            System.out.printf("  proxy session, unwatched upstream  p50 %.3f ms  p99 %.3f ms%n", ms(without, 50), ms(without, 99));
            System.out.printf("  proxy session, watched upstream    p50 %.3f ms  p99 %.3f ms%n", ms(with, 50), ms(with, 99));
            System.out.printf("  ratio of medians %.3f%n", ms(with, 50) / ms(without, 50));
        }
    }

    private static double ms(List<Long> nanos, int percentile) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        int i = Math.min(sorted.size() - 1, (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1);
        return sorted.get(Math.max(0, i)) / 1e6;
    }
}
