package dev.openagent.envs.travel;

import java.util.List;

/**
 * Vocabulary and name pools of the travel domain. Neighbourhoods, amenities and aircraft are fixed
 * vocabulary; cities, airlines and hotel names are pools split by parity (see
 * {@link dev.openagent.envs.kit.Names}), so train and test worlds share none of them.
 */
final class TravelNames {
    private TravelNames() {}

    static final List<String> CITIES = List.of(
            "Portmere", "Valdoria", "Kestrel Point", "Alderhaven", "Brightwater", "Corvin Bay", "Dunhollow", "Eastmarch",
            "Fernhill", "Greyport", "Halcyon", "Ironvale", "Jadeport", "Karston", "Lunaria", "Morrowind",
            "Northwick", "Oakmere", "Pellham", "Quillon", "Ravensport", "Saltmarsh", "Tidewater", "Umberfall");

    /** Airlines and their two-letter codes. */
    static final List<String[]> AIRLINES = List.of(
            new String[]{"Skylark Air", "SK"}, new String[]{"Nordwind", "NW"}, new String[]{"Coastal Jet", "CJ"},
            new String[]{"BlueRidge Airways", "BR"}, new String[]{"Aurora Airlines", "AU"}, new String[]{"Meridian Air", "MA"},
            new String[]{"Falcon Wings", "FW"}, new String[]{"Pacifica", "PC"});

    static final List<String> HOTEL_STEMS = List.of(
            "Grand", "Harbor", "Riverside", "Park", "Central", "Royal", "Garden", "Plaza", "Summit", "Lakeview",
            "Heritage", "Skyline", "Crescent", "Meridian", "Bayside", "Lantern", "Orchard", "Beacon", "Willow", "Sterling");

    static final List<String> HOTEL_TYPES = List.of("Hotel", "Inn", "Suites", "Lodge");

    static final List<String> NEIGHBORHOODS = List.of("Old Town", "Waterfront", "Airport District", "City Center",
            "University Quarter", "Arts District");

    static final List<String> AMENITIES = List.of("pool", "gym", "spa", "free breakfast", "parking", "airport shuttle", "restaurant");

    static final List<String> AIRCRAFT = List.of("A320", "A321", "737-800", "E190", "A220", "ATR 72");

    static final List<String> FIRST = List.of(
            "Anika", "Boris", "Carla", "Desmond", "Edith", "Fabian", "Gemma", "Harvey", "Ingrid", "Jasper", "Kaia", "Lorenzo",
            "Marta", "Nils", "Odette", "Pavel", "Rosalind", "Stefan", "Tamsin", "Umberto", "Vesna", "Walter", "Ximena", "Yorick");

    static final List<String> LAST = List.of(
            "Achebe", "Bergstrom", "Calloway", "Dimitriou", "Engel", "Fairbanks", "Grimaldi", "Hartmann", "Ivanova", "Jurado",
            "Kessler", "Lachance", "Mbeki", "Nordahl", "Ocampo", "Pfeiffer", "Rahimi", "Sorensen", "Thornton", "Valente");
}
