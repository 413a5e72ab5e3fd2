package dev.openagent.domain;

import dev.openagent.sandbox.EnvFacts.Rewrite;
import dev.openagent.sandbox.Task;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * An environment's words, as data shifts read: synonyms for the words its tool, parameter and key
 * names are made of, phrase rewrites for paraphrasing its requests, and distracting sentences that
 * name things of its world.
 *
 * @param <W> the world of one episode
 */
public record Vocabulary<W>(Map<String, List<String>> synonyms, List<Rewrite> paraphrases, Distractions<W> distractions) {
    public Vocabulary {
        synonyms = Map.copyOf(synonyms);
        paraphrases = List.copyOf(paraphrases);
    }

    /** Plausible but irrelevant sentences about things of the world that the task's query does not name. */
    @FunctionalInterface
    public interface Distractions<W> {
        List<String> of(Task task, W world, SplittableRandom rnd);
    }

    /** Paraphrase rewrites from pairs: regex, replacement, regex, replacement... */
    public static List<Rewrite> rewrites(String... regexAndReplacement) {
        if (regexAndReplacement.length % 2 != 0) throw new IllegalArgumentException("rewrites come in pairs");
        List<Rewrite> out = new java.util.ArrayList<>();
        for (int i = 0; i < regexAndReplacement.length; i += 2) out.add(new Rewrite(regexAndReplacement[i], regexAndReplacement[i + 1]));
        return List.copyOf(out);
    }

    public static <W> Vocabulary<W> none() {
        return new Vocabulary<>(Map.of(), List.of(), (task, world, rnd) -> List.of());
    }
}
