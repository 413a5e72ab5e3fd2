package dev.openagent.envs.retail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.envs.kit.Names;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.envs.kit.TaskVariants;
import dev.openagent.envs.retail.RetailWorld.Item;
import dev.openagent.envs.retail.RetailWorld.Order;
import dev.openagent.envs.retail.RetailWorld.Product;
import dev.openagent.envs.retail.RetailWorld.Variant;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.GoldPlan.Ref;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

import static dev.openagent.envs.kit.TaskDraft.args;
import static dev.openagent.envs.kit.TaskDraft.ref;
import static dev.openagent.envs.kit.TaskDraft.require;

/**
 * Exchanges of an item for another size in the same colour, plainly or with a return for a refund when
 * that size is out of stock. Made impossible by asking for a size that is out of stock or not made.
 */
final class RetailExchanges {
    private RetailExchanges() {}

    /** Sizes no product of the category comes in. */
    private static final Map<String, String> NEVER_SIZE = Map.of("apparel", "XXL", "footwear", "13", "outdoor", "extra large");

    // ---------------------------------------------------------------- level 3

    static boolean exchangeSize(RetailTasks g) {
        TaskDraft<RetailWorld> t = g.draft;
        for (Item it : g.items(Product::sized, (o, x) -> g.w.ineligibility(o, x) == null)) {
            Variant to = otherSize(g, it, true);
            if (to == null) continue;
            Order o = g.w.order(it.orderId());
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
            sizeDetails(g, o, it, color, to);
            return true;
        }
        return false;
    }

    // ---------------------------------------------------------------- level 4

    static boolean exchangeOrRefund(RetailTasks g) {
        TaskDraft<RetailWorld> t = g.draft;
        boolean wantInStock = g.rnd.nextBoolean();
        List<Item> items = g.items(Product::sized,
                (o, x) -> g.w.ineligibility(o, x) == null && !RetailWorld.giftCard(o));
        for (int pass = 0; pass < 2; pass++) {
            boolean inStock = pass == 0 ? wantInStock : !wantInStock;
            for (Item it : items) {
                Variant to = otherSize(g, it, inStock);
                if (to == null) continue;
                Order o = g.w.order(it.orderId());
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
                sizeDetails(g, o, it, color, to);
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- pieces

    /** A variant of the item's product in the same colour and another size, in or out of stock as asked; null if none. */
    private static Variant otherSize(RetailTasks g, Item it, boolean inStock) {
        List<Variant> options = new ArrayList<>();
        for (Variant v : it.product().variants()) {
            if (v != it.variant() && v.color().equals(it.variant().color()) && (g.w.stock(v) > 0) == inStock) options.add(v);
        }
        return options.isEmpty() ? null : options.get(g.rnd.nextInt(options.size()));
    }

    /** The colour, the size asked for and the order number, as details the request may leave out. */
    private static void sizeDetails(RetailTasks g, Order o, Item it, String color, Variant to) {
        g.colorDetail(o, it, color);
        g.draft.detail("size", " for size " + to.size(), "size|which size", "Size " + to.size() + ".", false);
        g.orderDetail(o);
    }

    // ---------------------------------------------------------------- made impossible

    /** The size to exchange to is out of stock in that colour, or not made at all. */
    static Optional<Task> sizeNotToBeHad(Task task, RetailWorld w, SplittableRandom rnd) {
        Order o = RetailRestatements.namedOrder(task, w);
        Item it = o == null ? null : RetailRestatements.namedItem(task, o);
        Detail size = task.details().stream().filter(d -> d.key().equals("size")).findFirst().orElse(null);
        if (it == null || size == null || !TaskVariants.once(task.query(), size.span())) return Optional.empty();
        List<String> gone = new ArrayList<>();
        for (Variant v : it.product().variants()) {
            if (v.color().equals(it.variant().color()) && v != it.variant() && w.stock(v) == 0) gone.add(v.size());
        }
        String never = NEVER_SIZE.get(it.product().category());
        if (gone.isEmpty() && never == null) return Optional.empty();
        String other = gone.isEmpty() ? never : Names.any(gone, rnd);
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
}
