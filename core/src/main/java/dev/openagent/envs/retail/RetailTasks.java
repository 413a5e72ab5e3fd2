package dev.openagent.envs.retail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.envs.retail.RetailWorld.Customer;
import dev.openagent.envs.retail.RetailWorld.Item;
import dev.openagent.envs.retail.RetailWorld.Order;
import dev.openagent.envs.retail.RetailWorld.Product;
import dev.openagent.envs.retail.RetailWorld.Variant;
import dev.openagent.sandbox.GoldPlan.Ref;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.StringJoiner;
import java.util.function.Predicate;

import static dev.openagent.envs.kit.TaskDraft.args;
import static dev.openagent.envs.kit.TaskDraft.ref;
import static dev.openagent.envs.kit.TaskDraft.require;

/**
 * The retail task generator. Difficulty is the number of dependent calls, with constraints and
 * fallbacks at the top:
 * <ol>
 *   <li>delivery date, tracking number, order count (one call);</li>
 *   <li>variant stock, a return deadline, cancelling an unshipped order (two);</li>
 *   <li>returning an item, exchanging an item for another size (three);</li>
 *   <li>a return found through the customer's order history, an exchange with a refund fallback, returning every
 *       item of an order that is still eligible (four or more).</li>
 * </ol>
 * Writing tasks are checked on the world: exactly the requested returns, exchanges and cancellations.
 */
final class RetailTasks {
    static final Map<Integer, List<String>> KINDS = Map.of(
            1, List.of("delivery_date", "tracking_number", "count_orders"),
            2, List.of("variant_stock", "return_deadline", "cancel_unshipped_order"),
            3, List.of("return_item", "exchange_size"),
            4, List.of("customer_history_return", "exchange_or_refund", "return_all_eligible"));

    private final RetailWorld w;
    private final SplittableRandom rnd;
    private final TaskDraft<RetailWorld> t;

    private RetailTasks(RetailWorld w, long seed) {
        this.w = w;
        this.rnd = new SplittableRandom(Seeds.mix(seed, 0x2E7A1L));
        this.t = new TaskDraft<>(w, RetailTools.ALL);
    }

    static Task generate(RetailWorld world, TaskRequest request, long seed) {
        RetailTasks g = new RetailTasks(world, seed);
        int difficulty = request.difficulty() == 0 ? 1 + g.rnd.nextInt(4) : request.difficulty();
        String kind = Pick.firstPosed(KINDS.get(difficulty), g.rnd, g::pose, "retail task of difficulty " + difficulty);
        return g.t.build("retail", request, kind, difficulty);
    }

    /** Sets up a task of this kind; false (having changed nothing) when the world cannot pose it. */
    private boolean pose(String kind) {
        return switch (kind) {
            case "delivery_date" -> deliveryDate();
            case "tracking_number" -> trackingNumber();
            case "count_orders" -> countOrders();
            case "variant_stock" -> variantStock();
            case "return_deadline" -> returnDeadline();
            case "cancel_unshipped_order" -> cancelUnshippedOrder();
            case "return_item" -> returnItem();
            case "exchange_size" -> exchangeSize();
            case "customer_history_return" -> customerHistoryReturn();
            case "exchange_or_refund" -> exchangeOrRefund();
            case "return_all_eligible" -> returnAllEligible();
            default -> throw new IllegalStateException(kind);
        };
    }

    // ---------------------------------------------------------------- level 1

    private boolean deliveryDate() {
        Order o = pick(w.map.orders(), x -> x.status().equals("delivered"));
        if (o == null) return false;
        t.look("get_order", args("order_id", o.id()));
        t.query = "On what date was my order " + o.id() + " delivered?";
        t.answer = "Order " + o.id() + " was delivered on {0:/delivered}.";
        t.must.add(RetailWorld.date(o.deliveredDay()));
        t.mustNot.add(RetailWorld.date(o.placedDay()));
        orderDetail(o);
        return true;
    }

    private boolean trackingNumber() {
        Order o = pick(w.map.orders(), x -> x.tracking() != null);
        if (o == null) return false;
        t.look("track_shipment", args("order_id", o.id()));
        t.query = "Which carrier is shipping my order " + o.id() + ", and what is the tracking number?";
        t.answer = "Order " + o.id() + " ships with {0:/carrier}, tracking number {0:/tracking_number}.";
        t.must.add(o.carrier());
        t.must.add(o.tracking());
        orderDetail(o);
        return true;
    }

    private boolean countOrders() {
        Customer c = pick(w.map.customers(), x -> true);
        String status = rnd.nextDouble() < 0.7 ? "delivered" : "shipped";
        int n = RetailTools.orders(w, c, status).size();
        int all = c.orderIds().size();
        t.look("list_orders", args("customer_id", c.id(), "status", status));
        t.query = "How many of my orders are " + status + "? My customer id is " + c.id() + ".";
        t.answer = "{0:/count} of your orders are " + status + ".";
        t.must.add(Integer.toString(n));
        if (all != n) t.mustNot.add(Integer.toString(all));
        t.detail("customer_id", " My customer id is " + c.id() + ".", "customer|account|id|who", "My customer id is " + c.id() + ".", false);
        return true;
    }

    // ---------------------------------------------------------------- level 2

    private boolean variantStock() {
        Product p = Pick.preferring(w.map.products(), rnd, x -> nearMiss(x) != null, 0.8).getFirst();
        Variant v = p.variants().get(rnd.nextInt(p.variants().size()));
        JsonNode found = t.look("search_products", args("name", p.name())).get("products");
        int k = require(found, "product_id", p.id());
        JsonNode product = t.look("get_product", args(), Map.of("product_id", ref(0, "/products/" + k + "/product_id")));
        int kv = require(product.get("variants"), "variant_id", v.id());
        String what = variantText(v);
        t.query = "How many units of the " + p.name() + " in " + what + " are in stock?";
        t.answer = "{1:/variants/" + kv + "/in_stock} units of the " + p.name() + " in " + what + " are in stock.";
        t.must.add(Integer.toString(w.stock(v)));
        return true;
    }

    private boolean returnDeadline() {
        Item it = pickItem(x -> true, (o, x) -> w.ineligibility(o, x) == null);
        if (it == null) return false;
        Order o = w.order(it.orderId());
        JsonNode order = t.look("get_order", args("order_id", o.id()));
        int k = require(order.get("items"), "item_id", it.id());
        t.look("check_return_eligibility", args(), Map.of("order_id", ref(0, "/order_id"), "item_id", ref(0, "/items/" + k + "/item_id")));
        String color = " " + it.variant().color();
        t.query = "What is the last day I can return the" + color + " " + it.product().name() + " from order " + o.id() + "?";
        t.answer = "You can return it until {1:/return_by}.";
        t.must.add(RetailWorld.date(RetailWorld.returnBy(o, it)));
        t.mustNot.add(RetailWorld.date(o.deliveredDay()));
        colorDetail(o, it, color);
        orderDetail(o);
        return true;
    }

    private boolean cancelUnshippedOrder() {
        Order o = pick(w.map.orders(), x -> x.status().equals("processing"));
        if (o == null) return false;
        Customer c = w.customer(o.customerId());
        Item it = o.items().get(rnd.nextInt(o.items().size()));
        JsonNode list = t.look("list_orders", args("customer_id", c.id())).get("orders");
        int k = require(list, "order_id", o.id());
        t.commit("cancel_order", args(), Map.of("order_id", ref(0, "/orders/" + k + "/order_id")));
        t.query = "Please cancel my order with the " + it.product().name() + " that hasn't shipped yet. My customer id is " + c.id()
                + ". What is the cancellation code?";
        t.answer = "Order {0:/orders/" + k + "/order_id} is cancelled; cancellation code {1:/cancellation_code}.";
        t.expect.put("cancel", o.id());
        t.detail("customer_id", " My customer id is " + c.id() + ".", "customer|account|id|who", "My customer id is " + c.id() + ".", false);
        return true;
    }

    // ---------------------------------------------------------------- level 3

    private boolean returnItem() {
        boolean credit = rnd.nextDouble() < 0.35;
        Item it = pickItem(x -> true, (o, x) -> w.ineligibility(o, x) == null && (credit || !RetailWorld.giftCard(o)));
        if (it == null) return false;
        Order o = w.order(it.orderId());
        JsonNode order = t.look("get_order", args("order_id", o.id()));
        int k = require(order.get("items"), "item_id", it.id());
        Ref item = ref(0, "/items/" + k + "/item_id");
        t.look("check_return_eligibility", args(), Map.of("order_id", ref(0, "/order_id"), "item_id", item));
        String refundTo = credit ? "store_credit" : "original_payment";
        int r = t.commit("return_item", args("refund_to", refundTo), Map.of("order_id", ref(0, "/order_id"), "item_id", item));
        String color = " " + it.variant().color();
        String how = credit ? " as store credit" : " to my original payment method";
        t.query = "Please return the" + color + " " + it.product().name() + " from order " + o.id() + " and refund it" + how
                + ". I need the RMA code.";
        t.answer = "Return {" + r + ":/return_id} is open: {" + r + ":/refund_amount} refunded to {" + r + ":/refund_to}. RMA code: {"
                + r + ":/rma_code}.";
        t.expect.put("returns", it.id() + "=" + refundTo);
        colorDetail(o, it, color);
        refundDetail(how, credit);
        orderDetail(o);
        return true;
    }

    private boolean exchangeSize() {
        for (Item it : items(Product::sized, (o, x) -> w.ineligibility(o, x) == null)) {
            Variant to = otherSize(it, true);
            if (to == null) continue;
            Order o = w.order(it.orderId());
            JsonNode order = t.look("get_order", args("order_id", o.id()));
            int k = require(order.get("items"), "item_id", it.id());
            JsonNode product = t.look("get_product", args(), Map.of("product_id", ref(0, "/items/" + k + "/product_id")));
            int kv = require(product.get("variants"), "variant_id", to.id());
            int x = t.commit("exchange_item", args(), Map.of("order_id", ref(0, "/order_id"), "item_id", ref(0, "/items/" + k + "/item_id"),
                    "new_variant_id", ref(1, "/variants/" + kv + "/variant_id")));
            String color = " " + it.variant().color();
            t.query = "I'd like to exchange the" + color + " " + it.product().name() + " from order " + o.id() + " for size " + to.size()
                    + " in the same colour. Please give me the exchange code.";
            t.answer = "Exchange {" + x + ":/exchange_id} is set up for size {" + x + ":/size}. Exchange code: {" + x + ":/exchange_code}.";
            t.expect.put("exchange", it.id() + "=" + to.id());
            colorDetail(o, it, color);
            t.detail("size", " for size " + to.size(), "size|which size", "Size " + to.size() + ".", false);
            orderDetail(o);
            return true;
        }
        return false;
    }

    // ---------------------------------------------------------------- level 4

    private boolean customerHistoryReturn() {
        boolean credit = rnd.nextDouble() < 0.35;
        java.util.function.BiPredicate<Order, Item> returnable = (o, x) -> w.ineligibility(o, x) == null && (credit || !RetailWorld.giftCard(o));
        // Prefer a customer with a namesake, so the zip code matters.
        Item it = pickItem(x -> true, returnable.and((o, x) -> twinCustomer(w.customer(o.customerId())) != null));
        if (it == null) it = pickItem(x -> true, returnable);
        if (it == null) return false;
        Order o = w.order(it.orderId());
        Customer c = w.customer(o.customerId());
        JsonNode found = t.look("find_customer", args("name", c.name(), "zip_code", c.zip())).get("customers");
        int kc = require(found, "customer_id", c.id());
        JsonNode orders = t.look("list_orders", args(), Map.of("customer_id", ref(0, "/customers/" + kc + "/customer_id"))).get("orders");
        int ko = require(orders, "order_id", o.id());
        JsonNode order = t.look("get_order", args(), Map.of("order_id", ref(1, "/orders/" + ko + "/order_id")));
        int k = require(order.get("items"), "item_id", it.id());
        Ref item = ref(2, "/items/" + k + "/item_id");
        t.look("check_return_eligibility", args(), Map.of("order_id", ref(2, "/order_id"), "item_id", item));
        String refundTo = credit ? "store_credit" : "original_payment";
        int r = t.commit("return_item", args("refund_to", refundTo), Map.of("order_id", ref(2, "/order_id"), "item_id", item));
        String color = " " + it.variant().color();
        String placed = RetailWorld.date(o.placedDay());
        String how = credit ? " as store credit" : " to my original payment method";
        String zip = ", zip code " + c.zip();
        t.query = "This is " + c.name() + zip + ". Please return the" + color + " " + it.product().name() + " I ordered on " + placed
                + " and refund it" + how + ". I need the RMA code.";
        t.answer = "Return {" + r + ":/return_id} is open: {" + r + ":/refund_amount} refunded to {" + r + ":/refund_to}. RMA code: {"
                + r + ":/rma_code}.";
        t.expect.put("returns", it.id() + "=" + refundTo);
        Customer twin = twinCustomer(c);
        t.detail("zip_code", zip, "zip|postcode|postal|which account|who|address", "My zip code is " + c.zip() + ".", twin != null);
        boolean sameProductElsewhere = false;
        for (Order other : RetailTools.orders(w, c, null)) {
            if (other == o) continue;
            for (Item x : other.items()) sameProductElsewhere |= x.product() == it.product();
        }
        t.detail("date", " I ordered on " + placed, "date|when|which order|ordered", "I ordered it on " + placed + ".", sameProductElsewhere);
        colorDetail(o, it, color);
        refundDetail(how, credit);
        return true;
    }

    private boolean exchangeOrRefund() {
        boolean wantInStock = rnd.nextBoolean();
        List<Item> items = items(Product::sized,
                (o, x) -> w.ineligibility(o, x) == null && !RetailWorld.giftCard(o));
        for (int pass = 0; pass < 2; pass++) {
            boolean inStock = pass == 0 ? wantInStock : !wantInStock;
            for (Item it : items) {
                Variant to = otherSize(it, inStock);
                if (to == null) continue;
                Order o = w.order(it.orderId());
                JsonNode order = t.look("get_order", args("order_id", o.id()));
                int k = require(order.get("items"), "item_id", it.id());
                Ref item = ref(0, "/items/" + k + "/item_id");
                JsonNode product = t.look("get_product", args(), Map.of("product_id", ref(0, "/items/" + k + "/product_id")));
                int kv = require(product.get("variants"), "variant_id", to.id());
                String color = " " + it.variant().color();
                t.query = "I want to swap the" + color + " " + it.product().name() + " from order " + o.id() + " for size " + to.size()
                        + ". If that size is out of stock in that colour, return it instead for a refund to my original payment method."
                        + " Tell me the code you get.";
                if (inStock) {
                    int x = t.commit("exchange_item", args(), Map.of("order_id", ref(0, "/order_id"), "item_id", item,
                            "new_variant_id", ref(1, "/variants/" + kv + "/variant_id")));
                    t.answer = "Size " + to.size() + " is in stock: exchange {" + x + ":/exchange_id}, code {" + x + ":/exchange_code}.";
                    t.expect.put("exchange", it.id() + "=" + to.id());
                } else {
                    t.look("check_return_eligibility", args(), Map.of("order_id", ref(0, "/order_id"), "item_id", item));
                    int r = t.commit("return_item", args("refund_to", "original_payment"), Map.of("order_id", ref(0, "/order_id"), "item_id", item));
                    t.answer = "Size " + to.size() + " is out of stock, so I returned it: {" + r + ":/refund_amount} to {" + r
                            + ":/refund_to}, RMA code {" + r + ":/rma_code}.";
                    t.expect.put("returns", it.id() + "=original_payment");
                }
                colorDetail(o, it, color);
                t.detail("size", " for size " + to.size(), "size|which size", "Size " + to.size() + ".", false);
                orderDetail(o);
                return true;
            }
        }
        return false;
    }

    private boolean returnAllEligible() {
        List<Order> candidates = new ArrayList<>();
        for (Order o : w.map.orders()) {
            if (o.items().size() < 2 || !o.status().equals("delivered")) continue;
            int eligible = 0;
            for (Item it : o.items()) if (w.ineligibility(o, it) == null) eligible++;
            if (eligible >= 1 && eligible < o.items().size()) candidates.add(o);
        }
        if (candidates.isEmpty()) return false;
        Order o = candidates.get(rnd.nextInt(candidates.size()));
        boolean credit = RetailWorld.giftCard(o) || rnd.nextDouble() < 0.3;
        String refundTo = credit ? "store_credit" : "original_payment";
        JsonNode order = t.look("get_order", args("order_id", o.id()));
        List<Integer> returnCalls = new ArrayList<>();
        StringJoiner expected = new StringJoiner(";");
        for (int i = 0; i < o.items().size(); i++) {
            Item it = o.items().get(i);
            int k = require(order.get("items"), "item_id", it.id());
            t.look("check_return_eligibility", args(), Map.of("order_id", ref(0, "/order_id"), "item_id", ref(0, "/items/" + k + "/item_id")));
        }
        for (int i = 0; i < o.items().size(); i++) {
            Item it = o.items().get(i);
            if (w.ineligibility(o, it) != null) continue;
            int k = require(order.get("items"), "item_id", it.id());
            returnCalls.add(t.commit("return_item", args("refund_to", refundTo), Map.of("order_id", ref(0, "/order_id"),
                    "item_id", ref(0, "/items/" + k + "/item_id"))));
            expected.add(it.id() + "=" + refundTo);
        }
        String how = credit ? " as store credit" : " to my original payment method";
        t.query = "Please return every item of order " + o.id() + " that can still be returned, refunded" + how
                + ", and give me the RMA code of each return.";
        StringJoiner answer = new StringJoiner("; ", "Returned: ", ".");
        for (int r : returnCalls) answer.add("{" + r + ":/item_id} (RMA {" + r + ":/rma_code})");
        t.answer = answer.toString();
        t.expect.put("returns", expected.toString());
        refundDetail(how, credit);
        orderDetail(o);
        return true;
    }

    // ---------------------------------------------------------------- pieces

    private void orderDetail(Order o) {
        t.detail("order_id", " " + o.id(), "order|order number|which order|order id", "The order number is " + o.id() + ".", false);
    }

    private void colorDetail(Order o, Item it, String span) {
        boolean twin = false;
        for (Item x : o.items()) twin |= x != it && x.product() == it.product();
        t.detail("color", span, "colour|color|which one|which item", "The " + it.variant().color() + " one.", twin);
    }

    private void refundDetail(String span, boolean credit) {
        t.detail("refund_to", span, "refund|store credit|payment|card|money back",
                credit ? "As store credit, please." : "To my original payment method.", false);
    }

    private static String variantText(Variant v) {
        return v.size().equals("one size") ? v.color() : v.color() + ", size " + v.size();
    }

    /** A variant of the item's product in the same colour and another size, in or out of stock as asked; null if none. */
    private Variant otherSize(Item it, boolean inStock) {
        List<Variant> options = new ArrayList<>();
        for (Variant v : it.product().variants()) {
            if (v != it.variant() && v.color().equals(it.variant().color()) && (w.stock(v) > 0) == inStock) options.add(v);
        }
        return options.isEmpty() ? null : options.get(rnd.nextInt(options.size()));
    }

    private Customer twinCustomer(Customer c) {
        for (Customer x : w.map.customers()) if (x != c && x.name().equals(c.name())) return x;
        return null;
    }

    private Product nearMiss(Product p) {
        String stem = p.name().substring(0, p.name().indexOf(' '));
        for (Product x : w.map.products()) if (x != p && (x.name().startsWith(stem + " ") || x.type().equals(p.type()))) return x;
        return null;
    }

    /**
     * Items passing the filters in a random order, preferring (80%) those whose order also holds the same
     * product in another colour, so the colour matters.
     */
    private List<Item> items(Predicate<Product> product, java.util.function.BiPredicate<Order, Item> ok) {
        List<Item> pool = new ArrayList<>();
        for (Order o : w.map.orders()) {
            for (Item it : o.items()) if (product.test(it.product()) && ok.test(o, it)) pool.add(it);
        }
        return Pick.preferring(pool, rnd, this::twinnedInOrder, 0.8);
    }

    private boolean twinnedInOrder(Item it) {
        for (Item x : w.order(it.orderId()).items()) if (x != it && x.product() == it.product()) return true;
        return false;
    }

    private Item pickItem(Predicate<Product> product, java.util.function.BiPredicate<Order, Item> ok) {
        List<Item> all = items(product, ok);
        return all.isEmpty() ? null : all.getFirst();
    }

    private <T> T pick(List<T> all, Predicate<T> filter) {
        return Pick.any(all, rnd, filter);
    }
}
