package dev.openagent.oracle;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.ToolSpec;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * The calls an answer asks for before the call it answers can go on: a tool it names (a renewal, a token, a wait) or
 * an earlier call to redo (a result it gave went stale).
 */
final class Helpers {
    private final Outbox outbox;
    private final ShownTools tools;
    private final Arguments arguments;
    private final LabelReader labels;
    /** Unawaited calls whose answer's helper was called. */
    private final Set<String> helpedFor = new HashSet<>();
    /** The latest helper call an answer asked for (a renewal, a token, a completion), or null. */
    String lastHelper;

    Helpers(Outbox outbox, ShownTools tools, Arguments arguments, LabelReader labels) {
        this.outbox = outbox;
        this.tools = tools;
        this.arguments = arguments;
        this.labels = labels;
    }

    /** Sends a helper call: it becomes the latest helper. */
    Action call(String tool, ObjectNode args) {
        String id = outbox.nextId();
        lastHelper = id;
        return outbox.send(tool, args, id, false);
    }

    /** Whether a helper answered for the call was called already (it is then not called again for that answer). */
    boolean helped(String callId) { return helpedFor.contains(callId); }

    /**
     * The helper the answer to an unawaited call names (a renewal, a token: "Call renew_session ..."), with its
     * arguments; null when it names none or it was already called for that answer. Asked only when the call did not
     * show what it was made for.
     */
    Action helperFor(String callId) {
        if (callId == null || !helpedFor.add(callId)) return null;
        String said = outbox.textOf(callId);
        String called = outbox.tool(callId);
        ToolSpec named = tools.oneToolNamed(said, called);
        if (named == null) return null;
        ObjectNode args = arguments.argsFor(named, said, tools.shownTool(called), outbox.args(callId));
        if (args == null) return null;
        return call(tools.replaced(named.name()), args);
    }

    /**
     * The call an answer says to redo ("Call X again with the same arguments as before ({...})"), sent as a helper:
     * the earlier call to X whose values the quoted arguments hold (as it was sent, in the names this tool shows),
     * else the quoted arguments themselves; null when the answer names no such call.
     */
    Action redo(String said) {
        Matcher m = Answers.REDO.matcher(said);
        if (!m.find()) return null;
        String name = m.group(1);
        // The same tool as the call it serves may be named: an earlier call of it, with other arguments.
        if (tools.listed(name).isEmpty() && tools.shownTool(name) == null) return null;
        ObjectNode quoted;
        try (var parser = Json.MAPPER.createParser(said.substring(m.end()))) {
            quoted = parser.readValueAsTree() instanceof ObjectNode o ? o : null;
        } catch (java.io.IOException notJson) {
            return null;
        }
        if (quoted == null) return null;
        List<String> wanted = JsonValues.leaves(quoted);
        ObjectNode args = null;
        int best = 0;
        boolean bestAnswered = false;
        int fewestExtra = Integer.MAX_VALUE;
        int latest = -1;
        for (var e : outbox.sentArgs.entrySet()) {
            if (!tools.replaced(outbox.tool(e.getKey())).equals(tools.replaced(name)) || !e.getKey().startsWith("view_")) continue;
            List<String> have = JsonValues.leaves(e.getValue());
            // The earlier call holding most of the quoted values; among equals one that was answered (not refused
            // for want of a token); then the one sending fewest parameters the quote does not name (not a later
            // page's cursor: the service may serve pages from what it fetched before, so only the first page's call
            // is a call again); then the latest (it carries what other layers asked of that tool since, a token).
            int held = (int) wanted.stream().filter(have::contains).count();
            String itsAnswer = outbox.textOf(e.getKey());
            boolean answered = !itsAnswer.isBlank() && Answers.answered(itsAnswer);
            int extra = 0;
            for (var f = e.getValue().fieldNames(); f.hasNext(); ) if (!quoted.has(f.next())) extra++;
            int n = Integer.parseInt(e.getKey().substring("view_".length()));
            // (a call quoted without arguments is the latest call of that tool).
            boolean better = held > best || held == best && (answered && !bestAnswered
                    || answered == bestAnswered && (extra < fewestExtra || extra == fewestExtra && n > latest));
            if ((held > 0 || wanted.isEmpty()) && better) {
                best = held;
                bestAnswered = answered;
                fewestExtra = extra;
                latest = n;
                args = e.getValue().deepCopy();
            }
        }
        if (args == null) args = quoted;
        // What the quote does not name but the tool requires (a token another shift asks for) as answers label it
        // now: an earlier call's token may have been renewed since.
        ToolSpec redone = tools.shownTool(tools.replaced(name));
        if (redone != null) {
            for (String r : Descriptions.required(redone.parameters())) {
                // Not a parameter carrying a quoted value, whatever its name now (a renamed one).
                boolean carries = args.has(r) && wanted.contains(args.get(r).isValueNode() ? args.get(r).asText() : args.get(r).toString());
                String now = quoted.has(r) || !args.has(r) || carries ? null : labels.labeled(r);
                if (now != null) args.put(r, now);
            }
        }
        return call(tools.replaced(name), args);
    }
}
