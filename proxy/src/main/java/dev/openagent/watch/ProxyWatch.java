package dev.openagent.watch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.json.Json;
import dev.openagent.proxy.Upstream;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The watch inside {@code proxy mcp} (docs/watch.md): it sees every tool list and tool call that goes to the
 * upstream. Recording ({@code --watch-record}), it learns the upstream's traffic and writes the baseline after a
 * window of calls (or when the proxy stops); watching ({@code --watch}), it compares the traffic with a baseline
 * and sends each event to a JSONL file, stderr, Prometheus metrics and an optional webhook. Nothing here can stop
 * the proxy serving: a file it cannot write, a webhook that does not answer or an upstream that dies is one line
 * on the log.
 */
public final class ProxyWatch implements AutoCloseable {
    /** Webhook deliveries: tries per event, and the first wait between tries (doubled after each). */
    static final int WEBHOOK_TRIES = 3;
    static final Duration WEBHOOK_BACKOFF = Duration.ofMillis(500);

    private final Upstream upstream;
    private final PrintStream log;
    private final PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    // recording
    private final Path out;
    private final Integer window;
    private Snapshot surface;
    private final Traffic traffic = new Traffic();
    private boolean written;
    // watching
    private final Watcher watcher;
    private final Path events;
    private final URI webhook;
    private final HttpClient http;
    private final ThreadPoolExecutor deliveries;
    private boolean eventsFailed;
    /** Where what the upstream saw is read and tested: one thread of its own, so the watch never holds up a call. */
    private final ThreadPoolExecutor reader = oneThread("watch", 10_000, (r, pool) -> dropped());
    private boolean droppedOnce;
    private final java.util.List<java.util.function.Consumer<Watcher.Event>> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private Counter callsOk, callsFailed, failures;
    private Timer latency;
    /** Set by the delivery thread only. */
    private volatile boolean webhookDown;

    private ProxyWatch(Upstream upstream, PrintStream log, Path out, Integer window, Snapshot baseline, Path events, URI webhook) {
        this.upstream = upstream;
        this.log = log;
        this.out = out;
        this.window = window;
        this.events = events;
        this.webhook = webhook;
        this.watcher = baseline == null ? null : new Watcher(baseline, Watcher.ALPHA, this::raised);
        this.http = webhook == null ? null : HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        this.deliveries = webhook == null ? null : oneThread("watch-webhook", 1000,
                (r, pool) -> log.println("watch: the webhook's queue is full (1000 events waiting); an event was not posted (it is in the events file)"));
    }

    /** One daemon thread working through a bounded queue; {@code full} is told what does not fit. */
    private static ThreadPoolExecutor oneThread(String name, int queue, java.util.concurrent.RejectedExecutionHandler full) {
        return new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(queue), r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        }, full);
    }

    /** Learns the upstream's surface now and its traffic from here on; writes the baseline to {@code out} after {@code window} calls (null: when closed). */
    public static ProxyWatch recording(Upstream upstream, Path out, Integer window, PrintStream log) {
        if (window != null && window < 1) throw new UserInputException("--window must be >= 1");
        ProxyWatch w = new ProxyWatch(upstream, log, out, window, null, null, null);
        w.surface = Snapshot.of(upstream);
        upstream.watch(w::seen);
        return w;
    }

    /** Compares the upstream's tool lists and calls with {@code baseline}; events go to {@code events} (JSONL, may be null) and {@code webhook} (may be null). */
    public static ProxyWatch watching(Upstream upstream, Snapshot baseline, Path events, URI webhook, PrintStream log) {
        ProxyWatch w = new ProxyWatch(upstream, log, null, null, baseline, events, webhook);
        upstream.watch(w::seen);
        w.watcher.listed(Snapshot.of(upstream).tools());
        return w;
    }

    /** On the proxy's thread: hands what was seen to the watch's own thread. */
    private void seen(Upstream.Seen s) {
        reader.execute(() -> read(s));
    }

    private synchronized void dropped() {
        if (!droppedOnce) log.println("watch: 10000 calls wait to be read (the watch is behind); calls beyond that are not watched until it catches up");
        droppedOnce = true;
    }

    private synchronized void read(Upstream.Seen s) {
        if (callsOk == null) {
            callsOk = Counter.builder("openagent.watch.calls").description("upstream tool calls the watch saw").tag("outcome", "ok").register(metrics);
            callsFailed = Counter.builder("openagent.watch.calls").description("upstream tool calls the watch saw").tag("outcome", "error").register(metrics);
            failures = Counter.builder("openagent.watch.upstream.failures").description("upstream calls that failed (crash, hang, timeout)").register(metrics);
            latency = Timer.builder("openagent.watch.upstream.latency").description("the upstream's time per tool call").register(metrics);
        }
        switch (s) {
            case Upstream.Seen.Listed l -> {
                if (watcher != null) watcher.listed(l.tools().stream().map(Snapshot.Tool::of).toList());
            }
            case Upstream.Seen.Called c when c.text() == null -> {
                failures.increment();
                log.println("watch: the upstream failed during a call of " + c.tool() + " (" + c.failure() + "); the proxy starts it again on the next call, and the "
                        + (watcher != null ? "watch" : "window") + " goes on");
            }
            case Upstream.Seen.Called c -> {
                double ms = c.nanos() / 1e6;
                (c.error() ? callsFailed : callsOk).increment();
                latency.record(Duration.ofNanos(c.nanos()));
                if (watcher != null) {
                    watcher.called(c.tool(), c.text(), c.error(), ms);
                } else if (!written) {
                    traffic.add(c.tool(), Reading.of(c.text(), c.error()), ms);
                    if (window != null && traffic.calls() >= window) write();
                }
            }
        }
    }

    /** Writes the baseline: the surface and what was learnt of the traffic. */
    private void write() {
        written = true;
        try {
            surface.withTraffic(traffic.toJson()).write(out);
            log.println("watch: baseline of " + surface.tools().size() + " tools and " + traffic.calls() + " calls written to " + out);
        } catch (RuntimeException e) {
            log.println("watch: cannot write the baseline to " + out + ": " + e.getMessage());
        }
    }

    private void raised(Watcher.Event e) {
        ObjectNode json = e.toJson();
        json.put("upstream", upstream.describe());
        log.println("watch: " + e.change().line());
        Counter.builder("openagent.watch.events").description("changes the watch saw, by kind and nearest shift")
                .tag("kind", e.change().kind()).tag("shift", e.change().shifts().isEmpty() ? "none" : e.change().shifts().getFirst().id())
                .tag("tier", e.change().shifts().isEmpty() ? "none" : e.change().shifts().getFirst().tier().id()).register(metrics).increment();
        if (events != null) {
            try {
                Files.writeString(events, Json.write(json) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException ex) {
                if (!eventsFailed) log.println("watch: cannot append to " + events + " (" + ex.getMessage() + "); events go to the log only");
                eventsFailed = true;
            }
        }
        if (webhook != null) deliveries.execute(() -> post(json));
        listeners.forEach(l -> l.accept(e));
    }

    /** Tells {@code listener} each event too, on the watch's thread (the proxy notes it in the sessions it records). */
    public void onEvent(java.util.function.Consumer<Watcher.Event> listener) { listeners.add(listener); }

    /**
     * POSTs one event, trying {@value #WEBHOOK_TRIES} times with a doubling wait. When every try failed the log says so
     * once, and later events get one try each (no waits) until the webhook takes one again, so a webhook that is
     * down costs one line and never holds the queue.
     */
    private void post(ObjectNode event) {
        HttpRequest request = HttpRequest.newBuilder(webhook).timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(event))).build();
        String last = "";
        long wait = WEBHOOK_BACKOFF.toMillis();
        int tries = webhookDown ? 1 : WEBHOOK_TRIES;
        for (int i = 1; i <= tries; i++) {
            try {
                HttpResponse<Void> r = http.send(request, HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() / 100 == 2) {
                    if (webhookDown) log.println("watch: webhook " + webhook + " takes events again");
                    webhookDown = false;
                    return;
                }
                last = "HTTP " + r.statusCode();
            } catch (IOException e) {
                last = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (i < tries) {
                try {
                    Thread.sleep(wait);   // the delivery thread's own back-off
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                wait *= 2;
            }
        }
        Counter.builder("openagent.watch.webhook.failures").description("events the webhook did not take").register(metrics).increment();
        if (!webhookDown) {
            log.println("watch: webhook " + webhook + " did not take an event after " + WEBHOOK_TRIES + " tries (" + last + "); later events get one try each "
                    + "until it answers" + (events != null ? "; every event is in " + events : "") + "; the proxy goes on");
        }
        webhookDown = true;
    }

    /** The metrics in Prometheus' text format, for GET /metrics. */
    public String scrape() { return metrics.scrape(); }

    public Watcher watcher() { return watcher; }

    /** Waits (up to {@code timeout}) until every call seen so far is read: for tests and the bench. */
    public boolean idle(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (reader.getQueue().size() + reader.getActiveCount() > 0) {
            if (System.nanoTime() > end) return false;
            Thread.sleep(5);
        }
        return true;
    }

    /**
     * Reads what is left to read (waiting up to 10 s), then, recording without a window or before it filled, writes
     * the baseline of what was seen; lets the webhook finish its tries (up to 5 s). The metrics stay readable.
     */
    @Override
    public void close() {
        reader.shutdown();
        try {
            if (!reader.awaitTermination(10, TimeUnit.SECONDS)) log.println("watch: stopped with calls still unread");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            if (watcher == null && !written) write();
        }
        if (deliveries != null) {
            deliveries.shutdown();
            try {
                deliveries.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
