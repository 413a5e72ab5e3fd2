package dev.openagent.sandbox;

/** Deterministic seed derivation (SplitMix64 finaliser): independent streams from one seed. */
public final class Seeds {
    private Seeds() {}

    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    public static long mix(long a, long b) {
        return mix(a * 0x9E3779B97F4A7C15L + mix(b));
    }

    /** The seed of the episode a request starts: worlds, tasks and shifts derive from it. */
    public static long episode(TaskRequest request) {
        return mix(mix(request.seed(), request.split().ordinal()), request.difficulty());
    }

    /** A seed for a named purpose (for example a shift id) derived from an episode seed. */
    public static long derive(long seed, String purpose) {
        return mix(seed, purpose.hashCode() * 0x632BE59BD9B4E019L + purpose.length());
    }
}
