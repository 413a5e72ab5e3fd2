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

    static final Map<String, List<String>> GENERIC = generic();

    private static void put(Map<String, List<String>> m, String word, String... synonyms) { m.put(word, List.of(synonyms)); }

    private static Map<String, List<String>> generic() {
        Map<String, List<String>> m = new HashMap<>();
        put(m, "search", "find", "lookup", "query");
        put(m, "get", "fetch", "retrieve", "read");
        put(m, "find", "locate", "discover", "lookup");
        put(m, "list", "enumerate", "show", "browse");
        put(m, "make", "create", "submit", "place");
        put(m, "create", "make", "open", "add");
        put(m, "cancel", "revoke", "void", "annul");
        put(m, "check", "verify", "probe", "query");
        put(m, "update", "modify", "change", "edit");
        put(m, "delete", "remove", "erase", "drop");
        put(m, "book", "reserve", "schedule", "secure");
        put(m, "place", "venue", "location", "spot");
        put(m, "places", "venues", "locations", "spots");
        put(m, "details", "info", "profile", "record");
        put(m, "opening", "business", "service", "trading");
        put(m, "hours", "times", "schedule", "timetable");
        put(m, "distance", "span", "route_length", "separation");
        put(m, "nearby", "around", "close", "adjacent");
        put(m, "availability", "vacancy", "openings", "capacity");
        put(m, "reservation", "booking", "reserved_slot", "engagement");
        put(m, "reservations", "bookings", "reserved_slots", "engagements");
        put(m, "reviews", "ratings", "feedback", "opinions");
        put(m, "districts", "neighborhoods", "areas", "zones");
        put(m, "district", "neighborhood", "area", "zone");
        put(m, "id", "ref", "key", "identifier");
        put(m, "name", "title", "label", "designation");
        put(m, "city", "town", "municipality", "locality");
        put(m, "category", "kind", "type", "class");
        put(m, "cuisine", "food", "fare", "food_style");
        put(m, "rating", "score", "stars", "grade");
        put(m, "price", "cost", "fee", "tariff");
        put(m, "level", "tier", "band", "grade");
        put(m, "date", "day", "calendar_day", "when");
        put(m, "time", "hour", "slot", "clock_time");
        put(m, "party", "group", "guests", "company");
        put(m, "size", "count", "number", "total");
        put(m, "guest", "customer", "diner", "visitor");
        put(m, "code", "token", "pin", "key");
        put(m, "verification", "confirmation", "validation", "proof");
        put(m, "from", "origin", "source", "start");
        put(m, "to", "target", "destination", "end");
        put(m, "mode", "means", "method", "way");
        put(m, "radius", "range", "reach", "within");
        put(m, "km", "kilometres", "kilometers", "distance");
        put(m, "day", "weekday", "date", "day_name");
        put(m, "min", "lowest", "lower", "floor");
        put(m, "max", "highest", "upper", "ceiling");
        put(m, "phone", "telephone", "tel", "contact");
        put(m, "count", "total", "number", "size");
        put(m, "results", "matches", "hits", "items");
        put(m, "status", "state", "condition", "stage");
        put(m, "patient", "client", "person", "member");
        put(m, "doctor", "physician", "clinician", "provider");
        put(m, "department", "ward", "unit", "clinic");
        put(m, "appointment", "visit", "booking", "consultation");
        put(m, "appointments", "visits", "bookings", "consultations");
        put(m, "drug", "medication", "medicine", "remedy");
        put(m, "order", "purchase", "sale", "transaction");
        put(m, "orders", "purchases", "sales", "transactions");
        put(m, "return", "refund", "sendback", "exchange");
        put(m, "item", "article", "product", "line");
        put(m, "items", "articles", "products", "lines");
        put(m, "product", "item", "article", "sku");
        put(m, "flight", "trip", "journey", "leg");
        put(m, "flights", "trips", "journeys", "legs");
        put(m, "hotel", "lodging", "stay", "accommodation");
        put(m, "address", "location", "street", "where");
        put(m, "location", "position", "coordinates", "whereabouts");
        put(m, "available", "free", "open", "bookable");
        put(m, "later", "subsequent", "following", "next");
        put(m, "times", "slots", "hours", "moments");
        put(m, "open", "operating", "serving", "active");
        put(m, "opens", "starts", "begins", "from");
        put(m, "closes", "ends", "finishes", "until");
        put(m, "minutes", "mins", "duration", "time");
        put(m, "origin", "start", "source", "from");
        put(m, "average", "mean", "overall", "typical");
        put(m, "stars", "score", "rating", "points");
        put(m, "text", "comment", "body", "content");
        put(m, "takes", "accepts", "allows", "supports");
        put(m, "capacity", "seats", "size", "room");
        put(m, "cancellation", "revocation", "voiding", "annulment");
        return java.util.Collections.unmodifiableMap(m);
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
