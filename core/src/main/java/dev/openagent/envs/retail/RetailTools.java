package dev.openagent.envs.retail;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.envs.retail.RetailWorld.Cancellation;
import dev.openagent.envs.retail.RetailWorld.Customer;
import dev.openagent.envs.retail.RetailWorld.Exchange;
import dev.openagent.envs.retail.RetailWorld.Item;
import dev.openagent.envs.retail.RetailWorld.Order;
import dev.openagent.envs.retail.RetailWorld.Product;
import dev.openagent.envs.retail.RetailWorld.Return;
import dev.openagent.envs.retail.RetailWorld.Variant;
import dev.openagent.envs.kit.Lookup;
import dev.openagent.json.Json;
import dev.openagent.domain.Args;
import dev.openagent.domain.Param;
import dev.openagent.domain.Params;
import dev.openagent.domain.Tool;
import dev.openagent.domain.ToolFailure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The retail tools. Overlaps on purpose: an order's record and its shipment tracking both carry
 * delivery dates, the return policy and the eligibility check both speak of windows, a customer's
 * profile and their order list both list orders. Each tool declares what shifts may know about it: whether
 * it only looks things up, the record it returns by id, the tool it must follow, another path to what it does
 * ({@link RetailPaths}), and which parameter holds a person's name (only find_customer's name: the other
 * name parameters name products).
 */
final class RetailTools {
    private RetailTools() {}

    static final Param ORDER_ID = Param.string("order_id", "Order id, e.g. O-123456.");
    static final Param ITEM_ID = Param.string("item_id", "Item id within the order, e.g. ITM-12345 (from get_order).");
    static final Param CUSTOMER_ID = Param.string("customer_id", "Customer id, e.g. C-12345.");
    static final List<String> REFUND_TO = List.of("original_payment", "store_credit");

    static final List<Tool<RetailWorld>> ALL = List.of(
            new Tool<>("find_customer",
                    "Look up customers by name, email or zip code (give at least one). Returns customer ids, names, emails "
                            + "and zip codes. Several customers can share a name.",
                    Params.of(Param.string("name", "Customer name or part of it.").optional(),
                            Param.string("email", "Email address.").optional(),
                            Param.string("zip_code", "Five-digit zip code.").optional()),
                    RetailTools::findCustomer).readOnly().personName("name"),
            new Tool<>("get_customer",
                    "A customer's profile: name, email, zip code, city, saved payment methods and the ids of their orders.",
                    Params.of(CUSTOMER_ID), RetailTools::getCustomer).readOnly().recordOf("customer_id", "name", "email", "zip_code"),
            new Tool<>("list_orders",
                    "A customer's orders, newest first: order id, date placed, status, total and the product names in each. "
                            + "Optionally only orders with one status.",
                    Params.of(CUSTOMER_ID, Param.oneOf("status", "Only orders with this status.",
                            List.of("processing", "shipped", "delivered", "cancelled")).optional()),
                    RetailTools::listOrders).readOnly().orVia(RetailPaths.ORDERS_FROM_PROFILE),
            new Tool<>("get_order",
                    "One order in full: items (item id, product id and name, colour, size, price, item status), payment "
                            + "method, date placed, status and delivery date.",
                    Params.of(ORDER_ID), RetailTools::getOrder).readOnly().recordOf("order_id", "placed", "total"),
            new Tool<>("track_shipment",
                    "Shipment tracking of an order: carrier, tracking number, shipping status and the delivery date (or the "
                            + "expected delivery date while in transit).",
                    Params.of(ORDER_ID), RetailTools::track).readOnly(),
            new Tool<>("search_products",
                    "Search the catalogue by product name (full or partial) or category. Returns product ids, names, "
                            + "categories, prices and whether they are final sale.",
                    Params.of(Param.string("name", "Product name or part of it.").optional(),
                            Param.oneOf("category", "Product category.", RetailNames.CATEGORIES).optional()),
                    RetailTools::searchProducts).readOnly(),
            new Tool<>("get_product",
                    "One product: variants (variant id, colour, size, units in stock), price, return window and final-sale flag.",
                    Params.of(Param.string("product_id", "Product id, e.g. PR-1234.")), RetailTools::getProduct)
                    .readOnly().recordOf("product_id", "name", "category", "price"),
            new Tool<>("get_return_policy",
                    "The general return policy of a product category: the return window in days and the refund rules.",
                    Params.of(Param.oneOf("category", "Product category.", RetailNames.CATEGORIES)), RetailTools::policy).readOnly(),
            new Tool<>("check_return_eligibility",
                    "Whether one item of an order can still be returned or exchanged today, why not if not, the last day "
                            + "to return it, the refund amount and the refund methods allowed.",
                    Params.of(ORDER_ID, ITEM_ID), RetailTools::eligibility).readOnly().orVia(RetailPaths.ELIGIBILITY_FROM_ORDER_AND_PRODUCT),
            new Tool<>("return_item",
                    "Return one delivered item for a refund: to the original payment method or as store credit (gift-card "
                            + "orders: store credit only). Returns the return id and its RMA code.",
                    Params.of(ORDER_ID, ITEM_ID, Param.oneOf("refund_to", "Where the refund goes.", REFUND_TO)),
                    RetailTools::returnItem).after("check_return_eligibility"),
            new Tool<>("exchange_item",
                    "Exchange one delivered item for another variant (colour or size) of the same product that is in "
                            + "stock, within the return window. Returns the exchange id and its exchange code.",
                    Params.of(ORDER_ID, ITEM_ID, Param.string("new_variant_id", "Variant id to exchange to, e.g. SKU-12345 (from get_product).")),
                    RetailTools::exchangeItem),
            new Tool<>("cancel_order",
                    "Cancel a whole order that has not shipped yet (status processing); refunds the original payment method. "
                            + "Returns a cancellation code.",
                    Params.of(ORDER_ID), RetailTools::cancelOrder),
            new Tool<>("list_returns",
                    "Returns and exchanges a customer has requested, with their status and the refund method.",
                    Params.of(CUSTOMER_ID), RetailTools::listReturns).readOnly());

    // ---------------------------------------------------------------- lookups shared with the task generator

    static Order order(RetailWorld w, String id) { return Lookup.byId(w.layout().orderById(), id, "order"); }

    static Item item(Order o, String id) {
        Item it = RetailWorld.item(o, id.strip());
        if (it == null) throw ToolFailure.domain("order " + o.id() + " has no item '" + id + "'");
        return it;
    }

    static Customer customer(RetailWorld w, String id) { return Lookup.byId(w.layout().customerById(), id, "customer"); }

    /** A customer's orders, newest first (the order of the customer's order ids). */
    static List<Order> orders(RetailWorld w, Customer c, String status) {
        List<Order> out = new ArrayList<>();
        for (String id : c.orderIds()) {
            Order o = w.order(id);
            if (status == null || w.status(o).equals(status)) out.add(o);
        }
        return out;
    }

    static String describe(Item it) {
        return it.variant().size().equals("one size") ? it.variant().color() : it.variant().color() + ", size " + it.variant().size();
    }

    // ---------------------------------------------------------------- behaviours

    private static ObjectNode findCustomer(RetailWorld w, Args a) {
        String name = a.has("name") ? a.string("name").strip().toLowerCase(Locale.ROOT) : null;
        String email = a.has("email") ? a.string("email").strip() : null;
        String zip = a.has("zip_code") ? a.string("zip_code").strip() : null;
        if ((name == null || name.isEmpty()) && email == null && zip == null) throw ToolFailure.domain("give a name, an email or a zip code");
        ObjectNode out = Json.object();
        ArrayNode list = out.putArray("customers");
        for (Customer c : w.layout().customers()) {
            if (name != null && !c.lowerName().contains(name)) continue;
            if (email != null && !c.email().equalsIgnoreCase(email)) continue;
            if (zip != null && !c.zip().equals(zip)) continue;
            list.add(customerJson(c));
        }
        out.put("count", list.size());
        return out;
    }

    private static ObjectNode customerJson(Customer c) {
        return Json.object("customer_id", c.id(), "name", c.name(), "email", c.email(), "zip_code", c.zip());
    }

    private static ObjectNode getCustomer(RetailWorld w, Args a) {
        Customer c = customer(w, a.string("customer_id"));
        ObjectNode out = customerJson(c);
        out.put("city", c.city());
        ArrayNode pay = out.putArray("payment_methods");
        c.payments().forEach(pay::add);
        ArrayNode ids = out.putArray("order_ids");
        c.orderIds().forEach(ids::add);
        return out;
    }

    private static ObjectNode listOrders(RetailWorld w, Args a) {
        Customer c = customer(w, a.string("customer_id"));
        ObjectNode out = Json.object();
        out.put("customer_id", c.id());
        ArrayNode list = out.putArray("orders");
        for (Order o : orders(w, c, a.string("status", null))) {
            ObjectNode x = Json.object("order_id", o.id(), "placed", RetailWorld.date(o.placedDay()), "status", w.status(o),
                    "total", RetailWorld.money(o.totalCents()));
            list.add(x);
            ArrayNode names = x.putArray("products");
            for (Item it : o.items()) names.add(it.product().name());
        }
        out.put("count", list.size());
        return out;
    }

    private static ObjectNode getOrder(RetailWorld w, Args a) {
        Order o = order(w, a.string("order_id"));
        ObjectNode out = Json.object("order_id", o.id(), "customer_id", o.customerId(), "placed", RetailWorld.date(o.placedDay()),
                "status", w.status(o));
        if (o.deliveredDay() >= 0) out.put("delivered", RetailWorld.date(o.deliveredDay()));
        out.put("payment_method", o.payment());
        out.put("total", RetailWorld.money(o.totalCents()));
        ArrayNode items = out.putArray("items");
        for (Item it : o.items()) {
            ObjectNode x = Json.object("item_id", it.id(), "product_id", it.product().id(), "product_name", it.product().name(),
                    "color", it.variant().color(), "size", it.variant().size(), "variant_id", it.variant().id(),
                    "price", RetailWorld.money(it.product().priceCents()), "status", w.status(it));
            items.add(x);
        }
        return out;
    }

    private static ObjectNode track(RetailWorld w, Args a) {
        Order o = order(w, a.string("order_id"));
        String status = w.status(o);
        ObjectNode out = Json.object();
        out.put("order_id", o.id());
        out.put("carrier", o.carrier());
        if (o.tracking() == null) out.putNull("tracking_number");
        else out.put("tracking_number", o.tracking());
        out.put("shipping_status", switch (status) {
            case "processing" -> "label created, not yet shipped";
            case "shipped" -> "in transit";
            case "cancelled" -> "cancelled";
            default -> "delivered";
        });
        if (o.deliveredDay() >= 0) out.put("delivered", RetailWorld.date(o.deliveredDay()));
        else if (!status.equals("cancelled")) out.put("expected_delivery", RetailWorld.date(o.expectedDay()));
        return out;
    }

    static List<Product> products(RetailWorld w, String name, String category) {
        return Lookup.named(w.layout().products(), name, Product::lowerName, p -> category == null || p.category().equals(category));
    }

    private static ObjectNode searchProducts(RetailWorld w, Args a) {
        if (!a.has("name") && !a.has("category")) throw ToolFailure.domain("give a name, a category or both");
        ObjectNode out = Json.object();
        ArrayNode list = out.putArray("products");
        for (Product p : products(w, a.string("name", null), a.string("category", null))) {
            ObjectNode x = Json.object("product_id", p.id(), "name", p.name(), "category", p.category(),
                    "price", RetailWorld.money(p.priceCents()), "final_sale", p.finalSale());
            list.add(x);
        }
        out.put("count", list.size());
        return out;
    }

    private static ObjectNode getProduct(RetailWorld w, Args a) {
        Product p = Lookup.byId(w.layout().productById(), a.string("product_id"), "product");
        ObjectNode out = Json.object("product_id", p.id(), "name", p.name(), "category", p.category(),
                "price", RetailWorld.money(p.priceCents()), "final_sale", p.finalSale(), "return_window_days", p.windowDays());
        ArrayNode list = out.putArray("variants");
        for (Variant v : p.variants()) {
            list.add(Json.object("variant_id", v.id(), "color", v.color(), "size", v.size(), "in_stock", w.stock(v)));
        }
        return out;
    }

    private static ObjectNode policy(RetailWorld w, Args a) {
        String category = a.string("category");
        ObjectNode out = Json.object("category", category, "return_window_days", RetailNames.WINDOW_DAYS.get(category),
                "counted_from", "delivery date", "final_sale_returnable", false,
                "refunds", "to the original payment method, or store credit on request; gift-card orders get store credit",
                "exchanges", "same product, another variant in stock, within the return window");
        return out;
    }

    private static ObjectNode eligibility(RetailWorld w, Args a) {
        Order o = order(w, a.string("order_id"));
        Item it = item(o, a.string("item_id"));
        String why = w.ineligibility(o, it);
        ObjectNode out = Json.object("order_id", o.id(), "item_id", it.id(), "eligible", why == null);
        if (why != null) out.put("reason", why);
        if (o.deliveredDay() >= 0) out.put("return_by", RetailWorld.date(RetailWorld.returnBy(o, it)));
        out.put("refund_amount", RetailWorld.money(it.product().priceCents()));
        ArrayNode methods = out.putArray("refund_methods");
        if (!RetailWorld.giftCard(o)) methods.add("original_payment");
        methods.add("store_credit");
        out.put("original_payment", o.payment());
        return out;
    }

    private static ObjectNode returnItem(RetailWorld w, Args a) {
        Order o = order(w, a.string("order_id"));
        Item it = item(o, a.string("item_id"));
        String why = w.ineligibility(o, it);
        if (why != null) throw ToolFailure.domain("item " + it.id() + " cannot be returned: " + why);
        String refundTo = a.string("refund_to");
        if (refundTo.equals("original_payment") && RetailWorld.giftCard(o)) {
            throw ToolFailure.domain("order " + o.id() + " was paid with a gift card: refund_to must be store_credit");
        }
        Return r = w.returnItem(o, it, refundTo);
        ObjectNode out = Json.object("return_id", r.id(), "order_id", o.id(), "item_id", it.id(),
                "refund_amount", RetailWorld.money(r.amountCents()),
                "refund_to", refundTo.equals("store_credit") ? "store credit" : o.payment(), "rma_code", r.code());
        return out;
    }

    private static ObjectNode exchangeItem(RetailWorld w, Args a) {
        Order o = order(w, a.string("order_id"));
        Item it = item(o, a.string("item_id"));
        Variant to = Lookup.byId(w.layout().variantById(), a.string("new_variant_id"), "variant");
        if (!to.productId().equals(it.product().id())) throw ToolFailure.domain("exchanges must be for the same product (" + it.product().name() + ")");
        if (to == it.variant()) throw ToolFailure.domain("that is the variant already ordered");
        String why = w.ineligibility(o, it);
        if (why != null) throw ToolFailure.domain("item " + it.id() + " cannot be exchanged: " + why);
        if (w.stock(to) <= 0) throw ToolFailure.domain("variant " + to.id() + " (" + to.color() + ", " + to.size() + ") is out of stock");
        Exchange e = w.exchange(o, it, to);
        ObjectNode out = Json.object("exchange_id", e.id(), "order_id", o.id(), "item_id", it.id(), "new_variant_id", to.id(),
                "color", to.color(), "size", to.size(), "exchange_code", e.code());
        return out;
    }

    private static ObjectNode cancelOrder(RetailWorld w, Args a) {
        Order o = order(w, a.string("order_id"));
        String status = w.status(o);
        if (!status.equals("processing")) throw ToolFailure.domain("order " + o.id() + " is " + status + "; only processing orders can be cancelled");
        Cancellation c = w.cancel(o);
        ObjectNode out = Json.object("order_id", o.id(), "status", "cancelled", "refund_amount", RetailWorld.money(c.amountCents()),
                "refund_to", o.payment(), "cancellation_code", c.code());
        return out;
    }

    private static ObjectNode listReturns(RetailWorld w, Args a) {
        Customer c = customer(w, a.string("customer_id"));
        ObjectNode out = Json.object();
        out.put("customer_id", c.id());
        ArrayNode list = out.putArray("requests");
        for (String orderId : c.orderIds()) {
            for (Item it : w.order(orderId).items()) {
                String s = w.status(it);
                if (s.equals("delivered") || s.equals("processing") || s.equals("shipped")) continue;
                ObjectNode x = Json.object("order_id", orderId, "item_id", it.id(), "product_name", it.product().name(), "status", s);
                list.add(x);
                for (Return r : w.returns) if (r.itemId().equals(it.id())) x.put("refund_to", r.refundTo());
            }
        }
        out.put("count", list.size());
        return out;
    }
}
