package dev.openagent.envs.retail;

import dev.openagent.envs.kit.TaskVariants;
import dev.openagent.envs.retail.RetailWorld.Customer;
import dev.openagent.envs.retail.RetailWorld.Item;
import dev.openagent.envs.retail.RetailWorld.Order;
import dev.openagent.sandbox.Chain;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.GoldPlan.Ref;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import java.util.function.Supplier;

import static dev.openagent.envs.kit.TaskDraft.args;

/**
 * What every family of retail requests allows: the order or the customer id it names swapped for one
 * that does not exist, and the order or the customer reached through a longer chain of calls. Also what
 * a request names (its order, item, customer), for the family-specific restatements.
 */
final class RetailRestatements {
    private RetailRestatements() {}

    // ---------------------------------------------------------------- made impossible

    /** The order named does not exist. */
    static Optional<Task> unknownOrder(Task task, RetailWorld w, SplittableRandom rnd) {
        Order o = namedOrder(task, w);
        if (o == null) return Optional.empty();
        return swappedForUnknown(task, o.id(), "order_id", () -> "O-" + (100000 + rnd.nextInt(900000)), id -> w.order(id) != null,
                "There is no order ");
    }

    /** The customer id named does not exist. */
    static Optional<Task> unknownCustomer(Task task, RetailWorld w, SplittableRandom rnd) {
        Customer c = namedCustomer(task, w);
        if (c == null) return Optional.empty();
        return swappedForUnknown(task, c.id(), "customer_id", () -> "C-" + (10000 + rnd.nextInt(90000)), id -> w.customer(id) != null,
                "There is no customer with id ");
    }

    /**
     * The task with the id it names swapped for a drawn one that neither exists nor appears in the query; its
     * plan probes until the first call taking {@code param}. Empty when no call of the plan takes it.
     */
    private static Optional<Task> swappedForUnknown(Task task, String id, String param, Supplier<String> draw, Predicate<String> exists,
                                                    String refusal) {
        String fake;
        do fake = draw.get(); while (exists.test(fake) || task.query().contains(fake));
        List<GoldPlan.Call> probes = TaskVariants.probesUntil(task.plan(), param, fake);
        if (probes.isEmpty()) return Optional.empty();
        return Optional.of(task.unsolvable(task.query().replace(id, fake), probes, refusal + fake + ".",
                TaskVariants.replaceInDetails(task.details(), id, fake, true)));
    }

    // ---------------------------------------------------------------- a longer chain

    /**
     * An order number becomes "my second most recent order (my email is E)" (from two extra hops, "(I am
     * NAME, zip code Z)", through the account's profile); a customer id becomes "my email is E" (from two
     * extra hops, "I am NAME, zip code Z"). Requests that name neither are not restated.
     */
    static Optional<Chain> longerChain(Task task, RetailWorld w, SplittableRandom unused, int extra) {
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
        return Optional.of(new Chain(query, hops, pointer, c.id(), kept(task, query, "customer_id")));
    }

    private static Optional<Chain> orderChain(Task task, RetailWorld w, Order o, int extra) {
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
        return Optional.of(new Chain(query, hops, "/orders/" + k + "/order_id", o.id(), kept(task, query, "order_id")));
    }

    private static boolean uniqueByNameAndZip(RetailWorld w, Customer c) {
        return w.layout().customers().stream().filter(x -> x.name().equals(c.name()) && x.zip().equals(c.zip())).count() == 1;
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
    static Order namedOrder(Task task, RetailWorld w) {
        for (Order o : w.layout().orders()) if (TaskVariants.once(task.query(), "order " + o.id())) return o;
        return null;
    }

    /** The item of the order the request names by colour and product. */
    static Item namedItem(Task task, Order o) {
        for (Item it : o.items()) if (task.query().contains("the " + it.variant().color() + " " + it.product().name())) return it;
        return null;
    }

    /** The customer whose id the request states (once, ending a sentence). */
    static Customer namedCustomer(Task task, RetailWorld w) {
        for (Customer c : w.layout().customers()) if (TaskVariants.once(task.query(), c.id() + ".")) return c;
        return null;
    }
}
