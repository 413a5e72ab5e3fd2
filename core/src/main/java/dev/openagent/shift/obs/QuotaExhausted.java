package dev.openagent.shift.obs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Commands;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.LayerGuide;
import dev.openagent.shift.Schemas;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Sign;
import dev.openagent.shift.TextVerbs;
import dev.openagent.shift.Texts;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * obs.quota-exhausted: mid-episode a tool's rate limit runs out. A call answers "429 Too Many Requests" with a
 * {@code Retry-After: N} line and fails the same way however often it is retried at once, until the agent waits:
 * a {@code wait} tool is listed ("waits seconds on the service's clock"; the time is virtual, nothing sleeps), and
 * once the episode's clock has advanced by N seconds the call succeeds. Waiting less keeps the call failing, with
 * the seconds that remain as its Retry-After. The quota runs out at the second call that reaches the service (the
 * first when the task needs only one). Severity 1: only the tool of that call is limited, for 10 s; 2: every tool,
 * for 30 s; 3: every tool, for 60 s, and it runs out once more two calls after it is restored. A refused call
 * never reaches the service, and a {@code wait} call never does either (so it changes nothing the task checks).
 * <p>
 * In a text-command environment the commands are the tools (a command's verb is what is limited; {@code help} and
 * {@code ask} never are), {@code help} lists {@code wait <seconds>}, and a refused command answers "Nothing happens:
 * 429 Too Many Requests ..." with the same Retry-After line and "Write 'wait N', then the same command again."
 */
public final class QuotaExhausted extends ShiftEnv<QuotaExhausted.Episode> {
    public static final Shift SHIFT = new Shift("obs.quota-exhausted", Tier.INTERACTION, Dimension.O,
            "Mid-episode a tool answers 429 Too Many Requests with a Retry-After and keeps failing on immediate retries; waiting that long (a listed wait tool) restores it.",
            List.of(Shift.SEVERITY), QuotaExhausted::new)
            .seenAs(Sign.RATE_LIMITED, Sign.WAIT_TOOL_ADDED);

    /** The longest wait one call may ask for, in seconds. */
    static final int MAX_WAIT = 3600;

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        String waitTool;
        /** The episode's clock in seconds: only waiting advances it. */
        long clock;
        /** Calls that reached the service. */
        int calls;
        int exhaustions;
        /** Until when (on the clock) the quota is out, and for which tool (null: every tool); -1 when it is not. */
        long until = -1;
        String limited;
        /** The call index at which the quota was last restored. */
        int restoredAt;
        /** The seconds the latest turn's refusal asked to wait (0: no call of the latest turn was refused). */
        long refusedFor;
    }

    private QuotaExhausted(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    /** How long the quota stays out, in seconds, by severity. */
    private int retryAfter() {
        return switch (severity()) { case 1 -> 10; case 2 -> 30; default -> 60; };
    }

    @Override
    protected Start begin(Start in) {
        if (textCommand()) return in;   // help lists the wait command
        Set<String> names = new HashSet<>();
        in.tools().forEach(t -> names.add(t.name()));
        ep.waitTool = "wait";
        while (names.contains(ep.waitTool)) ep.waitTool = ep.waitTool + "_";
        ObjectNode schema = Schemas.withParam(Schemas.empty(), "seconds", "integer",
                "How many seconds to wait: the retry_after (Retry-After) a 429 error gave.", true);
        ((ObjectNode) schema.path("properties").path("seconds")).put("minimum", 1).put("maximum", MAX_WAIT);
        List<ToolSpec> tools = new ArrayList<>(in.tools());
        tools.add(new ToolSpec(ep.waitTool, "Waits the given number of seconds on the service's clock before your next call (no real time passes). "
                + "Call it when a tool answers 429 Too Many Requests, with the seconds its Retry-After gives, then repeat the call.", schema));
        return in.withTools(tools);
    }

    /** Whether the quota runs out before the call with this index (0-based, counting calls that reach the service). */
    private boolean runsOutAt(int index) {
        int first = inner.task().plan().calls().size() > 1 ? 1 : 0;
        if (ep.exhaustions == 0) return index == first;
        return severity() == 3 && ep.exhaustions == 1 && index >= ep.restoredAt + 2;
    }

    @Override
    protected Route route(Action.ToolCall call) {
        if (call.name().equals(ep.waitTool)) {
            ObjectNode args = Texts.argsObject(call.arguments());
            JsonNode s = args == null ? null : args.get("seconds");
            long seconds = s == null ? -1 : s.isIntegralNumber() ? s.asLong() : s.isTextual() ? seconds(s.asText()) : -1;
            if (!waits(seconds)) return new Reply(error(call, ToolError.Code.INVALID_ARGUMENTS, "seconds must be a whole number from 1 to " + MAX_WAIT));
            ObjectNode out = Json.object("waited_seconds", seconds, "clock_seconds", ep.clock);
            return new Reply(Observation.tool(call.id(), call.name(), Json.write(out), out));
        }
        if (Protocol.ASK_USER.equals(call.name())) return new Forward(call);
        long left = refusal(call.name());
        if (left > 0) {
            String whose = ep.limited == null ? "this service's rate limit (every tool)" : "the rate limit of " + call.name();
            return new Reply(error(call, ToolError.Code.TRANSIENT, "429 Too Many Requests: " + whose
                    + " is used up; calling again at once fails the same way.\nRetry-After: " + left
                    + "\nCall " + ep.waitTool + " with seconds=" + left + ", then repeat the call."));
        }
        return new Forward(call);
    }

    /**
     * Whether a call of this tool (or command verb) is refused, and for how many more seconds (0: it goes through,
     * and is counted as reaching the service).
     */
    private long refusal(String tool) {
        if (ep.until >= 0 && ep.clock >= ep.until) {
            ep.until = -1;
            ep.restoredAt = ep.calls;
        }
        if (ep.until < 0 && runsOutAt(ep.calls)) {
            ep.exhaustions++;
            ep.until = ep.clock + retryAfter();
            ep.limited = severity() == 1 ? tool : null;
        }
        if (ep.until >= 0 && (ep.limited == null || ep.limited.equals(tool))) {
            long left = ep.until - ep.clock;
            ep.refusedFor = Math.max(ep.refusedFor, left);
            return left;
        }
        ep.calls++;
        return 0;
    }

    /** Advances the clock by a valid wait; whether it was one (1 to {@link #MAX_WAIT} whole seconds). */
    private boolean waits(long seconds) {
        if (seconds < 1 || seconds > MAX_WAIT) return false;
        ep.clock += seconds;
        return true;
    }

    private static long seconds(String text) {
        String t = text.strip();
        return t.matches("\\d{1,9}") ? Long.parseLong(t) : -1;
    }

    /** The wait command of a text-command environment. */
    static final String WAIT = "wait";

    @Override
    protected Step act(Action action) {
        if (!textCommand() || !(action instanceof Action.Command c)) return super.act(action);
        String text = Commands.normalize(c.text());
        if (Protocol.isHelp(text)) {
            Step s = forward(action);
            return s.withObservations(s.observations().stream().map(o -> o.isError() ? o
                    : o.withText(TextVerbs.withLine(o.text(), WAIT + " <seconds>", "let that many seconds pass on the service's clock (after a 429)"))).toList());
        }
        String arg = Commands.after(text, WAIT);
        if (arg != null) {
            long seconds = seconds(arg);
            boolean waited = waits(seconds);
            String said = waited ? "You wait " + seconds + " seconds (the service's clock is now at " + ep.clock + " s)."
                    : "Wait how long? Write 'wait <seconds>' with a whole number from 1 to " + MAX_WAIT + ".";
            return local(List.of(new Observation(Observation.Source.ENV, null, null, said, null,
                    waited ? null : ToolError.of(ToolError.Code.INVALID_ARGUMENTS, said))));
        }
        if (Commands.after(text, Protocol.ASK_COMMAND) != null) return super.act(action);
        String verb = TextVerbs.verbOf(text, TextVerbs.verbs(inner.info()));
        String limited = verb != null ? verb : text.split(" ", 2)[0];
        long left = refusal(limited);
        if (left == 0) return super.act(action);
        String whose = ep.limited == null ? "the rate limit of every command" : "the rate limit of '" + limited + "'";
        String said = "Nothing happens: 429 Too Many Requests: " + whose + " is used up; sending it again at once fails the same way.\nRetry-After: "
                + left + "\nWrite '" + WAIT + " " + left + "', then the same command again.";
        return local(List.of(new Observation(Observation.Source.ENV, null, null, said, null, ToolError.of(ToolError.Code.TRANSIENT, said))));
    }

    @Override
    protected void newTurn() { ep.refusedFor = 0; }

    /** The oracle waits what a refusal asked for, then sends the refused action again. */
    @Override
    public Guide guide() {
        return LayerGuide.recovering(inner.guide(), this, () -> ep.refusedFor <= 0 ? null : textCommand() ? new Action.Command(WAIT + " " + ep.refusedFor)
                : Action.CallTools.of("wait_" + ep.exhaustions + "_" + ep.clock, ep.waitTool, "{\"seconds\": " + ep.refusedFor + "}"));
    }
}
