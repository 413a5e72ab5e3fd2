package dev.openagent.sandbox;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The deterministic user behind {@code ask_user}: answers from the task's hidden facts when the
 * question mentions one of a fact's keywords, and "I don't know" to anything else.
 * Fact keys are keyword lists separated by '|', for example {@code "party|people|guests"}.
 */
public final class SimulatedUser {
    public static final String DONT_KNOW = "I don't know. Please go ahead with what I already told you.";

    private SimulatedUser() {}

    public static String reply(Map<String, String> facts, String question) {
        String q = Checks.normalize(question);
        List<String> replies = new ArrayList<>();
        for (var e : new TreeMap<>(facts).entrySet()) {
            for (String keyword : e.getKey().split("\\|")) {
                if (!keyword.isBlank() && q.contains(Checks.normalize(keyword))) {
                    replies.add(e.getValue());
                    break;
                }
            }
        }
        return replies.isEmpty() ? DONT_KNOW : String.join(" ", replies);
    }
}
