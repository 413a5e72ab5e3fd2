package dev.openagent.tau2;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.domain.DomainEnv;
import dev.openagent.domain.TaskKind;
import dev.openagent.domain.Tool;
import dev.openagent.domain.Vocabulary;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.TaskRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What shifts may know about tau2's retail tools, task kinds and words, declared beside them (see {@link RetailTools}). */
final class RetailFacts {
    private RetailFacts() {}

    static Tool<RetailState> orderDetails(Tool<RetailState> t) { return t.readOnly(); }

    static Tool<RetailState> productDetails(Tool<RetailState> t) { return t.readOnly(); }

    static Tool<RetailState> itemDetails(Tool<RetailState> t) { return t.readOnly(); }

    static Tool<RetailState> userDetails(Tool<RetailState> t) { return t.readOnly(); }

    static Tool<RetailState> cancel(Tool<RetailState> t) { return t; }

    static Tool<RetailState> exchange(Tool<RetailState> t) { return t; }

    static Tool<RetailState> modifyItems(Tool<RetailState> t) { return t; }

    static Tool<RetailState> returnItems(Tool<RetailState> t) { return t; }

    /** A writing tool's short name in task kinds ("exchange", "cancel"...). */
    static String shortName(String tool) {
        return switch (tool) {
            case "cancel_pending_order" -> "cancel";
            case "exchange_delivered_order_items" -> "exchange";
            case "modify_pending_order_address" -> "address";
            case "modify_pending_order_items" -> "modify_items";
            case "modify_pending_order_payment" -> "payment";
            case "modify_user_address" -> "user_address";
            case "return_delivered_order_items" -> "return";
            default -> tool;
        };
    }

    static TaskKind<RetailState, Object> kind(String name, int difficulty) {
        return TaskKind.of(name, difficulty, g -> true);
    }

    static Vocabulary<RetailState> vocabulary(RetailDb db) { return Vocabulary.none(); }

    static List<Detail> details(String query, List<GoldPlan.Call> calls, RetailDb db) { return List.of(); }

    static Optional<String> notApplicable(String shiftId) { return Optional.empty(); }

    static EnvFacts facts(Tau2Retail environment, DomainEnv<RetailState> env, EnvFacts declared) { return declared; }
}
