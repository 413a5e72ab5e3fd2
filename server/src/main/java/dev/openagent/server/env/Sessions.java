package dev.openagent.server.env;

import dev.openagent.UserInputException;
import dev.openagent.server.http.ApiError;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The live sessions: at most {@code max} at once, WebSocket connections and HTTP sessions
 * together. HTTP sessions are kept here by id (128 random bits, so one client cannot guess
 * another's) and dropped after {@code idleTtl} without a request; a WebSocket session lives as
 * long as its connection (whose idle timeout is the same TTL) and only holds a slot here.
 */
final class Sessions implements AutoCloseable {
    private final ConcurrentHashMap<String, Session> byId = new ConcurrentHashMap<>();
    private final AtomicInteger open = new AtomicInteger();
    private final int max;
    private final long ttlNanos;
    private final SecureRandom random = new SecureRandom();
    private final ScheduledExecutorService sweeper;

    Sessions(int max, Duration idleTtl) {
        if (max < 1) throw new UserInputException("--max-sessions must be at least 1");
        if (idleTtl.isNegative() || idleTtl.isZero()) throw new UserInputException("--idle-ttl must be positive");
        this.max = max;
        this.ttlNanos = idleTtl.toNanos();
        this.sweeper = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("session-sweeper").factory());
        long every = Math.max(50, Math.min(idleTtl.toMillis() / 4, 30_000));
        sweeper.scheduleWithFixedDelay(this::sweep, every, every, TimeUnit.MILLISECONDS);
    }

    /** Takes a slot; false when all {@code max} are in use (even after dropping expired HTTP sessions). */
    boolean reserve() {
        if (open.incrementAndGet() <= max) return true;
        open.decrementAndGet();
        sweep();
        if (open.incrementAndGet() <= max) return true;
        open.decrementAndGet();
        return false;
    }

    /** Gives back a slot taken by {@link #reserve()}. */
    void release() { open.decrementAndGet(); }

    /** A new HTTP session with a fresh id, registered. @throws ApiError 429 when every slot is taken */
    Session createHttp(dev.openagent.registry.Catalog catalog, EnvServer.Defaults defaults, boolean oracleAllowed) {
        if (!reserve()) throw new ApiError(429, "too_many_sessions", capacityMessage());
        Session s = new Session(newId(), catalog, defaults, oracleAllowed);
        byId.put(s.id, s);
        return s;
    }

    String capacityMessage() {
        return "the server holds its maximum of " + max + " sessions; close sessions you no longer use, or wait for idle ones to expire";
    }

    private String newId() {
        byte[] b = new byte[16];
        random.nextBytes(b);
        return HexFormat.of().formatHex(b);
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
            release();
            return true;
        }
        return false;
    }

    /** Sessions open now: HTTP sessions and WebSocket connections. */
    int size() { return open.get(); }

    int max() { return max; }

    void sweep() {
        long now = System.nanoTime();
        byId.forEach((id, s) -> {
            if (s.idleNanos(now) > ttlNanos && byId.remove(id, s)) release();
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
