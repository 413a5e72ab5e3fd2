package dev.openagent.envs.retail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.envs.kit.TaskVariants;
import dev.openagent.envs.retail.RetailWorld.Customer;
import dev.openagent.envs.retail.RetailWorld.Item;
import dev.openagent.envs.retail.RetailWorld.Order;
import dev.openagent.envs.retail.RetailWorld.Product;
import dev.openagent.sandbox.Task;

import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

import static dev.openagent.envs.kit.TaskDraft.args;
import static dev.openagent.envs.kit.TaskDraft.ref;
import static dev.openagent.envs.kit.TaskDraft.require;

/**
 * Cancelling the customer's order that holds a product and has not shipped; made impossible by asking
 * for an order that already shipped.
 */
final class RetailCancellations {
    private RetailCancellations() {}

    static boolean cancelUnshippedOrder(RetailTasks g) {
        TaskDraft<RetailWorld> t = g.draft;
        Order o = g.pick(g.w.layout().orders(), x -> x.status().equals("processing"));
        if (o == null) return false;
        Customer c = g.w.customer(o.customerId());
        Item it = o.items().get(g.rnd.nextInt(o.items().size()));
        JsonNode list = t.look("list_orders", args("customer_id", c.id())).get("orders");
        int k = require(list, "order_id", o.id());
        t.commit("cancel_order", args(), Map.of("order_id", ref(0, "/orders/" + k + "/order_id")));
        t.query = "Please cancel my order with the " + it.product().name() + " that hasn't shipped yet. My customer id is " + c.id()
                + ". What is the cancellation code?";
        t.answer = "Order {0:/orders/" + k + "/order_id} is cancelled; cancellation code {1:/cancellation_code}.";
        t.expect.put("cancel", o.id());
        g.customerIdDetail(c.id());
        return true;
    }

    /** The order to cancel (the one with that product) has already shipped: another product the customer has only in shipped orders. */
    static Optional<Task> alreadyShipped(Task task, RetailWorld w, SplittableRandom rnd) {
        Customer c = RetailRestatements.namedCustomer(task, w);
        if (c == null) return Optional.empty();
        String asked = null;
        for (Product p : w.layout().products()) if (task.query().contains("the " + p.name() + " that")) asked = p.name();
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
}
