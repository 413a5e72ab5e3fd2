package dev.openagent.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Allowance;

import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The arguments a shown tool is sent: the world's arguments as the tool takes them, what answers label for its
 * parameters, and the settings answers said to send it with every call (a longer timeout).
 */
final class Arguments {
    private final ShownTools tools;
    private final LabelReader labels;
    private final Outbox outbox;
    private final View view;
    private final Set<Allowance> allowed;
    /** What answers said to send a shown tool with every call (a longer timeout), by its name. */
    private final Map<String, ObjectNode> passAlso = new HashMap<>();

    Arguments(ShownTools tools, LabelReader labels, Outbox outbox, View view, Set<Allowance> allowed) {
        this.tools = tools;
        this.labels = labels;
        this.outbox = outbox;
        this.view = view;
        this.allowed = allowed;
    }

    /** The world arguments as the shown tool takes them: parameters by their descriptions, formats as instructed. */
    ObjectNode translate(ToolSpec world, ToolSpec to, ObjectNode worldArgs) {
        Map<String, String> names = world != null ? Descriptions.params(world, to) : byNameWords(worldArgs, to);
        Map<String, String> descriptions = Descriptions.descriptions(to.parameters());
        ObjectNode out = Json.object();
        for (Iterator<Map.Entry<String, JsonNode>> it = worldArgs.fields(); it.hasNext(); ) {
            var e = it.next();
            String name = names.getOrDefault(e.getKey(), e.getKey());
            JsonNode v = e.getValue();
            if (v.isTextual() && allowed.contains(Allowance.INPUT_FORMATS)) v = TextNode.valueOf(InputFormats.as(descriptions.getOrDefault(name, ""), v.asText()));
            out.set(name, v);
        }
        for (String r : Descriptions.required(to.parameters())) {
            if (out.has(r)) continue;
            // A parameter the world's tool does not have (a session token): by what its description says gives
            // it, or the value labelled with a name it mentions; by its own name only where nothing describes it.
            String d = descriptions.getOrDefault(r, "");
            String v = d.isBlank() ? labels.labeled(r) : fromNamedTool(d, r);
            if (v == null && !d.isBlank()) v = labels.labeledAsDescribed(d);
            if (v != null) out.put(r, v);
        }
        return out;
    }

    /**
     * For a tool the world does not have, whose parameters the plan names: each plan name to the shown parameter
     * whose name and description hold the most of its words ({@code ticket_id}: "Ticket id, e.g. T-123450.").
     */
    private static Map<String, String> byNameWords(ObjectNode worldArgs, ToolSpec to) {
        Map<String, String> out = new HashMap<>();
        Map<String, String> params = Descriptions.descriptions(to.parameters());
        worldArgs.fieldNames().forEachRemaining(n -> {
            if (params.containsKey(n)) {
                out.put(n, n);
                return;
            }
            String best = null;
            Descriptions.Score top = null;
            for (var p : params.entrySet()) {
                Descriptions.Score sc = Descriptions.score(n.replace('_', ' '), p.getKey().replace('_', ' ') + " " + p.getValue());
                if (sc.held() > 0 && (top == null || sc.compareTo(top) > 0) && !out.containsValue(p.getKey())) {
                    top = sc;
                    best = p.getKey();
                }
            }
            if (best != null) out.put(n, best);
        });
        return out;
    }

    /**
     * A value for a parameter whose description says which tool gives it ("Session token from get_auth_token"):
     * of the values that tool's latest answer labels, the one whose name is closest to the parameter's.
     */
    private String fromNamedTool(String description, String param) {
        ToolSpec from = tools.shown().stream().filter(t -> !t.name().equals(Protocol.ASK_USER) && Answers.mentions(description, t.name())).findFirst().orElse(null);
        if (from == null) return null;
        List<View.Shown> all = view.all();
        for (int i = all.size() - 1; i >= 0; i--) {
            View.Shown s = all.get(i);
            String called = s.callId() == null ? null : outbox.tool(s.callId());
            if (called == null || !(called.equals(from.name()) || called.equals(tools.replaced(from.name())))) continue;
            // The value whose name shares the most words with the description (a "session token" is the auth_token).
            Set<String> words = Descriptions.words(description);
            Labels.Label best = null;
            long shared = -1;
            int distance = Integer.MAX_VALUE;
            for (Labels.Label l : labels.labelsOf(s.text())) {
                long k = Descriptions.words(l.key().replace('_', ' ')).stream().filter(words::contains).count();
                int d = Labels.distance(Labels.norm(l.key()), Labels.norm(param));
                if (k > shared || k == shared && d < distance) {
                    best = l;
                    shared = k;
                    distance = d;
                }
            }
            return best == null ? null : best.value();
        }
        return null;
    }

    /**
     * Arguments for a tool an answer to a call says to call: what it was last sent, the call's own arguments for
     * the parameters that mean the same (a hold is completed "with the same" date, item...), the values the answer labels with its
     * parameters' names, then the latest such labels anywhere; null when a required one is not to be found.
     */
    ObjectNode argsFor(ToolSpec tool, String said, ToolSpec called, ObjectNode callArgs) {
        ObjectNode last = outbox.lastArgs(tool.name());
        ObjectNode args = last != null ? last.deepCopy() : Json.object();
        // The call's own values, for the parameters of the tool that mean the same: those that stand for the same
        // parameter of the world's tools (an order id is no product id, however alike their descriptions read).
        if (called != null) {
            tools.sameParams(called, tool).forEach((from, to) -> {
                if (callArgs.has(from)) args.set(to, callArgs.get(from));
            });
        }
        List<String> required = Descriptions.required(tool.parameters());
        for (var p : Descriptions.descriptions(tool.parameters()).entrySet()) {
            // An optional parameter only by a field its description names as a name ("hold_id"), not in passing ("next").
            String v = required.contains(p.getKey()) ? labels.labelFor(said, p.getKey(), p.getValue()) : labels.labelNamed(said, p.getValue());
            if (v == null && !args.has(p.getKey()) && Descriptions.required(tool.parameters()).contains(p.getKey())) v = labels.labeled(p.getKey());
            // As the schema types it (a timeout an error labels is a number).
            String type = typeOf(tool, p.getKey());
            JsonNode typed = v == null ? null : typed(v, type);
            if (typed != null) args.set(p.getKey(), typed);
            else if (v != null && !type.equals("boolean") && !type.equals("integer")) args.put(p.getKey(), v);
        }
        for (String r : Descriptions.required(tool.parameters())) if (!args.has(r)) return null;
        return args;
    }

    /**
     * Learns from an answer to a call the values it labels for optional parameters of the tool called that the call
     * did not send so (a longer {@code timeout_seconds}, {@code async=true}), read as the schema types them: the tool
     * is sent them from now on. Whether it learned any.
     */
    boolean learnSettings(Awaiting a, String said) {
        String name = tools.replaced(a.tool());
        return learnSettings(name, tools.listed(name).orElse(a.target()), outbox.sentArgs.getOrDefault(a.id(), a.args()), said);
    }

    boolean learnSettings(String name, ToolSpec tool, ObjectNode sent, String said) {
        if (tool == null || sent == null) return false;
        List<String> required = Descriptions.required(tool.parameters());
        boolean learnt = false;
        for (var p : Descriptions.descriptions(tool.parameters()).entrySet()) {
            if (required.contains(p.getKey())) continue;
            String v = labels.labelFor(said, p.getKey(), p.getValue());
            if (v == null) continue;
            JsonNode typed = typed(v, typeOf(tool, p.getKey()));
            if (typed == null || typed.equals(sent.get(p.getKey()))) continue;
            passAlso.computeIfAbsent(name, k -> Json.object()).set(p.getKey(), typed);
            learnt = true;
        }
        return learnt;
    }

    /** The arguments with what answers said to send the tool also (a longer timeout). */
    ObjectNode withSettings(String tool, ObjectNode args) {
        ObjectNode also = passAlso.get(tool);
        if (also != null) args.setAll(also.deepCopy());
        return args;
    }

    /** The JSON type a tool's schema gives a parameter ("" when it gives none). */
    private static String typeOf(ToolSpec tool, String param) {
        return tool.parameters().path("properties").path(param).path("type").asText("");
    }

    /** A labelled value as a parameter of this JSON type takes it, or null when it is not one. */
    private static JsonNode typed(String v, String type) {
        String s = v.strip();
        return switch (type) {
            case "integer" -> s.matches("-?\\d{1,9}") ? com.fasterxml.jackson.databind.node.IntNode.valueOf(Integer.parseInt(s)) : null;
            case "boolean" -> s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false") ? com.fasterxml.jackson.databind.node.BooleanNode.valueOf(Boolean.parseBoolean(s.toLowerCase(java.util.Locale.ROOT))) : null;
            default -> null;
        };
    }
}
