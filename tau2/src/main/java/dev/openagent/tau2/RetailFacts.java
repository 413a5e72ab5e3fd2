package dev.openagent.tau2;

import dev.openagent.domain.TaskKind;
import dev.openagent.domain.Tool;
import dev.openagent.domain.Vocabulary;
import dev.openagent.sandbox.Chain;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.ToolFacts;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What shifts may know about tau2's retail domain, declared beside its tools ({@link RetailTools}), its task kinds
 * and its words. What it cannot declare is said here too ({@link #notApplicable}): the shifts whose mechanism has
 * nothing to act on in tau2's retail tools.
 */
final class RetailFacts {
    private RetailFacts() {}

    // ---------------------------------------------------------------- tools

    /** An order's items name their product: its name comes back with the product's details (products never change). */
    static Tool<RetailState> productDetails(Tool<RetailState> t) { return t.readOnly().recordOf("product_id", "name", "product_id"); }

    static Tool<RetailState> orderDetails(Tool<RetailState> t) { return t.readOnly().recordOf("order_id", "order_id", "user_id"); }

    static Tool<RetailState> itemDetails(Tool<RetailState> t) { return t.readOnly().recordOf("item_id", "item_id"); }

    static Tool<RetailState> userDetails(Tool<RetailState> t) { return t.readOnly().recordOf("user_id", "user_id", "email"); }

    // ---------------------------------------------------------------- task kinds

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

    /**
     * A kind of tau2 task (named by the writes its gold actions make: "exchange", "cancel+return", "lookup"), with the
     * ways it can be made impossible (an order that does not exist, a customer no account matches) and its longer
     * chain (its order as the account lists it).
     */
    static TaskKind<RetailState, Object> kind(String name, int difficulty, Restatements r) {
        return TaskKind.<RetailState, Object>of(name, difficulty, g -> true)
                .impossibleBy(r::missingOrder, r::unknownCustomer)
                .longerBy(r::orderThroughAccount);
    }

    // ---------------------------------------------------------------- words

    private static final Map<String, List<String>> SYNONYMS = Map.ofEntries(
            Map.entry("order", List.of("purchase", "order_record")),
            Map.entry("orders", List.of("purchases")),
            Map.entry("item", List.of("article", "variant")),
            Map.entry("items", List.of("articles", "line_items")),
            Map.entry("user", List.of("customer", "account", "client")),
            Map.entry("product", List.of("catalog_product", "merchandise")),
            Map.entry("details", List.of("info", "record")),
            Map.entry("pending", List.of("unshipped", "open")),
            Map.entry("delivered", List.of("received", "completed")),
            Map.entry("cancel", List.of("void", "call_off")),
            Map.entry("exchange", List.of("swap", "replace")),
            Map.entry("return", List.of("send_back", "refund")),
            Map.entry("modify", List.of("change", "update", "edit")),
            Map.entry("address", List.of("shipping_address", "location")),
            Map.entry("payment", List.of("billing", "charge")),
            Map.entry("method", List.of("instrument", "means")),
            Map.entry("find", List.of("lookup", "locate", "search")),
            Map.entry("list", List.of("enumerate", "show")),
            Map.entry("calculate", List.of("compute", "evaluate")),
            Map.entry("transfer", List.of("handoff", "escalate")),
            Map.entry("human", List.of("live", "staff")),
            Map.entry("agents", List.of("representatives", "staff")),
            Map.entry("email", List.of("mail", "email_address")),
            Map.entry("zip", List.of("postcode", "postal_code")),
            Map.entry("reason", List.of("cause", "motive")),
            Map.entry("summary", List.of("recap", "synopsis")),
            Map.entry("expression", List.of("formula", "arithmetic")),
            Map.entry("status", List.of("state", "stage")),
            Map.entry("price", List.of("cost", "amount")),
            Map.entry("variants", List.of("options_by_id", "versions")),
            Map.entry("balance", List.of("funds", "credit")));

    private static final List<EnvFacts.Rewrite> PARAPHRASES = List.of(
            new EnvFacts.Rewrite("\\bI want to\\b", "I'd like to"),
            new EnvFacts.Rewrite("\\bI wish to\\b", "I would like to"),
            new EnvFacts.Rewrite("\\bwish to\\b", "would like to"),
            new EnvFacts.Rewrite("\\bI received\\b", "I got"),
            new EnvFacts.Rewrite("\\bexchange\\b", "swap"),
            new EnvFacts.Rewrite("\\bcheapest\\b", "least expensive"),
            new EnvFacts.Rewrite("\\bcancel\\b", "call off"),
            new EnvFacts.Rewrite("\\bI do not remember\\b", "I can't recall"),
            new EnvFacts.Rewrite("\\bpayment method\\b", "way of paying"));

    static Vocabulary<RetailState> vocabulary() {
        return new Vocabulary<>(SYNONYMS, PARAPHRASES, Restatements::distractions);
    }

    // ---------------------------------------------------------------- what does not apply

    /** The catalog shifts whose mechanism finds nothing to act on in tau2's retail domain, and why. */
    static Optional<String> notApplicable(String shiftId) {
        return switch (shiftId) {
            case "domain.policy-update" -> Optional.of("its rules change the formats of dates, times and full person names, and tau2's retail "
                    + "tools take none of them (a customer's name comes as first_name and last_name)");
            case "action.verification-change" -> Optional.of("tau2's retail tools issue no codes (no result has a ...code field), so there is no "
                    + "verification-code protocol to change");
            default -> Optional.empty();
        };
    }

    /** The environment's declared facts, with its revisions of a request (query.intent-drift) added. */
    static EnvFacts facts(Restatements restatements, EnvFacts declared) {
        return new EnvFacts() {
            public List<ToolFacts> tools() { return declared.tools(); }

            public Map<String, List<String>> synonyms() { return declared.synonyms(); }

            public List<Rewrite> paraphrases() { return declared.paraphrases(); }

            public List<String> distractions(Task task, long seed) { return declared.distractions(task, seed); }

            public Optional<Task> unsolvable(Task task, long seed) { return declared.unsolvable(task, seed); }

            public Optional<Chain> longerChain(Task task, long seed, int extraHops) { return declared.longerChain(task, seed, extraHops); }

            public Optional<Task> revised(Task task, long seed) { return restatements.revised(task, seed); }

            public String check(Task task, String answer) { return declared.check(task, answer); }
        };
    }
}
