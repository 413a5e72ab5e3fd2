package dev.openagent.run;

import dev.openagent.episode.InfrastructureException;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What a run may still spend, and whether it must stop: the request and token budget shared by
 * every episode of a run, and a stop signal (budget spent, endpoint refusing our credentials).
 * Once stopped, no new episode starts and every further model request fails as an
 * infrastructure error, so the episodes in flight are recorded as errors and retried on resume.
 * The budget may be overshot by the requests already in flight when it runs out.
 */
public final class RunControl {
    private final long maxRequests;
    private final long maxTokens;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong tokens = new AtomicLong();
    private final AtomicReference<String> stopReason = new AtomicReference<>();

    /** @param maxRequests 0 or less for no limit; @param maxTokens 0 or less for no limit */
    public RunControl(long maxRequests, long maxTokens) {
        this.maxRequests = maxRequests;
        this.maxTokens = maxTokens;
    }

    public static RunControl unlimited() { return new RunControl(0, 0); }

    /** Reserves one model request, or throws when the run has stopped or the budget is spent. */
    public void beforeRequest() {
        String why = stopReason.get();
        if (why != null) throw new InfrastructureException("run stopped: " + why);
        if (maxRequests > 0 && requests.incrementAndGet() > maxRequests) {
            requests.decrementAndGet();
            stop("request budget of " + maxRequests + " spent");
            throw new InfrastructureException("run stopped: " + stopReason.get());
        }
        if (maxRequests <= 0) requests.incrementAndGet();
    }

    /** Counts the tokens a response used; stops the run when the token budget is spent. */
    public void spent(long promptTokens, long completionTokens) {
        long total = tokens.addAndGet(promptTokens + completionTokens);
        if (maxTokens > 0 && total >= maxTokens) stop("token budget of " + maxTokens + " spent");
    }

    /** Stops the run; the first reason given is kept. */
    public void stop(String reason) {
        stopReason.compareAndSet(null, reason);
    }

    public boolean stopped() { return stopReason.get() != null; }

    /** Null while the run may go on. */
    public String stopReason() { return stopReason.get(); }

    public long requests() { return requests.get(); }

    public long tokens() { return tokens.get(); }
}
