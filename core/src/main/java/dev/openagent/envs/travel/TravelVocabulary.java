package dev.openagent.envs.travel;

import dev.openagent.envs.kit.Names;
import dev.openagent.domain.Vocabulary;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskVariants;
import dev.openagent.envs.travel.TravelWorld.Flight;
import dev.openagent.envs.travel.TravelWorld.Hotel;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** Travel's words: synonyms for its names, rewrites of its requests, and distracting sentences about its world. */
final class TravelVocabulary {
    private TravelVocabulary() {}

    /** Synonyms for the words its tool, parameter and key names are made of. */
    private static final Map<String, List<String>> SYNONYMS = Map.ofEntries(
            Map.entry("airports", List.of("airfields", "terminals", "hubs")),
            Map.entry("flights", List.of("departures", "trips", "legs")),
            Map.entry("flight", List.of("departure", "trip", "leg")),
            Map.entry("connections", List.of("transfers", "layovers", "stopovers")),
            Map.entry("connecting", List.of("onward", "transfer", "second")),
            Map.entry("fare", List.of("ticket", "price", "tariff")),
            Map.entry("rules", List.of("terms", "conditions", "policy")),
            Map.entry("hotels", List.of("lodgings", "stays", "accommodations")),
            Map.entry("rates", List.of("prices", "tariffs", "costs")),
            Map.entry("bookings", List.of("reservations", "trips", "itineraries")),
            Map.entry("passenger", List.of("traveller", "flyer", "guest")),
            Map.entry("reference", List.of("locator", "confirmation", "record")),
            Map.entry("destination", List.of("arrival", "to_airport", "target")),
            Map.entry("layover", List.of("stopover", "transfer", "connection")),
            Map.entry("neighborhood", List.of("district", "quarter", "area")),
            Map.entry("check", List.of("arrival", "start", "stay")),
            Map.entry("in", List.of("arrive", "start", "begin")),
            Map.entry("out", List.of("depart", "end", "leave")),
            Map.entry("last", List.of("family", "sur", "final")));

    /** The synonyms, rewrites of phrases its requests use, and the distractions below. */
    static final Vocabulary<TravelWorld> VOCABULARY = new Vocabulary<>(SYNONYMS, Vocabulary.rewrites(
            "\\bWhich is the cheapest nonstop flight\\b", "What's the lowest-priced direct flight",
            "\\bnonstop\\b", "direct",
            "\\bgive me the record locator\\b", "send me the booking reference (record locator)",
            "\\bI need the record locator\\b", "I'll need the record locator",
            "\\bcost in total\\b", "come to altogether",
            "\\bWhat is the cancellation code\\?", "Please send me the cancellation code.",
            "\\bone-stop connection\\b", "itinerary with one change of planes",
            "\\bGive me the confirmation number\\b", "I need the confirmation number"),
            TravelVocabulary::distractions);

    /** Sentences about hotels, cities and flights of this world that the request does not name. */
    private static List<String> distractions(Task task, TravelWorld w, SplittableRandom rnd) {
        List<String> out = new ArrayList<>();
        Hotel h = Pick.any(w.map.hotels(), rnd, x -> !task.query().contains(x.name()));
        if (h != null) out.add("Last year I stayed at the " + h.name() + " in " + h.city() + " and the breakfast was great.");
        String city = Names.any(w.map.cities(), rnd);
        out.add("I might also visit a friend in " + city + " later in the month.");
        Flight f = Names.any(w.map.flights(), rnd);
        if (!task.query().contains(f.number())) out.add("My colleague is on flight " + f.number() + " that week.");
        return out;
    }
}
