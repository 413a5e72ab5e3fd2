package dev.openagent.agent.openai;

import dev.openagent.UserInputException;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Bounded retries with exponential backoff and jitter: attempt {@code i} (0-based) waits a random
 * time between half and all of {@code min(maxDelay, baseDelay * 2^i)}. A server's Retry-After is
 * honoured when it asks for longer (capped by {@link #MAX_RETRY_AFTER}, so a bogus header cannot
 * stall a run for hours).
 *
 * @param maxRetries retries after the first attempt (0 = one attempt only)
 */
public record RetryPolicy(int maxRetries, Duration baseDelay, Duration maxDelay) {
    public static final Duration MAX_RETRY_AFTER = Duration.ofMinutes(5);
    public static final RetryPolicy DEFAULT = new RetryPolicy(4, Duration.ofMillis(500), Duration.ofSeconds(30));

    public RetryPolicy {
        if (maxRetries < 0) throw new UserInputException("retries must be >= 0");
        if (baseDelay.isNegative() || maxDelay.isNegative()) throw new UserInputException("negative retry delay");
    }

    public RetryPolicy withMaxRetries(int n) { return new RetryPolicy(n, baseDelay, maxDelay); }

    /** How long to wait before retry number {@code attempt + 1}. */
    public Duration delay(int attempt, Duration retryAfter) {
        long cap = maxDelay.toMillis();
        long exp = Math.min(cap, baseDelay.toMillis() << Math.min(attempt, 20));
        long jittered = exp <= 0 ? 0 : exp / 2 + ThreadLocalRandom.current().nextLong(exp / 2 + 1);
        Duration d = Duration.ofMillis(jittered);
        if (retryAfter != null) {
            Duration asked = retryAfter.compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER : retryAfter;
            if (asked.compareTo(d) > 0) d = asked;
        }
        return d;
    }
}
