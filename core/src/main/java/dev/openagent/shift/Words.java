package dev.openagent.shift;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A generic synonym table for the words tool, parameter and key names are made of (names are
 * split on '_'). Environments add their own in their vocabulary ({@code EnvFacts.synonyms()}).
 */
public final class Words {
    private Words() {}

    static final Map<String, List<String>> GENERIC = new HashMap<>();

    private static void put(String word, String... synonyms) { GENERIC.put(word, List.of(synonyms)); }

    static {
        put("search", "find", "lookup", "query");
        put("get", "fetch", "retrieve", "read");
        put("find", "locate", "discover", "lookup");
        put("list", "enumerate", "show", "browse");
        put("make", "create", "submit", "place");
        put("create", "make", "open", "add");
        put("cancel", "revoke", "void", "annul");
        put("check", "verify", "probe", "query");
        put("update", "modify", "change", "edit");
        put("delete", "remove", "erase", "drop");
        put("book", "reserve", "schedule", "secure");
        put("place", "venue", "location", "spot");
        put("places", "venues", "locations", "spots");
        put("details", "info", "profile", "record");
        put("opening", "business", "service", "trading");
        put("hours", "times", "schedule", "timetable");
        put("distance", "span", "route_length", "separation");
        put("nearby", "around", "close", "adjacent");
        put("availability", "vacancy", "openings", "capacity");
        put("reservation", "booking", "reserved_slot", "engagement");
        put("reservations", "bookings", "reserved_slots", "engagements");
        put("reviews", "ratings", "feedback", "opinions");
        put("districts", "neighborhoods", "areas", "zones");
        put("district", "neighborhood", "area", "zone");
        put("id", "ref", "key", "identifier");
        put("name", "title", "label", "designation");
        put("city", "town", "municipality", "locality");
        put("category", "kind", "type", "class");
        put("cuisine", "food", "fare", "food_style");
        put("rating", "score", "stars", "grade");
        put("price", "cost", "fee", "tariff");
        put("level", "tier", "band", "grade");
        put("date", "day", "calendar_day", "when");
        put("time", "hour", "slot", "clock_time");
        put("party", "group", "guests", "company");
        put("size", "count", "number", "total");
        put("guest", "customer", "diner", "visitor");
        put("code", "token", "pin", "key");
        put("verification", "confirmation", "validation", "proof");
        put("from", "origin", "source", "start");
        put("to", "target", "destination", "end");
        put("mode", "means", "method", "way");
        put("radius", "range", "reach", "within");
        put("km", "kilometres", "kilometers", "distance");
        put("day", "weekday", "date", "day_name");
        put("min", "lowest", "lower", "floor");
        put("max", "highest", "upper", "ceiling");
        put("phone", "telephone", "tel", "contact");
        put("count", "total", "number", "size");
        put("results", "matches", "hits", "items");
        put("status", "state", "condition", "stage");
        put("patient", "client", "person", "member");
        put("doctor", "physician", "clinician", "provider");
        put("department", "ward", "unit", "clinic");
        put("appointment", "visit", "booking", "consultation");
        put("appointments", "visits", "bookings", "consultations");
        put("drug", "medication", "medicine", "remedy");
        put("order", "purchase", "sale", "transaction");
        put("orders", "purchases", "sales", "transactions");
        put("return", "refund", "sendback", "exchange");
        put("item", "article", "product", "line");
        put("items", "articles", "products", "lines");
        put("product", "item", "article", "sku");
        put("flight", "trip", "journey", "leg");
        put("flights", "trips", "journeys", "legs");
        put("hotel", "lodging", "stay", "accommodation");
        put("address", "location", "street", "where");
        put("location", "position", "coordinates", "whereabouts");
        put("available", "free", "open", "bookable");
        put("later", "subsequent", "following", "next");
        put("times", "slots", "hours", "moments");
        put("open", "operating", "serving", "active");
        put("opens", "starts", "begins", "from");
        put("closes", "ends", "finishes", "until");
        put("minutes", "mins", "duration", "time");
        put("origin", "start", "source", "from");
        put("average", "mean", "overall", "typical");
        put("stars", "score", "rating", "points");
        put("text", "comment", "body", "content");
        put("takes", "accepts", "allows", "supports");
        put("capacity", "seats", "size", "room");
        put("cancellation", "revocation", "voiding", "annulment");
    }

    /** The generic table overlaid with an environment's own synonyms. */
    public static Map<String, List<String>> table(Map<String, List<String>> extra) {
        if (extra.isEmpty()) return GENERIC;
        Map<String, List<String>> t = new HashMap<>(GENERIC);
        t.putAll(extra);
        return t;
    }

    /**
     * A snake_case name with words swapped for synonyms: each word with probability {@code p}
     * (at least one when any word has synonyms).
     */
    public static String synonymName(String name, Map<String, List<String>> table, double p, SplittableRandom rnd) {
        String[] parts = name.split("_");
        List<Integer> replaceable = new ArrayList<>();
        for (int i = 0; i < parts.length; i++) if (table.containsKey(parts[i].toLowerCase(java.util.Locale.ROOT))) replaceable.add(i);
        if (replaceable.isEmpty()) return name;
        int forced = replaceable.get(rnd.nextInt(replaceable.size()));
        for (int i : replaceable) {
            if (i == forced || rnd.nextDouble() < p) {
                List<String> syn = table.get(parts[i].toLowerCase(java.util.Locale.ROOT));
                parts[i] = syn.get(rnd.nextInt(syn.size()));
            }
        }
        return String.join("_", parts);
    }

    /** Distinct names: a name already taken gets a numeric suffix. */
    public static String unique(String name, java.util.Set<String> taken) {
        String n = name;
        for (int i = 2; taken.contains(n); i++) n = name + "_" + i;
        taken.add(n);
        return n;
    }

    static Map<String, String> ordered(List<String> keys, List<String> values) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) m.put(keys.get(i), values.get(i));
        return m;
    }
}
