package dev.openagent.shift.obs;

import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
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
public final class AuthExpiry extends ShiftEnv {
    public static final Shift SHIFT = new Shift("obs.auth-expiry", Tier.INTERACTION, Dimension.O,
            "Mid-episode a call fails with an authentication error naming the tool that renews access; after renewing, the call succeeds.",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "access is renewed by calling a tool"), AuthExpiry::new);

    private String renewTool;
    private int calls;
    private int expiries;
    private boolean expired;
    private int renewals;
    /** Whether a call of the latest turn was refused for an expired session. */
    private boolean refused;

    private AuthExpiry(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params);
    }

    @Override
    protected Start begin(Start in) {
        Set<String> names = new HashSet<>();
        in.tools().forEach(t -> names.add(t.name()));
        renewTool = "renew_session";
        while (names.contains(renewTool)) renewTool = renewTool + "_";
        calls = 0;
        expiries = 0;
        expired = false;
        renewals = 0;
        List<ToolSpec> tools = new ArrayList<>(in.tools());
        tools.add(new ToolSpec(renewTool, "Renews an expired session. Call it when a tool answers 401 Unauthorized; it takes no parameters.", Schemas.empty()));
        return in.withTools(tools);
    }

    /** Whether the session expires before the call with this index (0-based, counting calls that reach the service). */
    private boolean expiresAt(int index) {
        int first = inner.task().plan().calls().size() > 1 ? 1 : 0;
        if (index < first || expiries >= severity()) return false;
        if (expiries == 0) return index == first;
        return severity() >= 2 && index >= first + 2 * expiries;
    }

    @Override
    protected Route route(Action.ToolCall call) {
        if (call.name().equals(renewTool)) {
            expired = false;
            renewals++;
            var out = Json.object("status", "renewed", "session", "s" + renewals + "-" + Long.toString(rnd.nextLong() & 0xFFFFFFL, 36));
            return new Reply(Observation.tool(call.id(), call.name(), Json.write(out), out));
        }
        if (Protocol.ASK_USER.equals(call.name())) return new Forward(call);
        if (!expired && expiresAt(calls)) {
            expired = true;
            expiries++;
        }
        if (expired) {
            refused = true;
            return new Reply(error(call, ToolError.Code.DOMAIN, "401 Unauthorized: the session expired. Call " + renewTool
                    + " to renew access, then repeat the call."));
        }
        calls++;
        return new Forward(call);
    }

    @Override
    protected Step act(Action action) {
        refused = false;
        return super.act(action);
    }

    @Override
    public Guide guide() {
        return new LayerGuide(inner.guide(), this) {
            private Action lastAction;
            private boolean renewing;

            @Override
            public Action next(Step last) {
                if (renewing) {
                    renewing = false;
                    return lastAction;   // renewed: the refused action again
                }
                if (refused && lastAction != null) {
                    renewing = true;
                    return Action.CallTools.of("renew_" + renewals, renewTool, "{}");
                }
                lastAction = innerNext();
                return lastAction;
            }
        };
    }
}
