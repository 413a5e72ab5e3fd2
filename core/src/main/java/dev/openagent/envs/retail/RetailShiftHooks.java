package dev.openagent.envs.retail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskVariants;
import dev.openagent.envs.retail.RetailWorld.Customer;
import dev.openagent.envs.retail.RetailWorld.Item;
import dev.openagent.envs.retail.RetailWorld.Order;
import dev.openagent.envs.retail.RetailWorld.Product;
import dev.openagent.envs.retail.RetailWorld.Variant;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.GoldPlan.Ref;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Task;
import dev.openagent.tool.ShiftHooks;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

import static dev.openagent.envs.kit.TaskDraft.args;

/**
 * What the shifts may know about the shop: how its requests become impossible (an order or a customer
 * that does not exist, an item that can no longer be returned, a size that is not to be had, an order
 * that already shipped, a product the shop does not sell), how an order or an account is reached from
 * the customer's email or name, the other paths to an order list and to a return check, its records,
 * its rule of order and its words.
 */
final class RetailShiftHooks {
    private RetailShiftHooks() {}

    /** Sizes no product of the category comes in. */
    private static final Map<String, String> NEVER_SIZE = Map.of("apparel", "XXL", "footwear", "13", "outdoor", "extra large");

    // ---------------------------------------------------------------- task.unsolvable

    static Optional<Task> unsolvable(Task task, RetailWorld w, long seed) {
        SplittableRandom rnd = new SplittableRandom(Seeds.mix(seed, 0x0DD));
        List<TaskVariants.Way> ways = new ArrayList<>();
        switch (task.kind()) {
            case "delivery_date", "tracking_number", "return_deadline", "exchange_or_refund", "return_all_eligible" ->
                    ways.add(r -> unknownOrder(task, w, r));
            case "return_item" -> {
                ways.add(r -> unknownOrder(task, w, r));
                ways.add(r -> notReturnable(task, w, r));
            }
            case "exchange_size" -> {
                ways.add(r -> unknownOrder(task, w, r));
                ways.add(r -> sizeNotToBeHad(task, w, r));
            }
            case "count_orders" -> ways.add(r -> unknownCustomer(task, w, r));
            case "cancel_unshipped_order" -> {
                ways.add(r -> unknownCustomer(task, w, r));
                ways.add(r -> alreadyShipped(task, w, r));
            }
            case "variant_stock" -> ways.add(r -> notSold(task, w, r));
            case "customer_history_return" -> ways.add(r -> noSuchAccount(task, w, r));
            default -> { }
        }
        return TaskVariants.first(ways, rnd);
    }

    /** The order named does not exist. */
    private static Optional<Task> unknownOrder(Task task, RetailWorld w, SplittableRandom rnd) {
        Order o = namedOrder(task, w);
        if (o == null) return Optional.empty();
        String fake;
        do fake = "O-" + (100000 + rnd.nextInt(900000)); while (w.order(fake) != null || task.query().contains(fake));
        List<GoldPlan.Call> probes = TaskVariants.probesUntil(task.plan(), "order_id", fake);
        if (probes.isEmpty()) return Optional.empty();
        return Optional.of(task.unsolvable(task.query().replace(o.id(), fake), probes, "There is no order " + fake + ".",
                TaskVariants.replaceInDetails(task.details(), o.id(), fake, true)));
    }

    /** The item to return can no longer be returned (final sale, or its window closed): another delivered item that is so. */
    private static Optional<Task> notReturnable(Task task, RetailWorld w, SplittableRandom rnd) {
        Order o = namedOrder(task, w);
        Item it = o == null ? null : namedItem(task, o);
        if (it == null) return Optional.empty();
        String said = "the " + it.variant().color() + " " + it.product().name() + " from order " + o.id();
        if (!TaskVariants.once(task.query(), said)) return Optional.empty();
        for (Order other : Pick.shuffled(w.map.orders(), rnd)) {
            if (!w.status(other).equals("delivered")) continue;
            for (Item x : other.items()) {
                String why = w.ineligibility(other, x);
                if (why == null || !w.status(x).equals("delivered") || twice(other, x)) continue;
                String now = "the " + x.variant().color() + " " + x.product().name() + " from order " + other.id();
                int k = other.items().indexOf(x);
                List<GoldPlan.Call> probes = List.of(new GoldPlan.Call("get_order", args("order_id", other.id())),
                        new GoldPlan.Call("check_return_eligibility", args(), Map.of("order_id", new Ref(0, "/order_id"),
                                "item_id", new Ref(0, "/items/" + k + "/item_id"))));
                List<Detail> details = TaskVariants.replaceInDetails(TaskVariants.replaceInDetails(task.details(), o.id(), other.id(), true),
                        " " + it.variant().color(), " " + x.variant().color(), true);
                return Optional.of(task.unsolvable(task.query().replace(said, now), probes,
                        "The " + x.variant().color() + " " + x.product().name() + " from order " + other.id() + " cannot be returned: " + why + ".",
                        details.stream().map(d -> d.key().equals("color") ? new Detail(d.key(), d.span(), d.keywords(),
                                "The " + x.variant().color() + " one.", false) : d).toList()));
            }
        }
        return Optional.empty();
    }

    /** Whether the order holds the item's product in the item's colour more than once. */
    private static boolean twice(Order o, Item it) {
        return o.items().stream().filter(x -> x.product() == it.product() && x.variant().color().equals(it.variant().color())).count() > 1;
    }

    /** The size to exchange to is out of stock in that colour, or not made at all. */
    private static Optional<Task> sizeNotToBeHad(Task task, RetailWorld w, SplittableRandom rnd) {
        Order o = namedOrder(task, w);
        Item it = o == null ? null : namedItem(task, o);
        Detail size = task.details().stream().filter(d -> d.key().equals("size")).findFirst().orElse(null);
        if (it == null || size == null || !TaskVariants.once(task.query(), size.span())) return Optional.empty();
        List<String> gone = new ArrayList<>();
        for (Variant v : it.product().variants()) {
            if (v.color().equals(it.variant().color()) && v != it.variant() && w.stock(v) == 0) gone.add(v.size());
        }
        String never = NEVER_SIZE.get(it.product().category());
        if (gone.isEmpty() && never == null) return Optional.empty();
        String other = gone.isEmpty() ? never : TaskVariants.any(gone, rnd);
        String span = " for size " + other;
        List<GoldPlan.Call> probes = new ArrayList<>();
        for (GoldPlan.Call c : task.plan().calls()) {
            if (!c.tool().equals("get_order") && !c.tool().equals("get_product")) break;
            probes.add(c);
        }
        String why = gone.contains(other) ? "is out of stock" : "is not made";
        return Optional.of(task.unsolvable(task.query().replace(size.span(), span), probes,
                "The " + it.product().name() + " in " + it.variant().color() + ", size " + other + ", " + why + ", so there is nothing to exchange it for.",
                TaskVariants.replaceInDetails(task.details(), size.span(), span, false).stream()
                        .map(d -> d.key().equals("size") ? new Detail(d.key(), d.span(), d.keywords(), "Size " + other + ".", false) : d).toList()));
    }

    /** The customer id named does not exist. */
    private static Optional<Task> unknownCustomer(Task task, RetailWorld w, SplittableRandom rnd) {
        Customer c = namedCustomer(task, w);
        if (c == null) return Optional.empty();
        String fake;
        do fake = "C-" + (10000 + rnd.nextInt(90000)); while (w.customer(fake) != null || task.query().contains(fake));
        List<GoldPlan.Call> probes = TaskVariants.probesUntil(task.plan(), "customer_id", fake);
        if (probes.isEmpty()) return Optional.empty();
        return Optional.of(task.unsolvable(task.query().replace(c.id(), fake), probes, "There is no customer with id " + fake + ".",
                TaskVariants.replaceInDetails(task.details(), c.id(), fake, true)));
    }

    /** The order to cancel (the one with that product) has already shipped: another product the customer has only in shipped orders. */
    private static Optional<Task> alreadyShipped(Task task, RetailWorld w, SplittableRandom rnd) {
        Customer c = namedCustomer(task, w);
        if (c == null) return Optional.empty();
        String asked = null;
        for (Product p : w.map.products()) if (task.query().contains("the " + p.name() + " that")) asked = p.name();
        if (asked == null) return Optional.empty();
        for (Order o : Pick.shuffled(RetailTools.orders(w, c, null), rnd)) {
            if (!w.status(o).equals("shipped") && !w.status(o).equals("delivered")) continue;
            for (Item it : o.items()) {
                Product p = it.product();
                boolean unshipped = RetailTools.orders(w, c, null).stream()
                        .anyMatch(x -> w.status(x).equals("processing") && x.items().stream().anyMatch(y -> y.product() == p));
                if (unshipped || task.query().contains(p.name())) continue;
                return Optional.of(task.unsolvable(task.query().replace("the " + asked + " that", "the " + p.name() + " that"),
                        TaskVariants.probesUntil(task.plan(), "customer_id", c.id()),
                        "Your order with the " + p.name() + " (" + o.id() + ") has already " + (w.status(o).equals("shipped") ? "shipped" : "been delivered")
                                + "; only orders that have not shipped can be cancelled.", task.details()));
            }
        }
        return Optional.empty();
    }

    /** The product asked about is not sold by the shop: a name of the catalogue's words that no product has. */
    private static Optional<Task> notSold(Task task, RetailWorld w, SplittableRandom rnd) {
        Product named = null;
        for (Product p : w.map.products()) if (TaskVariants.once(task.query(), "the " + p.name() + " in ")) named = p;
        if (named == null) return Optional.empty();
        List<String> stems = new ArrayList<>();
        for (Product p : w.map.products()) stems.add(p.name().substring(0, p.name().indexOf(' ')));
        String fake = null;
        for (int i = 0; i < 100 && fake == null; i++) {
            String candidate = TaskVariants.any(stems, rnd) + " " + TaskVariants.any(RetailNames.TYPES.get(named.category()), rnd);
            String lower = candidate.toLowerCase(Locale.ROOT);
            if (w.map.products().stream().noneMatch(p -> p.lowerName().contains(lower))) fake = candidate;
        }
        if (fake == null) return Optional.empty();
        return Optional.of(task.unsolvable(task.query().replace("the " + named.name() + " in ", "the " + fake + " in "),
                List.of(new GoldPlan.Call("search_products", args("name", fake))), "The shop does not sell a " + fake + ".",
                TaskVariants.replaceInDetails(task.details(), named.name(), fake, true)));
    }

    /** No account matches the name and zip code given. */
    private static Optional<Task> noSuchAccount(Task task, RetailWorld w, SplittableRandom rnd) {
        GoldPlan.Call find = task.plan().calls().getFirst();
        String name = find.args().path("name").asText("");
        String zip = find.args().path("zip_code").asText("");
        if (!find.tool().equals("find_customer") || zip.isEmpty() || !TaskVariants.once(task.query(), zip)) return Optional.empty();
        String other = null;
        while (other == null || task.query().contains(other) || taken(w, name, other)) other = Integer.toString(10000 + rnd.nextInt(89999));
        String z = other;
        return Optional.of(task.unsolvable(task.query().replace(zip, other),
                List.of(new GoldPlan.Call("find_customer", args("name", name, "zip_code", z))),
                "There is no account for " + name + " with zip code " + other + ".", TaskVariants.replaceInDetails(task.details(), zip, other, true)));
    }

    private static boolean taken(RetailWorld w, String name, String zip) {
        return w.map.customers().stream().anyMatch(c -> c.name().equals(name) && c.zip().equals(zip));
    }

    // ---------------------------------------------------------------- logic.longer-chain

    /**
     * An order number becomes "my second most recent order (my email is E)" (from severity 2, "(I am
     * NAME, zip code Z)", through the account's profile); a customer id becomes "my email is E" (from
     * severity 2, "I am NAME, zip code Z").
     */
    static Optional<ShiftHooks.Chain> longerChain(Task task, RetailWorld w, long seed, int extra) {
        Order o = namedOrder(task, w);
        if (o != null) return orderChain(task, w, o, extra);
        Customer c = namedCustomer(task, w);
        if (c == null) return Optional.empty();
        String said = " My customer id is " + c.id() + ".";
        if (!TaskVariants.once(task.query(), said)) return Optional.empty();
        List<GoldPlan.Call> hops = new ArrayList<>();
        String now;
        String pointer;
        if (extra >= 2 && uniqueByNameAndZip(w, c)) {
            hops.add(new GoldPlan.Call("find_customer", args("name", c.name(), "zip_code", c.zip())));
            hops.add(new GoldPlan.Call("get_customer", args(), Map.of("customer_id", new Ref(0, "/customers/0/customer_id"))));
            now = " I am " + c.name() + ", zip code " + c.zip() + ".";
            pointer = "/customer_id";
        } else {
            hops.add(new GoldPlan.Call("find_customer", args("email", c.email())));
            now = " My email is " + c.email() + ".";
            pointer = "/customers/0/customer_id";
        }
        String query = task.query().replace(said, now);
        return Optional.of(new ShiftHooks.Chain(query, hops, pointer, c.id(), kept(task, query, "customer_id")));
    }

    private static Optional<ShiftHooks.Chain> orderChain(Task task, RetailWorld w, Order o, int extra) {
        Customer c = w.customer(o.customerId());
        int k = c.orderIds().indexOf(o.id());
        String which = k == 0 ? "most recent" : ordinal(k + 1) + " most recent";
        List<GoldPlan.Call> hops = new ArrayList<>();
        String who;
        if (extra >= 2 && uniqueByNameAndZip(w, c)) {
            hops.add(new GoldPlan.Call("find_customer", args("name", c.name(), "zip_code", c.zip())));
            hops.add(new GoldPlan.Call("get_customer", args(), Map.of("customer_id", new Ref(0, "/customers/0/customer_id"))));
            hops.add(new GoldPlan.Call("list_orders", args(), Map.of("customer_id", new Ref(1, "/customer_id"))));
            who = "I am " + c.name() + ", zip code " + c.zip();
        } else {
            hops.add(new GoldPlan.Call("find_customer", args("email", c.email())));
            hops.add(new GoldPlan.Call("list_orders", args(), Map.of("customer_id", new Ref(0, "/customers/0/customer_id"))));
            who = "my email is " + c.email();
        }
        String described = "my " + which + " order (" + who + ")";
        String query = task.query().contains("my order " + o.id()) ? task.query().replace("my order " + o.id(), described)
                : task.query().replace("order " + o.id(), described);
        return Optional.of(new ShiftHooks.Chain(query, hops, "/orders/" + k + "/order_id", o.id(), kept(task, query, "order_id")));
    }

    private static boolean uniqueByNameAndZip(RetailWorld w, Customer c) {
        return w.map.customers().stream().filter(x -> x.name().equals(c.name()) && x.zip().equals(c.zip())).count() == 1;
    }

    private static String ordinal(int n) {
        return switch (n) {
            case 2 -> "second";
            case 3 -> "third";
            case 4 -> "fourth";
            case 5 -> "fifth";
            default -> n + "th";
        };
    }

    private static List<Detail> kept(Task task, String query, String replacedKey) {
        return task.details().stream().filter(d -> !d.key().equals(replacedKey) && query.contains(d.span())).toList();
    }

    // ---------------------------------------------------------------- what a request names

    /** The order whose number the request states (once). */
    private static Order namedOrder(Task task, RetailWorld w) {
        for (Order o : w.map.orders()) if (TaskVariants.once(task.query(), "order " + o.id())) return o;
        return null;
    }

    /** The item of the order the request names by colour and product. */
    private static Item namedItem(Task task, Order o) {
        for (Item it : o.items()) if (task.query().contains("the " + it.variant().color() + " " + it.product().name())) return it;
        return null;
    }

    private static Customer namedCustomer(Task task, RetailWorld w) {
        for (Customer c : w.map.customers()) if (TaskVariants.once(task.query(), c.id() + ".")) return c;
        return null;
    }

    // ---------------------------------------------------------------- query.redundant

    static List<String> distractions(Task task, RetailWorld w, long seed) {
        SplittableRandom rnd = new SplittableRandom(Seeds.mix(seed, 0xD15));
        List<String> out = new ArrayList<>();
        Product p = Pick.any(w.map.products(), rnd, x -> !task.query().contains(x.name()));
        if (p != null) out.add("I was also looking at the " + p.name() + ", but I haven't decided yet.");
        out.add("The last parcel " + TaskVariants.any(RetailNames.CARRIERS, rnd) + " brought me was left at my neighbour's.");
        Order o = Pick.any(w.map.orders(), rnd, x -> !task.query().contains(x.id()));
        if (o != null) out.add("My partner has an order too, " + o.id() + ", but that one is fine.");
        return out;
    }

    // ---------------------------------------------------------------- other paths, records, rules, words

    static final Map<String, ShiftHooks.Alternative> ALTERNATIVES = Map.of(
            // A customer's orders: the profile's order ids, then each order in full.
            "list_orders", new ShiftHooks.Alternative("list_orders", Set.of("get_customer", "get_order"),
                    (args, results) -> {
                        if (results.isEmpty()) return new GoldPlan.Call("get_customer", args("customer_id", args.path("customer_id").asText("")));
                        JsonNode ids = results.getFirst().path("order_ids");
                        int done = results.size() - 1;
                        return done < ids.size() ? new GoldPlan.Call("get_order", args("order_id", ids.get(done).asText())) : null;
                    },
                    (args, results) -> {
                        ObjectNode out = Json.object();
                        out.put("customer_id", results.getFirst().path("customer_id").asText());
                        ArrayNode list = out.putArray("orders");
                        String status = args.path("status").asText("");
                        for (JsonNode order : results.subList(1, results.size())) {
                            if (!status.isEmpty() && !order.path("status").asText().equals(status)) continue;
                            ObjectNode x = list.addObject();
                            x.put("order_id", order.path("order_id").asText());
                            x.put("placed", order.path("placed").asText());
                            x.put("status", order.path("status").asText());
                            x.set("total", order.path("total"));
                            ArrayNode names = x.putArray("products");
                            for (JsonNode item : order.path("items")) names.add(item.path("product_name").asText());
                        }
                        out.put("count", list.size());
                        return out;
                    }),
            // Whether an item can be returned: the order (delivery date, item status, payment), then the product (window, final sale).
            "check_return_eligibility", new ShiftHooks.Alternative("check_return_eligibility", Set.of("get_order", "get_product"),
                    (args, results) -> switch (results.size()) {
                        case 0 -> new GoldPlan.Call("get_order", args("order_id", args.path("order_id").asText("")));
                        case 1 -> new GoldPlan.Call("get_product", args("product_id", item(results.getFirst(), args).path("product_id").asText("")));
                        default -> null;
                    },
                    (args, results) -> eligibility(results.getFirst(), item(results.getFirst(), args), results.get(1))));

    private static JsonNode item(JsonNode order, ObjectNode args) {
        for (JsonNode it : order.path("items")) if (it.path("item_id").asText().equalsIgnoreCase(args.path("item_id").asText("").strip())) return it;
        return Json.object();
    }

    /** check_return_eligibility's answer, from the order and the product as their own tools show them. */
    private static JsonNode eligibility(JsonNode order, JsonNode item, JsonNode product) {
        ObjectNode out = Json.object();
        out.put("order_id", order.path("order_id").asText());
        out.put("item_id", item.path("item_id").asText());
        String why = null;
        String status = order.path("status").asText();
        int returnBy = -1;
        if (order.has("delivered")) returnBy = (int) LocalDate.parse(order.path("delivered").asText()).toEpochDay() + product.path("return_window_days").asInt();
        if (!status.equals("delivered")) why = "the order is " + status + ", not delivered";
        else if (!item.path("status").asText().equals("delivered")) why = "the item is already " + item.path("status").asText();
        else if (product.path("final_sale").asBoolean()) why = "final-sale items cannot be returned or exchanged";
        else if (RetailWorld.TODAY_DAY > returnBy) why = "the return window closed on " + RetailWorld.date(returnBy);
        out.put("eligible", why == null);
        if (why != null) out.put("reason", why);
        if (returnBy >= 0) out.put("return_by", RetailWorld.date(returnBy));
        out.set("refund_amount", item.path("price"));
        ArrayNode methods = out.putArray("refund_methods");
        boolean giftCard = order.path("payment_method").asText().equals("Gift card");
        if (!giftCard) methods.add("original_payment");
        methods.add("store_credit");
        out.put("original_payment", order.path("payment_method").asText());
        return out;
    }

    static Optional<ShiftHooks.Lookup> lookup(String idField) {
        return switch (idField) {
            case "customer_id" -> Optional.of(new ShiftHooks.Lookup("get_customer", "customer_id", Set.of("name", "email", "zip_code")));
            case "order_id" -> Optional.of(new ShiftHooks.Lookup("get_order", "order_id", Set.of("placed", "total")));
            case "product_id" -> Optional.of(new ShiftHooks.Lookup("get_product", "product_id", Set.of("name", "category", "price")));
            default -> Optional.empty();
        };
    }

    static final List<ShiftHooks.Prerequisite> PREREQUISITES = List.of(new ShiftHooks.Prerequisite("check_return_eligibility", "return_item"));

    static final Map<String, List<String>> SYNONYMS = Map.ofEntries(
            Map.entry("customer", List.of("client", "shopper", "account")),
            Map.entry("orders", List.of("purchases", "sales", "transactions")),
            Map.entry("order", List.of("purchase", "sale", "transaction")),
            Map.entry("track", List.of("trace", "follow", "locate")),
            Map.entry("shipment", List.of("delivery", "parcel", "package")),
            Map.entry("returns", List.of("refunds", "sendbacks", "rmas")),
            Map.entry("return", List.of("refund", "sendback", "rma")),
            Map.entry("eligibility", List.of("eligible", "allowance", "qualification")),
            Map.entry("policy", List.of("rules", "terms", "conditions")),
            Map.entry("exchange", List.of("swap", "replace", "trade")),
            Map.entry("variant", List.of("option", "version", "sku")),
            Map.entry("products", List.of("items", "articles", "goods")),
            Map.entry("refund", List.of("credit", "reimburse", "payback")),
            Map.entry("zip", List.of("postal", "post", "postcode")),
            Map.entry("email", List.of("mail", "e_mail", "address")));

    static final List<ShiftHooks.Rewrite> PARAPHRASES = List.of(
            new ShiftHooks.Rewrite("\\bOn what date was my order (\\S+) delivered\\?", "When did my order $1 arrive?"),
            new ShiftHooks.Rewrite("\\bwhat is the tracking number\\b", "what's the tracking number"),
            new ShiftHooks.Rewrite("\\bWhat is the last day I can return\\b", "Until when can I send back"),
            new ShiftHooks.Rewrite("\\bI need the RMA code\\b", "Please send me the RMA code"),
            new ShiftHooks.Rewrite("\\bthat hasn't shipped yet\\b", "that is still waiting to ship"),
            new ShiftHooks.Rewrite("\\bPlease give me the exchange code\\b", "Tell me the exchange code, please"),
            new ShiftHooks.Rewrite("\\bare in stock\\b", "are available"),
            new ShiftHooks.Rewrite("\\bto my original payment method\\b", "back to the card or account I paid with"));
}
