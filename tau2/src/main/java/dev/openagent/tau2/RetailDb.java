package dev.openagent.tau2;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.tau2.Retail.Address;
import dev.openagent.tau2.Retail.CreditCard;
import dev.openagent.tau2.Retail.Fulfillment;
import dev.openagent.tau2.Retail.GiftCard;
import dev.openagent.tau2.Retail.Order;
import dev.openagent.tau2.Retail.OrderItem;
import dev.openagent.tau2.Retail.Payment;
import dev.openagent.tau2.Retail.PaymentMethod;
import dev.openagent.tau2.Retail.Paypal;
import dev.openagent.tau2.Retail.Product;
import dev.openagent.tau2.Retail.User;
import dev.openagent.tau2.Retail.UserName;
import dev.openagent.tau2.Retail.Variant;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * tau2's retail database as {@code db.json} holds it, read once and never changed (episodes keep their changes
 * apart, {@link RetailState}). Reading checks it against tau2's schema as pydantic would (its top level takes
 * nothing else; numbers may stand for prices and balances; unknown keys further down are ignored, as tau2 ignores
 * them): a mismatch is one line naming the file, the JSON pointer and what was expected.
 *
 * @param items the product of each item id (the first product that lists it, as tau2's {@code _get_item} finds it)
 */
record RetailDb(Map<String, Product> products, Map<String, User> users, Map<String, Order> orders, Map<String, Product> items) {
    static final List<String> TABLES = List.of("products", "users", "orders");

    RetailDb {
        products = Retail.ordered(products);
        users = Retail.ordered(users);
        orders = Retail.ordered(orders);
        items = Map.copyOf(items);
    }

    /** @throws BadTau2Data for a database that does not match tau2's schema */
    static RetailDb read(JsonNode root, String file) {
        Reader r = new Reader(file);
        if (!root.isObject()) throw r.bad("", "expected an object with products, users and orders");
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!TABLES.contains(k)) throw r.bad("/" + k, "unexpected key (tau2's database has products, users and orders)");
        }
        Map<String, Product> products = r.table(root, "products", r::product);
        Map<String, User> users = r.table(root, "users", r::user);
        Map<String, Order> orders = r.table(root, "orders", r::order);
        Map<String, Product> items = new LinkedHashMap<>();
        for (Product p : products.values()) for (String id : p.variants().keySet()) items.putIfAbsent(id, p);
        return new RetailDb(products, users, orders, items);
    }

    /** Reads one part of the database at a time, naming where a mismatch is. */
    private record Reader(String file) {
        BadTau2Data bad(String pointer, String what) {
            return new BadTau2Data(file + ": " + (pointer.isEmpty() ? "/" : pointer) + ": " + what + " (tau2's retail schema)");
        }

        <T> Map<String, T> table(JsonNode root, String name, BiFunction<JsonNode, String, T> read) {
            JsonNode t = root.get(name);
            if (t == null) throw bad("", "missing key '" + name + "'");
            return dict(t, "/" + name, read);
        }

        <T> Map<String, T> dict(JsonNode n, String at, BiFunction<JsonNode, String, T> read) {
            if (!n.isObject()) throw bad(at, "expected an object");
            Map<String, T> out = new LinkedHashMap<>();
            n.properties().forEach(e -> out.put(e.getKey(), read.apply(e.getValue(), at + "/" + e.getKey())));
            return out;
        }

        <T> List<T> list(JsonNode n, String at, BiFunction<JsonNode, String, T> read) {
            if (!n.isArray()) throw bad(at, "expected a list");
            List<T> out = new ArrayList<>(n.size());
            for (int i = 0; i < n.size(); i++) out.add(read.apply(n.get(i), at + "/" + i));
            return out;
        }

        JsonNode field(JsonNode o, String at, String name) {
            if (!o.isObject()) throw bad(at, "expected an object");
            JsonNode v = o.get(name);
            if (v == null) throw bad(at, "missing field '" + name + "'");
            return v;
        }

        String str(JsonNode o, String at, String name) { return text(field(o, at, name), at + "/" + name); }

        String text(JsonNode v, String at) {
            if (!v.isTextual()) throw bad(at, "expected a string, not " + v.getNodeType().name().toLowerCase());
            return v.asText();
        }

        String optionalStr(JsonNode o, String at, String name) {
            JsonNode v = o.get(name);
            return v == null || v.isNull() ? null : text(v, at + "/" + name);
        }

        String literal(JsonNode o, String at, String name, Set<String> allowed) {
            String v = str(o, at, name);
            if (!allowed.contains(v)) throw bad(at + "/" + name, "'" + v + "' is not one of " + new java.util.TreeSet<>(allowed));
            return v;
        }

        /** A float field: pydantic takes numbers and numeric strings. */
        double number(JsonNode o, String at, String name) {
            JsonNode v = field(o, at, name);
            if (v.isNumber()) return v.asDouble();
            if (v.isTextual()) {
                try {
                    return Double.parseDouble(v.asText().strip());
                } catch (NumberFormatException e) {
                    // falls through
                }
            }
            throw bad(at + "/" + name, "expected a number");
        }

        boolean bool(JsonNode o, String at, String name) {
            JsonNode v = field(o, at, name);
            if (v.isBoolean()) return v.asBoolean();
            if (v.isIntegralNumber() && (v.asLong() == 0 || v.asLong() == 1)) return v.asLong() == 1;
            throw bad(at + "/" + name, "expected true or false");
        }

        Map<String, String> stringMap(JsonNode o, String at, String name) { return dict(field(o, at, name), at + "/" + name, this::text); }

        List<String> stringList(JsonNode o, String at, String name) { return list(field(o, at, name), at + "/" + name, this::text); }

        List<String> optionalStringList(JsonNode o, String at, String name) {
            JsonNode v = o.get(name);
            return v == null || v.isNull() ? null : list(v, at + "/" + name, this::text);
        }

        Product product(JsonNode n, String at) {
            return new Product(str(n, at, "name"), str(n, at, "product_id"), dict(field(n, at, "variants"), at + "/variants", this::variant));
        }

        Variant variant(JsonNode n, String at) {
            return new Variant(str(n, at, "item_id"), stringMap(n, at, "options"), bool(n, at, "available"), number(n, at, "price"));
        }

        User user(JsonNode n, String at) {
            JsonNode name = field(n, at, "name");
            return new User(str(n, at, "user_id"), new UserName(str(name, at + "/name", "first_name"), str(name, at + "/name", "last_name")),
                    address(field(n, at, "address"), at + "/address"), str(n, at, "email"),
                    dict(field(n, at, "payment_methods"), at + "/payment_methods", this::paymentMethod), stringList(n, at, "orders"));
        }

        Address address(JsonNode n, String at) {
            return new Address(str(n, at, "address1"), str(n, at, "address2"), str(n, at, "city"), str(n, at, "country"),
                    str(n, at, "state"), str(n, at, "zip"));
        }

        PaymentMethod paymentMethod(JsonNode n, String at) {
            String source = literal(n, at, "source", Set.of("credit_card", "gift_card", "paypal"));
            return switch (source) {
                case "credit_card" -> new CreditCard(str(n, at, "id"), str(n, at, "brand"), str(n, at, "last_four"));
                case "gift_card" -> new GiftCard(str(n, at, "id"), number(n, at, "balance"));
                default -> new Paypal(str(n, at, "id"));
            };
        }

        Order order(JsonNode n, String at) {
            JsonNode diff = n.get("exchange_price_difference");
            String reason = optionalStr(n, at, "cancel_reason");
            if (reason != null && !Retail.CANCEL_REASONS.contains(reason)) throw bad(at + "/cancel_reason", "'" + reason + "' is not a cancel reason");
            return new Order(str(n, at, "order_id"), str(n, at, "user_id"), address(field(n, at, "address"), at + "/address"),
                    list(field(n, at, "items"), at + "/items", this::item), literal(n, at, "status", Retail.ORDER_STATUSES),
                    list(field(n, at, "fulfillments"), at + "/fulfillments", this::fulfillment),
                    list(field(n, at, "payment_history"), at + "/payment_history", this::payment), reason,
                    optionalStringList(n, at, "exchange_items"), optionalStringList(n, at, "exchange_new_items"),
                    optionalStr(n, at, "exchange_payment_method_id"),
                    diff == null || diff.isNull() ? null : number(n, at, "exchange_price_difference"),
                    optionalStringList(n, at, "return_items"), optionalStr(n, at, "return_payment_method_id"));
        }

        OrderItem item(JsonNode n, String at) {
            return new OrderItem(str(n, at, "name"), str(n, at, "product_id"), str(n, at, "item_id"), number(n, at, "price"),
                    stringMap(n, at, "options"));
        }

        Fulfillment fulfillment(JsonNode n, String at) {
            return new Fulfillment(stringList(n, at, "tracking_id"), stringList(n, at, "item_ids"));
        }

        Payment payment(JsonNode n, String at) {
            return new Payment(literal(n, at, "transaction_type", Retail.TRANSACTION_TYPES), number(n, at, "amount"), str(n, at, "payment_method_id"));
        }
    }
}
