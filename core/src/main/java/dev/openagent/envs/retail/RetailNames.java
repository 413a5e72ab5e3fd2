package dev.openagent.envs.retail;

import java.util.List;
import java.util.Map;

/**
 * Vocabulary and name pools of the retail domain. Categories, product types, colours, sizes and
 * carriers are fixed vocabulary; customer names, cities and product-line stems are pools split by
 * parity (see {@link dev.openagent.envs.kit.Names}).
 */
final class RetailNames {
    private RetailNames() {}

    static final List<String> CATEGORIES = List.of("apparel", "footwear", "electronics", "home", "outdoor");

    /** Return window in days from delivery, per category. */
    static final Map<String, Integer> WINDOW_DAYS = Map.of("apparel", 30, "footwear", 30, "electronics", 15, "home", 30, "outdoor", 60);

    static final Map<String, List<String>> TYPES = Map.of(
            "apparel", List.of("Hoodie", "Jacket", "Fleece", "Tee", "Vest", "Joggers"),
            "footwear", List.of("Runner", "Trail Shoe", "Boot", "Sneaker"),
            "electronics", List.of("Earbuds", "Speaker", "Headphones", "Smartwatch", "Power Bank"),
            "home", List.of("Lamp", "Throw Blanket", "Mug Set", "Cushion"),
            "outdoor", List.of("Backpack", "Tent", "Water Bottle", "Sleeping Bag"));

    static final Map<String, List<String>> SIZES = Map.of(
            "apparel", List.of("S", "M", "L", "XL"),
            "footwear", List.of("8", "9", "10", "11"),
            "electronics", List.of("one size"),
            "home", List.of("one size"),
            "outdoor", List.of("small", "regular", "large"));

    static final Map<String, int[]> PRICE_RANGE = Map.of(
            "apparel", new int[]{29, 129}, "footwear", new int[]{59, 179}, "electronics", new int[]{39, 299},
            "home", new int[]{19, 89}, "outdoor", new int[]{25, 249});

    static final List<String> COLORS = List.of("black", "navy", "olive", "grey", "red", "white", "sand", "teal");

    static final List<String> CARRIERS = List.of("Parcelway", "SwiftShip", "NorthPost");

    static final List<String> STEMS = List.of(
            "Aurora", "Summit", "Harbor", "Nimbus", "Cascade", "Ember", "Atlas", "Solstice", "Tundra", "Zephyr",
            "Meridian", "Drift", "Canyon", "Ridge", "Polar", "Lumen", "Orbit", "Sable", "Vertex", "Willow",
            "Coastal", "Boreal", "Sierra", "Juniper", "Nova", "Quartz", "Terra", "Falcon", "Breeze", "Granite",
            "Echo", "Prism");

    static final List<String> FIRST = List.of(
            "Avery", "Blake", "Cora", "Dante", "Eliza", "Finn", "Greta", "Hector", "Isla", "Jude", "Kira", "Lucas",
            "Mila", "Nolan", "Opal", "Parker", "Rhea", "Silas", "Thea", "Victor", "Willa", "Xander", "Yvonne", "Zane",
            "Aria", "Bennett", "Clara", "Declan", "Esme", "Gavin", "Hazel", "Ivan");

    static final List<String> LAST = List.of(
            "Alvarez", "Bishop", "Carver", "Dunn", "Ellison", "Foster", "Garrison", "Hale", "Irwin", "Jennings",
            "Kirby", "Lawson", "Monroe", "Nash", "Orton", "Pruitt", "Ramsey", "Sutton", "Tate", "Underwood",
            "Vance", "Whitaker", "Yates", "Zimmer", "Ashby", "Barlow", "Crane", "Dalton", "Emery", "Frost",
            "Gale", "Hollis");

    static final List<String> CITIES = List.of(
            "Brookfield", "Cold Spring", "Dover Hill", "Edgewater", "Fox Hollow", "Glen Ridge", "Hartwell", "Iron Creek",
            "Jasper Bay", "Kent Falls", "Linden", "Moss Point", "New Bristol", "Oak Harbor", "Pine Bluff", "Quarry Lake");

    static final List<String> CARD_BRANDS = List.of("Visa", "Mastercard", "Amex");
}
