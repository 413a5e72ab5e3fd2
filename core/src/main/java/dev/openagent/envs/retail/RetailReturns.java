package dev.openagent.envs.retail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.envs.kit.TaskVariants;
import dev.openagent.envs.retail.RetailWorld.Customer;
import dev.openagent.envs.retail.RetailWorld.Item;
import dev.openagent.envs.retail.RetailWorld.Order;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.GoldPlan.Ref;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.StringJoiner;
import java.util.function.BiPredicate;

import static dev.openagent.envs.kit.TaskDraft.args;
import static dev.openagent.envs.kit.TaskDraft.ref;
import static dev.openagent.envs.kit.TaskDraft.require;

/**
 * Returns for a refund: one item of a named order, one item found through the customer's name, zip code
 * and order history, every item of an order that can still be returned. Made impossible by an item that can
 * no longer be returned, or an account that does not exist.
 */
final class RetailReturns {
    private RetailReturns() {}

    // ---------------------------------------------------------------- level 3

    static boolean returnItem(RetailTasks g) {
        TaskDraft<RetailWorld> t = g.draft;
        boolean credit = g.rnd.nextDouble() < 0.35;
        Item it = g.pickItem((o, x) -> g.w.ineligibility(o, x) == null && (credit || !RetailWorld.giftCard(o)));
        if (it == null) return false;
        Order o = g.w.order(it.orderId());
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
        t.answer = returnAnswer(r);
        t.expect.put("returns", it.id() + "=" + refundTo);
        g.colorDetail(o, it, color);
        g.refundDetail(how, credit);
        g.orderDetail(o);
        return true;
    }

    // ---------------------------------------------------------------- level 4

    static boolean customerHistoryReturn(RetailTasks g) {
        TaskDraft<RetailWorld> t = g.draft;
        RetailWorld w = g.w;
        boolean credit = g.rnd.nextDouble() < 0.35;
        BiPredicate<Order, Item> returnable = (o, x) -> w.ineligibility(o, x) == null && (credit || !RetailWorld.giftCard(o));
        // Prefer a customer with a namesake, so the zip code matters.
        Item it = g.pickItem(returnable.and((o, x) -> twinCustomer(w, w.customer(o.customerId())) != null));
        if (it == null) it = g.pickItem(returnable);
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
        t.answer = returnAnswer(r);
        t.expect.put("returns", it.id() + "=" + refundTo);
        Customer twin = twinCustomer(w, c);
        t.detail("zip_code", zip, "zip|postcode|postal|which account|who|address", "My zip code is " + c.zip() + ".", twin != null);
        boolean sameProductElsewhere = false;
        for (Order other : RetailTools.orders(w, c, null)) {
            if (other == o) continue;
            for (Item x : other.items()) sameProductElsewhere |= x.product() == it.product();
        }
        t.detail("date", " I ordered on " + placed, "date|when|which order|ordered", "I ordered it on " + placed + ".", sameProductElsewhere);
        g.colorDetail(o, it, color);
        g.refundDetail(how, credit);
        return true;
    }

    /** Another customer of the same name; null if none. */
    private static Customer twinCustomer(RetailWorld w, Customer c) {
        for (Customer x : w.layout().customers()) if (x != c && x.name().equals(c.name())) return x;
        return null;
    }

    static boolean returnAllEligible(RetailTasks g) {
        TaskDraft<RetailWorld> t = g.draft;
        RetailWorld w = g.w;
        List<Order> candidates = new ArrayList<>();
        for (Order o : w.layout().orders()) {
            if (o.items().size() < 2 || !o.status().equals("delivered")) continue;
            int eligible = 0;
            for (Item it : o.items()) if (w.ineligibility(o, it) == null) eligible++;
            if (eligible >= 1 && eligible < o.items().size()) candidates.add(o);
        }
        if (candidates.isEmpty()) return false;
        Order o = candidates.get(g.rnd.nextInt(candidates.size()));
        boolean credit = RetailWorld.giftCard(o) || g.rnd.nextDouble() < 0.3;
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
        g.refundDetail(how, credit);
        g.orderDetail(o);
        return true;
    }

    /** The answer to one return, from the result of plan call {@code r}. */
    private static String returnAnswer(int r) {
        return "Return {" + r + ":/return_id} is open: {" + r + ":/refund_amount} refunded to {" + r + ":/refund_to}. RMA code: {"
                + r + ":/rma_code}.";
    }

    // ---------------------------------------------------------------- made impossible

    /** The item to return can no longer be returned (final sale, or its window closed): another delivered item that is so. */
    static Optional<Task> notReturnable(Task task, RetailWorld w, SplittableRandom rnd) {
        Order o = RetailRestatements.namedOrder(task, w);
        Item it = o == null ? null : RetailRestatements.namedItem(task, o);
        if (it == null) return Optional.empty();
        String said = "the " + it.variant().color() + " " + it.product().name() + " from order " + o.id();
        if (!TaskVariants.once(task.query(), said)) return Optional.empty();
        for (Order other : Pick.shuffled(w.layout().orders(), rnd)) {
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

    /** No account matches the name and zip code given. */
    static Optional<Task> noSuchAccount(Task task, RetailWorld w, SplittableRandom rnd) {
        GoldPlan.Call find = task.plan().calls().getFirst();
        String name = find.args().path("name").asText("");
        String zip = find.args().path("zip_code").asText("");
        if (!find.tool().equals("find_customer") || zip.isEmpty() || !TaskVariants.once(task.query(), zip)) return Optional.empty();
        String other = null;
        while (other == null || task.query().contains(other) || taken(w, name, other)) other = Integer.toString(10000 + rnd.nextInt(89999));
        return Optional.of(task.unsolvable(task.query().replace(zip, other),
                List.of(new GoldPlan.Call("find_customer", args("name", name, "zip_code", other))),
                "There is no account for " + name + " with zip code " + other + ".", TaskVariants.replaceInDetails(task.details(), zip, other, true)));
    }

    private static boolean taken(RetailWorld w, String name, String zip) {
        return w.layout().customers().stream().anyMatch(c -> c.name().equals(name) && c.zip().equals(zip));
    }
}
