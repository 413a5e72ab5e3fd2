package dev.openagent.server.view;

import dev.openagent.server.http.ApiError;
import dev.openagent.results.EpisodeResult;
import dev.openagent.store.EpisodeFilter;
import dev.openagent.store.FrontierVerdicts;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunStatus;
import dev.openagent.store.StoreLocation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The viewer over a store an evaluation wrote: every page, the filters and paging, the live stream, and each error. */
@Timeout(120)
class ViewServerTest {
    static final int TASKS = 6;
    static final String TOKEN = "s3cret-Token";

    @TempDir
    static Path dir;
    static String runId;
    static ResultStore store;
    static ViewServer open;
    static ViewServer locked;
    static final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeAll
    static void serve() throws Exception {
        runId = ViewFixtures.evalInto(dir.resolve("runs.db"), TASKS);
        store = ResultStore.openReadOnly(new StoreLocation.SqliteFile(dir.resolve("runs.db")));
        open = ViewServer.start(store, "127.0.0.1", 0, null);
        locked = ViewServer.start(store, "127.0.0.1", 0, TOKEN);
    }

    @AfterAll
    static void stop() {
        open.close();
        locked.close();
        store.close();
    }

    static HttpResponse<String> get(ViewServer s, String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(s.baseUrl() + path)).timeout(Duration.ofSeconds(60));
        for (int i = 0; i < headers.length; i += 2) b.header(headers[i], headers[i + 1]);
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static void noStackTrace(HttpResponse<String> r) {
        assertFalse(r.body().contains("Exception") || r.body().contains("\tat "), "no stack trace:\n" + r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/html"), "an HTML page");
    }

    @Test
    void theRunsPageListsTheRunWithItsCounts() throws Exception {
        HttpResponse<String> r = get(open, "/");
        assertEquals(200, r.statusCode());
        assertTrue(r.body().contains("/runs/" + runId), r.body());
        // 6 tasks x 2 agents x (static + shifted) = 24 episodes, all finished
        assertTrue(r.body().contains("<td class=\"n\">24</td>"), "finished and planned counts");
        assertTrue(r.body().contains(">complete<"), "the status");
    }

    @Test
    void theResultsPageHasTheTierByShiftTableAndTheSharedCharts() throws Exception {
        HttpResponse<String> r = get(open, "/runs/" + runId);
        assertEquals(200, r.statusCode());
        assertTrue(r.body().contains("id=\"by-shift\""));
        assertTrue(r.body().contains(">perception<") && r.body().contains(">static<"), "both tiers in the table");
        assertTrue(r.body().contains("OpenAgentCharts.heatmap"), "the report's chart code");
        assertTrue(r.body().matches("(?s).*\\[\\d+\\.\\d%, \\d+\\.\\d%\\].*"), "95% intervals");
        assertFalse(r.body().contains("<script src"), "self-contained: no script is fetched");
    }

    @Test
    void aRunOfProxySessionsShowsTheWatchEventsTheyCarryOnceAndAFrontierSaysWhereItsVerdictsAre() throws Exception {
        Path file = dir.resolve("kinds.db");
        List<EpisodeResult> done = store.episodes(runId);
        com.fasterxml.jackson.databind.node.ObjectNode event = dev.openagent.json.Json.object().put("kind", "transient-errors").put("tier", "interaction")
                .put("shift", "obs.runtime-error").put("tool", "<b>search</b>").put("detail", "transient errors (timeout, 503, rate limit)")
                .put("confidence", "sequential").put("first_seen", "2026-11-27T18:49:12.859Z");
        try (ResultStore w = ResultStore.open(file)) {
            w.beginRun("sessions", "sessions", "{\"server\":\"proxy\",\"upstream\":\"x\",\"shift\":\"none\"}", 0);
            for (EpisodeResult e : done.subList(0, 2)) {
                // both sessions carry the event: the second opened after it was raised
                dev.openagent.episode.Trajectory t = e.trajectory();
                List<dev.openagent.episode.Message> messages = new java.util.ArrayList<>(t.messages());
                messages.add(2, dev.openagent.episode.Message.system(dev.openagent.run.WatchNote.of(event)));
                dev.openagent.episode.Trajectory noted = new dev.openagent.episode.Trajectory(t.env(), t.taskId(), t.split(), t.seed(), t.difficulty(),
                        t.kind(), t.solvable(), t.shifts(), t.agent(), t.tools(), messages, t.outcome(), t.stats(), t.dbChanges());
                w.saveEpisode("sessions", new EpisodeResult(e.key(), e.tier(), e.taskIndex(), e.outcome(), noted, e.gold(), e.durationMs()));
            }
            w.beginRun("frontier-x", "a frontier", "{\"kind\":\"frontier\"}", 1);
            w.saveEpisode("frontier-x", done.get(2));
        }
        try (ResultStore r = ResultStore.openReadOnly(new StoreLocation.SqliteFile(file)); ViewServer v = ViewServer.start(r, "127.0.0.1", 0, null)) {
            String sessions = get(v, "/runs/sessions").body();
            String watch = sessions.substring(sessions.indexOf("id=\"watch\""));
            assertEquals(1, watch.split("transient-errors", -1).length - 1, "one event, once, though two sessions carry it: " + watch);
            assertTrue(watch.contains("&lt;b&gt;search&lt;/b&gt;"), "as text");
            assertTrue(watch.contains("/episodes/" + done.getFirst().id()), "with the first session that carries it");
            assertFalse(get(open, "/runs/" + runId).body().contains("id=\"watch\""), "an eval has no watch");
            String frontier = get(v, "/runs/frontier-x").body();
            assertTrue(frontier.contains("id=\"frontier\"") && frontier.contains("reach the store when it ends"), frontier);
            assertFalse(frontier.contains("id=\"verdicts\""), "none stored yet");
        }
    }

    /**
     * A frontier's stored verdicts: the table (a row per severity run, the breaking one marked, compositions), the chart's
     * data for the shared chart code; names that are markup are text. A training's curve: a line chart per metric, the
     * last point of each series in a table, no episode sections.
     */
    @Test
    void aFrontierShowsItsVerdictsAndATrainingItsLearningCurves() throws Exception {
        Path file = dir.resolve("records.db");
        String evil = "<img src=x onerror=\"window.ran=1\">";
        List<EpisodeResult> done = store.episodes(runId);
        try (ResultStore w = ResultStore.open(file)) {
            w.beginRun("frontier-y", "a frontier", "{\"kind\":\"frontier\",\"drop\":0.2,\"confidence\":0.95}", 100);
            w.saveEpisode("frontier-y", done.get(2));
            w.saveFrontier("frontier-y", new FrontierVerdicts(
                    List.of(new FrontierVerdicts.Shift("poi", "obs.injection", "security", "breaks", 2, List.of(1, 2, 3)),
                            new FrontierVerdicts.Shift("poi", evil, "perception", "holds", null, List.of())),
                    List.of(new FrontierVerdicts.Test("poi", "obs.injection", "obs.injection:severity=1", 1, "holds", true, 20, 19, 20, 0.05, -0.2, 0.15),
                            new FrontierVerdicts.Test("poi", "obs.injection", "obs.injection:severity=2", 2, "breaks", true, 12, 2, 12, 0.8333, 0.41, 1.0),
                            new FrontierVerdicts.Test("poi", evil, evil, 1, "holds", false, 60, 60, 60, 0.0, -0.1, 0.1),
                            new FrontierVerdicts.Test("poi", null, "obs.format+tool.distractors", 1, "breaks", true, 30, 10, 30, 0.6667, 0.3, 0.9))));
            w.saveRun("frontier-y", "a frontier", "{\"kind\":\"frontier\",\"drop\":0.2,\"confidence\":0.95}", 100, RunStatus.COMPLETE, null);
            w.beginRun("train-z", "sft on poi", "{\"kind\":\"train\"}", 0);
            for (int step = 1; step <= 4; step++) w.curvePoint("train-z", "train", step, "loss", 2.0 / step, null, null);
            w.curvePoint("train-z", "static", 4, "success", 0.75, 0.6, 0.86);
            w.curvePoint("train-z", evil, 4, "success", 0.5, 0.3, 0.7);
            w.saveRun("train-z", "sft on poi", "{\"kind\":\"train\"}", 0, RunStatus.COMPLETE, null);
        }
        try (ResultStore r = ResultStore.openReadOnly(new StoreLocation.SqliteFile(file)); ViewServer v = ViewServer.start(r, "127.0.0.1", 0, null)) {
            String page = get(v, "/runs/frontier-y").body();
            String table = page.substring(page.indexOf("id=\"verdicts\""), page.indexOf("</table>", page.indexOf("id=\"verdicts\"")));
            assertEquals(4, count(table, "<tr"), "a header and a row per severity run (three): " + table);
            assertEquals(1, count(table, "data-frontier=\"true\""), "the breaking severity is marked");
            assertTrue(table.contains("<tr class=\"changed\" data-frontier=\"true\"><td>poi</td><td>security</td><td>obs.injection</td><td><span class=\"bad\">breaks at 2</span></td><td>2</td>"
                    + "<td><span class=\"bad\">breaks</span></td><td class=\"n\">0.833</td><td>[0.410, 1.000]</td><td class=\"n\">12</td>"), table);
            assertTrue(table.contains("<td class=\"n\">0.050</td><td>[-0.200, 0.150]</td>"), "the weaker severity that held, with its interval");
            assertTrue(page.contains("id=\"compositions\"") && page.contains("<td>obs.format+tool.distractors</td>"), "the compositions");
            assertTrue(page.contains("&lt;img src=x onerror=&quot;window.ran=1&quot;&gt;"), "markup as text");
            assertFalse(page.contains(evil), "never as markup");
            assertTrue(page.contains("holds *"), "a verdict by estimate is marked");
            String data = page.substring(page.indexOf("id=\"frontier-data\">"), page.indexOf("</script>", page.indexOf("id=\"frontier-data\">")));
            assertTrue(data.contains("\"cols\":[\"severity 1\",\"severity 2\",\"severity 3\"]"), data);
            assertTrue(data.contains("[1,1,0.833,true,12,true,0.41,1.0,true]"), "the breaking cell, marked as the frontier: " + data);
            assertTrue(data.contains("\\u003cimg"), "script-safe: " + data);
            assertTrue(page.contains("OpenAgentCharts.frontier(") && page.contains("function frontier(chart, F)"), "the shared chart code draws it");
            assertTrue(page.contains("id=\"by-shift\""), "and the episodes' results, as for any run");

            String train = get(v, "/runs/train-z").body();
            assertTrue(train.contains("id=\"curves\"") && train.contains("OpenAgentCharts.lines(") && train.contains("function lines(chart, series, xName, scale)"), "the shared chart code draws the curves");
            String curve = train.substring(train.indexOf("id=\"curve-data\">"), train.indexOf("</script>", train.indexOf("id=\"curve-data\">")));
            assertTrue(curve.contains("{\"name\":\"train\",\"points\":[[1,2.0],[2,1.0],[3,0.6666666666666666],[4,0.5]]}"), curve);
            assertTrue(curve.contains("{\"name\":\"static\",\"points\":[[4,0.75,0.6,0.86]]}"), "success with its interval: " + curve);
            assertTrue(curve.contains("\"x\":\"step\""), curve);
            assertTrue(curve.indexOf("\"metric\":\"loss\",\"scale\":\"log\"") < curve.indexOf("\"metric\":\"success\",\"scale\":\"rate\""),
                    "the loss first, on a log axis; success as a rate: " + curve);
            assertTrue(train.contains("<tr><td>loss</td><td>train</td><td class=\"n\">4</td><td class=\"n\">0.5000</td><td>–</td><td class=\"n\">4</td></tr>"), "the last loss in the table");
            assertFalse(train.contains(evil), "a series named with markup is text");
            assertFalse(train.contains("id=\"by-shift\"") || train.contains("id=\"computing\""), "no episodes: no results to compute");
            assertFalse(get(open, "/runs/" + runId).body().contains("id=\"curves\""), "an eval without points has no curves");
        }
    }

    @Test
    void aRunWhoseResultsAreStillBeingComputedSaysSoAndLoadsItselfAgain() {
        String page = Pages.run(store.run(runId).orElseThrow(), store.progress(runId), null, java.util.Optional.empty(), List.of());
        assertTrue(page.contains("id=\"computing\"") && page.contains("<meta http-equiv=\"refresh\" content=\"2\">"), page);
        assertTrue(page.contains("id=\"finished\""), "the progress is there meanwhile");
        assertFalse(page.contains("OpenAgentCharts.heatmap"));
    }

    @Test
    void filtersSelectInSqlAndTheFailureCategoryOnTopAndPagesAreBounded() throws Exception {
        HttpResponse<String> failures = get(open, "/runs/" + runId + "/episodes?outcome=failure&shift=" + ViewFixtures.SHIFT);
        assertEquals(200, failures.statusCode());
        int expected = store.countEpisodes(runId, new EpisodeFilter(null, null, null, ViewFixtures.SHIFT, EpisodeFilter.Result.FAILURE));
        assertTrue(expected > 0, "the random agent fails some shifted tasks");
        assertEquals(expected, rows(failures.body()), failures.body());
        assertFalse(failures.body().contains("badge ok"), "no success is listed among failures");
        assertTrue(failures.body().contains(expected + " episode(s)"));

        HttpResponse<String> oracle = get(open, "/runs/" + runId + "/episodes?agent=oracle");
        assertEquals(TASKS * 2, rows(oracle.body()));
        assertFalse(oracle.body().contains("<td>random</td>"));

        // the failure category, from the trajectory: every listed row carries it
        String category = firstCategory(failures.body());
        HttpResponse<String> byCategory = get(open, "/runs/" + runId + "/episodes?failure=" + category);
        assertTrue(rows(byCategory.body()) > 0);
        assertEquals(rows(byCategory.body()), count(byCategory.body(), "badge bad\">" + category + "<"), byCategory.body());

        HttpResponse<String> beyond = get(open, "/runs/" + runId + "/episodes?page=7");
        assertEquals(200, beyond.statusCode());
        assertTrue(beyond.body().contains("No episodes match."));
    }

    @Test
    void anEpisodeShowsItsTranscriptShiftRecordAndALinkToItsDiff() throws Exception {
        String id = store.episodePage(runId, new EpisodeFilter("oracle", null, null, ViewFixtures.SHIFT, null), 0, 1).ids().getFirst();
        HttpResponse<String> r = get(open, "/episodes/" + id);
        assertEquals(200, r.statusCode());
        assertTrue(r.body().contains("<b>" + ViewFixtures.SHIFT + "</b>"), "the shift record");
        assertTrue(r.body().contains("assistant → tool call(s)") && r.body().contains("msg tool"), "calls and results");
        assertTrue(r.body().contains("/episodes/" + id + "/diff"));
        HttpResponse<String> d = get(open, "/episodes/" + id + "/diff");
        assertEquals(200, d.statusCode());
        assertTrue(d.body().contains("data-renamed=\"true\""), "renamed tools are marked");
    }

    @Test
    void unknownIdsAndBadParametersAreClearPages() throws Exception {
        for (String path : List.of("/runs/no-such-run", "/runs/no-such-run/episodes", "/episodes/no-such-episode", "/episodes/x/diff", "/nothing/here/at/all")) {
            HttpResponse<String> r = get(open, path);
            assertEquals(404, r.statusCode(), path);
            noStackTrace(r);
            assertTrue(r.body().contains("id=\"error\""), path);
        }
        HttpResponse<String> staticDiff = get(open, "/episodes/" + store.episodePage(runId, new EpisodeFilter(null, null, null, "none", null), 0, 1).ids().getFirst() + "/diff");
        assertEquals(404, staticDiff.statusCode());
        assertTrue(staticDiff.body().contains("is static"));
        // A bad escape in the path is the address's fault, not the store's (Java's client will not send one).
        ApiError badEscape = org.junit.jupiter.api.Assertions.assertThrows(ApiError.class, () -> ViewServer.segments("/runs/%zz"));
        assertEquals(400, badEscape.status());
        // page 50,000,000 would overflow an int offset (negative: the first page again, or PostgreSQL's error)
        for (String q : List.of("outcome=maybe", "failure=nope", "page=-1", "page=x", "page=50000000")) {
            HttpResponse<String> r = get(open, "/runs/" + runId + "/episodes?" + q);
            assertEquals(400, r.statusCode(), q);
            noStackTrace(r);
        }
    }

    @Test
    void nothingIsWritable() throws Exception {
        for (String method : List.of("POST", "PUT", "DELETE", "PATCH")) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(open.baseUrl() + "/")).method(method, HttpRequest.BodyPublishers.ofString("x"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(405, r.statusCode(), method);
            assertEquals("GET, HEAD", r.headers().firstValue("Allow").orElse(""));
        }
    }

    @Test
    void aTokenIsNeededAndABrowserKeepsItInACookie() throws Exception {
        HttpResponse<String> none = get(locked, "/");
        assertEquals(401, none.statusCode());
        noStackTrace(none);
        assertEquals(401, get(locked, "/?token=wrong").statusCode());
        assertEquals(401, get(locked, "/", "Cookie", ViewAccess.COOKIE + "=wrong").statusCode());
        assertEquals(401, get(locked, "/", "Authorization", "Bearer wrong").statusCode());
        assertEquals(200, get(locked, "/", "Authorization", "Bearer " + TOKEN).statusCode());

        HttpResponse<String> first = get(locked, "/runs/" + runId + "?token=" + TOKEN);
        assertEquals(303, first.statusCode());
        assertEquals("/runs/" + runId, first.headers().firstValue("Location").orElse(""), "the token leaves the address");
        String cookie = first.headers().firstValue("Set-Cookie").orElse("");
        assertTrue(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), cookie);
        assertEquals(200, get(locked, "/runs/" + runId, "Cookie", cookie.split(";")[0]).statusCode());
        HttpResponse<String> twoSlashes = get(locked, "//evil.example/?token=" + TOKEN);
        assertTrue(twoSlashes.headers().firstValue("Location").orElse("/").matches("/[^/].*|/"), "the redirect stays on this server: "
                + twoSlashes.headers().firstValue("Location").orElse(""));
    }

    @Test
    void withoutATokenATokenParameterSetsNoCookieAndRedirectsNowhere() throws Exception {
        HttpResponse<String> r = get(open, "//evil.example/?token=x");
        assertTrue(r.headers().firstValue("Set-Cookie").isEmpty(), "no cookie of the address's choosing");
        assertTrue(r.headers().firstValue("Location").isEmpty(), "no redirect off this server");
    }

    @Test
    void aRequestForAnotherHostOrFromAnotherOriginIsRefused() throws Exception {
        HttpResponse<String> origin = get(open, "/", "Origin", "http://evil.example");
        assertEquals(403, origin.statusCode());
        // a page, as every error of the viewer, saying why in one line
        assertEquals("text/html; charset=utf-8", origin.headers().firstValue("Content-Type").orElse(""));
        assertTrue(origin.body().contains("<h1>Refused</h1>") && origin.body().contains("evil.example"), origin.body());
        assertTrue(origin.headers().firstValue("Content-Security-Policy").orElse("").startsWith("default-src 'none'"));
        try (Socket s = new Socket("127.0.0.1", open.port())) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write("GET / HTTP/1.1\r\nHost: rebound.example:8780\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 403 "), answer);
            assertTrue(answer.contains("<h1>Refused</h1>") && answer.contains("rebound.example"), answer);
        }
    }

    @Test
    void theEventStreamFollowsARunningRun() throws Exception {
        Path file = dir.resolve("live.db");
        List<EpisodeResult> done;
        try (ResultStore s = ResultStore.open(dir.resolve("runs.db"))) {
            done = s.episodes(runId);
        }
        try (ResultStore writer = ResultStore.open(file); ResultStore reader = ResultStore.openReadOnly(new StoreLocation.SqliteFile(file))) {
            writer.beginRun("live", "live", "{\"envs\":[\"poi\"]}", done.size());
            writer.saveEpisode("live", done.get(0));
            writer.flush();
            try (ViewServer v = ViewServer.start(reader, "127.0.0.1", 0, null)) {
                HttpResponse<InputStream> r = client.send(HttpRequest.newBuilder(URI.create(v.baseUrl() + "/runs/live/events")).build(),
                        HttpResponse.BodyHandlers.ofInputStream());
                assertEquals("text/event-stream; charset=utf-8", r.headers().firstValue("Content-Type").orElse(""));
                try (BufferedReader lines = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
                    assertTrue(nextEvent(lines).contains("\"finished\":1"));
                    writer.saveEpisode("live", done.get(1));
                    writer.saveEpisode("live", done.get(2));
                    writer.flush();
                    String event = nextEvent(lines);
                    // the writer's two episodes may land in one event or two
                    if (!event.contains("\"finished\":3")) event = nextEvent(lines);
                    assertTrue(event.contains("\"finished\":3") && event.contains("\"status\":\"running\""), event);
                }
            }
        }
    }

    @Test
    void theResultsOfARunAreReadAgainOnceItChanged() throws Exception {
        Path file = dir.resolve("growing.db");
        List<EpisodeResult> done;
        try (ResultStore s = ResultStore.open(dir.resolve("runs.db"))) {
            done = s.episodes(runId).stream().filter(e -> e.shift().equals("none")).toList();
        }
        try (ResultStore writer = ResultStore.open(file); ResultStore reader = ResultStore.openReadOnly(new StoreLocation.SqliteFile(file));
             ViewServer v = ViewServer.start(reader, "127.0.0.1", 0, null)) {
            writer.beginRun("g", "g", "{\"envs\":[\"poi\"]}", 3);
            writer.saveEpisode("g", done.get(0));
            writer.flush();
            String row = "<td>static</td><td><a href=\"/runs/g/episodes?shift=none\">none</a></td><td class=\"n\">";
            assertTrue(get(v, "/runs/g").body().contains(row + "1</td>"));
            assertTrue(get(v, "/runs/g").body().contains(row + "1</td>"), "the same from the cache");
            writer.saveEpisode("g", done.get(1));
            writer.flush();
            assertTrue(get(v, "/runs/g").body().contains(row + "2</td>"), "an episode linked since is counted");
        }
    }

    private static String nextEvent(BufferedReader lines) throws Exception {
        for (String line; (line = lines.readLine()) != null; ) if (line.startsWith("data: ")) return line;
        throw new AssertionError("the stream ended");
    }

    static int rows(String page) {
        return count(page, "<tr><td><a href=\"/episodes/");
    }

    static int count(String page, String needle) {
        int n = 0;
        for (int i = page.indexOf(needle); i >= 0; i = page.indexOf(needle, i + 1)) n++;
        return n;
    }

    static String firstCategory(String page) {
        Matcher m = Pattern.compile("badge bad\">([a-z_]+)<").matcher(page);
        assertTrue(m.find(), "a failure is listed");
        return m.group(1);
    }
}
