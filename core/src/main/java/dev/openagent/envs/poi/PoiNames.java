package dev.openagent.envs.poi;

import dev.openagent.envs.kit.Names;
import dev.openagent.sandbox.Split;

import java.util.List;
import java.util.SplittableRandom;

/**
 * Name pools. Each pool is cut in two by index parity, train taking the even entries and test the
 * odd ones, so train and test worlds share no city, place or guest names.
 */
final class PoiNames {
    private PoiNames() {}

    static final List<String> CITIES = List.of(
            "Lakeside", "Brookhaven", "Marlow", "Eastfield", "Ravenna", "Kestrel Bay", "Ashford", "Port Elliot",
            "Silverton", "Northgate", "Pinecrest", "Oakridge", "Westmere", "Larkspur", "Fairhaven", "Stonebridge",
            "Glenmoor", "Harrowgate", "Millbrook", "Crescent City", "Redcliff", "Elmstead", "Summerfield", "Thornbury",
            "Bayview", "Castleton", "Dunmore", "Ferncliff", "Greyhaven", "Highmoor", "Ivybridge", "Juniper Falls",
            "Kingsley", "Lowell", "Mapleton", "Newhaven", "Orchard Hill", "Pembrook", "Queensport", "Rosewood");

    static final List<String> DISTRICTS = List.of(
            "Old Town", "Harbor", "University", "Riverside", "Market", "Hillcrest", "Station", "Garden Quarter",
            "Docklands", "Cathedral", "Westend", "Northside");

    static final List<String> ADJECTIVES = List.of(
            "Blue", "Golden", "Silver", "Red", "Green", "Little", "Old", "Royal", "Hidden", "Lucky", "Quiet", "Wild",
            "Amber", "Copper", "Velvet", "Crimson", "Sunny", "Misty", "Iron", "Ivory", "Jade", "Coral", "Cedar",
            "Olive", "Scarlet", "Azure", "Maple", "Honey", "Stone", "Lunar");

    static final List<String> NOUNS = List.of(
            "Fig", "Lantern", "Anchor", "Oak", "Fox", "Harbor", "Sparrow", "Crown", "Willow", "Bell", "Pine", "Heron",
            "Compass", "Garden", "Feather", "Barrel", "Kettle", "Meadow", "Orchid", "Pearl", "Quill", "Raven", "Saffron",
            "Thistle", "Vine", "Wren", "Acorn", "Bridge", "Comet", "Dune");

    static final List<String> FIRST = List.of(
            "Ana", "Ben", "Chloe", "Daniel", "Elena", "Farid", "Grace", "Hugo", "Irene", "Jonas", "Keiko", "Liam",
            "Maya", "Nikolai", "Olivia", "Pedro", "Quinn", "Rosa", "Samir", "Tara", "Umar", "Vera", "Wei", "Yara");

    static final List<String> LAST = List.of(
            "Ruiz", "Okafor", "Lindqvist", "Moreau", "Tanaka", "Kowalski", "Haddad", "Brennan", "Costa", "Novak",
            "Fischer", "Ibrahim", "Jensen", "Kim", "Laurent", "Mendes", "Nakamura", "Olsen", "Petrov", "Quinteros");

    /** A place-name stem ("Blue Fig"): adjective/noun pairs split by the parity of their index sum. */
    static String stem(Split split, SplittableRandom rnd) {
        int parity = split == Split.TRAIN ? 0 : 1;
        while (true) {
            int a = rnd.nextInt(ADJECTIVES.size());
            int n = rnd.nextInt(NOUNS.size());
            if ((a + n) % 2 == parity) return ADJECTIVES.get(a) + " " + NOUNS.get(n);
        }
    }

    static String guest(Split split, SplittableRandom rnd) {
        List<String> first = Names.half(FIRST, split);
        return first.get(rnd.nextInt(first.size())) + " " + LAST.get(rnd.nextInt(LAST.size()));
    }
}
