package dev.openagent.shift.obs;

import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.LayerGuide;
import dev.openagent.shift.Schemas;
import dev.openagent.shift.Shift;
import dev.openagent.shift.Sign;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * obs.auth-expiry: the session expires mid-episode. A call fails with a 401 that names the tool that renews
 * access ({@code renew_session}, listed among the tools as "renews an expired session"); until it is called
 * every call fails the same way, and after it the call succeeds. The session expires at the second call (the
 * first when the task needs only one), and up to once more (severity 2) or twice more (3), two calls after each
 * renewal. The failed call never reaches the service.
 */
public final class AuthExpiry extends ShiftEnv<AuthExpiry.Episode> {
    public static final Shift SHIFT = new Shift("obs.auth-expiry", Tier.INTERACTION, Dimension.O,
            "Mid-episode a call fails with an authentication error naming the tool that renews access; after renewing, the call succeeds.",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "access is renewed by calling a tool"), AuthExpiry::new).seenAs(Sign.AUTH_ERRORS, Sign.RENEWAL_TOOL_ADDED);

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        String renewTool;
        int calls;
        int expiries;
        boolean expired;
        int renewals;
        /** Whether a call of the latest turn was refused for an expired session. */
        boolean refused;
    }

    private AuthExpiry(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    @Override
    protected Start begin(Start in) {
        Set<String> names = new HashSet<>();
        in.tools().forEach(t -> names.add(t.name()));
        ep.renewTool = "renew_session";
        while (names.contains(ep.renewTool)) ep.renewTool = ep.renewTool + "_";
        List<ToolSpec> tools = new ArrayList<>(in.tools());
        tools.add(new ToolSpec(ep.renewTool, "Renews an expired session. Call it when a tool answers 401 Unauthorized; it takes no parameters.", Schemas.empty()));
        return in.withTools(tools);
    }

    /** Whether the session expires before the call with this index (0-based, counting calls that reach the service). */
    private boolean expiresAt(int index) {
        int first = inner.task().plan().calls().size() > 1 ? 1 : 0;
        if (index < first || ep.expiries >= severity()) return false;
        if (ep.expiries == 0) return index == first;
        return severity() >= 2 && index >= first + 2 * ep.expiries;
    }

    @Override
    protected Route route(Action.ToolCall call) {
        if (call.name().equals(ep.renewTool)) {
            ep.expired = false;
            ep.renewals++;
            var out = Json.object("status", "renewed", "session", "s" + ep.renewals + "-" + Long.toString(rnd.nextLong() & 0xFFFFFFL, 36));
            return new Reply(Observation.tool(call.id(), call.name(), Json.write(out), out));
        }
        if (Protocol.ASK_USER.equals(call.name())) return new Forward(call);
        if (!ep.expired && expiresAt(ep.calls)) {
            ep.expired = true;
            ep.expiries++;
        }
        if (ep.expired) {
            ep.refused = true;
            return new Reply(error(call, ToolError.Code.DOMAIN, "401 Unauthorized: the session expired. Call " + ep.renewTool
                    + " to renew access, then repeat the call."));
        }
        ep.calls++;
        return new Forward(call);
    }

    @Override
    protected void newTurn() { ep.refused = false; }

    @Override
    public Guide guide() {
        return LayerGuide.recovering(inner.guide(), this, () -> ep.refused ? Action.CallTools.of("renew_" + ep.renewals, ep.renewTool, "{}") : null);
    }
}
