package dev.openagent.envs.retail;

import dev.openagent.domain.TaskKind;
import dev.openagent.envs.kit.TaskGenerator;
import dev.openagent.envs.kit.TaskKinds;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.retail.RetailWorld.Item;
import dev.openagent.envs.retail.RetailWorld.Order;
import dev.openagent.envs.retail.RetailWorld.Product;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

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
 * Each kind is posed by its family ({@link RetailLookups}, {@link RetailCancellations}, {@link RetailReturns},
 * {@link RetailExchanges}), which also holds the ways it can be made impossible; the generator keeps what the
 * families share. Writing tasks are checked on the world: exactly the requested returns, exchanges and cancellations.
 */
final class RetailTasks extends TaskGenerator<RetailWorld> {
    /** The kinds, in the order they are drawn from within a difficulty; every kind can be restated through a longer chain. */
    static final TaskKinds<RetailWorld, RetailTasks> KINDS = new TaskKinds<>(
            kind("delivery_date", 1, RetailLookups::deliveryDate).impossibleBy(RetailRestatements::unknownOrder),
            kind("tracking_number", 1, RetailLookups::trackingNumber).impossibleBy(RetailRestatements::unknownOrder),
            kind("count_orders", 1, RetailLookups::countOrders).impossibleBy(RetailRestatements::unknownCustomer),
            kind("variant_stock", 2, RetailLookups::variantStock).impossibleBy(RetailLookups::notSold),
            kind("return_deadline", 2, RetailLookups::returnDeadline).impossibleBy(RetailRestatements::unknownOrder),
            kind("cancel_unshipped_order", 2, RetailCancellations::cancelUnshippedOrder)
                    .impossibleBy(RetailRestatements::unknownCustomer, RetailCancellations::alreadyShipped),
            kind("return_item", 3, RetailReturns::returnItem).impossibleBy(RetailRestatements::unknownOrder, RetailReturns::notReturnable),
            kind("exchange_size", 3, RetailExchanges::exchangeSize).impossibleBy(RetailRestatements::unknownOrder, RetailExchanges::sizeNotToBeHad),
            kind("customer_history_return", 4, RetailReturns::customerHistoryReturn).impossibleBy(RetailReturns::noSuchAccount),
            kind("exchange_or_refund", 4, RetailExchanges::exchangeOrRefund).impossibleBy(RetailRestatements::unknownOrder),
            kind("return_all_eligible", 4, RetailReturns::returnAllEligible).impossibleBy(RetailRestatements::unknownOrder));

    private static TaskKind<RetailWorld, RetailTasks> kind(String name, int difficulty, Predicate<RetailTasks> pose) {
        return TaskKind.<RetailWorld, RetailTasks>of(name, difficulty, pose).longerBy(RetailRestatements::longerChain);
    }

    private RetailTasks(RetailWorld w, long seed) {
        super(w, seed, 0x2E7A1L, RetailTools.ALL);
    }

    static Task generate(RetailWorld world, TaskRequest request, long seed) {
        RetailTasks g = new RetailTasks(world, seed);
        return KINDS.task("retail", request, g, g.rnd, g.draft);
    }

    // ---------------------------------------------------------------- details the families share

    void orderDetail(Order o) {
        draft.detail("order_id", " " + o.id(), "order|order number|which order|order id", "The order number is " + o.id() + ".", false);
    }

    void customerIdDetail(String customerId) {
        draft.detail("customer_id", " My customer id is " + customerId + ".", "customer|account|id|who", "My customer id is " + customerId + ".", false);
    }

    void colorDetail(Order o, Item it, String span) {
        boolean twin = false;
        for (Item x : o.items()) twin |= x != it && x.product() == it.product();
        draft.detail("color", span, "colour|color|which one|which item", "The " + it.variant().color() + " one.", twin);
    }

    void refundDetail(String span, boolean credit) {
        draft.detail("refund_to", span, "refund|store credit|payment|card|money back",
                credit ? "As store credit, please." : "To my original payment method.", false);
    }

    // ---------------------------------------------------------------- seeded choices

    /**
     * Items passing the filters in a random order, preferring (80%) those whose order also holds the same
     * product in another colour, so the colour matters.
     */
    List<Item> items(Predicate<Product> product, BiPredicate<Order, Item> ok) {
        List<Item> pool = new ArrayList<>();
        for (Order o : w.layout().orders()) {
            for (Item it : o.items()) if (product.test(it.product()) && ok.test(o, it)) pool.add(it);
        }
        return Pick.preferring(pool, rnd, this::twinnedInOrder, 0.8);
    }

    private boolean twinnedInOrder(Item it) {
        for (Item x : w.order(it.orderId()).items()) if (x != it && x.product() == it.product()) return true;
        return false;
    }

    /** The first of {@link #items}, of any product; null when none passes. */
    Item pickItem(BiPredicate<Order, Item> ok) {
        List<Item> all = items(x -> true, ok);
        return all.isEmpty() ? null : all.getFirst();
    }

    <T> T pick(List<T> all, Predicate<T> filter) {
        return Pick.any(all, rnd, filter);
    }
}
