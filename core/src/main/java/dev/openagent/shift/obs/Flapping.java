package dev.openagent.shift.obs;

import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Commands;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.ToolError;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.LayerGuide;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Sign;
import dev.openagent.shift.TextVerbs;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * obs.flapping: a tool goes down and up by turns, persistently and per tool: a flapping tool is down for k calls,
 * then up for k calls, then down again, and so on for the whole episode, so a success says nothing about the next
 * call (unlike obs.runtime-error, whose failures are drawn at random and stop once retried). A call to a tool that is
 * down answers 503 Service Unavailable, says the tool is flapping and to retry; it never reaches the service. Every
 * flapping tool starts down. Severity 1: only the first tool the episode calls flaps, k = 1; 2: every tool, k = 1;
 * 3: every tool, k = 2. Questions to the user never fail.
 * <p>
 * A turn that calls several tools is refused whole when one of them is down (so no call of it reaches the service
 * twice when the agent retries it); only the calls of tools that were down count as their tries. In a text-command
 * environment a command's verb is the tool ({@code help} and {@code ask} never flap), and a refused command answers
 * "Nothing happens: ... Try the same command again." Each refused turn is granted back to the episode (a tool is down
 * at most k calls in a row, and only when it was up as many calls before, so a looping agent still meets the limit).
 */
public final class Flapping extends ShiftEnv<Flapping.Episode> {
    public static final Shift SHIFT = new Shift("obs.flapping", Tier.INTERACTION, Dimension.O,
            "A tool alternates failure and success over calls (down k calls, up k calls, for the whole episode); a success does not mean the next call works, and a retry gets through.",
            List.of(Shift.SEVERITY), Flapping::new).seenAs(Sign.FLAPPING);

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        /** Calls of each tool (or verb) counted so far: those that got through and those refused because it was down. */
        final Map<String, Integer> calls = new HashMap<>();
        /** The one tool that flaps at severity 1 (the first the episode calls), or null before the first call. */
        String flapper;
        /** Whether the latest turn was refused here. */
        boolean hit;
    }

    private Flapping(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    /** How many calls a flapping tool is down, then up, in a row. */
    private int k() {
        return severity() >= 3 ? 2 : 1;
    }

    /** Whether this tool flaps in this episode (at severity 1: the first tool the episode called). */
    private boolean flaps(String tool) {
        if (ep.flapper == null) ep.flapper = tool;
        return severity() >= 2 || ep.flapper.equals(tool);
    }

    /** Whether the tool is down for its next call: down for k calls, up for k, from its first call on. */
    private boolean down(String tool) {
        return flaps(tool) && (ep.calls.getOrDefault(tool, 0) / k()) % 2 == 0;
    }

    @Override
    protected void newTurn() { ep.hit = false; }

    @Override
    protected Step act(Action action) {
        Set<String> targets = new LinkedHashSet<>();
        switch (action) {
            case Action.CallTools c -> c.calls().stream().map(Action.ToolCall::name).filter(n -> !Protocol.ASK_USER.equals(n) && !n.isEmpty()).forEach(targets::add);
            case Action.Command c when textCommand() -> {
                String text = Commands.normalize(c.text());
                String verb = TextVerbs.verbOf(text, TextVerbs.verbs(inner.info()));
                if (verb != null && !Protocol.isHelp(text) && Commands.after(text, Protocol.ASK_COMMAND) == null) targets.add(verb);
            }
            default -> { }
        }
        List<String> downs = targets.stream().filter(this::down).toList();
        if (downs.isEmpty()) {
            targets.forEach(t -> ep.calls.merge(t, 1, Integer::sum));
            return super.act(action);
        }
        downs.forEach(t -> ep.calls.merge(t, 1, Integer::sum));
        ep.hit = true;
        inner.grantTurns(1);
        List<Observation> out = new ArrayList<>();
        if (action instanceof Action.CallTools c) {
            for (Action.ToolCall call : c.calls()) {
                String msg = downs.contains(call.name()) ? message(call.name())
                        : "503 Service Unavailable: not run, because " + String.join(" and ", downs) + " in the same turn was down; retry the same calls";
                out.add(Observation.toolError(call.id(), call.name(), ToolError.of(ToolError.Code.TRANSIENT, msg)));
            }
        } else {
            String said = "Nothing happens: '" + downs.getFirst() + "' is flapping (it goes down and comes back by turns; an earlier success does not "
                    + "mean it works now) and is down for this command. Try the same command again.";
            out.add(new Observation(Observation.Source.ENV, null, null, said, null, ToolError.of(ToolError.Code.TRANSIENT, said)));
        }
        return local(out);
    }

    private String message(String tool) {
        return "503 Service Unavailable: " + tool + " is flapping (it goes down and comes back by turns; an earlier success does not mean it is up now) "
                + "and is down for this call, which did not reach the service; retry the same call";
    }

    /** The oracle sends a refused turn again, as an agent retries. */
    @Override
    public Guide guide() {
        return LayerGuide.retrying(inner.guide(), this, () -> ep.hit);
    }
}
