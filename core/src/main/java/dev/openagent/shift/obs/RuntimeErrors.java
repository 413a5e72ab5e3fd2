package dev.openagent.shift.obs;

import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.ToolError;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.Shift;
import dev.openagent.shift.Sign;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * obs.runtime-error: transient failures (timeouts, 503, rate limits) that succeed on retry.
 * An action fails before reaching the service with probability 0.2 / 0.35 / 0.5 (severity 1-3),
 * at most 1 / 2 / 3 times in a row, so retrying the same action always gets through. Questions to
 * the user never fail. Text commands fail too: "Nothing happens: the system is busy (...). Try the same
 * command again."
 */
public final class RuntimeErrors extends RetryableShift {
    public static final Shift SHIFT = new Shift("obs.runtime-error", Tier.INTERACTION, Dimension.O,
            "Transient failures (timeout, 503, rate limit) that succeed when the same call is retried.",
            List.of(Shift.SEVERITY), RuntimeErrors::new).seenAs(Sign.TRANSIENT_ERRORS, Sign.MORE_ERRORS);

    private static final List<String> MESSAGES = List.of(
            "503 Service Unavailable: the service is temporarily overloaded, please retry",
            "504 Gateway Timeout: the request timed out after 30 s, please retry",
            "429 Too Many Requests: rate limit exceeded, retry after 1 second",
            "connection reset by peer while reading the response; retry the request");

    /** The streak is counted over all actions: a failed call never reaches the service, so a retry costs nothing there. */
    private static final String EVERY_ACTION = "";

    private RuntimeErrors(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params);
    }

    @Override
    protected Step act(Action action) {
        boolean eligible = switch (action) {
            case Action.CallTools c -> c.calls().stream().anyMatch(x -> !Protocol.ASK_USER.equals(x.name()));
            case Action.Command c -> true;
            default -> false;
        };
        if (eligible && ep.strikes(EVERY_ACTION, rnd, severity())) {
            hit(EVERY_ACTION);
            String msg = MESSAGES.get(rnd.nextInt(MESSAGES.size()));
            List<Observation> out = new ArrayList<>();
            ToolError err = ToolError.of(ToolError.Code.TRANSIENT, msg);
            if (action instanceof Action.CallTools c) {
                for (Action.ToolCall call : c.calls()) out.add(Observation.toolError(call.id(), call.name(), err));
            } else {
                out.add(new Observation(Observation.Source.ENV, null, null, "Nothing happens: the system is busy (" + msg + "). Try the same command again.", null, err));
            }
            return local(out);
        }
        return super.act(action);
    }
}
