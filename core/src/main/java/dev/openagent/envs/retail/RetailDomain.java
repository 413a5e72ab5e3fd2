package dev.openagent.envs.retail;

import dev.openagent.envs.retail.RetailWorld.Cancellation;
import dev.openagent.envs.retail.RetailWorld.Exchange;
import dev.openagent.envs.retail.RetailWorld.Return;
import dev.openagent.sandbox.Checks;
import dev.openagent.sandbox.Task;
import dev.openagent.domain.Domain;
import dev.openagent.domain.Surface;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * An online shop's customer service: customers, a catalogue with variants and stock, orders and
 * shipments; returns within category windows with refunds to the original payment method,
 * exchanges for variants in stock, cancellations of unshipped orders. Writing tasks are checked on
 * the world state: exactly the requested changes and nothing else.
 */
public final class RetailDomain {
    private RetailDomain() {}

    private static final String RULES = """
                - Today is 2026-11-20. Return windows are counted from the delivery date: 15 days for electronics, 60 for outdoor
                  gear, 30 for everything else. Final-sale items cannot be returned or exchanged.
                - Refunds go to the original payment method unless the customer asks for store credit; orders paid with a gift
                  card are refunded as store credit.
                - Exchanges are for another variant of the same product that is in stock.
                - Check an item's return eligibility (check_return_eligibility) before returning it.
                - Only orders that have not shipped (status processing) can be cancelled.
                - Several customers can share a name: identify them by email or zip code. Make only the changes the customer asked for.""";

    public static final Domain<RetailWorld> DOMAIN = new Domain<>("retail",
            "Online shop customer service: orders, shipments, returns within category windows, refunds, exchanges and cancellations.",
            RULES, new Surface.FunctionCalls<>(RetailTools.ALL),
            RetailWorld::of, RetailTasks.KINDS.all(), RetailTasks::generate, RetailDomain::check, RetailVocabulary.VOCABULARY);

    /** The world state after the answer passed its check: exactly the requested change, nothing else. */
    private static String check(Task task, RetailWorld world, String answer) {
        Map<String, String> expect = task.expect();
        Set<String> returned = new TreeSet<>();
        for (Return r : world.returns) returned.add(r.itemId() + "=" + r.refundTo());
        Set<String> exchanged = new TreeSet<>();
        for (Exchange e : world.exchanges) exchanged.add(e.itemId() + "=" + e.newVariantId());
        Set<String> cancelled = new TreeSet<>();
        for (Cancellation c : world.cancellations) cancelled.add(c.orderId());
        String wrong = compare("returned", "items were returned", expect.get("returns"), returned);
        if (wrong == null) wrong = compare("exchanged", "an item was exchanged", expect.get("exchange"), exchanged);
        if (wrong == null) wrong = compare("cancelled", "an order was cancelled", expect.get("cancel"), cancelled);
        if (wrong != null) return wrong;
        for (Return r : world.returns) if (!Checks.mentions(answer, r.code())) return "answer lacks the RMA code";
        for (Exchange e : world.exchanges) if (!Checks.mentions(answer, e.code())) return "answer lacks the exchange code";
        for (Cancellation c : world.cancellations) if (!Checks.mentions(answer, c.code())) return "answer lacks the cancellation code";
        return null;
    }

    /** Null when the changes made are exactly the ones expected ({@code want}: ';'-separated), else what is wrong. */
    private static String compare(String verb, String unasked, String want, Set<String> got) {
        Set<String> expected = new TreeSet<>();
        if (want != null) for (String s : want.split(";")) if (!s.isBlank()) expected.add(s);
        if (got.equals(expected)) return null;
        if (expected.isEmpty()) return unasked + ", which the request did not ask for";
        return got.isEmpty() ? "nothing was " + verb : verb + " the wrong items, variants or refund methods " + got;
    }
}
