package dev.openagent.envs.retail;

import dev.openagent.envs.kit.Names;
import dev.openagent.domain.Vocabulary;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskVariants;
import dev.openagent.envs.retail.RetailWorld.Order;
import dev.openagent.envs.retail.RetailWorld.Product;
import dev.openagent.sandbox.EnvFacts.Rewrite;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** The shop's words, for the shifts that rename, paraphrase or distract: synonyms, request rewrites, idle remarks. */
final class RetailVocabulary {
    private RetailVocabulary() {}

    /** Alternatives for the words the tool, parameter and key names are made of. */
    static final Map<String, List<String>> SYNONYMS = Map.ofEntries(
            Map.entry("customer", List.of("client", "shopper", "account")),
            Map.entry("orders", List.of("purchases", "sales", "transactions")),
            Map.entry("order", List.of("purchase", "sale", "transaction")),
            Map.entry("track", List.of("trace", "follow", "locate")),
            Map.entry("shipment", List.of("delivery", "parcel", "package")),
            Map.entry("returns", List.of("refunds", "sendbacks", "rmas")),
            Map.entry("return", List.of("refund", "sendback", "rma")),
            Map.entry("eligibility", List.of("eligible", "allowance", "qualification")),
            Map.entry("policy", List.of("rules", "terms", "conditions")),
            Map.entry("exchange", List.of("swap", "replace", "trade")),
            Map.entry("variant", List.of("option", "version", "sku")),
            Map.entry("products", List.of("items", "articles", "goods")),
            Map.entry("refund", List.of("credit", "reimburse", "payback")),
            Map.entry("zip", List.of("postal", "post", "postcode")),
            Map.entry("email", List.of("mail", "e_mail", "address")));

    /** Other wordings of the phrases the task generator's requests use. */
    static final List<Rewrite> PARAPHRASES = Vocabulary.rewrites(
            "\\bOn what date was my order (\\S+) delivered\\?", "When did my order $1 arrive?",
            "\\bwhat is the tracking number\\b", "what's the tracking number",
            "\\bWhat is the last day I can return\\b", "Until when can I send back",
            "\\bI need the RMA code\\b", "Please send me the RMA code",
            "\\bthat hasn't shipped yet\\b", "that is still waiting to ship",
            "\\bPlease give me the exchange code\\b", "Tell me the exchange code, please",
            "\\bare in stock\\b", "are available",
            "\\bto my original payment method\\b", "back to the card or account I paid with");

    static final Vocabulary<RetailWorld> VOCABULARY = new Vocabulary<>(SYNONYMS, PARAPHRASES, RetailVocabulary::distractions);

    /** A product the customer only looked at, a parcel left next door, a partner's order: none of them the request's. */
    static List<String> distractions(Task task, RetailWorld w, SplittableRandom rnd) {
        List<String> out = new ArrayList<>();
        Product p = Pick.any(w.map.products(), rnd, x -> !task.query().contains(x.name()));
        if (p != null) out.add("I was also looking at the " + p.name() + ", but I haven't decided yet.");
        out.add("The last parcel " + Names.any(RetailNames.CARRIERS, rnd) + " brought me was left at my neighbour's.");
        Order o = Pick.any(w.map.orders(), rnd, x -> !task.query().contains(x.id()));
        if (o != null) out.add("My partner has an order too, " + o.id() + ", but that one is fine.");
        return out;
    }
}
