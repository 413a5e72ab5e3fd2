package dev.openagent.tau2;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.tau2.Retail.Order;
import dev.openagent.tau2.Retail.Product;
import dev.openagent.tau2.Retail.User;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The database of one episode: tau2's {@code db.json} as loaded ({@link RetailDb}, shared by every episode and never
 * changed) under this episode's overlay of the records its tools replaced (copy on write, per record: a reset costs
 * two empty maps, not a copy of 1,500 records). Tools never add or delete records, so a record's value is its
 * overlay's or else the database's. It also keeps what the episode's scoring reads: what the agent said to the user
 * (its questions) and whether it transferred the user to a human agent.
 */
final class RetailState {
    final RetailDb db;
    private final Map<String, User> users = new HashMap<>();
    private final Map<String, Order> orders = new HashMap<>();
    /** What the agent said to the user before its final message (its questions), for tau2's communicate check. */
    final List<String> said = new ArrayList<>();
    /** The summary the agent gave when it transferred the user to a human agent (null: no transfer). */
    String transfer;

    RetailState(RetailDb db) {
        this.db = db;
    }

    Product product(String id) { return db.products().get(id); }

    User user(String id) {
        User u = users.get(id);
        return u != null ? u : db.users().get(id);
    }

    Order order(String id) {
        Order o = orders.get(id);
        return o != null ? o : db.orders().get(id);
    }

    void put(User u) { users.put(u.userId(), u); }

    void put(Order o) { orders.put(o.orderId(), o); }

    /** The users in the database's order, as this episode sees them. */
    Iterable<User> allUsers() {
        return () -> db.users().keySet().stream().map(this::user).iterator();
    }

    /** The records this episode changed (value differs from db.json), by table and id, sorted. */
    Changes changes() {
        Map<String, User> u = new TreeMap<>();
        users.forEach((id, x) -> {
            if (!x.equals(db.users().get(id))) u.put(id, x);
        });
        Map<String, Order> o = new TreeMap<>();
        orders.forEach((id, x) -> {
            if (!x.equals(db.orders().get(id))) o.put(id, x);
        });
        return new Changes(u, o);
    }

    /**
     * The records an episode changed. Two episodes that started from the same db.json end with the same database
     * exactly when their changes are equal (record equality is field by field, floats bit for bit as tau2's hash of
     * the dumped database compares them).
     */
    record Changes(Map<String, User> users, Map<String, Order> orders) {
        /** {@code {table: {id: record}}} in tau2's schema: tables and ids sorted, empty tables left out. */
        ObjectNode json() {
            ObjectNode out = Json.object();
            if (!orders.isEmpty()) {
                ObjectNode t = out.putObject("orders");
                orders.forEach((id, x) -> t.set(id, x.json()));
            }
            if (!users.isEmpty()) {
                ObjectNode t = out.putObject("users");
                users.forEach((id, x) -> t.set(id, x.json()));
            }
            return out;
        }

        boolean isEmpty() { return users.isEmpty() && orders.isEmpty(); }
    }
}
