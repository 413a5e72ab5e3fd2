package dev.openagent.tau2;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.domain.Tool;
import dev.openagent.json.Json;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.tau2.Retail.User;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;

/**
 * A tau2 task's gold plan as an agent carries it out: the gold actions, each preceded by the look-ups an agent makes
 * to find the values it sends. tau2's gold actions are the calls its authors recorded; many send an order id, an
 * item id or a payment method that only the customer's profile, an order or a product lists, and tau2's own agents
 * find them with the read tools. Before each gold action, every value it sends that the agent has not been shown
 * (the request, the policy, the tools' descriptions, earlier results) is looked up the way an agent must: the
 * customer found by email or by name and zip code (tau2's policy: authenticate first, even when the user gives
 * the user id), then their profile (orders, payment methods, default address), the order that holds an item, a
 * price or an address, the product whose variants hold a new item (its id from an order's item or from the list of
 * product types). Each id argument refers to the latest result that holds it ({@link Pointers}). Look-ups change
 * nothing, so the database the plan leaves is the gold actions' own.
 * <p>
 * What no look-up shows (a value in neither the request nor any result an agent can read) is kept in
 * {@link #unseen()}.
 */
final class Discovery {
    private static final Set<String> FIND_USER = Set.of("find_user_id_by_email", "find_user_id_by_name_zip");
    /** Reads that need no customer: an agent may make them before authenticating. */
    private static final Set<String> ANONYMOUS = Set.of("calculate", "list_all_product_types", "get_product_details", "get_item_details",
            RetailTools.TRANSFER);
    /** How many look-ups deep a value may be (the customer, their profile, an order, a product). */
    private static final int DEPTH = 5;

    private final Map<String, Tool<RetailState>> tools;
    private final RetailState state;
    /** What the agent is shown before any call, in lower case: the request, the policy and the tools. */
    private final String start;
    private final String customer;
    private final List<GoldPlan.Call> calls = new ArrayList<>();
    /** Per call: its result when it reads (a reference may point there), else missing. */
    private final List<JsonNode> results = new ArrayList<>();
    /**
     * Per look-up: its result as the agent is shown it, in lower case. A write's result is shown too, but a reference
     * cannot point there (an agent finds ids by looking them up): what a plan step needs comes from a look-up.
     */
    private final List<String> shown = new ArrayList<>();
    private final Set<String> unseen = new LinkedHashSet<>();
    private boolean authenticated;

    /**
     * @param start    what the agent is shown before any call: the request, the policy and the tools' descriptions
     * @param customer the user id of the customer the task is about (null when none is)
     */
    Discovery(Map<String, Tool<RetailState>> tools, RetailState state, String start, String customer) {
        this.tools = tools;
        this.state = state;
        this.start = start.toLowerCase(Locale.ROOT);
        this.customer = customer;
    }

    List<GoldPlan.Call> calls() { return List.copyOf(calls); }

    /** The values some gold action sends that neither the request nor any result an agent can read shows. */
    Set<String> unseen() { return Set.copyOf(unseen); }

    /**
     * The look-ups the gold action needs first: authentication before anything about the customer's account, and
     * every value it sends (the numbers of a calculation) found where an agent finds it. {@code order} is the order
     * the action is about (its own, or for a calculation the next write's), looked at first.
     */
    void before(Tau2Task.Action a, String order) {
        if (!ANONYMOUS.contains(a.name()) && !FIND_USER.contains(a.name())) authenticate();
        for (Iterator<Map.Entry<String, JsonNode>> it = a.arguments().fields(); it.hasNext(); ) {
            var e = it.next();
            for (String v : values(a.name(), e.getKey(), e.getValue())) {
                if (!reveal(v, order, 0)) unseen.add(v);
            }
        }
    }

    /** A gold action that succeeded, with its result. */
    void gold(Tau2Task.Action a, JsonNode result) {
        Tool<RetailState> tool = tools.get(a.name());
        add(a.name(), a.arguments(), result, tool.facts().readOnly());
        if (FIND_USER.contains(a.name())) authenticated = true;
    }

    /** The values of an argument an agent must have been shown: texts, and the numbers of a calculation. */
    private static List<String> values(String tool, String param, JsonNode v) {
        if (tool.equals(RetailTools.TRANSFER)) return List.of();   // the summary is the agent's own writing
        List<String> out = new ArrayList<>();
        if (tool.equals("calculate")) {
            Matcher m = Pointers.NUMBER.matcher(v.asText());
            while (m.find()) out.add(m.group());
            return out;
        }
        if (v.isTextual()) out.add(v.asText());
        else if (v.isArray()) v.forEach(x -> { if (x.isTextual()) out.add(x.asText()); });
        return out;
    }

    // ---------------------------------------------------------------- where a value is

    /** Whether the agent has been shown the value: a whole word or phrase of what it saw, in any letter case. */
    private boolean seen(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        if (holds(start, v)) return true;
        for (String s : shown) if (holds(s, v)) return true;
        return false;
    }

    /** Makes the look-ups that show the value, nearest first; false when none does. */
    private boolean reveal(String v, String order, int depth) {
        if (seen(v)) return true;
        if (depth > DEPTH) return false;
        User u = customer == null ? null : state.user(customer);
        if (u != null && u.userId().equalsIgnoreCase(v)) return authenticate();
        // The order the action is about, then the customer's profile.
        // (A record is never read for its own id.)
        if (order != null && !order.equalsIgnoreCase(v) && state.order(order) != null && has(state.order(order).json(), v)) return readOrder(order, depth);
        if (u != null && has(u.json(), v)) return readUser(depth);
        // A new item: the product whose variants list it.
        Retail.Product p = state.db.items().get(v);
        if (p != null) return readProduct(p.productId(), order, depth);
        // A product id: the list of product types.
        if (state.product(v) != null) return listProducts();
        // Elsewhere in the customer's orders (an address, a price), then a product's variants (a price).
        if (u != null) {
            for (String o : u.orders()) if (!o.equalsIgnoreCase(v) && state.order(o) != null && has(state.order(o).json(), v)) return readOrder(o, depth);
        }
        for (Retail.Product q : products(order)) if (has(q.json(), v)) return readProduct(q.productId(), order, depth);
        return false;
    }

    /** The products to look at for a price: those of the order's items first, then the catalogue's. */
    private List<Retail.Product> products(String order) {
        Set<Retail.Product> out = new LinkedHashSet<>();
        if (order != null && state.order(order) != null) state.order(order).items().forEach(i -> out.add(state.product(i.productId())));
        out.addAll(state.db.products().values());
        out.remove(null);
        return List.copyOf(out);
    }

    /**
     * Finds the customer's user id as tau2's policy asks: by email, else by name and zip code, as the request gives
     * them. True when the user id is known (a gold action or an earlier look-up found it, or the request states it
     * and no way to authenticate is given).
     */
    private boolean authenticate() {
        if (authenticated || customer == null) return true;
        User u = state.user(customer);
        if (u == null) return false;
        if (seen(u.email())) {
            add("find_user_id_by_email", Json.object("email", u.email()));
        } else if (seen(u.name().firstName()) && seen(u.name().lastName()) && seen(u.address().zip())) {
            add("find_user_id_by_name_zip", Json.object("first_name", u.name().firstName(), "last_name", u.name().lastName(), "zip", u.address().zip()));
        } else {
            return seen(u.userId());
        }
        authenticated = true;
        return true;
    }

    private boolean readUser(int depth) {
        if (!authenticate() || !reveal(customer, null, depth + 1)) return false;
        add("get_user_details", Json.object("user_id", customer));
        return true;
    }

    private boolean readOrder(String order, int depth) {
        if (!reveal(order, null, depth + 1)) return false;
        add("get_order_details", Json.object("order_id", order));
        return true;
    }

    private boolean readProduct(String product, String order, int depth) {
        if (!reveal(product, order, depth + 1)) return false;
        add("get_product_details", Json.object("product_id", product));
        return true;
    }

    private boolean listProducts() {
        add("list_all_product_types", Json.object());
        return true;
    }

    /** A look-up, made on the episode's database. */
    private void add(String tool, ObjectNode args) {
        Tool<RetailState> t = tools.get(tool);
        add(tool, args, t.behaviour().call(state, t.params().validate(args)), true);
    }

    private void add(String tool, ObjectNode args, JsonNode result, boolean reads) {
        Map<String, String> templates = new TreeMap<>();
        if (tool.equals("calculate")) {
            String t = Pointers.template(args.path("expression").asText(), results);
            if (t != null) templates.put("expression", t);
        }
        calls.add(new GoldPlan.Call(tool, args, Pointers.refs(args, results, v -> holds(start, v.toLowerCase(Locale.ROOT))), templates));
        results.add(reads ? result : MissingNode.getInstance());
        shown.add(reads ? (result.isTextual() ? result.asText() : Json.write(result)).toLowerCase(Locale.ROOT) : "");
    }

    // ---------------------------------------------------------------- matching

    /** Whether a JSON value has a text or number leaf equal to {@code v} (texts in any letter case). */
    private static boolean has(JsonNode n, String v) {
        if (n.isTextual()) return n.asText().equalsIgnoreCase(v);
        if (n.isNumber()) return n.asText().equals(v);
        for (JsonNode x : n) if (has(x, v)) return true;
        return false;
    }

    /** Whether {@code text} holds {@code v} as a whole word or phrase (not inside a longer word or number). */
    static boolean holds(String text, String v) {
        if (v.isEmpty()) return true;
        for (int i = text.indexOf(v); i >= 0; i = text.indexOf(v, i + 1)) {
            int end = i + v.length();
            boolean before = i == 0 || !Character.isLetterOrDigit(text.charAt(i - 1)) || !Character.isLetterOrDigit(v.charAt(0));
            boolean after = end == text.length() || !Character.isLetterOrDigit(text.charAt(end)) || !Character.isLetterOrDigit(v.charAt(v.length() - 1));
            if (before && after) return true;
        }
        return false;
    }
}
