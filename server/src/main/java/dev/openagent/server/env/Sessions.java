package dev.openagent.server.env;

import dev.openagent.server.http.ApiError;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The live sessions: at most {@code max} at once, each dropped after {@code idleTtl} without a
 * request. Ids are 128 random bits, so one client cannot guess another's session.
 */
final class Sessions implements AutoCloseable {
    private final ConcurrentHashMap<String, Session> byId = new ConcurrentHashMap<>();
    private final AtomicInteger reserved = new AtomicInteger();
    private final int max;
    private final long ttlNanos;
    private final SecureRandom random = new SecureRandom();
    private final ScheduledExecutorService sweeper;

    Sessions(int max, Duration idleTtl) {
        if (max < 1) throw new IllegalArgumentException("--max-sessions must be at least 1");
        if (idleTtl.isNegative() || idleTtl.isZero()) throw new IllegalArgumentException("--idle-ttl must be positive");
        this.max = max;
        this.ttlNanos = idleTtl.toNanos();
        this.sweeper = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("session-sweeper").factory());
        long every = Math.max(50, Math.min(idleTtl.toMillis() / 4, 30_000));
        sweeper.scheduleWithFixedDelay(this::sweep, every, every, TimeUnit.MILLISECONDS);
    }

    /**
     * Creates and registers a session.
     *
     * @throws ApiError 429 when the cap is reached
     */
    Session create(Function<String, Session> factory) {
        if (reserved.incrementAndGet() > max) {
            reserved.decrementAndGet();
            sweep();
            if (reserved.incrementAndGet() > max) {
                reserved.decrementAndGet();
                throw new ApiError(429, "too_many_sessions", "the server holds its maximum of " + max
                        + " sessions; DELETE sessions you no longer use, or wait for idle ones to expire");
            }
        }
        try {
            String id = HexFormat.of().formatHex(randomBytes());
            Session s = factory.apply(id);
            byId.put(id, s);
            return s;
        } catch (RuntimeException e) {
            reserved.decrementAndGet();
            throw e;
        }
    }

    private byte[] randomBytes() {
        byte[] b = new byte[16];
        random.nextBytes(b);
        return b;
    }

    /** @throws ApiError 404 for an unknown or expired id */
    Session get(String id) {
        Session s = byId.get(id);
        if (s == null) throw ApiError.notFound("unknown_session", "no session '" + abbreviate(id) + "' (closed, expired after "
                + TimeUnit.NANOSECONDS.toSeconds(ttlNanos) + " s idle, or never created)");
        s.touch();
        return s;
    }

    boolean remove(String id) {
        if (byId.remove(id) != null) {
            reserved.decrementAndGet();
            return true;
        }
        return false;
    }

    int size() { return byId.size(); }

    int max() { return max; }

    void sweep() {
        long now = System.nanoTime();
        byId.forEach((id, s) -> {
            if (s.idleNanos(now) > ttlNanos && byId.remove(id, s)) reserved.decrementAndGet();
        });
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
        byId.clear();
    }
}
