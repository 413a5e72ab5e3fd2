package dev.openagent.server.view;

import dev.openagent.results.EpisodeKey;
import dev.openagent.results.EpisodeResult;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunStatus;
import dev.openagent.store.StoreLocation;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The viewer's bench (docs/view.md): a store of N episodes with real rows (trajectories of the oracle and the random
 * agent in poi, static and tool.semantic-rename, copied under new task seeds), then the server-side time of the
 * runs page and of filtered episode pages, as medians over repeated requests on loopback. Not a test: it runs only
 * when named, with -Dview.bench=N, and prints figures; it asserts nothing about time.
 *
 * <pre>./mvnw test -pl server -am -Dtest=ViewBench -Dsurefire.failIfNoSpecifiedTests=false -Dview.bench=100000 [-Dview.bench.store=/tmp/view-bench.db]</pre>
 */
class ViewBench {
    static final int TEMPLATE_TASKS = 25;
    static final int REPEATS = 15;

    @Test
    void bench() throws Exception {
        String n = System.getProperty("view.bench");
        assumeTrue(n != null, "run with -Dview.bench=EPISODES");
        int episodes = Integer.parseInt(n);
        Path file = Path.of(System.getProperty("view.bench.store", "/tmp/view-bench-" + episodes + ".db"));
        String runId = "bench-" + episodes;
        if (!Files.exists(file)) generate(file, runId, episodes);
        System.out.printf("store %s: %d MB%n", file, Files.size(file) >> 20);
        if (Boolean.getBoolean("view.bench.upgrade")) {
            // a store of schema 1 (written before the listing columns) is upgraded by the first process that opens it to write
            long t = System.nanoTime();
            ResultStore.open(file).close();
            System.out.printf("opened to write (upgrading a store of schema 1) in %.1f s%n", (System.nanoTime() - t) / 1e9);
        }
        try (ResultStore reader = ResultStore.openReadOnly(new StoreLocation.SqliteFile(file));
             ViewServer view = ViewServer.start(reader, "127.0.0.1", 0, null)) {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            String run = "/runs/" + runId + "/episodes";
            for (String page : List.of("/", run + "?agent=random&shift=tool.semantic-rename&outcome=failure", run + "?env=poi&tier=perception",
                    run + "?agent=oracle&page=500", run)) {
                time(client, view.baseUrl() + page, page);
            }
            if (Boolean.getBoolean("view.bench.quick")) return;   // the pages above alone: for alternating two builds
            String category = run + "?agent=random&shift=tool.semantic-rename&failure=hallucinated_tool";
            time(client, view.baseUrl() + category, category, Integer.getInteger("view.bench.category.repeats", REPEATS));
            firstLoad(client, view.baseUrl(), runId, run);
            // where the results' time goes: reading the episodes' summaries, and the scorecard
            long t = System.nanoTime();
            dev.openagent.store.EpisodeSummaries summaries = reader.episodeSummaries(runId);
            long read = System.nanoTime();
            dev.openagent.report.ReportData.build(reader.run(runId).orElseThrow(), summaries);
            System.out.printf("the results again, directly: %d summaries read in %d ms, the scorecard in %d ms%n", summaries.episodes().size(),
                    (read - t) / 1_000_000, (System.nanoTime() - read) / 1_000_000);
        }
    }

    /**
     * The results page's first load, until it shows the results (while they are computed it says so and loads itself
     * again), and the runs page and an episode page served meanwhile.
     */
    static void firstLoad(HttpClient client, String base, String runId, String episodes) throws Exception {
        long t = System.nanoTime();
        List<Long> meanwhile = new ArrayList<>();
        int loads = 0;
        while (true) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(base + "/runs/" + runId)).timeout(Duration.ofMinutes(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            loads++;
            if (r.statusCode() != 200 || !r.body().contains("id=\"computing\"")) {
                System.out.printf("%-75s HTTP %d  shown after %d ms (%d load(s))%n", "/runs/" + runId + " (the results, first load)", r.statusCode(),
                        (System.nanoTime() - t) / 1_000_000, loads);
                break;
            }
            for (String page : List.of("/", episodes + "?agent=random&outcome=failure")) {
                long m = System.nanoTime();
                client.send(HttpRequest.newBuilder(URI.create(base + page)).build(), HttpResponse.BodyHandlers.discarding());
                meanwhile.add((System.nanoTime() - m) / 1_000_000);
            }
        }
        if (!meanwhile.isEmpty()) {
            long[] ms = meanwhile.stream().mapToLong(Long::longValue).sorted().toArray();
            System.out.printf("%-75s %d requests  median %5d ms  max %5d%n", "/ and an episode page while the results were computed", ms.length,
                    ms[ms.length / 2], ms[ms.length - 1]);
        }
    }

    static void time(HttpClient client, String url, String label) throws Exception {
        time(client, url, label, REPEATS);
    }

    static void time(HttpClient client, String url, String label, int repeats) throws Exception {
        long[] ms = new long[repeats];
        int status = 0;
        long bytes = 0;
        for (int i = repeats > 1 ? -2 : 0; i < repeats; i++) {   // two warm-ups, unless timed once
            long t = System.nanoTime();
            HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(5)).build(), HttpResponse.BodyHandlers.ofByteArray());
            if (i >= 0) ms[i] = (System.nanoTime() - t) / 1_000_000;
            status = r.statusCode();
            bytes = r.body().length;
        }
        Arrays.sort(ms);
        System.out.printf("%-75s HTTP %d %7d bytes  median %5d ms  min %5d  max %5d%n", label, status, bytes, ms[repeats / 2], ms[0], ms[repeats - 1]);
    }

    /** Real episodes as templates, copied under new task seeds until the run holds {@code episodes}. */
    static void generate(Path file, String runId, int episodes) {
        Path templates = file.resolveSibling(file.getFileName() + ".templates.db");
        String templateRun = ViewFixtures.evalInto(templates, TEMPLATE_TASKS);
        long t = System.nanoTime();
        try (ResultStore source = ResultStore.open(templates); ResultStore store = ResultStore.open(file)) {
            List<EpisodeResult> rows = source.episodes(templateRun);
            store.saveRun(runId, "bench: " + episodes + " episodes", "{\"envs\":[\"poi\"],\"shifts\":[\"tool.semantic-rename\"]}", episodes, RunStatus.RUNNING, null);
            // a few more runs, as a store that has seen some use holds
            for (int r = 0; r < 20; r++) store.saveRun("older-" + r, "older run " + r, "{\"envs\":[\"poi\"]}", 0, RunStatus.COMPLETE, null);
            List<EpisodeResult> copies = new ArrayList<>();
            for (int i = 0; i < episodes; i++) {
                EpisodeResult e = rows.get(i % rows.size());
                int round = i / rows.size();
                EpisodeKey k = e.key();
                EpisodeKey key = new EpisodeKey(k.configHash(), k.agent(), k.env(), k.shift(), k.taskSeed() + 1_000_003L * round, k.trial());
                copies.add(new EpisodeResult(key, e.tier(), e.taskIndex() + TEMPLATE_TASKS * round, e.outcome(), e.trajectory(), e.gold(), e.durationMs()));
                if (copies.size() == 1000) {
                    copies.forEach(c -> store.saveEpisode(runId, c));
                    store.flush();
                    copies.clear();
                }
            }
            copies.forEach(c -> store.saveEpisode(runId, c));
            store.saveRun(runId, "bench: " + episodes + " episodes", "{\"envs\":[\"poi\"],\"shifts\":[\"tool.semantic-rename\"]}", episodes, RunStatus.COMPLETE, null);
        }
        System.out.printf("generated %d episodes in %.1f s%n", episodes, (System.nanoTime() - t) / 1e9);
    }
}
