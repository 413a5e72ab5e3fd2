package dev.openagent.shift.tool;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.Shift;
import dev.openagent.shift.Sign;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Texts;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * tool.distractors: near-duplicate tools with different, documented semantics, beside the real
 * ones: a dry run that only echoes the request, or an asynchronous variant that queues it and
 * returns a ticket instead of a result. Neither reaches the service. Severity 1 shadows about a
 * third of the tools with clearly suffixed names listed after the real ones; 2 two thirds, with
 * prefixed names listed before; 3 every tool, with names one letter away from the real ones.
 */
public final class Distractors extends ShiftEnv<Distractors.Episode> {
    public static final Shift SHIFT = new Shift("tool.distractors", Tier.PERCEPTION, Dimension.A,
            "Near-duplicate tools with different semantics (dry runs, queued variants) sit beside the real ones; only descriptions tell them apart.",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "its near-duplicates are dry-run and queued variants of service calls, told apart by their descriptions; a command acts in the world at once and help gives one line per verb"), Distractors::new).seenAs(Sign.TOOL_LOOKALIKE_ADDED);

    private enum Kind { DRY_RUN, QUEUED }

    private record Fake(String real, Kind kind) {}

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        final Map<String, Fake> fakes = new HashMap<>();
    }

    private Distractors(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    @Override
    protected Start begin(Start in) {
        Set<String> names = new HashSet<>();
        in.tools().forEach(t -> names.add(t.name()));
        List<ToolSpec> tools = new ArrayList<>();
        int sev = severity();
        double share = sev == 1 ? 0.34 : sev == 2 ? 0.67 : 1.0;
        for (ToolSpec t : in.tools()) {
            if (Protocol.ASK_USER.equals(t.name()) || rnd.nextDouble() >= share) {
                tools.add(t);
                continue;
            }
            Kind kind = rnd.nextBoolean() ? Kind.DRY_RUN : Kind.QUEUED;
            String name = switch (sev) {
                case 1 -> t.name() + (kind == Kind.DRY_RUN ? "_preview" : "_async");
                case 2 -> (kind == Kind.DRY_RUN ? "preview_" : "queue_") + t.name();
                default -> t.name().endsWith("s") ? t.name().substring(0, t.name().length() - 1) : t.name() + "s";
            };
            while (names.contains(name)) name = name + "_2";
            names.add(name);
            ep.fakes.put(name, new Fake(t.name(), kind));
            String what = kind == Kind.DRY_RUN
                    ? " DRY RUN ONLY: checks the request and echoes it back; nothing is looked up, booked, changed or issued."
                    : " ASYNCHRONOUS: queues the request and returns a ticket number; the result is delivered later by e-mail, not in this conversation.";
            ToolSpec fake = new ToolSpec(name, t.description() + what, t.parameters());
            if (sev >= 2) {
                tools.add(fake);
                tools.add(t);
            } else {
                tools.add(t);
                tools.add(fake);
            }
        }
        return in.withTools(tools);
    }

    @Override
    protected Route route(Action.ToolCall call) {
        Fake f = ep.fakes.get(call.name());
        if (f == null) return new Forward(call);
        ObjectNode out = Json.object();
        if (f.kind() == Kind.DRY_RUN) {
            out.put("dry_run", true);
            out.put("executed", false);
            ObjectNode args = Texts.argsObject(call.arguments());
            if (args != null) out.set("request", args);
            else out.put("request", call.arguments());
            out.put("message", "Request looks well-formed. Nothing was executed.");
        } else {
            out.put("queued", true);
            out.put("ticket", "Q-" + (100000 + rnd.nextInt(900000)));
            out.put("message", "Your request is queued; the result will be e-mailed within 24 hours.");
        }
        return new Reply(Observation.tool(call.id(), call.name(), Json.write(out), out));
    }
}
