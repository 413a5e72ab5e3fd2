package dev.openagent.shift.logic;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.GoldPlan;
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
import dev.openagent.shift.Texts;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * logic.extra-prerequisite: a new required step, an authorisation token. Protected tools take a
 * required {@code auth_token} from the new {@code get_auth_token} tool (documented in their schemas
 * and the system prompt). Severity 1 protects the tool that finishes the task and one other,
 * 2 about two thirds of the tools, 3 every tool, and tokens then expire after three calls.
 */
public final class ExtraPrerequisite extends ShiftEnv<ExtraPrerequisite.Episode> {
    public static final Shift SHIFT = new Shift("logic.extra-prerequisite", Tier.REASONING, Dimension.A,
            "A new required step: protected tools need an auth_token from a new get_auth_token tool.",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "the new step passes an authorisation token as a tool argument; commands take no arguments beyond names"), ExtraPrerequisite::new);

    static final String PARAM = "auth_token";

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        final Set<String> protectedTools = new HashSet<>();
        String tokenTool;
        String token;
        int remaining;
        int issued;
    }

    private ExtraPrerequisite(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    private int uses() { return severity() >= 3 ? 3 : Integer.MAX_VALUE; }

    @Override
    protected Start begin(Start in) {
        List<String> names = new ArrayList<>(in.tools().stream().map(ToolSpec::name).filter(n -> !Protocol.ASK_USER.equals(n)).toList());
        ep.tokenTool = names.contains("get_auth_token") ? "get_session_token" : "get_auth_token";
        List<GoldPlan.Call> calls = inner.task().plan().calls();
        if (!calls.isEmpty() && names.contains(calls.getLast().tool())) ep.protectedTools.add(calls.getLast().tool());
        int want = switch (severity()) { case 1 -> ep.protectedTools.size() + 1; case 2 -> (names.size() * 2 + 2) / 3; default -> names.size(); };
        List<String> pool = new ArrayList<>(names);
        pool.removeAll(ep.protectedTools);
        while (ep.protectedTools.size() < Math.min(want, names.size()) && !pool.isEmpty()) ep.protectedTools.add(pool.remove(rnd.nextInt(pool.size())));
        List<ToolSpec> tools = new ArrayList<>();
        for (ToolSpec t : in.tools()) {
            if (!ep.protectedTools.contains(t.name())) {
                tools.add(t);
                continue;
            }
            tools.add(new ToolSpec(t.name(), t.description() + " Requires an " + PARAM + " from " + ep.tokenTool + ".",
                    Schemas.withParam(t.parameters(), PARAM, "string", "Session token from " + ep.tokenTool + " (required since the 2026-11 security update).", true)));
        }
        String expiry = severity() >= 3 ? " A token is good for " + uses() + " calls; then get a new one." : "";
        tools.add(new ToolSpec(ep.tokenTool, "Issues a session token for the tools that require an " + PARAM + "." + expiry, Schemas.empty()));
        String note = "\nSecurity update (2026-11): tools whose schema has " + PARAM + " require a session token: call " + ep.tokenTool
                + " first and pass its token." + expiry + "\n";
        return new Start(in.systemPrompt() + note, in.query(), tools);
    }

    @Override
    protected Route route(Action.ToolCall call) {
        if (call.name().equals(ep.tokenTool)) {
            ep.token = "tok_" + Long.toString(rnd.nextLong() & 0xFFFFFFFFFFL, 36);
            ep.remaining = uses();
            ep.issued++;
            ObjectNode out = Json.object();
            out.put(PARAM, ep.token);
            if (severity() >= 3) out.put("valid_for_calls", uses());
            return new Reply(Observation.tool(call.id(), call.name(), Json.write(out), out));
        }
        if (!ep.protectedTools.contains(call.name())) return new Forward(call);
        ObjectNode args = Texts.argsObject(call.arguments());
        if (args == null) return new Forward(call);
        String given = args.path(PARAM).asText(null);
        if (given == null) return new Reply(error(call, ToolError.Code.DOMAIN, "401 Unauthorized: " + call.name() + " requires " + PARAM + " (call " + ep.tokenTool + ")"));
        if (ep.token == null || !given.equals(ep.token) || ep.remaining <= 0) {
            return new Reply(error(call, ToolError.Code.DOMAIN, "401 Unauthorized: " + PARAM + " is "
                    + (given.equals(ep.token) ? "expired" : "not valid") + "; get a new one with " + ep.tokenTool));
        }
        ep.remaining--;
        args.remove(PARAM);
        return new Forward(new Action.ToolCall(call.id(), call.name(), Json.write(args)));
    }

    @Override
    public Guide guide() {
        return LayerGuide.preceding(inner.guide(), this, c -> {
            long needed = c.calls().stream().filter(x -> ep.protectedTools.contains(x.name())).count();
            return needed > 0 && (ep.token == null || ep.remaining < needed) ? Action.CallTools.of("auth_" + ep.issued, ep.tokenTool, "{}") : null;
        }, c -> new Action.CallTools(c.calls().stream().map(x -> {
            if (!ep.protectedTools.contains(x.name())) return x;
            ObjectNode args = Texts.argsObject(x.arguments());
            if (args == null) return x;
            args.put(PARAM, ep.token);
            return new Action.ToolCall(x.id(), x.name(), Json.write(args));
        }).toList()));
    }
}
