package dev.openagent.shift.obs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.LayerGuide;
import dev.openagent.shift.Schemas;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Sign;
import dev.openagent.shift.Texts;
import dev.openagent.shift.Tier;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * obs.stale-data: read tools answer from a cache that lags, and say so only in a time stamp (τ²-bench's fault
 * injection's wrong data returned as success; AgentDisruptBench's {@code wrong_data}). Every JSON answer of a tool
 * the environment declares read-only carries {@code as_of}, the time its data was read; the instructions give the
 * time now and the freshness limit (15 minutes), and every read tool takes an optional {@code fresh} flag that reads
 * live data. A stale answer is a success with some numbers and times of day out of date (never ids, nor the values
 * the call asked about), stamped hours or days before the limit:
 * <ul>
 * <li>severity 1: the episode's first read answer is stale, about half of its numbers and times changed;</li>
 * <li>severity 2: the first answer of every read tool, most values changed, and a count of listed items that no
 * longer matches the items listed (a total that disagrees with its items);</li>
 * <li>severity 3: every read answer not asked with {@code fresh}, every number and time changed.</li>
 * </ul>
 * The same question asked again without {@code fresh} gets the same cached answer; asked with it, the live answer,
 * which then stays in the cache. Calls pass through with {@code fresh} taken out. Answers that are not JSON objects
 * (prose, text files) carry no stamp and are never stale.
 */
public final class StaleData extends ShiftEnv<StaleData.Episode> {
    public static final Shift SHIFT = new Shift("obs.stale-data", Tier.INTERACTION, Dimension.O,
            "Read tools answer from a lagging cache: a success with out-of-date numbers and times, stamped with an old as_of; "
                    + "fresh=true reads live data (more tools, more values and counts that disagree with their items by severity).",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "answers are prose, with no fields to stamp or to leave out of date"),
            StaleData::new).seenAs(Sign.FRESHNESS_PARAMETER_ADDED, Sign.RESULT_KEYS_CHANGED);

    /** The flag every read tool takes. */
    static final String FRESH = "fresh";
    /** The stamp every read answer carries. */
    static final String AS_OF = "as_of";
    /** How old data may be before it is stale. */
    static final int LIMIT_MINUTES = 15;
    /** The day of "now" where the instructions state none ("Today is 2026-11-20."). */
    private static final LocalDate DEFAULT_DAY = LocalDate.of(2026, 11, 28);
    private static final Pattern TODAY = Pattern.compile("(?i)\\btoday is (\\d{4}-\\d{2}-\\d{2})\\b");
    private static final Pattern TIME = Pattern.compile("([01]\\d|2[0-3]):[0-5]\\d");

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        Instant now;
        Set<String> readTools = Set.of();
        /** Questions (tool and arguments) the cache answers stale, with the seed of their stale values. */
        final Map<String, Long> cached = new HashMap<>();
        /** Questions answered live since (the cache holds the live answer now). */
        final Set<String> refreshed = new HashSet<>();
        /** The read tools that gave a stale answer. */
        final Set<String> staleTools = new HashSet<>();
        /** The calls of the latest turn answered stale (as they reached this layer), for the guide. */
        final List<Action.ToolCall> staleThisTurn = new ArrayList<>();
    }

    private StaleData(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    @Override
    protected Start begin(Start in) {
        ep.readTools = facts().readOnlyTools();
        Matcher today = TODAY.matcher(in.systemPrompt());
        LocalDate day = today.find() ? LocalDate.parse(today.group(1)) : DEFAULT_DAY;
        ep.now = day.atTime(9 + rnd.nextInt(8), rnd.nextInt(60)).toInstant(ZoneOffset.UTC);
        if (ep.readTools.isEmpty()) return in;
        List<ToolSpec> tools = new ArrayList<>();
        for (ToolSpec t : in.tools()) {
            boolean read = ep.readTools.contains(t.name()) && !Protocol.ASK_USER.equals(t.name());
            tools.add(read ? t.withParameters(Schemas.withParam(t.parameters(), FRESH, "boolean",
                    "Optional. true reads live data instead of the cache; pass it when an earlier answer's " + AS_OF + " is more than "
                            + LIMIT_MINUTES + " minutes old.", false)) : t);
        }
        Instant cutoff = ep.now.minus(LIMIT_MINUTES, ChronoUnit.MINUTES);
        String note = "\nData freshness: it is now " + ep.now + ". Every answer of a read tool carries " + AS_OF
                + ", the time its data was read; answers may come from a cache that lags. Data read more than " + LIMIT_MINUTES
                + " minutes ago (" + AS_OF + " before " + cutoff + ") is stale: do not use its values; call the same tool again "
                + "with the same arguments and " + FRESH + " set to true, which reads live data."
                + (severity() >= 2 ? " A stale answer may also disagree with itself (a count that is not the number of items it lists) "
                + "or with the record of the same id." : "") + "\n";
        return new Start(in.systemPrompt() + note, in.query(), tools);
    }

    @Override
    protected void newTurn() { ep.staleThisTurn.clear(); }

    @Override
    protected Route route(Action.ToolCall call) {
        if (!ep.readTools.contains(call.name())) return new Forward(call);
        ObjectNode args = Texts.argsObject(call.arguments());
        if (args == null) return new Forward(call);
        boolean fresh = args.path(FRESH).asBoolean(false);
        Action.ToolCall sent = call;
        if (args.has(FRESH)) {
            ObjectNode rest = args.deepCopy();
            rest.remove(FRESH);
            sent = new Action.ToolCall(call.id(), call.name(), Json.write(rest));
            args = rest;
        }
        java.util.TreeMap<String, String> sorted = new java.util.TreeMap<>();
        args.properties().forEach(e -> sorted.put(e.getKey(), Json.write(e.getValue())));
        String question = call.name() + " " + sorted;
        if (fresh) ep.refreshed.add(question);
        // A question not asked before may be answered from the cache: the episode's first answer with a value to have
        // out of date (severity 1), each read tool's first such answer (2), every such answer (3).
        boolean mayBeStale = !fresh && !ep.refreshed.contains(question) && !ep.cached.containsKey(question) && switch (severity()) {
            case 1 -> ep.cached.isEmpty();
            case 2 -> !ep.staleTools.contains(call.name());
            default -> true;
        };
        ObjectNode asked = args;
        return new Forward(sent, o -> {
            Long seed = fresh || ep.refreshed.contains(question) ? null : ep.cached.get(question);
            if (seed == null && mayBeStale) seed = rnd.nextLong();
            Observation old = seed == null ? o : staled(o, asked, seed);
            if (old == o) return stamped(o, ep.now.minusSeconds(rnd.nextInt(150)));
            ep.cached.put(question, seed);
            ep.staleTools.add(call.name());
            ep.staleThisTurn.add(call);
            return old;
        });
    }

    /** A live answer, stamped with the time it was read. */
    private static Observation stamped(Observation o, Instant asOf) {
        if (o.isError() || !(o.payload() instanceof ObjectNode payload)) return o;
        ObjectNode out = withStamp(payload, asOf);
        return o.withPayload(out, Json.write(out));
    }

    /** The answer as the cache holds it: some numbers and times out of date, stamped long before the limit. */
    private Observation staled(Observation o, ObjectNode args, long seed) {
        if (o.isError() || !(o.payload() instanceof ObjectNode payload)) return o;
        SplittableRandom r = new SplittableRandom(seed);
        Set<String> asked = new HashSet<>();
        Json.mapLeaves(args, v -> {
            asked.add(v.asText());
            return v;
        });
        ObjectNode copy = payload.deepCopy();
        List<Leaf> leaves = new ArrayList<>();
        collect(copy, asked, leaves);
        // A count of the items listed beside it changes with the list or not at all (from severity 2: below).
        leaves.removeIf(l -> l.parent() == copy && countOf(copy, l.key()) != null);
        ObjectNode out = copy;
        boolean any = false;
        for (Leaf l : leaves) any |= l.change(r);
        if (severity() >= 2) any |= miscount(out, r);
        if (!any) return o;   // nothing in it to be out of date: the live answer
        long ageMinutes = switch (severity()) { case 1 -> 60L * (3 + r.nextInt(6)); case 2 -> 60L * (26 + r.nextInt(48)); default -> 60L * 24 * (2 + r.nextInt(6)); };
        out = withStamp(out, ep.now.minus(ageMinutes, ChronoUnit.MINUTES).minusSeconds(60L * r.nextInt(60)));
        return o.withPayload(out, Json.write(out));
    }

    private static ObjectNode withStamp(ObjectNode payload, Instant asOf) {
        ObjectNode out = Json.object();
        out.put(AS_OF, asOf.truncatedTo(ChronoUnit.SECONDS).toString());
        payload.properties().forEach(e -> { if (!e.getKey().equals(AS_OF)) out.set(e.getKey(), e.getValue()); });
        return out;
    }

    /** A value the cache may hold out of date: a number or a time of day, in its parent. */
    private record Leaf(JsonNode parent, String key, int index) {
        JsonNode get() { return parent instanceof ObjectNode o ? o.get(key) : parent.get(index); }

        void set(JsonNode v) {
            if (parent instanceof ObjectNode o) o.set(key, v);
            else ((ArrayNode) parent).set(index, v);
        }

        /** Changes the value as an earlier reading would have had it; false when it stays. */
        boolean change(SplittableRandom r) {
            JsonNode old = get();
            JsonNode neu = old.isNumber() ? older(old, r) : TextNode.valueOf(earlier(old.asText(), r));
            if (neu.equals(old)) return false;
            set(neu);
            return true;
        }
    }

    /**
     * The numbers and times of day of a result, except ids (a key whose last word is "id", or "code") and values the
     * call asked about (a stale answer still answers the question asked).
     */
    private static void collect(JsonNode node, Set<String> asked, List<Leaf> out) {
        if (node instanceof ObjectNode o) {
            o.properties().forEach(e -> {
                JsonNode v = e.getValue();
                if (v.isContainerNode()) collect(v, asked, out);
                else if (eligible(v, asked) && !idKey(e.getKey())) out.add(new Leaf(o, e.getKey(), -1));
            });
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                JsonNode v = a.get(i);
                if (v.isContainerNode()) collect(v, asked, out);
                else if (eligible(v, asked)) out.add(new Leaf(a, null, i));
            }
        }
    }

    private static boolean eligible(JsonNode v, Set<String> asked) {
        if (asked.contains(v.asText())) return false;
        return v.isNumber() || v.isTextual() && TIME.matcher(v.asText()).matches();
    }

    private static boolean idKey(String key) {
        String k = key.toLowerCase(java.util.Locale.ROOT);
        return k.equals("id") || k.endsWith("_id") || k.endsWith("id") && Character.isUpperCase(key.charAt(Math.max(0, key.length() - 2)))
                || k.endsWith("code") || k.endsWith("number");
    }

    /** A number as an earlier reading had it: a small count or level off by one, a larger one by up to three, a rating by a few tenths, an amount by 4-12%. */
    static JsonNode older(JsonNode n, SplittableRandom r) {
        if (n.isIntegralNumber()) {
            long v = n.asLong();
            long d = Math.abs(v) <= 5 ? 1 : 1 + r.nextInt(3);   // a level or a small count by one
            return Json.NODES.numberNode(v > d && r.nextBoolean() ? v - d : v + d);
        }
        BigDecimal v = n.decimalValue();
        int scale = Math.max(1, v.stripTrailingZeros().scale());
        BigDecimal d;
        if (v.abs().compareTo(BigDecimal.TEN) < 0) {
            d = BigDecimal.valueOf(1 + r.nextInt(3), 1);        // a rating: 0.1 to 0.3
        } else {
            d = v.abs().multiply(BigDecimal.valueOf(4 + r.nextInt(9), 2)).setScale(scale, RoundingMode.HALF_UP).max(BigDecimal.ONE.movePointLeft(scale));
        }
        // Down or up, never past a rating's 5 from below it.
        boolean pastTop = v.compareTo(BigDecimal.valueOf(5)) <= 0 && v.add(d).compareTo(BigDecimal.valueOf(5)) > 0;
        BigDecimal out = v.compareTo(d) > 0 && (pastTop || r.nextBoolean()) ? v.subtract(d) : v.add(d);
        return Json.NODES.numberNode(out.setScale(scale, RoundingMode.HALF_UP).doubleValue());
    }

    /** A time of day half an hour or an hour off, within the same day. */
    static String earlier(String time, SplittableRandom r) {
        LocalTime t = LocalTime.parse(time);
        int minutes = (1 + r.nextInt(2)) * 30;
        LocalTime back = t.minusMinutes(minutes);
        LocalTime on = t.plusMinutes(minutes);
        boolean canBack = back.isBefore(t);
        boolean canOn = on.isAfter(t);
        LocalTime out = canBack && (!canOn || r.nextBoolean()) ? back : canOn ? on : t;
        return out.toString();
    }

    /** The list a top-level whole number counts (its size is that number), or null. */
    private static JsonNode countOf(ObjectNode out, String key) {
        JsonNode v = out.get(key);
        if (v == null || !v.isIntegralNumber()) return null;
        for (JsonNode list : out) if (list.isArray() && list.size() == v.asLong()) return list;
        return null;
    }

    /** A top-level count of the items listed beside it, off by one or two: the cache counted another list. */
    private static boolean miscount(ObjectNode out, SplittableRandom r) {
        List<String> keys = new ArrayList<>();
        out.fieldNames().forEachRemaining(keys::add);
        for (String k : keys) {
            if (countOf(out, k) == null) continue;
            out.put(k, out.get(k).asLong() + 1 + r.nextInt(2));
            return true;
        }
        return false;
    }

    @Override
    public Guide guide() {
        return new LayerGuide(inner.guide(), this) {
            @Override
            public Action next(Step last) {
                if (ep.staleThisTurn.isEmpty()) return innerNext();
                // The latest turn's stale answers: the same calls again, with fresh set and under the same ids, so that every
                // guide inside reads the live answer as the answer to the call it made.
                List<Action.ToolCall> again = new ArrayList<>();
                for (Action.ToolCall c : ep.staleThisTurn) {
                    ObjectNode args = Texts.argsObject(c.arguments());
                    args.put(FRESH, true);
                    again.add(new Action.ToolCall(c.id(), c.name(), Json.write(args)));
                }
                return new Action.CallTools(again);
            }
        };
    }
}
