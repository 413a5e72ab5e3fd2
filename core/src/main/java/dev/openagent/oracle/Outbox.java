package dev.openagent.oracle;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The view solver's side of the conversation: every call and command it sent, with what, and the plan step it awaits
 * the world's confirmation of.
 */
final class Outbox {
    private final View view;
    /** The arguments last sent to each shown tool. */
    private final Map<String, ObjectNode> lastArgs = new HashMap<>();
    /** The tool each call id was sent to, and with what. */
    private final Map<String, String> calledTool = new HashMap<>();
    final Map<String, ObjectNode> sentArgs = new HashMap<>();
    /** The calls made for the plan step awaited, in order. */
    final List<String> forStep = new ArrayList<>();
    /** The plan step sent and not yet confirmed, or null. */
    Awaiting awaiting;
    /** Whether the latest action sent the awaited plan step (its answer is that step's). */
    boolean lastWasAwaited;
    Action.Command lastCommand;
    String lastCommandAnswer = "";
    private int ids;

    Outbox(View view) {
        this.view = view;
    }

    String nextId() { return "view_" + ids++; }

    Action send(String tool, ObjectNode args, String id, boolean awaited) {
        lastWasAwaited = awaited;
        lastCommand = null;
        lastArgs.put(tool, args.deepCopy());
        calledTool.put(id, tool);
        sentArgs.put(id, args.deepCopy());
        if (awaiting != null) forStep.add(id);
        return Action.CallTools.of(id, tool, Json.write(args));
    }

    Action sendCommand(String text, boolean awaited) {
        lastWasAwaited = awaited;
        lastCommand = new Action.Command(text);
        return lastCommand;
    }

    /** A question to the user, asked with the tool for it. */
    Action askWithTool(String tool, String question) {
        lastWasAwaited = false;
        lastCommand = null;
        return Action.CallTools.of(nextId(), tool, Json.write(Json.object("question", question)));
    }

    /** The tool a call was sent to (as named then), or null. */
    String tool(String callId) { return calledTool.get(callId); }

    /** The tool a call was sent to, or the given name when no call has that id. */
    String tool(String callId, String orElse) { return calledTool.getOrDefault(callId, orElse); }

    /** What a call was sent with, or null. */
    ObjectNode args(String callId) { return sentArgs.get(callId); }

    /** What was last sent to a shown tool, or null. */
    ObjectNode lastArgs(String tool) { return lastArgs.get(tool); }

    /** Everything that answered a call, as one text. */
    String textOf(String callId) {
        return view.answers(callId).stream().map(View.Shown::text).reduce("", (x, y) -> x + y + "\n");
    }
}
