package dev.openagent.domain;

import dev.openagent.sandbox.EnvFacts.Rewrite;
import dev.openagent.sandbox.Task;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
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

    /**
     * The synonyms and paraphrase rewrites an environment keeps as data in a YAML resource beside its classes
     * ({@code synonyms: {word: [alternatives]}}, {@code paraphrases: [[regex, replacement], ...]}, the same keys
     * an environment file declares), with its distractions.
     */
    public static <W> Vocabulary<W> load(Class<?> owner, String resource, Distractions<W> distractions) {
        try (InputStream in = owner.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("no resource " + resource + " beside " + owner.getName());
            Words words = YAML.readValue(in, Words.class);
            List<Rewrite> rewrites = words.paraphrases().stream().map(r -> {
                if (r.size() != 2) throw new IllegalStateException(resource + ": a paraphrase is [regex, replacement], not " + r);
                return new Rewrite(r.get(0), r.get(1));
            }).toList();
            return new Vocabulary<>(words.synonyms(), rewrites, distractions);
        } catch (IOException e) {
            throw new UncheckedIOException(owner.getName() + ": cannot read " + resource + ": " + e.getMessage(), e);
        }
    }

    /** The file form of the words. */
    private record Words(Map<String, List<String>> synonyms, List<List<String>> paraphrases) {
        Words {
            synonyms = synonyms == null ? Map.of() : synonyms;
            paraphrases = paraphrases == null ? List.of() : paraphrases;
        }
    }

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    public static <W> Vocabulary<W> none() {
        return new Vocabulary<>(Map.of(), List.of(), (task, world, rnd) -> List.of());
    }
}
