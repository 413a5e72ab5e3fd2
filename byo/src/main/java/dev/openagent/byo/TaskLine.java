package dev.openagent.byo;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

/**
 * One task as written in the JSONL task file (docs/bring-your-own.md).
 *
 * @param split      train or test (default test)
 * @param difficulty 1..4 (default: the gold plan's dependent hops)
 * @param kind       a name to group tasks by in reports (default {@code task})
 * @param gold       the oracle's plan; an argument may be {@code {"$ref": "N"}} or {@code {"$ref": "N:/json/pointer"}}
 * @param answer     the oracle's answer; {@code {N:/pointer}} reads a result of the plan
 * @param solvable   false: no valid completion exists, a refusal is expected (the gold calls are probes)
 * @param reason     why an unsolvable task is impossible (the oracle's refusal)
 * @param details    removable spans of the query, for the underspecified and ambiguous shifts
 * @param user       what the simulated user knows beyond the query ('|'-separated keywords -> reply)
 * @param impossible the same request made impossible, for task.unsolvable
 */
record TaskLine(String id, String split, Integer difficulty, String kind, String query, List<Call> gold, String answer,
                Check check, Boolean solvable, String reason, List<DetailLine> details, Map<String, String> user,
                Impossible impossible) {
    TaskLine {
        gold = gold == null ? List.of() : gold;
        details = details == null ? List.of() : details;
        user = user == null ? Map.of() : user;
    }

    record Call(String tool, JsonNode args) {}

    record Check(List<String> answerContains, List<String> answerNotContains, List<StateCheck> state) {
        Check {
            answerContains = answerContains == null ? List.of() : answerContains;
            answerNotContains = answerNotContains == null ? List.of() : answerNotContains;
            state = state == null ? List.of() : state;
        }
    }

    /** A tool called on the real server after the episode; its result must (not) contain these texts. */
    record StateCheck(String tool, JsonNode args, JsonNode resultContains, JsonNode resultNotContains) {}

    /**
     * @param text      the span of the query a shift may remove
     * @param userReply what the simulated user replies when asked about it
     * @param keywords  '|'-separated words a question about it mentions (default: the span's words)
     * @param ambiguous removing the span leaves several things matching (query.ambiguous removes this one)
     */
    record DetailLine(String text, String userReply, String keywords, Boolean ambiguous) {}

    /** @param probes calls that show it is impossible (they may fail) */
    record Impossible(String query, String reason, List<Call> probes) {
        Impossible {
            probes = probes == null ? List.of() : probes;
        }
    }
}
