package dev.openagent.episode;

/** Model tokens spent in an episode (zero for agents without a model). */
public record Usage(long promptTokens, long completionTokens, int requests) {
    public static final Usage NONE = new Usage(0, 0, 0);

    public Usage plus(Usage o) {
        return new Usage(promptTokens + o.promptTokens, completionTokens + o.completionTokens, requests + o.requests);
    }
}
