package dev.openagent.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.sandbox.Alternative;
import dev.openagent.sandbox.GoldPlan;

import java.util.ArrayList;
import java.util.List;

/** A plan being carried out: the task's, or another path to a removed tool ({@link Alternative}). */
final class Frame {
    final GoldPlan plan;
    final Alternative path;
    final ObjectNode pathArgs;
    final Frame parent;
    final List<JsonNode> results = new ArrayList<>();
    /** Per step: the shown tool, what was sent and every call made for it (pages, repeats). */
    final List<Sent> sent = new ArrayList<>();
    /** Per step, for a step done by another path: the world's answers to the path's calls (else null). */
    final List<List<JsonNode>> pathResults = new ArrayList<>();

    Frame(GoldPlan plan) {
        this(plan, null, null, null);
    }

    Frame(GoldPlan plan, Alternative path, ObjectNode pathArgs, Frame parent) {
        this.plan = plan;
        this.path = path;
        this.pathArgs = pathArgs;
        this.parent = parent;
    }

    int step() { return results.size(); }

    /** The next call, or null when the frame is done. */
    GoldPlan.Call current() {
        if (path != null) return path.next().apply(pathArgs, results);
        return step() < plan.calls().size() ? plan.calls().get(step()) : null;
    }

    boolean refusing() { return plan.refuse(); }

    /** The latest earlier step whose world result holds the value, or -1. */
    int stepHolding(String value) {
        for (int k = results.size() - 1; k >= 0; k--) {
            JsonNode r = results.get(k);
            if (r != null && JsonValues.pointerOf(r, value) != null) return k;
        }
        return -1;
    }

    /**
     * Whether a value of a step done by another path is the path's own computation (a deadline from a delivery
     * date and a return window, a count of a list), as the environment declares the path: it stands in none of
     * the world's answers to the path's calls, so it was worked out, not hidden. A value that does stand there
     * must have been shown.
     */
    boolean derived(int step, String value) {
        List<JsonNode> answers = step < pathResults.size() ? pathResults.get(step) : null;
        if (answers == null) return false;
        for (JsonNode a : answers) if (a != null && JsonValues.pointerOf(a, value) != null) return false;
        return true;
    }
}
