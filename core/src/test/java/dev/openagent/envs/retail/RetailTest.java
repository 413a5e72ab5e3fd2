package dev.openagent.envs.retail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.envs.retail.RetailWorld.Customer;
import dev.openagent.envs.retail.RetailWorld.Item;
import dev.openagent.envs.retail.RetailWorld.Layout;
import dev.openagent.envs.retail.RetailWorld.Order;
import dev.openagent.envs.retail.RetailWorld.Product;
import dev.openagent.envs.retail.RetailWorld.Variant;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolError;
import dev.openagent.domain.DomainEnv;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.openagent.envs.EnvTesting.answerWith;
import static dev.openagent.envs.EnvTesting.assertAnswerFails;
import static dev.openagent.envs.EnvTesting.assertRewrittenAnswerFails;
import static dev.openagent.envs.EnvTesting.assertEveryLayoutPosesEveryDifficulty;
import static dev.openagent.envs.EnvTesting.started;
import static dev.openagent.envs.EnvTesting.assertSameTwice;
import static dev.openagent.envs.EnvTesting.assertSplitsShareNoNames;
import static dev.openagent.envs.EnvTesting.call;
import static dev.openagent.envs.EnvTesting.json;
import static dev.openagent.envs.EnvTesting.ok;
import static dev.openagent.envs.EnvTesting.requestFor;
import static dev.openagent.envs.EnvTesting.runTampered;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RetailTest {
    /** A started episode, made afresh for each test (JUnit makes a new instance per test). */
    private final DomainEnv<RetailWorld> env = started(RetailDomain.DOMAIN);

    private RetailWorld w() { return env.world(); }

    // ---------------------------------------------------------------- generator

    @Test
    void layoutsAreDeterministicAndSplitsShareNoNames() {
        assertSameTwice(() -> RetailWorld.generate(Split.TEST, 5), Layout::customers, Layout::products, Layout::orders);
        assertSplitsShareNoNames(RetailWorld.LAYOUTS, 40, (l, names) -> {
            l.customers().forEach(c -> {
                names.add(c.name());
                names.add(c.email());
            });
            l.products().forEach(p -> names.add(p.name()));
        });
    }

    @Test
    void worldsHoldEveryOrderState() {
        Layout l = w().layout();
        Set<String> statuses = new HashSet<>();
        l.orders().forEach(o -> statuses.add(o.status()));
        assertTrue(statuses.containsAll(Set.of("processing", "shipped", "delivered")), statuses.toString());
        boolean expired = false;
        boolean open = false;
        for (Order o : l.orders()) {
            for (Item it : o.items()) {
                String why = w().ineligibility(o, it);
                expired |= why != null && why.contains("window closed");
                open |= why == null;
            }
        }
        assertTrue(expired && open, "some items are past their return window, some are not");
    }

    /** Every cached layout of both splits can pose a task at every difficulty (kinds fall back to siblings, never fail). */
    @Test
    void everyLayoutPosesATaskAtEveryDifficulty() {
        assertEveryLayoutPosesEveryDifficulty(RetailWorld.LAYOUTS, (l, i) -> new RetailWorld(l, i * 31L), RetailTasks::generate);
    }

    // ---------------------------------------------------------------- tools

    @Test
    void customersOrdersAndShipments() {
        Customer c = w().layout().customers().getFirst();
        JsonNode found = ok(env, "find_customer", json("email", c.email().toUpperCase()));
        assertEquals(c.id(), found.at("/customers/0/customer_id").asText());
        assertEquals(ToolError.Code.DOMAIN, call(env, "find_customer", json()).error().code());
        JsonNode profile = ok(env, "get_customer", json("customer_id", c.id()));
        assertEquals(c.orderIds().size(), profile.get("order_ids").size());
        JsonNode orders = ok(env, "list_orders", json("customer_id", c.id()));
        assertEquals(c.orderIds().getFirst(), orders.at("/orders/0/order_id").asText(), "newest first");
        Order o = w().order(c.orderIds().getFirst());
        JsonNode order = ok(env, "get_order", json("order_id", o.id().toLowerCase()));
        assertEquals(o.items().size(), order.get("items").size());
        JsonNode track = ok(env, "track_shipment", json("order_id", o.id()));
        assertEquals(o.carrier(), track.get("carrier").asText());
        assertEquals(ToolError.Code.DOMAIN, call(env, "get_order", json("order_id", "O-000000")).error().code());
    }

    @Test
    void catalogueAndPolicy() {
        Product p = w().layout().products().getFirst();
        JsonNode found = ok(env, "search_products", json("name", p.name().substring(0, 4)));
        assertTrue(found.get("products").findValuesAsText("product_id").contains(p.id()));
        JsonNode product = ok(env, "get_product", json("product_id", p.id()));
        assertEquals(p.variants().size(), product.get("variants").size());
        assertEquals(p.windowDays(), product.get("return_window_days").asInt());
        assertEquals(15, ok(env, "get_return_policy", json("category", "electronics")).get("return_window_days").asInt());
        assertEquals(ToolError.Code.INVALID_ARGUMENTS, call(env, "get_return_policy", json("category", "food")).error().code());
    }

    @Test
    void returningAnEligibleItemOnceRefundsTheOriginalPayment() {
        Order o = null;
        Item it = null;
        for (Order x : w().layout().orders()) {
            for (Item i : x.items()) {
                if (it == null && w().ineligibility(x, i) == null && !RetailWorld.giftCard(x)) {
                    o = x;
                    it = i;
                }
            }
        }
        JsonNode check = ok(env, "check_return_eligibility", json("order_id", o.id(), "item_id", it.id()));
        assertTrue(check.get("eligible").asBoolean());
        JsonNode ret = ok(env, "return_item", json("order_id", o.id(), "item_id", it.id(), "refund_to", "original_payment"));
        assertEquals(o.payment(), ret.get("refund_to").asText());
        assertTrue(ret.get("rma_code").asText().startsWith("RMA-"));
        assertTrue(call(env, "return_item", json("order_id", o.id(), "item_id", it.id(), "refund_to", "store_credit")).text().contains("already"));
        assertFalse(ok(env, "check_return_eligibility", json("order_id", o.id(), "item_id", it.id())).get("eligible").asBoolean());
        assertEquals(1, ok(env, "list_returns", json("customer_id", o.customerId())).get("requests").findValuesAsText("item_id").stream()
                .filter(it.id()::equals).count());
    }

    @Test
    void ineligibleReturnsAreRefused() {
        int checked = 0;
        for (Order o : w().layout().orders()) {
            for (Item it : o.items()) {
                String why = w().ineligibility(o, it);
                if (why == null || ++checked > 25) continue;   // within the episode's step limit
                var obs = call(env, "return_item", json("order_id", o.id(), "item_id", it.id(), "refund_to", "store_credit"));
                assertTrue(obs.isError());
                assertTrue(obs.text().contains(why), obs.text() + " / " + why);
            }
        }
        assertTrue(w().returns().isEmpty());
    }

    @Test
    void giftCardOrdersRefundAsStoreCreditOnly() {
        for (int layout = 0; layout < 20; layout++) {
            env.reset(new TaskRequest(Split.TRAIN, layout, 1));
            for (Order o : w().layout().orders()) {
                if (!RetailWorld.giftCard(o)) continue;
                for (Item it : o.items()) {
                    if (w().ineligibility(o, it) != null) continue;
                    assertTrue(call(env, "return_item", json("order_id", o.id(), "item_id", it.id(), "refund_to", "original_payment")).isError());
                    assertEquals("store credit", ok(env, "return_item", json("order_id", o.id(), "item_id", it.id(), "refund_to", "store_credit"))
                            .get("refund_to").asText());
                    return;
                }
            }
        }
        throw new AssertionError("no gift-card order with a returnable item in 20 worlds");
    }

    @Test
    void exchangesNeedStockAndTheSameProduct() {
        for (Order o : w().layout().orders()) {
            for (Item it : o.items()) {
                if (w().ineligibility(o, it) != null) continue;
                Variant inStock = null;
                Variant empty = null;
                for (Variant v : it.product().variants()) {
                    if (v == it.variant()) continue;
                    if (w().stock(v) > 0) inStock = v;
                    else empty = v;
                }
                if (inStock == null || empty == null) continue;
                assertTrue(call(env, "exchange_item", json("order_id", o.id(), "item_id", it.id(), "new_variant_id", empty.id())).text().contains("out of stock"));
                Variant foreign = w().layout().products().stream().filter(p -> p != it.product()).findFirst().orElseThrow().variants().getFirst();
                assertTrue(call(env, "exchange_item", json("order_id", o.id(), "item_id", it.id(), "new_variant_id", foreign.id())).text().contains("same product"));
                int before = w().stock(inStock);
                JsonNode x = ok(env, "exchange_item", json("order_id", o.id(), "item_id", it.id(), "new_variant_id", inStock.id()));
                assertTrue(x.get("exchange_code").asText().startsWith("XCH-"));
                assertEquals(before - 1, w().stock(inStock));
                return;
            }
        }
        throw new AssertionError("no exchangeable item");
    }

    @Test
    void onlyUnshippedOrdersCanBeCancelled() {
        Order processing = w().layout().orders().stream().filter(o -> o.status().equals("processing")).findFirst().orElseThrow();
        Order shipped = w().layout().orders().stream().filter(o -> !o.status().equals("processing")).findFirst().orElseThrow();
        assertTrue(call(env, "cancel_order", json("order_id", shipped.id())).isError());
        assertTrue(ok(env, "cancel_order", json("order_id", processing.id())).get("cancellation_code").asText().startsWith("CAN-"));
        assertEquals("cancelled", ok(env, "get_order", json("order_id", processing.id())).get("status").asText());
        assertTrue(call(env, "cancel_order", json("order_id", processing.id())).isError());
    }

    // ---------------------------------------------------------------- what shifts may know

    /** Shifts may call or drop a read-only tool freely: those declared so change nothing, and every other tool writes. */
    @Test
    void theToolsDeclaredReadOnlyChangeNothing() {
        Order o = w().layout().orders().stream().filter(x -> x.items().stream().anyMatch(i -> w().ineligibility(x, i) == null)).findFirst().orElseThrow();
        Item it = o.items().stream().filter(i -> w().ineligibility(o, i) == null).findFirst().orElseThrow();
        Customer c = w().customer(o.customerId());
        Map<String, String> calls = Map.of(
                "find_customer", json("name", c.name()), "get_customer", json("customer_id", c.id()),
                "list_orders", json("customer_id", c.id()), "list_returns", json("customer_id", c.id()),
                "get_order", json("order_id", o.id()), "track_shipment", json("order_id", o.id()),
                "search_products", json("name", it.product().name()), "get_product", json("product_id", it.product().id()),
                "get_return_policy", json("category", it.product().category()),
                "check_return_eligibility", json("order_id", o.id(), "item_id", it.id()));
        assertEquals(calls.keySet(), env.facts().readOnlyTools());
        Set<String> writing = new HashSet<>(RetailTools.ALL.stream().map(t -> t.name()).toList());
        writing.removeAll(calls.keySet());
        assertEquals(Set.of("return_item", "exchange_item", "cancel_order"), writing);
        Map<String, Integer> stock = new HashMap<>();
        for (Product p : w().layout().products()) for (Variant v : p.variants()) stock.put(v.id(), w().stock(v));
        calls.forEach((tool, args) -> ok(env, tool, args));
        assertTrue(w().returns().isEmpty() && w().exchanges().isEmpty() && w().cancellations().isEmpty());
        assertEquals("delivered", w().status(it));
        for (Product p : w().layout().products()) for (Variant v : p.variants()) assertEquals(stock.get(v.id()), w().stock(v), v.id());
    }

    /** A policy about people's names touches the customer search only: the other name parameters name products. */
    @Test
    void onlyTheCustomerSearchTakesAPersonsName() {
        EnvFacts facts = env.facts();
        assertTrue(facts.personName("find_customer", "name"));
        assertFalse(facts.personName("search_products", "name"));
        assertFalse(facts.personName("get_customer", "customer_id"));
        assertEquals(List.of(new EnvFacts.Prerequisite("check_return_eligibility", "return_item")), facts.prerequisites());
    }

    // ---------------------------------------------------------------- checker

    @Test
    void wrongRefundMethodOrWrongItemFails() {
        TaskRequest r = requestFor(env, "return_item", 3, Split.TEST);
        assertTrue(runTampered(env, r, a -> a).success());
        Trajectory otherMethod = runTampered(env, r, a -> {
            if (a instanceof Action.CallTools c && c.calls().getFirst().name().equals("return_item")) {
                String args = c.calls().getFirst().arguments();
                String swapped = args.contains("store_credit") ? args.replace("store_credit", "original_payment") : args.replace("original_payment", "store_credit");
                return Action.CallTools.of(c.calls().getFirst().id(), "return_item", swapped);
            }
            return a;
        });
        assertFalse(otherMethod.success());
        assertRewrittenAnswerFails(env, r, s -> "Your return is open.", "RMA");
    }

    @Test
    void incompleteReturnsAndUnaskedCancellationsFail() {
        TaskRequest r = null;
        for (long seed = 0; r == null; seed++) {
            TaskRequest candidate = new TaskRequest(Split.TRAIN, seed, 4);
            env.reset(candidate);
            if (env.task().kind().equals("return_all_eligible") && env.task().expect().get("returns").split(";").length > 1) r = candidate;
        }
        assertTrue(runTampered(env, r, a -> a).success());
        env.reset(r);
        // Return only the first eligible item, then answer with its code: incomplete, more were due.
        {
            dev.openagent.sandbox.Guide guide = env.guide();
            Step last = null;
            int returns = 0;
            while (true) {
                Action a = guide.next(last);
                if (a instanceof Action.CallTools c && c.calls().getFirst().name().equals("return_item") && ++returns > 1) {
                    last = env.step(new Action.Answer("RMA " + w().returns().getFirst().code()));
                    break;
                }
                last = env.step(a);
            }
            assertFalse(last.outcome().success());
            assertTrue(last.outcome().detail().contains("wrong"), last.outcome().detail());
        }
        TaskRequest q = requestFor(env, "delivery_date", 1, Split.TRAIN);
        env.reset(q);
        Order processing = w().layout().orders().stream().filter(o -> o.status().equals("processing")).findFirst().orElseThrow();
        ok(env, "cancel_order", json("order_id", processing.id()));
        assertAnswerFails(env, String.join(" ", env.task().mustContain()), "cancelled");
    }

    @Test
    void nearMissDeliveryDateFails() {
        TaskRequest r = requestFor(env, "delivery_date", 1, Split.TEST);
        env.reset(r);
        assertAnswerFails(env, "It was delivered on " + env.task().mustNotContain().getFirst());
    }
}
