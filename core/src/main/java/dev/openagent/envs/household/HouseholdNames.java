package dev.openagent.envs.household;

import java.util.List;

/**
 * Vocabulary of the household: room templates with their furniture and appliances, and the kinds
 * of things with what can be done to them. Kinds and colours are split by index parity (see
 * {@link dev.openagent.envs.kit.Names}), so train and test houses hold no thing of the same name,
 * and each half keeps things that can be heated, cooled, cleaned and washed.
 */
final class HouseholdNames {
    private HouseholdNames() {}

    static final int NONE = 0;
    static final int HEATS = 1;
    static final int COOLS = 2;
    static final int CLEANS = 3;
    static final int WASHES = 4;

    /** A piece of furniture or an appliance in a room template. */
    record Furniture(String name, boolean openable, boolean surface, int appliance) {}

    /** A room and its furniture; {@code copies} of a piece are numbered ("cabinet 1", "cabinet 2"). */
    record RoomTemplate(String name, List<Furniture> furniture, List<Integer> copies) {}

    private static Furniture on(String name) { return new Furniture(name, false, true, NONE); }

    private static Furniture in(String name) { return new Furniture(name, false, false, NONE); }

    private static Furniture closed(String name) { return new Furniture(name, true, false, NONE); }

    private static Furniture appliance(String name, boolean openable, int does) { return new Furniture(name, openable, false, does); }

    static final RoomTemplate KITCHEN = new RoomTemplate("kitchen", List.of(
            appliance("fridge", true, COOLS), appliance("microwave", true, HEATS), appliance("sink", false, CLEANS),
            on("countertop"), closed("cabinet"), closed("drawer")), List.of(1, 1, 1, 1, 2, 1));
    static final RoomTemplate BATHROOM = new RoomTemplate("bathroom", List.of(
            appliance("sink", false, CLEANS), in("bathtub"), on("towel rack"), closed("cabinet"), on("shelf")), List.of(1, 1, 1, 1, 1));
    static final RoomTemplate BEDROOM = new RoomTemplate("bedroom", List.of(
            on("bed"), closed("dresser"), on("desk"), closed("nightstand"), on("shelf")), List.of(1, 1, 1, 1, 1));
    static final RoomTemplate LIVING_ROOM = new RoomTemplate("living room", List.of(
            on("sofa"), on("coffee table"), on("tv stand"), on("shelf"), closed("cabinet")), List.of(1, 1, 1, 1, 1));
    static final RoomTemplate DINING_ROOM = new RoomTemplate("dining room", List.of(
            on("dining table"), closed("sideboard"), on("shelf")), List.of(1, 1, 1));
    static final RoomTemplate GARAGE = new RoomTemplate("garage", List.of(
            on("workbench"), on("shelf"), closed("toolbox"), appliance("freezer", true, COOLS)), List.of(1, 1, 1, 1));
    static final RoomTemplate STUDY = new RoomTemplate("study", List.of(
            on("desk"), on("bookshelf"), closed("drawer")), List.of(1, 1, 1));
    static final RoomTemplate LAUNDRY_ROOM = new RoomTemplate("laundry room", List.of(
            appliance("washing machine", true, WASHES), in("laundry basket"), on("shelf")), List.of(1, 1, 1));

    /** Always present, then two or three of the optional rooms. */
    static final List<RoomTemplate> CORE_ROOMS = List.of(KITCHEN, LIVING_ROOM, BEDROOM, BATHROOM);
    static final List<RoomTemplate> OPTIONAL_ROOMS = List.of(DINING_ROOM, GARAGE, STUDY, LAUNDRY_ROOM);

    /** A kind of thing: what can be done to it and where it is usually found (furniture names). */
    record Kind(String name, String plural, boolean heat, boolean cool, boolean clean, boolean wash, List<String> homes) {}

    private static final List<String> DISH_HOMES = List.of("cabinet", "countertop", "sink", "dining table", "sideboard", "coffee table", "desk");
    private static final List<String> FOOD_HOMES = List.of("fridge", "countertop", "dining table", "cabinet");
    private static final List<String> LINEN_HOMES = List.of("laundry basket", "towel rack", "bed", "dresser", "sofa", "shelf", "cabinet");
    private static final List<String> MISC_HOMES = List.of("shelf", "desk", "coffee table", "tv stand", "nightstand", "bookshelf",
            "dresser", "sideboard", "sofa", "workbench", "drawer");
    private static final List<String> UTENSIL_HOMES = List.of("drawer", "countertop", "sink", "dining table", "sideboard");

    /** Even entries go to train houses, odd ones to test houses. */
    static final List<Kind> KINDS = List.of(
            new Kind("mug", "mugs", true, true, true, false, DISH_HOMES),
            new Kind("cup", "cups", true, true, true, false, DISH_HOMES),
            new Kind("plate", "plates", true, false, true, false, DISH_HOMES),
            new Kind("bowl", "bowls", true, true, true, false, DISH_HOMES),
            new Kind("apple", "apples", false, true, true, false, FOOD_HOMES),
            new Kind("pear", "pears", false, true, true, false, FOOD_HOMES),
            new Kind("potato", "potatoes", true, true, true, false, FOOD_HOMES),
            new Kind("tomato", "tomatoes", true, true, true, false, FOOD_HOMES),
            new Kind("egg", "eggs", true, true, false, false, FOOD_HOMES),
            new Kind("lemon", "lemons", false, true, true, false, FOOD_HOMES),
            new Kind("pan", "pans", true, false, true, false, List.of("cabinet", "countertop", "sink", "drawer")),
            new Kind("pot", "pots", true, false, true, false, List.of("cabinet", "countertop", "sink", "shelf")),
            new Kind("bottle", "bottles", false, true, true, false, List.of("fridge", "countertop", "cabinet", "desk", "workbench")),
            new Kind("jar", "jars", false, true, true, false, List.of("fridge", "countertop", "cabinet", "shelf", "sideboard")),
            new Kind("towel", "towels", false, false, false, true, LINEN_HOMES),
            new Kind("cloth", "cloths", false, false, false, true, LINEN_HOMES),
            new Kind("shirt", "shirts", false, false, false, true, LINEN_HOMES),
            new Kind("sock", "socks", false, false, false, true, LINEN_HOMES),
            new Kind("book", "books", false, false, false, false, MISC_HOMES),
            new Kind("notebook", "notebooks", false, false, false, false, MISC_HOMES),
            new Kind("candle", "candles", false, false, false, false, MISC_HOMES),
            new Kind("vase", "vases", false, false, true, false, MISC_HOMES),
            new Kind("remote", "remotes", false, false, false, false, MISC_HOMES),
            new Kind("phone", "phones", false, false, false, false, MISC_HOMES),
            new Kind("spoon", "spoons", false, false, true, false, UTENSIL_HOMES),
            new Kind("fork", "forks", false, false, true, false, UTENSIL_HOMES),
            new Kind("knife", "knives", false, false, true, false, UTENSIL_HOMES),
            new Kind("ladle", "ladles", false, false, true, false, UTENSIL_HOMES),
            new Kind("pillow", "pillows", false, false, false, true, LINEN_HOMES),
            new Kind("blanket", "blankets", false, false, false, true, LINEN_HOMES));

    /** Colours name things apart ("red mug", "blue mug"); split by parity like the kinds. */
    static final List<String> COLORS = List.of("red", "blue", "green", "yellow", "white", "black", "brown", "grey",
            "orange", "purple", "pink", "teal", "striped", "spotted");
}
