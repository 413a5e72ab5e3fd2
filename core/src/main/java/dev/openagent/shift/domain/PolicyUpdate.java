package dev.openagent.shift.domain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
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
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * domain.policy-update: the service's input rules change, as the instructions state. Rules: dates
 * as DD.MM.YYYY, times in 12-hour form ("7 PM"), person names as "Last, First" (the environment's
 * declared person-name parameters). Severity = how many of the rules that fit the tools apply
 * (1-3). Calls in the old form are refused with the policy quoted; the meaning of every request is
 * unchanged.
 */
public final class PolicyUpdate extends ShiftEnv<PolicyUpdate.Episode> {
    public static final Shift SHIFT = new Shift("domain.policy-update", Tier.INTERNALIZATION, Dimension.D,
            "Domain rules change (input formats for dates, times, names), stated in the instructions and schemas.",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "its rules change the input formats of dates, times and person names, which commands do not take"), PolicyUpdate::new).allowing(Allowance.INPUT_FORMATS);

    private static final Pattern ISO_DATE = Pattern.compile("(\\d{4})-(\\d{2})-(\\d{2})");
    private static final Pattern NEW_DATE = Pattern.compile("(\\d{2})\\.(\\d{2})\\.(\\d{4})");
    private static final Pattern HHMM = Pattern.compile("(\\d{2}):(\\d{2})");
    private static final Pattern TWELVE = Pattern.compile("(?i)(\\d{1,2})(?::(\\d{2}))?\\s*(am|pm)");

    /** One input rule: which parameters, how old values become new ones and back. */
    private enum Rule {
        DATE("Dates are written DD.MM.YYYY (for example 07.12.2026), no longer YYYY-MM-DD."),
        TIME("Times are written on the 12-hour clock with AM/PM (for example 7 PM or 7:30 AM), no longer HH:MM."),
        NAME("Person names are written 'Last, First' (for example 'Ruiz, Ana'), no longer 'First Last'.");

        final String text;

        Rule(String text) { this.text = text; }
    }

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        final List<Rule> rules = new ArrayList<>();
    }

    private PolicyUpdate(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    /** Whether the rule governs this parameter of this tool (person names: as the tool declares them). */
    private boolean applies(Rule r, String tool, String param) {
        return switch (r) {
            case DATE -> param.equals("date") || param.endsWith("_date");
            case TIME -> param.equals("time") || param.endsWith("_time");
            case NAME -> facts().personName(tool, param);
        };
    }

    @Override
    protected Start begin(Start in) {
        List<Rule> fit = new ArrayList<>();
        for (Rule r : Rule.values()) {
            boolean any = in.tools().stream().anyMatch(t -> Schemas.params(t.parameters()).stream().anyMatch(p -> applies(r, t.name(), p)));
            if (any) fit.add(r);
        }
        while (!fit.isEmpty() && ep.rules.size() < severity()) ep.rules.add(fit.remove(rnd.nextInt(fit.size())));
        if (ep.rules.isEmpty()) return in;
        List<ToolSpec> tools = new ArrayList<>();
        for (ToolSpec t : in.tools()) {
            ObjectNode schema = t.parameters();
            for (String p : Schemas.params(schema)) {
                for (Rule r : ep.rules) {
                    if (applies(r, t.name(), p)) {
                        String d = schema.path("properties").path(p).path("description").asText("");
                        schema = Schemas.describe(schema, p, d + " Policy 2026-12: " + r.text);
                    }
                }
            }
            tools.add(t.withParameters(schema));
        }
        StringBuilder note = new StringBuilder("\nPolicy update (effective 2026-12-01), replacing earlier formats; requests in the old form are refused:\n");
        ep.rules.forEach(r -> note.append("- ").append(r.text).append('\n'));
        return new Start(in.systemPrompt() + note, in.query(), tools);
    }

    @Override
    protected Route route(Action.ToolCall call) {
        if (ep.rules.isEmpty() || Protocol.ASK_USER.equals(call.name())) return new Forward(call);
        ObjectNode args = Texts.argsObject(call.arguments());
        if (args == null) return new Forward(call);
        ObjectNode out = args.deepCopy();
        for (Iterator<Map.Entry<String, JsonNode>> it = args.fields(); it.hasNext(); ) {
            var e = it.next();
            if (!e.getValue().isTextual()) continue;
            for (Rule r : ep.rules) {
                if (!applies(r, call.name(), e.getKey())) continue;
                String v = e.getValue().asText().strip();
                String old = toOld(r, v);
                if (old == null) {
                    return new Reply(error(call, ToolError.Code.DOMAIN, "policy 2026-12: '" + e.getKey() + "' is in the old form ('"
                            + Texts.abbreviate(v, 40) + "'). " + r.text));
                }
                out.put(e.getKey(), old);
            }
        }
        return new Forward(new Action.ToolCall(call.id(), call.name(), Json.write(out)));
    }

    /** The value in the form the service used to take; null when it is still in the old form. */
    static String toOld(Rule r, String v) {
        switch (r) {
            case DATE -> {
                if (ISO_DATE.matcher(v).matches()) return null;
                Matcher m = NEW_DATE.matcher(v);
                return m.matches() ? m.group(3) + "-" + m.group(2) + "-" + m.group(1) : v;
            }
            case TIME -> {
                if (HHMM.matcher(v).matches()) return null;
                Matcher m = TWELVE.matcher(v);
                if (!m.matches()) return v;
                int h = Integer.parseInt(m.group(1)) % 12 + (m.group(3).equalsIgnoreCase("pm") ? 12 : 0);
                return String.format(Locale.ROOT, "%02d:%s", h, m.group(2) == null ? "00" : m.group(2));
            }
            default -> {
                int comma = v.indexOf(',');
                if (comma < 0) return v.contains(" ") ? null : v;
                return (v.substring(comma + 1).strip() + " " + v.substring(0, comma).strip()).strip();
            }
        }
    }

    /** The value in the new form. */
    static String toNew(Rule r, String v) {
        switch (r) {
            case DATE -> {
                Matcher m = ISO_DATE.matcher(v);
                return m.matches() ? m.group(3) + "." + m.group(2) + "." + m.group(1) : v;
            }
            case TIME -> {
                Matcher m = HHMM.matcher(v);
                if (!m.matches()) return v;
                int h = Integer.parseInt(m.group(1));
                String suffix = h >= 12 ? "PM" : "AM";
                int twelve = h % 12 == 0 ? 12 : h % 12;
                return twelve + (m.group(2).equals("00") ? "" : ":" + m.group(2)) + " " + suffix;
            }
            default -> {
                int space = v.lastIndexOf(' ');
                return space < 0 || v.contains(",") ? v : v.substring(space + 1) + ", " + v.substring(0, space);
            }
        }
    }

    @Override
    public Guide guide() {
        return LayerGuide.translating(inner.guide(), this, a -> {
            if (ep.rules.isEmpty() || !(a instanceof Action.CallTools c)) return a;
            return new Action.CallTools(c.calls().stream().map(call -> {
                ObjectNode args = Texts.argsObject(call.arguments());
                if (args == null) return call;
                for (Rule r : ep.rules) {
                    for (String k : List.copyOf(iterable(args))) {
                        if (applies(r, call.name(), k) && args.get(k).isTextual()) args.put(k, toNew(r, args.get(k).asText()));
                    }
                }
                return new Action.ToolCall(call.id(), call.name(), Json.write(args));
            }).toList());
        });
    }

    private static List<String> iterable(ObjectNode o) {
        List<String> out = new ArrayList<>();
        o.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
