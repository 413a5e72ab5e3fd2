package dev.openagent.envs.retail;

import dev.openagent.envs.kit.Codes;
import dev.openagent.envs.kit.EpisodeWorld;
import dev.openagent.envs.kit.Layouts;
import dev.openagent.envs.kit.Names;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Split;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The retail world of one episode: a cached, immutable {@link Layout} of customers, a catalogue of
 * products with variants and stock, and past orders; plus this episode's returns, exchanges,
 * cancellations and stock changes, recorded so the checker can compare the world with what was asked.
 */
public final class RetailWorld extends EpisodeWorld<RetailWorld.Layout> {
    /** "Today" in every retail world: return windows are counted up to this date. */
    static final LocalDate TODAY = LocalDate.of(2026, 11, 20);
    static final int TODAY_DAY = (int) TODAY.toEpochDay();

    public record Customer(String id, String name, String email, String zip, String city, List<String> payments,
                           List<String> orderIds, int index, String lowerName) {}

    public record Variant(String id, String productId, String color, String size, int stock) {}

    /** A product; {@code windowDays} is its category's return window, {@code sized} whether it comes in several sizes. */
    public record Product(String id, String name, String type, String category, int priceCents, boolean finalSale,
                          List<Variant> variants, int index, String lowerName, int windowDays, boolean sized) {}

    public record Item(String id, String orderId, Product product, Variant variant, String status) {}

    /** An order; {@code deliveredDay} is an epoch day, or -1 when not delivered. */
    public record Order(String id, String customerId, int placedDay, String status, int deliveredDay, int expectedDay,
                        String payment, String carrier, String tracking, List<Item> items, int totalCents) {}

    public record Layout(long seed, Split split, List<Customer> customers, List<Product> products, List<Order> orders,
                         Map<String, Customer> customerById, Map<String, Product> productById, Map<String, Variant> variantById,
                         Map<String, Order> orderById) {}

    public record Return(String id, String orderId, String itemId, String refundTo, int amountCents, String code) {}

    public record Exchange(String id, String orderId, String itemId, String newVariantId, String code) {}

    public record Cancellation(String orderId, String code, int amountCents) {}

    /** Layouts cached per split (tests build worlds on a chosen one). */
    static final Layouts<Layout> LAYOUTS = new Layouts<>(128, 0x5E7A11L, RetailWorld::generate);


    final List<Return> returns = new ArrayList<>();
    final List<Exchange> exchanges = new ArrayList<>();
    final List<Cancellation> cancellations = new ArrayList<>();
    private final Map<String, String> itemStatus = new HashMap<>();
    private final Map<String, Integer> stockTaken = new HashMap<>();

    RetailWorld(Layout map, long episodeSeed) {
        super(map, episodeSeed);
    }

    public static RetailWorld of(Split split, long episodeSeed) {
        return new RetailWorld(LAYOUTS.of(split, episodeSeed), episodeSeed);
    }


    public List<Return> returns() { return List.copyOf(returns); }

    public List<Exchange> exchanges() { return List.copyOf(exchanges); }

    public List<Cancellation> cancellations() { return List.copyOf(cancellations); }

    Customer customer(String id) { return map.customerById().get(id); }

    Order order(String id) { return map.orderById().get(id); }

    Product product(String id) { return map.productById().get(id); }

    Variant variant(String id) { return map.variantById().get(id); }

    // ---------------------------------------------------------------- episode state

    String status(Item it) { return itemStatus.getOrDefault(it.id(), it.status()); }

    String status(Order o) {
        for (Cancellation c : cancellations) if (c.orderId().equals(o.id())) return "cancelled";
        return o.status();
    }

    int stock(Variant v) { return v.stock() - stockTaken.getOrDefault(v.id(), 0); }

    static Item item(Order o, String itemId) {
        for (Item it : o.items()) if (it.id().equalsIgnoreCase(itemId)) return it;
        return null;
    }

    /** Why the item cannot be returned or exchanged, or null when it can. */
    String ineligibility(Order o, Item it) {
        String orderStatus = status(o);
        if (!orderStatus.equals("delivered")) return "the order is " + orderStatus + ", not delivered";
        String s = status(it);
        if (!s.equals("delivered")) return "the item is already " + s;
        if (it.product().finalSale()) return "final-sale items cannot be returned or exchanged";
        if (TODAY_DAY > returnBy(o, it)) return "the return window closed on " + date(returnBy(o, it));
        return null;
    }

    static int returnBy(Order o, Item it) { return o.deliveredDay() + it.product().windowDays(); }

    /** Gift-card orders are refunded as store credit only. */
    static boolean giftCard(Order o) { return o.payment().equals("Gift card"); }

    Return returnItem(Order o, Item it, String refundTo) {
        Return r = new Return("RET-" + (10000 + codes.nextInt(90000)), o.id(), it.id(), refundTo, it.product().priceCents(),
                Codes.next(codes, "RMA", 6));
        returns.add(r);
        itemStatus.put(it.id(), "return requested");
        return r;
    }

    Exchange exchange(Order o, Item it, Variant to) {
        Exchange e = new Exchange("EXC-" + (10000 + codes.nextInt(90000)), o.id(), it.id(), to.id(), Codes.next(codes, "XCH", 6));
        exchanges.add(e);
        itemStatus.put(it.id(), "exchange requested");
        stockTaken.merge(to.id(), 1, Integer::sum);
        return e;
    }

    Cancellation cancel(Order o) {
        Cancellation c = new Cancellation(o.id(), Codes.next(codes, "CAN", 6), o.totalCents());
        cancellations.add(c);
        return c;
    }

    static String date(int epochDay) { return LocalDate.ofEpochDay(epochDay).toString(); }

    static double money(int cents) { return cents / 100.0; }

    // ---------------------------------------------------------------- generation

    static Layout generate(Split split, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        Set<String> ids = new HashSet<>();

        // Catalogue: product lines share stems ("Summit Hoodie", "Summit Vest") and types ("Summit Hoodie", "Nimbus Hoodie").
        List<String> stems = Names.distinct(Names.half(RetailNames.STEMS, split), 9, rnd);
        List<Product> products = new ArrayList<>();
        Map<String, Variant> variantById = new HashMap<>();
        Set<String> names = new HashSet<>();
        while (products.size() < 26) {
            String category = Names.any(RetailNames.CATEGORIES, rnd);
            String type = Names.any(RetailNames.TYPES.get(category), rnd);
            String name = Names.any(stems, rnd) + " " + type;
            if (!names.add(name)) continue;
            String id = uniqueId("PR-", 1000, rnd, ids);
            int[] range = RetailNames.PRICE_RANGE.get(category);
            int price = (range[0] + rnd.nextInt(range[1] - range[0])) * 100 + 99;
            List<String> colors = Names.distinct(RetailNames.COLORS, 2 + rnd.nextInt(2), rnd);
            List<Variant> variants = new ArrayList<>();
            for (String color : colors) {
                for (String size : RetailNames.SIZES.get(category)) {
                    int stock = rnd.nextDouble() < 0.3 ? 0 : 1 + rnd.nextInt(9);
                    Variant v = new Variant(uniqueId("SKU-", 10000, rnd, ids), id, color, size, stock);
                    variants.add(v);
                    variantById.put(v.id(), v);
                }
            }
            products.add(new Product(id, name, type, category, price, rnd.nextDouble() < 0.12, List.copyOf(variants),
                    products.size(), name.toLowerCase(Locale.ROOT), RetailNames.WINDOW_DAYS.get(category),
                    RetailNames.SIZES.get(category).size() > 1));
        }

        // Customers: some share a name (told apart by email and zip code).
        List<String> first = Names.half(RetailNames.FIRST, split);
        List<String> last = Names.half(RetailNames.LAST, split);
        List<String> cities = Names.half(RetailNames.CITIES, split);
        List<Customer> customers = new ArrayList<>();
        List<Order> orders = new ArrayList<>();
        Set<String> emails = new HashSet<>();
        for (int c = 0; c < 40; c++) {
            String name = !customers.isEmpty() && rnd.nextDouble() < 0.28
                    ? customers.get(rnd.nextInt(customers.size())).name() : Names.any(first, rnd) + " " + Names.any(last, rnd);
            String email;
            do {
                email = name.toLowerCase(Locale.ROOT).replace(' ', '.') + (10 + rnd.nextInt(90)) + "@mail.example";
            } while (!emails.add(email));
            String zip;
            do zip = Integer.toString(10000 + rnd.nextInt(89999)); while (!ids.add("zip" + zip));
            String id = uniqueId("C-", 10000, rnd, ids);
            List<String> payments = new ArrayList<>();
            int cards = 1 + rnd.nextInt(2);
            for (int k = 0; k < cards; k++) {
                payments.add(Names.any(RetailNames.CARD_BRANDS, rnd) + " ending " + (1000 + rnd.nextInt(9000)));
            }
            if (rnd.nextDouble() < 0.3) payments.add("PayPal");
            if (rnd.nextDouble() < 0.2) payments.add("Gift card");
            List<Order> placed = new ArrayList<>();
            int n = 2 + rnd.nextInt(3);
            for (int k = 0; k < n; k++) {
                // Every fifth customer has an order that has not shipped yet; others sometimes a recent one.
                int age = k == 0 && c % 5 == 0 ? rnd.nextInt(2) : k == 0 && rnd.nextDouble() < 0.3 ? rnd.nextInt(5) : 5 + rnd.nextInt(90);
                Order o = order(rnd, ids, id, payments, products, age);
                orders.add(o);
                placed.add(o);
            }
            placed.sort(Comparator.comparingInt(Order::placedDay).reversed().thenComparing(Order::id));   // newest first
            List<String> orderIds = placed.stream().map(Order::id).toList();
            customers.add(new Customer(id, name, email, zip, Names.any(cities, rnd), List.copyOf(payments), List.copyOf(orderIds),
                    c, name.toLowerCase(Locale.ROOT)));
        }
        // Lists are kept in the order the tools return them (products by name), so searches filter without sorting.
        products.sort(Comparator.comparing(Product::name));
        Map<String, Customer> customerById = new HashMap<>();
        customers.forEach(x -> customerById.put(x.id(), x));
        Map<String, Product> productById = new HashMap<>();
        products.forEach(x -> productById.put(x.id(), x));
        Map<String, Order> orderById = new HashMap<>();
        orders.forEach(x -> orderById.put(x.id(), x));
        return new Layout(seed, split, List.copyOf(customers), List.copyOf(products), List.copyOf(orders), Map.copyOf(customerById),
                Map.copyOf(productById), Map.copyOf(variantById), Map.copyOf(orderById));
    }

    private static Order order(SplittableRandom rnd, Set<String> ids, String customerId, List<String> payments,
                               List<Product> products, int age) {
        String id = uniqueId("O-", 100000, rnd, ids);
        int placed = TODAY_DAY - age;
        String status;
        int delivered = -1;
        int expected = -1;
        if (age <= 1) {
            status = "processing";
            expected = placed + 5;
        } else if (age <= 4) {
            status = "shipped";
            expected = placed + 5;
        } else {
            status = "delivered";
            delivered = placed + 2 + rnd.nextInt(4);
        }
        List<Item> items = new ArrayList<>();
        int count = 1 + rnd.nextInt(3);
        int total = 0;
        Set<String> used = new HashSet<>();
        while (items.size() < count) {
            // Sometimes the same product again in another colour: the request must say which one.
            Product p = !items.isEmpty() && rnd.nextDouble() < 0.35 ? items.getFirst().product() : products.get(rnd.nextInt(products.size()));
            Variant v = p.variants().get(rnd.nextInt(p.variants().size()));
            if (!items.isEmpty() && p == items.getFirst().product() && v.color().equals(items.getFirst().variant().color())) continue;
            if (!used.add(v.id())) continue;
            String itemStatus = status.equals("delivered") && rnd.nextDouble() < 0.1 ? "returned" : status;
            items.add(new Item(uniqueId("ITM-", 10000, rnd, ids), id, p, v, itemStatus));
            total += p.priceCents();
        }
        String carrier = Names.any(RetailNames.CARRIERS, rnd);
        String tracking = status.equals("processing") ? null : carrier.substring(0, 2).toUpperCase(Locale.ROOT) + (100000000L + rnd.nextLong(900000000L));
        return new Order(id, customerId, placed, status, delivered, expected, Names.any(payments, rnd), carrier, tracking,
                List.copyOf(items), total);
    }

    private static String uniqueId(String prefix, int base, SplittableRandom rnd, Set<String> ids) {
        while (true) {
            String id = prefix + (base + rnd.nextInt(base * 9));
            if (ids.add(id)) return id;
        }
    }
}
