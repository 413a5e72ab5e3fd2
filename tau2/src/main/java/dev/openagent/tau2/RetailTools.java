package dev.openagent.tau2;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.openagent.domain.Args;
import dev.openagent.domain.Params;
import dev.openagent.domain.Tool;
import dev.openagent.domain.ToolFailure;
import dev.openagent.json.Json;
import dev.openagent.sandbox.ToolError;
import dev.openagent.tau2.Retail.Address;
import dev.openagent.tau2.Retail.GiftCard;
import dev.openagent.tau2.Retail.Order;
import dev.openagent.tau2.Retail.OrderItem;
import dev.openagent.tau2.Retail.Payment;
import dev.openagent.tau2.Retail.PaymentMethod;
import dev.openagent.tau2.Retail.Product;
import dev.openagent.tau2.Retail.User;
import dev.openagent.tau2.Retail.Variant;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * tau2's retail tools (its {@code tools.py}), behaviour by behaviour: the same checks in the same order, the same
 * error messages, the same changes to the database (including what tau2 changes before a later check fails, and
 * {@code modify_pending_order_items} giving every modified item the price and options of the last new item, as
 * tau2 does), Python's float arithmetic and rounding. Names, descriptions and parameter schemas come from the
 * checkout's {@code tools.py} ({@link ToolDocs}); what shifts may know about each tool is declared here, beside it
 * ({@link RetailFacts} holds the longer declarations).
 */
final class RetailTools {
    static final String TRANSFER = "transfer_to_human_agents";
    private static final String STR = "str";
    private static final String LIST = "List[str]";

    /** One tool as implemented here: the parameters it takes (name, Python type), its behaviour and its facts. */
    private record Impl(String name, List<String> params, List<String> types, Tool.Behaviour<RetailState> behaviour,
                        UnaryOperator<Tool<RetailState>> facts) {
        Impl(String name, Tool.Behaviour<RetailState> behaviour, UnaryOperator<Tool<RetailState>> facts, String... paramsAndTypes) {
            this(name, names(paramsAndTypes, 0), names(paramsAndTypes, 1), behaviour, facts);
        }

        private static List<String> names(String[] pt, int offset) {
            List<String> out = new ArrayList<>();
            for (int i = offset; i < pt.length; i += 2) out.add(pt[i]);
            return out;
        }

        String signature() {
            List<String> ps = new ArrayList<>();
            for (int i = 0; i < params.size(); i++) ps.add(params.get(i) + ": " + types.get(i));
            return name + "(" + String.join(", ", ps) + ")";
        }
    }

    private static final List<Impl> ALL = List.of(
            new Impl("calculate", RetailTools::calculate, Tool::readOnly, "expression", STR),
            new Impl("cancel_pending_order", RetailTools::cancel, UnaryOperator.identity(), "order_id", STR, "reason", STR),
            new Impl("exchange_delivered_order_items", RetailTools::exchange, UnaryOperator.identity(),
                    "order_id", STR, "item_ids", LIST, "new_item_ids", LIST, "payment_method_id", STR),
            new Impl("find_user_id_by_name_zip", RetailTools::findByNameZip, Tool::readOnly, "first_name", STR, "last_name", STR, "zip", STR),
            new Impl("find_user_id_by_email", RetailTools::findByEmail, Tool::readOnly, "email", STR),
            new Impl("get_order_details", RetailTools::orderDetails, RetailFacts::orderDetails, "order_id", STR),
            new Impl("get_product_details", RetailTools::productDetails, RetailFacts::productDetails, "product_id", STR),
            new Impl("get_item_details", RetailTools::itemDetails, RetailFacts::itemDetails, "item_id", STR),
            new Impl("get_user_details", RetailTools::userDetails, RetailFacts::userDetails, "user_id", STR),
            new Impl("list_all_product_types", RetailTools::productTypes, Tool::readOnly),
            new Impl("modify_pending_order_address", RetailTools::modifyOrderAddress, UnaryOperator.identity(),
                    "order_id", STR, "address1", STR, "address2", STR, "city", STR, "state", STR, "country", STR, "zip", STR),
            new Impl("modify_pending_order_items", RetailTools::modifyItems, UnaryOperator.identity(),
                    "order_id", STR, "item_ids", LIST, "new_item_ids", LIST, "payment_method_id", STR),
            new Impl("modify_pending_order_payment", RetailTools::modifyPayment, UnaryOperator.identity(), "order_id", STR, "payment_method_id", STR),
            new Impl("modify_user_address", RetailTools::modifyUserAddress, UnaryOperator.identity(),
                    "user_id", STR, "address1", STR, "address2", STR, "city", STR, "state", STR, "country", STR, "zip", STR),
            new Impl("return_delivered_order_items", RetailTools::returnItems, UnaryOperator.identity(),
                    "order_id", STR, "item_ids", LIST, "payment_method_id", STR),
            new Impl(TRANSFER, RetailTools::transfer, UnaryOperator.identity(), "summary", STR));

    private RetailTools() {}

    /**
     * The tools as the checkout declares them, in its order, each with the behaviour implemented here.
     *
     * @throws BadTau2Data when the checkout's tools and this implementation's differ (a tool one has and the
     *                     other lacks, or other parameters)
     */
    static List<Tool<RetailState>> tools(Map<String, ToolDocs.Doc> docs, String file) {
        Map<String, Impl> impls = new LinkedHashMap<>();
        ALL.forEach(i -> impls.put(i.name(), i));
        Set<String> missing = new TreeSet<>(impls.keySet());
        missing.removeAll(docs.keySet());
        Set<String> unknown = new TreeSet<>(docs.keySet());
        unknown.removeAll(impls.keySet());
        if (!unknown.isEmpty() || !missing.isEmpty()) {
            throw new BadTau2Data(file + ": the retail tools differ from the ones this environment implements"
                    + (unknown.isEmpty() ? "" : "; not implemented here: " + String.join(", ", unknown))
                    + (missing.isEmpty() ? "" : "; not in tools.py: " + String.join(", ", missing)));
        }
        List<Tool<RetailState>> out = new ArrayList<>();
        for (ToolDocs.Doc d : docs.values()) {
            Impl impl = impls.get(d.name());
            List<String> names = d.params().stream().map(ToolDocs.Param::name).toList();
            List<String> types = d.params().stream().map(p -> p.type().replace(" ", "")).toList();
            if (!names.equals(impl.params()) || !types.equals(impl.types())) {
                throw new BadTau2Data(file + ": " + d.name() + " takes (" + String.join(", ", d.params().stream().map(p -> p.name() + ": " + p.type()).toList())
                        + "), but this environment implements " + impl.signature());
            }
            Tool.Behaviour<RetailState> checked = (s, a) -> {
                for (String given : a.names()) {
                    if (!impl.params().contains(given)) {
                        throw new ToolFailure(ToolError.Code.INVALID_ARGUMENTS, "RetailTools." + impl.name() + "() got an unexpected keyword argument '" + given + "'");
                    }
                }
                return impl.behaviour().call(s, a);
            };
            out.add(impl.facts().apply(new Tool<>(d.name(), d.description(), Params.ofSchema(d.schema()), checked)));
        }
        return out;
    }

    /** The names of the tools that change the database (tau2's WRITE tools). */
    static final Set<String> WRITES = Set.of("cancel_pending_order", "exchange_delivered_order_items", "modify_pending_order_address",
            "modify_pending_order_items", "modify_pending_order_payment", "modify_user_address", "return_delivered_order_items");

    // ---------------------------------------------------------------- arguments

    private static String str(Args a, String name) {
        JsonNode v = a.get(name);
        if (v == null || !v.isTextual()) throw invalid("'" + name + "' must be a string");
        return v.asText();
    }

    private static List<String> strings(Args a, String name) {
        JsonNode v = a.get(name);
        if (v == null || !v.isArray()) throw invalid("'" + name + "' must be a list of strings");
        List<String> out = new ArrayList<>(v.size());
        for (JsonNode x : v) {
            if (!x.isTextual()) throw invalid("'" + name + "' must be a list of strings");
            out.add(x.asText());
        }
        return out;
    }

    private static ToolFailure invalid(String message) {
        return new ToolFailure(ToolError.Code.INVALID_ARGUMENTS, message);
    }

    /** tau2's ValueError: the message it shows after "Error: ". */
    private static ToolFailure error(String message) {
        return ToolFailure.domain(message);
    }

    // ---------------------------------------------------------------- tau2's private helpers

    private static Order order(RetailState s, String id) {
        Order o = s.order(id);
        if (o == null) throw error("Order not found");
        return o;
    }

    private static User user(RetailState s, String id) {
        User u = s.user(id);
        if (u == null) throw error("User not found");
        return u;
    }

    private static Product product(RetailState s, String id) {
        Product p = s.product(id);
        if (p == null) throw error("Product not found");
        return p;
    }

    private static Variant variant(RetailState s, String productId, String variantId) {
        Variant v = product(s, productId).variants().get(variantId);
        if (v == null) throw error("Variant not found");
        return v;
    }

    private static PaymentMethod paymentMethod(RetailState s, String userId, String id) {
        PaymentMethod m = user(s, userId).paymentMethods().get(id);
        if (m == null) throw error("Payment method not found");
        return m;
    }

    /** The gift card's new balance, rounded as tau2 rounds it, written to its user's record. */
    private static void setBalance(RetailState s, String userId, GiftCard card, double balance) {
        s.put(user(s, userId).withPaymentMethod(card.withBalance(PyFloat.round(balance, 2))));
    }

    private static int count(List<String> list, String x) {
        return Collections.frequency(list, x);
    }

    private static OrderItem firstItem(List<OrderItem> items, String itemId) {
        for (OrderItem i : items) if (i.itemId().equals(itemId)) return i;
        return null;
    }

    private static Address address(Args a) {
        return new Address(str(a, "address1"), str(a, "address2"), str(a, "city"), str(a, "country"), str(a, "state"), str(a, "zip"));
    }

    // ---------------------------------------------------------------- the tools

    private static JsonNode calculate(RetailState s, Args a) {
        try {
            return TextNode.valueOf(Calculator.calculate(str(a, "expression")));
        } catch (Calculator.PyError e) {
            throw error(e.getMessage());
        }
    }

    private static JsonNode cancel(RetailState s, Args a) {
        String reason = str(a, "reason");
        Order o = order(s, str(a, "order_id"));
        if (!o.status().equals("pending")) throw error("Non-pending order cannot be cancelled");
        if (!Retail.CANCEL_REASONS.contains(reason)) throw error("Invalid reason");
        List<Payment> refunds = new ArrayList<>();
        for (Payment p : o.paymentHistory()) {
            refunds.add(new Payment("refund", p.amount(), p.paymentMethodId()));
            User u = user(s, o.userId());
            if (paymentMethod(s, u.userId(), p.paymentMethodId()) instanceof GiftCard g) setBalance(s, u.userId(), g, g.balance() + p.amount());
        }
        List<Payment> history = new ArrayList<>(o.paymentHistory());
        history.addAll(refunds);
        Order done = o.cancelled(reason, history);
        s.put(done);
        return done.json();
    }

    private static JsonNode exchange(RetailState s, Args a) {
        List<String> itemIds = strings(a, "item_ids");
        List<String> newIds = strings(a, "new_item_ids");
        String pm = str(a, "payment_method_id");
        Order o = order(s, str(a, "order_id"));
        if (!o.status().equals("delivered")) throw error("Non-delivered order cannot be exchanged");
        requireItems(o, itemIds, id -> "Number of " + id + " not found.");
        if (itemIds.size() != newIds.size()) throw error("The number of items to be exchanged should match.");
        double diff = PyFloat.round(priced(s, o, itemIds, newIds, false).difference(), 2);
        if (paymentMethod(s, o.userId(), pm) instanceof GiftCard g && g.balance() < diff) {
            throw error("Insufficient gift card balance to pay for the price difference");
        }
        Order done = o.exchangeRequested(sorted(itemIds), sorted(newIds), pm, diff);
        s.put(done);
        return done.json();
    }

    /** tau2's check that an order holds every item to change, as many times as the list names it. */
    private static void requireItems(Order o, List<String> itemIds, java.util.function.UnaryOperator<String> missing) {
        List<String> all = o.items().stream().map(OrderItem::itemId).toList();
        for (String id : itemIds) if (count(itemIds, id) > count(all, id)) throw error(missing.apply(id));
    }

    /** What the new items cost more than the old ones (unrounded, as tau2 sums it), and the last new item looked up. */
    private record Priced(double difference, Variant last) {}

    /** tau2's loop over the pairs: each old item in the order, its new item an available variant of the same product. */
    private static Priced priced(RetailState s, Order o, List<String> itemIds, List<String> newIds, boolean mustDiffer) {
        double diff = 0;
        Variant last = null;
        for (int i = 0; i < itemIds.size(); i++) {
            if (mustDiffer && itemIds.get(i).equals(newIds.get(i))) throw error("The new item id should be different from the old item id");
            OrderItem item = firstItem(o.items(), itemIds.get(i));
            if (item == null) throw error("Item " + itemIds.get(i) + " not found");
            last = variant(s, item.productId(), newIds.get(i));
            if (!last.available()) throw error("New item " + newIds.get(i) + " not found or available");
            diff += last.price() - item.price();
        }
        return new Priced(diff, last);
    }

    private static JsonNode findByNameZip(RetailState s, Args a) {
        String first = str(a, "first_name").toLowerCase(java.util.Locale.ROOT);
        String last = str(a, "last_name").toLowerCase(java.util.Locale.ROOT);
        String zip = str(a, "zip");
        for (User u : s.allUsers()) {
            if (u.name().firstName().toLowerCase(java.util.Locale.ROOT).equals(first) && u.name().lastName().toLowerCase(java.util.Locale.ROOT).equals(last)
                    && u.address().zip().equals(zip)) return TextNode.valueOf(u.userId());
        }
        throw error("User not found");
    }

    private static JsonNode findByEmail(RetailState s, Args a) {
        String email = str(a, "email").toLowerCase(java.util.Locale.ROOT);
        for (User u : s.allUsers()) if (u.email().toLowerCase(java.util.Locale.ROOT).equals(email)) return TextNode.valueOf(u.userId());
        throw error("User not found");
    }

    private static JsonNode orderDetails(RetailState s, Args a) { return order(s, str(a, "order_id")).json(); }

    private static JsonNode productDetails(RetailState s, Args a) { return product(s, str(a, "product_id")).json(); }

    private static JsonNode itemDetails(RetailState s, Args a) {
        String id = str(a, "item_id");
        Product p = s.db.items().get(id);
        if (p == null) throw error("Item not found");
        return p.variants().get(id).json();
    }

    private static JsonNode userDetails(RetailState s, Args a) { return user(s, str(a, "user_id")).json(); }

    private static JsonNode productTypes(RetailState s, Args a) {
        Map<String, String> byName = new TreeMap<>();
        for (Product p : s.db.products().values()) byName.put(p.name(), p.productId());
        ObjectNode out = Json.object();
        byName.forEach(out::put);
        return out;
    }

    private static JsonNode modifyOrderAddress(RetailState s, Args a) {
        Address addr = address(a);
        Order o = order(s, str(a, "order_id"));
        if (!o.status().contains("pending")) throw error("Non-pending order cannot be modified");
        Order done = o.withAddress(addr);
        s.put(done);
        return done.json();
    }

    private static JsonNode modifyItems(RetailState s, Args a) {
        List<String> itemIds = strings(a, "item_ids");
        List<String> newIds = strings(a, "new_item_ids");
        String pm = str(a, "payment_method_id");
        Order o = order(s, str(a, "order_id"));
        if (!o.status().equals("pending")) throw error("Non-pending order cannot be modified");
        requireItems(o, itemIds, id -> id + " not found");
        if (itemIds.size() != newIds.size()) throw error("The number of items to be exchanged should match");
        Priced priced = priced(s, o, itemIds, newIds, true);
        double diff = priced.difference();
        Variant last = priced.last();
        PaymentMethod method = paymentMethod(s, o.userId(), pm);
        if (method instanceof GiftCard g && g.balance() < diff) throw error("Insufficient gift card balance to pay for the new item");
        List<Payment> history = new ArrayList<>(o.paymentHistory());
        history.add(new Payment(diff > 0 ? "payment" : "refund", Math.abs(diff), pm));
        Order paid = o.withPayments(history);
        s.put(paid);
        if (method instanceof GiftCard g) setBalance(s, o.userId(), g, g.balance() - diff);
        // tau2 gives every modified item the price and options of the last new item it looked up.
        List<OrderItem> items = new ArrayList<>(o.items());
        for (int i = 0; i < itemIds.size(); i++) {
            int at = -1;
            for (int k = 0; k < items.size() && at < 0; k++) if (items.get(k).itemId().equals(itemIds.get(i))) at = k;
            if (at < 0) {
                s.put(new Order(paid.orderId(), paid.userId(), paid.address(), items, paid.status(), paid.fulfillments(), paid.paymentHistory(),
                        paid.cancelReason(), paid.exchangeItems(), paid.exchangeNewItems(), paid.exchangePaymentMethodId(),
                        paid.exchangePriceDifference(), paid.returnItems(), paid.returnPaymentMethodId()));
                throw error("Item " + itemIds.get(i) + " not found");
            }
            OrderItem old = items.get(at);
            items.set(at, new OrderItem(old.name(), old.productId(), newIds.get(i), last.price(), last.options()));
        }
        Order done = paid.itemsModified(items, history);
        s.put(done);
        return done.json();
    }

    private static JsonNode modifyPayment(RetailState s, Args a) {
        String pm = str(a, "payment_method_id");
        Order o = order(s, str(a, "order_id"));
        if (!o.status().contains("pending")) throw error("Non-pending order cannot be modified");
        PaymentMethod method = paymentMethod(s, o.userId(), pm);
        List<Payment> history = o.paymentHistory();
        if (history.size() != 1 || !history.getFirst().transactionType().equals("payment")) {
            throw error("There should be exactly one payment for a pending order");
        }
        Payment first = history.getFirst();
        if (first.paymentMethodId().equals(pm)) throw error("The new payment method should be different from the current one");
        double amount = first.amount();
        if (method instanceof GiftCard g && g.balance() < amount) throw error("Insufficient gift card balance to pay for the order");
        Order done = o.withPayments(List.of(first, new Payment("payment", amount, pm), new Payment("refund", amount, first.paymentMethodId())));
        s.put(done);
        if (method instanceof GiftCard g) setBalance(s, o.userId(), g, g.balance() - amount);
        if (paymentMethod(s, o.userId(), first.paymentMethodId()) instanceof GiftCard old) setBalance(s, o.userId(), old, old.balance() + amount);
        return done.json();
    }

    private static JsonNode modifyUserAddress(RetailState s, Args a) {
        Address addr = address(a);
        User done = user(s, str(a, "user_id")).withAddress(addr);
        s.put(done);
        return done.json();
    }

    private static JsonNode returnItems(RetailState s, Args a) {
        List<String> itemIds = strings(a, "item_ids");
        String pm = str(a, "payment_method_id");
        Order o = order(s, str(a, "order_id"));
        if (!o.status().equals("delivered")) throw error("Non-delivered order cannot be returned");
        User u = user(s, o.userId());
        PaymentMethod method = paymentMethod(s, u.userId(), pm);
        if (!(method instanceof GiftCard)) {
            if (o.paymentHistory().isEmpty()) throw error("list index out of range");
            if (!pm.equals(o.paymentHistory().getFirst().paymentMethodId())) throw error("Payment method should be the original payment method");
        }
        requireItems(o, itemIds, id -> "Some item not found");
        Order done = o.returnRequested(sorted(itemIds), pm);
        s.put(done);
        return done.json();
    }

    private static JsonNode transfer(RetailState s, Args a) {
        s.transfer = str(a, "summary");
        return TextNode.valueOf("Transfer successful");
    }

    private static List<String> sorted(List<String> l) {
        List<String> out = new ArrayList<>(l);
        Collections.sort(out);
        return out;
    }
}
