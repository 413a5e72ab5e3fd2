package dev.openagent.server.view;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.metrics.Taxonomy;
import dev.openagent.report.ReportData;
import dev.openagent.results.EpisodeResult;
import dev.openagent.server.http.ApiError;
import dev.openagent.server.http.BearerAuth;
import dev.openagent.server.http.HttpCall;
import dev.openagent.server.http.HttpService;
import dev.openagent.store.EpisodeFilter;
import dev.openagent.store.EpisodePage;
import dev.openagent.store.EpisodeSummaries;
import dev.openagent.store.RunFacets;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunInfo;
import dev.openagent.store.RunProgress;
import dev.openagent.store.RunStatus;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code openagent view}: a read-only web app over a results store. Pages are rendered here from the store's read
 * queries ({@link ResultStore}); a running run's page follows it through server-sent events. Only GET and HEAD are
 * answered; the Host and Origin checks are {@link HttpService}'s, the token check is {@link ViewAccess}. Every
 * failure is a page with one line saying what went wrong, never a stack trace.
 */
public final class ViewServer implements AutoCloseable {
    /** Episodes per page of a listing. */
    public static final int PAGE_SIZE = 50;
    /** The last page an address may ask for: its first row still fits an int offset. */
    static final int MAX_PAGE = Integer.MAX_VALUE / PAGE_SIZE - 1;
    /** How often an event stream reads the run's progress. */
    static final Duration POLL = Duration.ofMillis(500);
    /** An event stream ends after this long; the browser's EventSource reconnects on its own. */
    static final Duration STREAM_LIMIT = Duration.ofMinutes(10);
    /** How long a run's page waits for its results before it says they are being computed. */
    static final Duration RESULTS_WAIT = Duration.ofSeconds(3);

    private final ResultStore store;
    private final ViewAccess access;
    private final HttpService http;
    private volatile boolean closed;
    private final Map<String, Facets> facets = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, Results> results = new java.util.concurrent.ConcurrentHashMap<>();
    /** The store again, for computing results: its own read connection, so the pages' reads never wait for that. */
    private final ResultStore resultsStore;
    /** Computes results, one run at a time. */
    private final ExecutorService computing = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("view-results").daemon(true).factory());

    private ViewServer(ResultStore store, ViewAccess access, String host, int port) throws IOException {
        this.store = store;
        this.access = access;
        this.resultsStore = ResultStore.openReadOnly(store.location());
        try {
            // a request refused for its Host or Origin (a DNS-rebinding page, another site) gets a page, as every error here
            this.http = HttpService.start(host, port, BearerAuth.NONE, Set.of(), "view", this::handle, null, (call, e) -> {
                headers(call);
                page(call, e.status(), title(e.status()), e.getMessage());
            });
        } catch (IOException | RuntimeException e) {
            resultsStore.close();
            throw e;
        }
    }

    /**
     * Serves {@code store} (opened read-only by the caller, who closes it after this server).
     *
     * @param token the token a reader must hold, or null for none
     */
    public static ViewServer start(ResultStore store, String host, int port, String token) throws IOException {
        return new ViewServer(store, new ViewAccess(token == null ? BearerAuth.NONE : BearerAuth.of(token)), host, port);
    }

    public String baseUrl() { return http.baseUrl(); }

    public int port() { return http.port(); }

    /** Stops serving; open event streams end at their next poll. */
    @Override
    public void close() {
        closed = true;
        http.close();
        computing.shutdownNow();
        resultsStore.close();
    }

    /** The headers of every answer: nothing from elsewhere, no sniffing, no referrer. */
    private static void headers(HttpCall call) {
        call.setHeader("Content-Security-Policy",
                "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:; form-action 'self'; frame-ancestors 'none'");
        call.setHeader("X-Content-Type-Options", "nosniff");
        call.setHeader("Referrer-Policy", "no-referrer");
    }

    private void handle(HttpCall call) throws IOException {
        headers(call);
        try {
            if (!call.method().equals("GET") && !call.method().equals("HEAD")) {
                call.setHeader("Allow", "GET, HEAD");
                throw new ApiError(405, "method_not_allowed", "this viewer is read-only: " + call.method() + " is not allowed");
            }
            Map<String, String> q = query(call.query());
            try {
                access.check(call.header("Authorization"), call.header("Cookie"), q.get("token"));
            } catch (ApiError e) {
                call.setHeader("WWW-Authenticate", "Bearer");
                throw e;
            }
            if (access.enabled() && q.containsKey("token")) {
                // keep the token (checked above) in a cookie and take it out of the address; the redirect stays on this
                // server ("//host/..." would be another site's address)
                call.setHeader("Set-Cookie", ViewAccess.setCookie(q.get("token")));
                q.remove("token");
                call.setHeader("Location", "/" + call.path().replaceFirst("^/+", "") + queryString(q));
                call.respond(303, new byte[0], null);
                return;
            }
            route(call, q);
        } catch (ApiError e) {
            page(call, e.status(), title(e.status()), e.getMessage());
        } catch (IllegalArgumentException | IllegalStateException e) {
            // the store could not be read (damaged, gone, a server that went away): one line, no stack trace
            page(call, 503, "The store cannot be read", e.getMessage());
        }
    }

    private static String title(int status) {
        return switch (status) {
            case 401 -> "A token is needed";
            case 403 -> "Refused";
            case 404 -> "Not found";
            case 405 -> "Read-only";
            case 501 -> "Not implemented";
            default -> "Bad request";
        };
    }

    private void route(HttpCall call, Map<String, String> q) throws IOException {
        List<String> parts = segments(call.path());
        // the route's shape, the id left out: "", "runs/*", "runs/*/episodes", "runs/*/events", "episodes/*", "episodes/*/diff"
        String shape = parts.isEmpty() ? "" : parts.size() > 3 ? "?" : parts.get(0) + (parts.size() > 1 ? "/*" : "") + (parts.size() > 2 ? "/" + parts.get(2) : "");
        String id = parts.size() > 1 ? parts.get(1) : null;
        switch (shape) {
            case "" -> html(call, runsPage());
            case "runs/*" -> {
                RunInfo run = run(id);
                RunProgress p = store.progress(id);
                // a run without episodes (a training) has no results to compute
                html(call, Pages.run(run, p, p.stored() == 0 ? null : results(run), store.frontier(id), store.curve(id)));
            }
            case "runs/*/episodes" -> html(call, episodesPage(run(id), q));
            case "runs/*/events" -> events(call, run(id));
            case "episodes/*" -> {
                EpisodeResult e = episode(id);
                html(call, Pages.episode(e, Taxonomy.classify(e), e.shift().equals("none") ? null : store.staticTwin(e.key()).orElse(null)));
            }
            case "episodes/*/diff" -> html(call, diffPage(episode(id)));
            default -> throw new ApiError(404, "not_found", "no page at " + call.path());
        }
    }

    String runsPage() {
        Instant now = Instant.now();
        List<Pages.RunRow> rows = new ArrayList<>();
        for (RunInfo r : store.runs()) {
            RunProgress p = store.progress(r.id());
            rows.add(new Pages.RunRow(r, p, r.status() == RunStatus.RUNNING
                    ? Eta.estimate(instant(r.createdAt(), now), 0, now, p.finished(), r.planned() - p.finished()) : null));
        }
        return Pages.runs(store.location().toString(), rows);
    }

    String episodesPage(RunInfo run, Map<String, String> q) {
        EpisodeFilter filter;
        int page;
        try {
            filter = new EpisodeFilter(q.get("agent"), q.get("env"), q.get("tier"), q.get("shift"), EpisodeFilter.Result.parse(q.get("outcome")),
                    EpisodeFilter.failure(q.get("failure")));
            page = q.containsKey("page") ? Integer.parseInt(q.get("page")) : 0;
        } catch (IllegalArgumentException e) {
            throw new ApiError(400, "bad_request", e.getMessage());
        }
        if (page < 0 || page > MAX_PAGE) throw new ApiError(400, "bad_request", "page must be 0 to " + MAX_PAGE + ", not " + page);
        EpisodePage found = store.episodePage(run.id(), filter, page * PAGE_SIZE, PAGE_SIZE);
        List<Pages.Listed> rows = new ArrayList<>();
        // a listing shows what the stored columns hold: the trajectories are not read
        EpisodeSummaries listed = store.episodeSummaries(found.ids());
        for (EpisodeResult e : listed.episodes()) rows.add(new Pages.Listed(e, listed.failures().get(e.id())));
        int total = found.total();
        return Pages.episodes(run, facets(run), new Pages.Listing(filter, filter.failure() == null ? null : filter.failure().id(), page), rows, total, PAGE_SIZE);
    }

    /**
     * A run's results, or null while they are first computed. They are computed again when the run changed
     * ({@link #state}), on a thread and a read connection of their own, so the other pages are served meanwhile; one
     * computation per run at a time (a large running run changes faster than its results are computed: they follow it
     * as fast as they can, never queueing). A request waits for them up to {@link #RESULTS_WAIT}; meanwhile it is
     * shown the results computed before, if any, or a page that says they are coming and loads itself again.
     */
    private Pages.Computed results(RunInfo run) {
        String state = state(run);
        Results r = results.compute(run.id(), (id, known) -> {
            if (known == null) return new Results(state, CompletableFuture.supplyAsync(() -> compute(run), computing), null);
            if (known.state().equals(state) || !known.data().isDone()) return known;
            Pages.Computed before = known.data().isCompletedExceptionally() ? known.previous() : known.data().join();
            return new Results(state, CompletableFuture.supplyAsync(() -> compute(run), computing), before);
        });
        try {
            return r.data().get(RESULTS_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return r.previous();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return r.previous();
        } catch (ExecutionException e) {
            results.remove(run.id(), r);   // computed again on the next request
            throw e.getCause() instanceof RuntimeException x ? x : new IllegalStateException(e.getCause());
        }
    }

    /**
     * A run's results as computed (or being computed) when the run was in {@code state}, and those computed before
     * (shown while these are computed), or null.
     */
    private record Results(String state, CompletableFuture<Pages.Computed> data, Pages.Computed previous) {}

    /**
     * The scorecard of the run's episodes, read without their trajectories ({@link ResultStore#episodeSummaries}); and
     * for recorded proxy sessions, the watch events they carry (read from their trajectories).
     */
    private Pages.Computed compute(RunInfo run) {
        ObjectNode data = ReportData.build(run, resultsStore.episodeSummaries(run.id()));
        List<WatchEvent> watch = Pages.kind(run).equals(Pages.PROXY_SESSIONS) ? WatchEvent.of(resultsStore.episodes(run.id())) : List.of();
        return new Pages.Computed(data, watch);
    }

    /** A run's facets (what its filters offer), read again only when the run changed ({@link #state}). */
    private RunFacets facets(RunInfo run) {
        String state = state(run);
        Facets known = facets.get(run.id());
        if (known != null && known.state().equals(state)) return known.facets();
        RunFacets read = store.facets(run.id());
        facets.put(run.id(), new Facets(state, read));
        return read;
    }

    /** Facets as read when the run was in {@code state} (an episode run again keeps its agent, environment and shift). */
    private record Facets(String state, RunFacets facets) {}

    /**
     * What a run's facets and results are kept for. A running run changes with every episode linked to it, so its
     * links are counted (a scan of its part of the links' index: 100,000 links, tens of milliseconds); any other run
     * changes only with its row: a process that links episodes to it (a rerun, a shard, a merge) saves the run too,
     * with another update time.
     */
    private String state(RunInfo run) {
        String row = run.status() + " " + run.updatedAt();
        return run.status() == RunStatus.RUNNING ? row + " " + store.linkedEpisodes(run.id()) : row;
    }

    String diffPage(EpisodeResult shifted) {
        if (shifted.shift().equals("none")) throw new ApiError(404, "not_found", "episode " + shifted.id() + " is static: it has no static twin to compare");
        String twin = store.staticTwin(shifted.key()).orElseThrow(() -> new ApiError(404, "not_found",
                "the store holds no static episode of the same task, seed, trial and agent as " + shifted.id()));
        EpisodeResult fixed = episode(twin);
        if (fixed.trajectory() == null || shifted.trajectory() == null) {
            throw new ApiError(404, "not_found", "one of the two episodes could not start: there is nothing to compare");
        }
        return Pages.diff(fixed, shifted, EpisodeDiff.of(fixed.trajectory(), shifted.trajectory()));
    }

    /** Sends the run's progress whenever it changes, until the client goes away or {@link #STREAM_LIMIT} passes. */
    private void events(HttpCall call, RunInfo run) throws IOException {
        call.startStream(200, "text/event-stream; charset=utf-8");
        try {
            stream(call, run);
        } catch (IllegalArgumentException | IllegalStateException | ApiError e) {
            // the store cannot be read any more: the page says so instead of going quiet
            call.send(("event: failure\ndata: " + Json.write(Json.object().put("error", String.valueOf(e.getMessage()))) + "\n\n").getBytes(StandardCharsets.UTF_8));
        }
        call.finish(new byte[0]);
    }

    private void stream(HttpCall call, RunInfo run) throws IOException {
        Instant start = Instant.now();
        RunProgress first = store.progress(run.id());
        long deadline = System.nanoTime() + STREAM_LIMIT.toNanos();
        String last = null;
        int quiet = 0;   // milliseconds since the last message
        while (!closed && System.nanoTime() < deadline) {
            long read = System.nanoTime();
            RunInfo now = run(run.id());
            RunProgress p = store.progress(run.id());
            // a large run's progress takes a while to count: poll it at most a fifth of the time
            Duration pause = Duration.ofNanos(Math.max(POLL.toNanos(), 4 * (System.nanoTime() - read)));
            Duration eta = now.status() == RunStatus.RUNNING
                    ? Eta.estimate(start, first.finished(), Instant.now(), p.finished(), now.planned() - p.finished()) : null;
            ObjectNode event = Json.object().put("status", now.status().id()).put("planned", now.planned()).put("stored", p.stored())
                    .put("finished", p.finished()).put("scored", p.scored()).put("eta", Eta.text(eta));
            String data = Json.write(event);
            if (!data.equals(last)) {
                call.send(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
                last = data;
                quiet = 0;
            } else if ((quiet += (int) pause.toMillis()) >= 15_000) {
                call.send(": still here\n\n".getBytes(StandardCharsets.UTF_8));   // keeps proxies from closing an idle stream
                quiet = 0;
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
    }

    private RunInfo run(String id) {
        return store.run(id).orElseThrow(() -> new ApiError(404, "not_found", "no run '" + id + "' in " + store.location()));
    }

    private EpisodeResult episode(String id) {
        List<EpisodeResult> found = store.episodes(List.of(id));
        if (found.isEmpty()) throw new ApiError(404, "not_found", "no episode '" + id + "' in " + store.location());
        return found.getFirst();
    }

    private static Instant instant(String text, Instant fallback) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException | NullPointerException e) {
            return fallback;
        }
    }

    private static void html(HttpCall call, String page) {
        call.respond(200, page.getBytes(StandardCharsets.UTF_8), "text/html; charset=utf-8");
    }

    private static void page(HttpCall call, int status, String title, String message) {
        call.respond(status, Pages.error(status, title, message).getBytes(StandardCharsets.UTF_8), "text/html; charset=utf-8");
    }

    /** The path's segments, decoded ({@code /runs/a%20b} is {@code [runs, a b]}). */
    static List<String> segments(String path) {
        List<String> out = new ArrayList<>();
        try {
            for (String s : path.split("/")) if (!s.isEmpty()) out.add(URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new ApiError(400, "bad_request", "the address is not well formed (a '%' must start an escape such as %20)");
        }
        return out;
    }

    static Map<String, String> query(String raw) {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) return out;
        for (String kv : raw.split("&")) {
            if (kv.isEmpty()) continue;
            int eq = kv.indexOf('=');
            try {
                out.put(URLDecoder.decode(eq < 0 ? kv : kv.substring(0, eq), StandardCharsets.UTF_8),
                        eq < 0 ? "" : URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw new ApiError(400, "bad_request", "the query string is not well formed");
            }
        }
        return out;
    }

    private static String queryString(Map<String, String> q) {
        StringBuilder sb = new StringBuilder();
        q.forEach((k, v) -> sb.append(sb.isEmpty() ? '?' : '&').append(Pages.enc(k)).append('=').append(Pages.enc(v)));
        return sb.toString();
    }

}
