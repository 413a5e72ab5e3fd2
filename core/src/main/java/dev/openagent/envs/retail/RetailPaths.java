package dev.openagent.envs.retail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Alternative;
import dev.openagent.sandbox.GoldPlan;

import java.time.LocalDate;
import java.util.Set;

import static dev.openagent.envs.kit.TaskDraft.args;

/**
 * The other paths to what two retail tools do, built only from what the other tools show (for when a
 * tool is gone): a customer's order list from the profile and each order, and an item's return
 * eligibility from its order and its product.
 */
final class RetailPaths {
    private RetailPaths() {}

    /** list_orders: the profile's order ids, then each order in full. */
    static final Alternative ORDERS_FROM_PROFILE = new Alternative(Set.of("get_customer", "get_order"),
            (args, results) -> {
                if (results.isEmpty()) return new GoldPlan.Call("get_customer", args("customer_id", args.path("customer_id").asText("")));
                JsonNode ids = results.getFirst().path("order_ids");
                int done = results.size() - 1;
                return done < ids.size() ? new GoldPlan.Call("get_order", args("order_id", ids.get(done).asText())) : null;
            },
            (args, results) -> {
                ObjectNode out = Json.object();
                out.put("customer_id", results.getFirst().path("customer_id").asText());
                ArrayNode list = out.putArray("orders");
                String status = args.path("status").asText("");
                for (JsonNode order : results.subList(1, results.size())) {
                    if (!status.isEmpty() && !order.path("status").asText().equals(status)) continue;
                    ObjectNode x = Json.object("order_id", order.path("order_id").asText(), "placed", order.path("placed").asText(),
                            "status", order.path("status").asText());
                    list.add(x);
                    x.set("total", order.path("total"));
                    ArrayNode names = x.putArray("products");
                    for (JsonNode item : order.path("items")) names.add(item.path("product_name").asText());
                }
                out.put("count", list.size());
                return out;
            });

    /** check_return_eligibility: the order (delivery date, item status, payment), then the product (window, final sale). */
    static final Alternative ELIGIBILITY_FROM_ORDER_AND_PRODUCT = new Alternative(Set.of("get_order", "get_product"),
            (args, results) -> switch (results.size()) {
                case 0 -> new GoldPlan.Call("get_order", args("order_id", args.path("order_id").asText("")));
                case 1 -> new GoldPlan.Call("get_product", args("product_id", item(results.getFirst(), args).path("product_id").asText("")));
                default -> null;
            },
            (args, results) -> eligibility(results.getFirst(), item(results.getFirst(), args), results.get(1)));

    private static JsonNode item(JsonNode order, ObjectNode args) {
        for (JsonNode it : order.path("items")) if (it.path("item_id").asText().equalsIgnoreCase(args.path("item_id").asText("").strip())) return it;
        return Json.object();
    }

    /** check_return_eligibility's answer, from the order and the product as their own tools show them. */
    private static JsonNode eligibility(JsonNode order, JsonNode item, JsonNode product) {
        ObjectNode out = Json.object();
        out.put("order_id", order.path("order_id").asText());
        out.put("item_id", item.path("item_id").asText());
        String why = null;
        String status = order.path("status").asText();
        int returnBy = -1;
        if (order.has("delivered")) returnBy = (int) LocalDate.parse(order.path("delivered").asText()).toEpochDay() + product.path("return_window_days").asInt();
        if (!status.equals("delivered")) why = "the order is " + status + ", not delivered";
        else if (!item.path("status").asText().equals("delivered")) why = "the item is already " + item.path("status").asText();
        else if (product.path("final_sale").asBoolean()) why = "final-sale items cannot be returned or exchanged";
        else if (RetailWorld.TODAY_DAY > returnBy) why = "the return window closed on " + RetailWorld.date(returnBy);
        out.put("eligible", why == null);
        if (why != null) out.put("reason", why);
        if (returnBy >= 0) out.put("return_by", RetailWorld.date(returnBy));
        out.set("refund_amount", item.path("price"));
        ArrayNode methods = out.putArray("refund_methods");
        boolean giftCard = order.path("payment_method").asText().equals("Gift card");
        if (!giftCard) methods.add("original_payment");
        methods.add("store_credit");
        out.put("original_payment", order.path("payment_method").asText());
        return out;
    }
}
