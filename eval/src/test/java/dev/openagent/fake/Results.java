package dev.openagent.fake;

import dev.openagent.episode.Message;
import dev.openagent.episode.Stats;
import dev.openagent.episode.Trajectory;
import dev.openagent.results.EpisodeKey;
import dev.openagent.results.EpisodeResult;
import dev.openagent.results.GoldFacts;
import dev.openagent.sandbox.Outcome;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Hand-made episode results for metric and report tests. */
public final class Results {
    private Results() {}

    /** A one-turn episode that answered (or refused, or errored) with the given result. */
    public static EpisodeResult episode(String agent, String shift, String tier, long taskSeed, int trial, boolean success,
                                        boolean solvable, Outcome.End end) {
        Outcome outcome = new Outcome(success, end, success ? "correct" : "wrong");
        String finalText = end == Outcome.End.REFUSED ? "CANNOT COMPLETE: no" : "The answer is " + taskSeed + ".";
        List<Message> messages = List.of(Message.system("You are an assistant."), Message.user("Task " + taskSeed + "?"),
                Message.assistantCalls(List.of(Message.ToolCall.of("c0", "search_places", "{\"name\":\"x\"}"))),
                Message.tool("c0", "search_places", "{\"count\":1}", null),
                Message.assistant(finalText));
        Trajectory t = new Trajectory("poi", "poi/test/" + taskSeed + "/1", "test", taskSeed, 1, "rating_lookup", solvable, List.of(),
                agent, List.of(), messages, outcome, new Stats(2, 1, 0, Map.of(), 100, 20));
        return new EpisodeResult(new EpisodeKey("cfg", agent, "poi", shift, taskSeed, trial), tier, (int) taskSeed,
                outcome, end == Outcome.End.INFRA_ERROR ? null : t, new GoldFacts(1, List.of("search_places")), 5);
    }

    public static EpisodeResult answered(String agent, String shift, String tier, long taskSeed, boolean success) {
        return episode(agent, shift, tier, taskSeed, 0, success, true, Outcome.End.ANSWERED);
    }

    /**
     * The stored episode with {@code saved}'s id, asserted to have come back as it was saved (outcome,
     * trajectory, key), among {@code count} stored episodes.
     */
    public static EpisodeResult assertReadBack(List<EpisodeResult> stored, int count, EpisodeResult saved) {
        assertEquals(count, stored.size());
        EpisodeResult back = stored(stored, saved.id());
        assertEquals(saved.outcome(), back.outcome());
        assertEquals(saved.trajectory().toJson(), back.trajectory().toJson());
        assertEquals(saved.key(), back.key());
        return back;
    }

    /** The stored episode of this id. */
    public static EpisodeResult stored(List<EpisodeResult> stored, String id) {
        return stored.stream().filter(e -> e.id().equals(id)).findFirst().orElseThrow();
    }
}
