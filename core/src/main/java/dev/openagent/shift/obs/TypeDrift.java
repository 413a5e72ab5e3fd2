package dev.openagent.shift.obs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.shift.Allowance;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Tier;

import java.math.BigDecimal;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * obs.type-drift: the values in tool results change type or form while the keys stay, as when a service's
 * serializer changes (AgentDisruptBench's type mismatches). Unlike {@code obs.format} the result is still JSON with
 * the same keys (until severity 3); what changes is how each value is written:
 * <ul>
 * <li>severity 1: numbers arrive as strings ({@code 268.99 -> "268.99"}) and times of day on the 12-hour clock
 * ({@code "13:00" -> "1:00 PM"});</li>
 * <li>severity 2: also numbers with thousands separators and two decimals where they have a fraction
 * ({@code 1250 -> "1,250"}, {@code 4.4 -> "4.40"}, {@code 1250.5 -> "1,250.50"}), dates with the month's name ({@code "2026-11-27" -> "Nov 27, 2026"}
 * or {@code "27 November 2026"}, one form per episode; a date and time as {@code "Nov 27, 2026 14:00"}) and booleans
 * as {@code "yes"}/{@code "no"};</li>
 * <li>severity 3: also nested objects flattened into dotted or underscored keys ({@code location.lat} or
 * {@code location_lat}, one per episode).</li>
 * </ul>
 * A kind of value is written one way for the whole episode, so an agent can learn it. The tools' schemas still
 * ask for the original forms (a time "as HH:00, 24-hour clock"), and the environments reject the drifted ones, so a
 * value copied verbatim from a result into a later call fails. Ids and other texts are never touched. Calls pass
 * through unchanged.
 */
public final class TypeDrift extends ShiftEnv<TypeDrift.Episode> {
    public static final Shift SHIFT = new Shift("obs.type-drift", Tier.INTERACTION, Dimension.O,
            "Result values change type or form: numbers as strings, times on the 12-hour clock; from severity 2 thousands "
                    + "separators, dates as \"Nov 27, 2026\", booleans as yes/no; at 3 nested objects flattened into dotted keys.",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "the values retyped are those of JSON results"),
            TypeDrift::new).allowing(Allowance.VALUE_FORMATS);

    /** The two forms a date may take in an episode: both name the month, so day and month cannot be confused. */
    static final List<DateTimeFormatter> DATE_FORMS = List.of(
            DateTimeFormatter.ofPattern("MMM d, uuuu", Locale.ENGLISH), DateTimeFormatter.ofPattern("d MMMM uuuu", Locale.ENGLISH));

    private static final Pattern TIME = Pattern.compile("([01]\\d|2[0-3]):[0-5]\\d");
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final Pattern DATE_TIME = Pattern.compile("(\\d{4}-\\d{2}-\\d{2})[T ](([01]\\d|2[0-3]):[0-5]\\d)");
    private static final DateTimeFormatter TWELVE_HOUR = DateTimeFormatter.ofPattern("h:mm a", Locale.ENGLISH);

    /** What this layer keeps during one episode (made afresh at every reset): the forms drawn for it. */
    static final class Episode {
        DateTimeFormatter dateForm;
        String joiner;
    }

    private TypeDrift(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    @Override
    protected Start begin(Start in) {
        ep.dateForm = DATE_FORMS.get(rnd.nextInt(DATE_FORMS.size()));
        ep.joiner = rnd.nextBoolean() ? "." : "_";
        return in;
    }

    @Override
    protected Observation observation(Observation o) {
        if (o.isError() || o.payload() == null || Protocol.ASK_USER.equals(o.tool())) return o;
        JsonNode v = Json.mapLeaves(o.payload(), this::retyped);
        if (severity() >= 3) v = flattened(v);
        return v.equals(o.payload()) ? o : o.withPayload(v, Json.write(v));
    }

    /** A value (not an object or a list) written in the episode's drifted form. */
    private JsonNode retyped(JsonNode node) {
        if (node.isNumber()) return TextNode.valueOf(severity() >= 2 ? grouped(node) : node.asText());
        if (node.isBoolean() && severity() >= 2) return TextNode.valueOf(node.asBoolean() ? "yes" : "no");
        if (node.isTextual()) return TextNode.valueOf(text(node.asText()));
        return node;
    }

    /** A text that is a time, a date or both, in the episode's form; any other text as it was. */
    private String text(String s) {
        if (TIME.matcher(s).matches()) return LocalTime.parse(s).format(TWELVE_HOUR);
        if (severity() < 2) return s;
        if (DATE.matcher(s).matches()) {
            try {
                return LocalDate.parse(s).format(ep.dateForm);
            } catch (java.time.DateTimeException notADate) {
                return s;
            }
        }
        var m = DATE_TIME.matcher(s);
        if (m.matches()) {
            try {
                return LocalDateTime.parse(m.group(1) + "T" + m.group(2)).format(ep.dateForm) + " " + m.group(2);
            } catch (java.time.DateTimeException notADate) {
                return s;
            }
        }
        return s;
    }

    /**
     * A number with thousands separators: a whole number as such ({@code 1250 -> "1,250"}), a decimal one with two
     * decimals ({@code 4.0 -> "4.00"}, {@code 1250.5 -> "1,250.50"}), or with all of its own where it has more (a
     * coordinate), so that no digit is lost.
     */
    static String grouped(JsonNode n) {
        if (n.isIntegralNumber()) return new DecimalFormat("#,##0", DecimalFormatSymbols.getInstance(Locale.ENGLISH)).format(n.bigIntegerValue());
        BigDecimal v = n.decimalValue().stripTrailingZeros();
        String pattern = v.scale() <= 2 ? "#,##0.00" : "#,##0." + "0".repeat(v.scale());
        return new DecimalFormat(pattern, DecimalFormatSymbols.getInstance(Locale.ENGLISH)).format(v);
    }

    /** Objects inside objects become keys of their parent, joined by the episode's joiner; lists stay lists. */
    private JsonNode flattened(JsonNode node) {
        if (node instanceof ObjectNode obj) {
            ObjectNode out = Json.object();
            flattenInto(out, "", obj);
            return out;
        }
        if (node instanceof ArrayNode arr) {
            ArrayNode out = Json.NODES.arrayNode();
            arr.forEach(x -> out.add(flattened(x)));
            return out;
        }
        return node;
    }

    private void flattenInto(ObjectNode out, String prefix, ObjectNode obj) {
        obj.properties().forEach(e -> {
            String key = prefix + e.getKey();
            if (e.getValue() instanceof ObjectNode inner && !inner.isEmpty()) {
                flattenInto(out, key + ep.joiner, inner);
                return;
            }
            while (out.has(key)) key = key + "_";
            out.set(key, flattened(e.getValue()));
        });
    }
}
