package dev.openagent.envs.retail;

import dev.openagent.envs.kit.Names;
import dev.openagent.domain.Vocabulary;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.retail.RetailWorld.Order;
import dev.openagent.envs.retail.RetailWorld.Product;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** The shop's words, for the shifts that rename, paraphrase or distract: synonyms, request rewrites, idle remarks. */
final class RetailVocabulary {
    private RetailVocabulary() {}

    /** Synonyms and paraphrase rewrites from vocabulary.yaml beside this class, and the distractions below. */
    static final Vocabulary<RetailWorld> VOCABULARY = Vocabulary.load(RetailVocabulary.class, "vocabulary.yaml", RetailVocabulary::distractions);

    /** A product the customer only looked at, a parcel left next door, a partner's order: none of them the request's. */
    static List<String> distractions(Task task, RetailWorld w, SplittableRandom rnd) {
        List<String> out = new ArrayList<>();
        Product p = Pick.any(w.layout().products(), rnd, x -> !task.query().contains(x.name()));
        if (p != null) out.add("I was also looking at the " + p.name() + ", but I haven't decided yet.");
        out.add("The last parcel " + Names.any(RetailNames.CARRIERS, rnd) + " brought me was left at my neighbour's.");
        Order o = Pick.any(w.layout().orders(), rnd, x -> !task.query().contains(x.id()));
        if (o != null) out.add("My partner has an order too, " + o.id() + ", but that one is fine.");
        return out;
    }
}
