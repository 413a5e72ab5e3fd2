package dev.openagent.envs.retail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.envs.kit.Names;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.envs.kit.TaskVariants;
import dev.openagent.envs.retail.RetailWorld.Customer;
import dev.openagent.envs.retail.RetailWorld.Item;
import dev.openagent.envs.retail.RetailWorld.Order;
import dev.openagent.envs.retail.RetailWorld.Product;
import dev.openagent.envs.retail.RetailWorld.Variant;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

import static dev.openagent.envs.kit.TaskDraft.args;
import static dev.openagent.envs.kit.TaskDraft.ref;
import static dev.openagent.envs.kit.TaskDraft.require;

/**
 * Retail questions that change nothing: when an order was delivered, who ships it and the tracking number,
 * how many orders a customer has in one status, a variant's stock, the last day to return an item. A stock
 * question is made impossible by asking about a product the shop does not sell.
 */
final class RetailLookups {
    private RetailLookups() {}

    // ---------------------------------------------------------------- level 1

    static boolean deliveryDate(RetailTasks g) {
        TaskDraft<RetailWorld> t = g.draft;
        Order o = g.pick(g.w.layout().orders(), x -> x.status().equals("delivered"));
        if (o == null) return false;
        t.look("get_order", args("order_id", o.id()));
        t.query = "On what date was my order " + o.id() + " delivered?";
        t.answer = "Order " + o.id() + " was delivered on {0:/delivered}.";
        t.must.add(RetailWorld.date(o.deliveredDay()));
        t.mustNot.add(RetailWorld.date(o.placedDay()));
        g.orderDetail(o);
        return true;
    }

    static boolean trackingNumber(RetailTasks g) {
        TaskDraft<RetailWorld> t = g.draft;
        Order o = g.pick(g.w.layout().orders(), x -> x.tracking() != null);
        if (o == null) return false;
        t.look("track_shipment", args("order_id", o.id()));
        t.query = "Which carrier is shipping my order " + o.id() + ", and what is the tracking number?";
        t.answer = "Order " + o.id() + " ships with {0:/carrier}, tracking number {0:/tracking_number}.";
        t.must.add(o.carrier());
        t.must.add(o.tracking());
        g.orderDetail(o);
        return true;
    }

    static boolean countOrders(RetailTasks g) {
        TaskDraft<RetailWorld> t = g.draft;
        Customer c = g.pick(g.w.layout().customers(), x -> true);
        String status = g.rnd.nextDouble() < 0.7 ? "delivered" : "shipped";
        int n = RetailTools.orders(g.w, c, status).size();
        int all = c.orderIds().size();
        t.look("list_orders", args("customer_id", c.id(), "status", status));
        t.query = "How many of my orders are " + status + "? My customer id is " + c.id() + ".";
        t.answer = "{0:/count} of your orders are " + status + ".";
        t.must.add(Integer.toString(n));
        if (all != n) t.mustNot.add(Integer.toString(all));
        g.customerIdDetail(c.id());
        return true;
    }

    // ---------------------------------------------------------------- level 2

    static boolean variantStock(RetailTasks g) {
        TaskDraft<RetailWorld> t = g.draft;
        Product p = Pick.preferring(g.w.layout().products(), g.rnd, x -> nearMiss(g.w, x) != null, 0.8).getFirst();
        Variant v = p.variants().get(g.rnd.nextInt(p.variants().size()));
        JsonNode found = t.look("search_products", args("name", p.name())).get("products");
        int k = require(found, "product_id", p.id());
        JsonNode product = t.look("get_product", args(), Map.of("product_id", ref(0, "/products/" + k + "/product_id")));
        int kv = require(product.get("variants"), "variant_id", v.id());
        String what = v.size().equals("one size") ? v.color() : v.color() + ", size " + v.size();
        t.query = "How many units of the " + p.name() + " in " + what + " are in stock?";
        t.answer = "{1:/variants/" + kv + "/in_stock} units of the " + p.name() + " in " + what + " are in stock.";
        t.must.add(Integer.toString(g.w.stock(v)));
        return true;
    }

    /** Another product sharing the product's stem or type (so the name must be matched exactly); null if none. */
    private static Product nearMiss(RetailWorld w, Product p) {
        String stem = p.name().substring(0, p.name().indexOf(' '));
        for (Product x : w.layout().products()) if (x != p && (x.name().startsWith(stem + " ") || x.type().equals(p.type()))) return x;
        return null;
    }

    static boolean returnDeadline(RetailTasks g) {
        TaskDraft<RetailWorld> t = g.draft;
        Item it = g.pickItem((o, x) -> g.w.ineligibility(o, x) == null);
        if (it == null) return false;
        Order o = g.w.order(it.orderId());
        JsonNode order = t.look("get_order", args("order_id", o.id()));
        int k = require(order.get("items"), "item_id", it.id());
        t.look("check_return_eligibility", args(), Map.of("order_id", ref(0, "/order_id"), "item_id", ref(0, "/items/" + k + "/item_id")));
        String color = " " + it.variant().color();
        t.query = "What is the last day I can return the" + color + " " + it.product().name() + " from order " + o.id() + "?";
        t.answer = "You can return it until {1:/return_by}.";
        t.must.add(RetailWorld.date(RetailWorld.returnBy(o, it)));
        t.mustNot.add(RetailWorld.date(o.deliveredDay()));
        g.colorDetail(o, it, color);
        g.orderDetail(o);
        return true;
    }

    // ---------------------------------------------------------------- made impossible

    /** The product asked about is not sold by the shop: a name of the catalogue's words that no product has. */
    static Optional<Task> notSold(Task task, RetailWorld w, SplittableRandom rnd) {
        Product named = null;
        for (Product p : w.layout().products()) if (TaskVariants.once(task.query(), "the " + p.name() + " in ")) named = p;
        if (named == null) return Optional.empty();
        List<String> stems = new ArrayList<>();
        for (Product p : w.layout().products()) stems.add(p.name().substring(0, p.name().indexOf(' ')));
        String fake = null;
        for (int i = 0; i < 100 && fake == null; i++) {
            String candidate = Names.any(stems, rnd) + " " + Names.any(RetailNames.TYPES.get(named.category()), rnd);
            String lower = candidate.toLowerCase(Locale.ROOT);
            if (w.layout().products().stream().noneMatch(p -> p.lowerName().contains(lower))) fake = candidate;
        }
        if (fake == null) return Optional.empty();
        return Optional.of(task.unsolvable(task.query().replace("the " + named.name() + " in ", "the " + fake + " in "),
                List.of(new GoldPlan.Call("search_products", args("name", fake))), "The shop does not sell a " + fake + ".",
                TaskVariants.replaceInDetails(task.details(), named.name(), fake, true)));
    }
}
