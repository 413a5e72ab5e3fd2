package dev.openagent.tau2;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * tau2's retail data model (its {@code data_model.py}) as immutable records: products and their variants, users
 * with their addresses and payment methods, orders with their items, fulfilments and payments. Each record
 * writes itself as tau2's {@code model_dump()} does (its fields in tau2's order, optional ones as null), which is
 * what the tools answer and what {@code db_changes} holds.
 */
final class Retail {
    private Retail() {}

    static final Set<String> ORDER_STATUSES = Set.of("processed", "pending", "pending (item modified)", "delivered", "cancelled",
            "exchange requested", "return requested");
    static final Set<String> CANCEL_REASONS = Set.of("no longer needed", "ordered by mistake");
    static final Set<String> TRANSACTION_TYPES = Set.of("payment", "refund");

    /** An unmodifiable copy that keeps the order (tau2's dicts keep theirs, and the tools list them in it). */
    static <K, V> Map<K, V> ordered(Map<K, V> m) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }

    record Variant(String itemId, Map<String, String> options, boolean available, double price) {
        Variant {
            options = ordered(options);
        }

        ObjectNode json() {
            return Json.object("item_id", itemId, "options", strings(options), "available", available, "price", price);
        }
    }

    record Product(String name, String productId, Map<String, Variant> variants) {
        Product {
            variants = ordered(variants);
        }

        ObjectNode json() {
            ObjectNode v = Json.object();
            variants.forEach((id, x) -> v.set(id, x.json()));
            return Json.object("name", name, "product_id", productId, "variants", v);
        }
    }

    record UserName(String firstName, String lastName) {
        ObjectNode json() { return Json.object("first_name", firstName, "last_name", lastName); }
    }

    record Address(String address1, String address2, String city, String country, String state, String zip) {
        ObjectNode json() {
            return Json.object("address1", address1, "address2", address2, "city", city, "country", country, "state", state, "zip", zip);
        }
    }

    /** A payment method: tau2's union of credit card, gift card and PayPal, told apart by {@code source}. */
    sealed interface PaymentMethod permits CreditCard, GiftCard, Paypal {
        String id();

        default ObjectNode json() {
            return switch (this) {
                case CreditCard c -> Json.object("source", "credit_card", "id", c.id(), "brand", c.brand(), "last_four", c.lastFour());
                case GiftCard g -> Json.object("source", "gift_card", "id", g.id(), "balance", g.balance());
                case Paypal p -> Json.object("source", "paypal", "id", p.id());
            };
        }
    }

    record CreditCard(String id, String brand, String lastFour) implements PaymentMethod {}

    record GiftCard(String id, double balance) implements PaymentMethod {
        GiftCard withBalance(double b) { return new GiftCard(id, b); }
    }

    record Paypal(String id) implements PaymentMethod {}

    record User(String userId, UserName name, Address address, String email, Map<String, PaymentMethod> paymentMethods,
                List<String> orders) {
        User {
            paymentMethods = ordered(paymentMethods);
            orders = List.copyOf(orders);
        }

        User withAddress(Address a) { return new User(userId, name, a, email, paymentMethods, orders); }

        User withPaymentMethod(PaymentMethod m) {
            Map<String, PaymentMethod> all = new LinkedHashMap<>(paymentMethods);
            all.put(m.id(), m);
            return new User(userId, name, address, email, all, orders);
        }

        ObjectNode json() {
            ObjectNode pm = Json.object();
            paymentMethods.forEach((id, m) -> pm.set(id, m.json()));
            return Json.object("user_id", userId, "name", name.json(), "address", address.json(), "email", email,
                    "payment_methods", pm, "orders", strings(orders));
        }
    }

    record OrderItem(String name, String productId, String itemId, double price, Map<String, String> options) {
        OrderItem {
            options = ordered(options);
        }

        ObjectNode json() {
            return Json.object("name", name, "product_id", productId, "item_id", itemId, "price", price, "options", strings(options));
        }
    }

    record Fulfillment(List<String> trackingId, List<String> itemIds) {
        Fulfillment {
            trackingId = List.copyOf(trackingId);
            itemIds = List.copyOf(itemIds);
        }

        ObjectNode json() { return Json.object("tracking_id", strings(trackingId), "item_ids", strings(itemIds)); }
    }

    record Payment(String transactionType, double amount, String paymentMethodId) {
        ObjectNode json() {
            return Json.object("transaction_type", transactionType, "amount", amount, "payment_method_id", paymentMethodId);
        }
    }

    /** An order; the fields from {@code cancelReason} on are null until a tool sets them. */
    record Order(String orderId, String userId, Address address, List<OrderItem> items, String status, List<Fulfillment> fulfillments,
                 List<Payment> paymentHistory, String cancelReason, List<String> exchangeItems, List<String> exchangeNewItems,
                 String exchangePaymentMethodId, Double exchangePriceDifference, List<String> returnItems, String returnPaymentMethodId) {
        Order {
            items = List.copyOf(items);
            fulfillments = List.copyOf(fulfillments);
            paymentHistory = List.copyOf(paymentHistory);
            exchangeItems = exchangeItems == null ? null : List.copyOf(exchangeItems);
            exchangeNewItems = exchangeNewItems == null ? null : List.copyOf(exchangeNewItems);
            returnItems = returnItems == null ? null : List.copyOf(returnItems);
        }

        Order withAddress(Address a) {
            return new Order(orderId, userId, a, items, status, fulfillments, paymentHistory, cancelReason, exchangeItems, exchangeNewItems,
                    exchangePaymentMethodId, exchangePriceDifference, returnItems, returnPaymentMethodId);
        }

        Order withPayments(List<Payment> history) {
            return new Order(orderId, userId, address, items, status, fulfillments, history, cancelReason, exchangeItems, exchangeNewItems,
                    exchangePaymentMethodId, exchangePriceDifference, returnItems, returnPaymentMethodId);
        }

        Order cancelled(String reason, List<Payment> history) {
            return new Order(orderId, userId, address, items, "cancelled", fulfillments, history, reason, exchangeItems, exchangeNewItems,
                    exchangePaymentMethodId, exchangePriceDifference, returnItems, returnPaymentMethodId);
        }

        Order itemsModified(List<OrderItem> newItems, List<Payment> history) {
            return new Order(orderId, userId, address, newItems, "pending (item modified)", fulfillments, history, cancelReason, exchangeItems,
                    exchangeNewItems, exchangePaymentMethodId, exchangePriceDifference, returnItems, returnPaymentMethodId);
        }

        Order exchangeRequested(List<String> old, List<String> fresh, String paymentMethodId, double difference) {
            return new Order(orderId, userId, address, items, "exchange requested", fulfillments, paymentHistory, cancelReason, old, fresh,
                    paymentMethodId, difference, returnItems, returnPaymentMethodId);
        }

        Order returnRequested(List<String> returned, String paymentMethodId) {
            return new Order(orderId, userId, address, items, "return requested", fulfillments, paymentHistory, cancelReason, exchangeItems,
                    exchangeNewItems, exchangePaymentMethodId, exchangePriceDifference, returned, paymentMethodId);
        }

        ObjectNode json() {
            ArrayNode it = Json.array();
            items.forEach(i -> it.add(i.json()));
            ArrayNode f = Json.array();
            fulfillments.forEach(x -> f.add(x.json()));
            ArrayNode p = Json.array();
            paymentHistory.forEach(x -> p.add(x.json()));
            return Json.object("order_id", orderId, "user_id", userId, "address", address.json(), "items", it, "status", status,
                    "fulfillments", f, "payment_history", p, "cancel_reason", cancelReason, "exchange_items", stringsOrNull(exchangeItems),
                    "exchange_new_items", stringsOrNull(exchangeNewItems), "exchange_payment_method_id", exchangePaymentMethodId,
                    "exchange_price_difference", exchangePriceDifference, "return_items", stringsOrNull(returnItems),
                    "return_payment_method_id", returnPaymentMethodId);
        }
    }

    static JsonNode strings(Map<String, String> m) {
        ObjectNode o = Json.object();
        m.forEach(o::put);
        return o;
    }

    static ArrayNode strings(List<String> l) {
        ArrayNode a = Json.array();
        l.forEach(a::add);
        return a;
    }

    private static JsonNode stringsOrNull(List<String> l) {
        return l == null ? Json.NODES.nullNode() : strings(l);
    }
}
