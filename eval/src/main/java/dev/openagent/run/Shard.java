package dev.openagent.run;

import dev.openagent.results.EpisodeKey;
import dev.openagent.UserInputException;

/**
 * One part of an experiment's episodes: shard {@code index} of {@code count}. An episode belongs to
 * the shard its key's id hashes to, so N processes started anywhere (a Kubernetes Indexed Job, a
 * loop over ssh) cover every episode exactly once, without talking to each other, and an episode
 * stays in its shard when the experiment grows.
 */
public record Shard(int index, int count) {
    /** The whole experiment. */
    public static final Shard ALL = new Shard(0, 1);

    public Shard {
        if (count < 1) throw new UserInputException("the shard count must be at least 1 (got " + count + ")");
        if (index < 0 || index >= count) {
            throw new UserInputException("shard index " + index + " is out of range for " + count + " shard(s): indices run from 0 to " + (count - 1));
        }
    }

    /** Reads {@code I/N} (0-based index {@code I} of {@code N} shards), as {@code --shard} takes it. */
    public static Shard parse(String spec) {
        String s = spec.strip();
        int slash = s.indexOf('/');
        if (slash < 0) throw new UserInputException("shard '" + spec + "' must be I/N: the 0-based index I of N shards, such as 0/3");
        int index, count;
        try {
            index = Integer.parseInt(s.substring(0, slash).strip());
            count = Integer.parseInt(s.substring(slash + 1).strip());
        } catch (NumberFormatException e) {
            throw new UserInputException("shard '" + spec + "' must be I/N with whole numbers: the 0-based index I of N shards, such as 0/3");
        }
        try {
            return new Shard(index, count);
        } catch (IllegalArgumentException e) {
            throw new UserInputException("shard '" + spec + "': " + e.getMessage());
        }
    }

    /**
     * The shard a process runs, from {@code --shard I/N} ({@code flag}), {@code --shards N}
     * ({@code count}) and the environment variable {@code JOB_COMPLETION_INDEX} that a Kubernetes
     * Indexed Job sets in each pod ({@code jobIndex}); the flag wins over the variable.
     */
    public static Shard of(String flag, Integer count, String jobIndex) {
        if (flag != null) {
            Shard s = parse(flag);
            if (count != null && count != s.count()) throw new UserInputException("--shard " + flag + " and --shards " + count + " disagree on the shard count");
            return s;
        }
        if (jobIndex != null && !jobIndex.isBlank()) {
            if (count == null) {
                throw new UserInputException("JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but not the shard count: give --shards N (the Job's completions)");
            }
            int index;
            try {
                index = Integer.parseInt(jobIndex.strip());
            } catch (NumberFormatException e) {
                throw new UserInputException("JOB_COMPLETION_INDEX='" + jobIndex + "' is not a whole number");
            }
            try {
                return new Shard(index, count);
            } catch (IllegalArgumentException e) {
                throw new UserInputException("JOB_COMPLETION_INDEX=" + index + " with --shards " + count + ": " + e.getMessage());
            }
        }
        if (count == null || count == 1) return ALL;
        if (count < 1) throw new UserInputException("--shards must be at least 1 (got " + count + ")");
        throw new UserInputException("--shards " + count + " needs this process's index: --shard I/" + count
                + ", or JOB_COMPLETION_INDEX (set by a Kubernetes Indexed Job)");
    }

    public boolean whole() { return count == 1; }

    /** Whether the episode is this shard's: the first 60 bits of its id (a SHA-256 in hex) modulo the shard count. */
    public boolean contains(EpisodeKey key) {
        return contains(key.id());
    }

    /** As {@link #contains(EpisodeKey)}, by the episode's id ({@link EpisodeKey#id()}). */
    public boolean contains(String episodeId) {
        return count == 1 || Long.remainderUnsigned(Long.parseUnsignedLong(episodeId.substring(0, 15), 16), count) == index;
    }

    @Override
    public String toString() { return index + "/" + count; }
}
