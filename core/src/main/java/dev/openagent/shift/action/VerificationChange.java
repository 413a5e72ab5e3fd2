package dev.openagent.shift.action;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Allowance;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.LayerGuide;
import dev.openagent.shift.Schemas;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Texts;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * action.verification-change: the verification-code protocol changes, as the system prompt and the
 * new tool's description say. A result that issues a code ({@code verification_code},
 * {@code cancellation_code}: any top-level "...code" field) now withholds it and returns a
 * {@code confirmation_id}; {@code confirm_action} releases the code. Severity 2 also requires the
 * {@code challenge} word of the pending result; severity 3 releases each code in two parts that
 * are to be joined (part 1 directly followed by part 2).
 */
public final class VerificationChange extends ShiftEnv<VerificationChange.Episode> {
    public static final Shift SHIFT = new Shift("action.verification-change", Tier.INTERACTION, Dimension.A,
            "Codes issued by committing actions are withheld until a documented confirm step releases them.",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "there is no verification-code protocol to change: completion codes are only read, never confirmed"), VerificationChange::new).allowing(Allowance.JOINED_PARTS);

    private static final List<String> WORDS = List.of("amber", "falcon", "harbor", "juniper", "lantern", "meadow", "orbit", "quartz");

    private record Pending(ObjectNode codes, String challenge) {}

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        final Map<String, Pending> pending = new HashMap<>();
        /** Confirmation ids issued in the latest step (for the guide). */
        final List<String> issued = new ArrayList<>();
        String confirmTool;
    }

    private VerificationChange(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    @Override
    protected Start begin(Start in) {
        ep.confirmTool = "confirm_action";
        for (ToolSpec t : in.tools()) if (t.name().equals(ep.confirmTool)) ep.confirmTool = "confirm_pending_action";
        ObjectNode schema = Schemas.withParam(Schemas.empty(), "confirmation_id", "string", "The confirmation_id of the pending result.", true);
        if (severity() >= 2) schema = Schemas.withParam(schema, "challenge", "string", "The challenge word of the pending result.", true);
        String parts = severity() >= 3
                ? " Each code comes in two parts, <name>_part_1 and <name>_part_2: the code is part 1 immediately followed by part 2 (no space)."
                : "";
        String how = "call " + ep.confirmTool + " with its confirmation_id" + (severity() >= 2 ? " and challenge" : "") + " to receive the code(s)." + parts;
        List<ToolSpec> tools = new ArrayList<>(in.tools());
        tools.add(new ToolSpec(ep.confirmTool, "Confirms a pending result and returns the codes it withheld (verification, cancellation...). " + how, schema));
        String note = "\nVerification protocol change (2026-11): an action that issues a code (a verification or cancellation code) no longer "
                + "shows it; its result has confirmation_required and a confirmation_id instead: " + how + "\n";
        return new Start(in.systemPrompt() + note, in.query(), tools);
    }

    @Override
    protected void newTurn() { ep.issued.clear(); }

    @Override
    protected Route route(Action.ToolCall call) {
        if (!call.name().equals(ep.confirmTool)) return new Forward(call, this::withhold);
        ObjectNode args = Texts.argsObject(call.arguments());
        if (args == null) return new Reply(error(call, ToolError.Code.MALFORMED_ARGUMENTS, "arguments must be a JSON object"));
        Pending p = ep.pending.get(args.path("confirmation_id").asText(""));
        if (p == null) return new Reply(error(call, ToolError.Code.DOMAIN, "unknown confirmation_id '" + Texts.abbreviate(args.path("confirmation_id").asText(""), 40) + "'"));
        if (severity() >= 2 && !p.challenge().equalsIgnoreCase(args.path("challenge").asText("").strip())) {
            return new Reply(error(call, ToolError.Code.DOMAIN, "challenge does not match the pending result"));
        }
        ObjectNode out = Json.object();
        out.put("confirmation_id", args.get("confirmation_id").asText());
        out.put("status", "confirmed");
        for (Iterator<Map.Entry<String, JsonNode>> it = p.codes().fields(); it.hasNext(); ) {
            var e = it.next();
            String code = e.getValue().asText();
            if (severity() >= 3) {
                int half = code.length() / 2;
                out.put(e.getKey() + "_part_1", code.substring(0, half));
                out.put(e.getKey() + "_part_2", code.substring(half));
            } else {
                out.set(e.getKey(), e.getValue());
            }
        }
        return new Reply(Observation.tool(call.id(), call.name(), Json.write(out), out));
    }

    private Observation withhold(Observation o) {
        if (o.isError() || !(o.payload() instanceof ObjectNode payload)) return o;
        ObjectNode codes = Json.object();
        ObjectNode out = Json.object();
        payload.fields().forEachRemaining(e -> {
            if (e.getKey().toLowerCase(Locale.ROOT).endsWith("code") && e.getValue().isTextual()) codes.set(e.getKey(), e.getValue());
            else out.set(e.getKey(), e.getValue());
        });
        if (codes.isEmpty()) return o;
        String id = "CF-" + (100000 + rnd.nextInt(900000));
        String challenge = WORDS.get(rnd.nextInt(WORDS.size()));
        ep.pending.put(id, new Pending(codes, challenge));
        ep.issued.add(id);
        out.put("confirmation_required", true);
        out.put("confirmation_id", id);
        if (severity() >= 2) out.put("challenge", challenge);
        return o.withPayload(out, Json.write(out));
    }

    @Override
    public Guide guide() {
        return new LayerGuide(inner.guide(), this) {
            private final List<String> toConfirm = new ArrayList<>();
            private int confirms;

            @Override
            public Action next(Step last) {
                if (last != null && !ep.issued.isEmpty()) {
                    toConfirm.addAll(ep.issued);
                    ep.issued.clear();
                }
                if (!toConfirm.isEmpty()) {
                    String id = toConfirm.removeFirst();
                    ObjectNode args = Json.object();
                    args.put("confirmation_id", id);
                    if (severity() >= 2) args.put("challenge", ep.pending.get(id).challenge());
                    return Action.CallTools.of("confirm_" + (confirms++), ep.confirmTool, Json.write(args));
                }
                return innerNext();
            }
        };
    }
}
