package dev.openagent.shift;

import dev.openagent.registry.Catalog;
import dev.openagent.sandbox.SortedMaps;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.EnvironmentInfo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * One experimental condition: shifts applied innermost first in canonical order (see
 * {@link Shift#order()}), each with its parameters. The empty stack is the static environment.
 */
public record ShiftStack(List<Layer> layers) {
    /** One shift with its parameters (defaults filled in). */
    public record Layer(Shift shift, Map<String, String> params) {
        public Layer {
            params = SortedMaps.copyOf(params);
        }
    }

    public static final ShiftStack NONE = new ShiftStack(List.of());

    /** Layers are kept in canonical order ({@link Shift#order()}), stable for equal orders. */
    public ShiftStack {
        List<Layer> sorted = new ArrayList<>(layers);
        sorted.sort(java.util.Comparator.comparingInt(l -> l.shift().order()));
        layers = List.copyOf(sorted);
    }

    public boolean isStatic() { return layers.isEmpty(); }

    /**
     * The stack over the environments of {@code catalog}: each layer's shift {@link Shift#in resolved there} (a
     * {@code domain.transfer} then reaches every environment the catalog holds); this stack when no layer changes.
     */
    public ShiftStack in(Catalog catalog) {
        List<Layer> bound = layers.stream().map(l -> new Layer(l.shift().in(catalog), l.params())).toList();
        for (int i = 0; i < bound.size(); i++) {
            if (bound.get(i).shift() != layers.get(i).shift()) return new ShiftStack(bound);
        }
        return this;
    }

    /** Wraps a fresh base environment in every layer. */
    public Env apply(Env base) {
        return apply(base, layers);
    }

    /**
     * Wraps a fresh base environment in every layer, with {@code atWorld} put around the world the agent acts
     * in: directly around the base environment, or above the last layer that swaps in another environment
     * ({@code domain.transfer}). Validators watch the world there.
     */
    public Env apply(Env base, UnaryOperator<Env> atWorld) {
        int world = -1;
        EnvironmentInfo info = base.info();
        for (int i = 0; i < layers.size(); i++) {
            EnvironmentInfo after = layers.get(i).shift().environmentAfter(info, layers.get(i).params());
            if (!after.id().equals(info.id())) world = i;
            info = after;
        }
        Env env = apply(base, layers.subList(0, world + 1));
        return apply(atWorld.apply(env), layers.subList(world + 1, layers.size()));
    }

    private static Env apply(Env base, List<Layer> layers) {
        Env env = base;
        for (Layer l : layers) env = l.shift().wrap(env, l.params());
        return env;
    }

    /**
     * The first reason a layer does not apply, if any: each layer is judged on the environment the layers
     * below it leave (the target of a {@code domain.transfer} for the layers above it).
     */
    public Optional<String> notApplicable(EnvironmentInfo info) {
        EnvironmentInfo env = info;
        for (Layer l : layers) {
            Optional<String> why = l.shift().notApplicable(env);
            if (why.isPresent()) return Optional.of(l.shift().id() + ": " + why.get() + (env == info ? "" : " (on " + env.id() + ")"));
            env = l.shift().environmentAfter(env, l.params());
        }
        return Optional.empty();
    }

    /** "none", or the shift ids joined by '+', with parameters that differ from the defaults. */
    public String label() {
        if (layers.isEmpty()) return "none";
        List<String> parts = new ArrayList<>();
        for (Layer l : layers) {
            Map<String, String> defaults = new HashMap<>();
            l.shift().params().forEach(p -> defaults.put(p.name(), p.defaultValue()));
            StringBuilder sb = new StringBuilder(l.shift().id());
            String sep = ":";
            for (var e : new java.util.TreeMap<>(l.params()).entrySet()) {
                if (e.getValue().equals(defaults.get(e.getKey()))) continue;
                sb.append(sep).append(e.getKey()).append('=').append(e.getValue());
                sep = ",";
            }
            parts.add(sb.toString());
        }
        return String.join("+", parts);
    }

    /** The tier of a single-shift stack (null for static or mixed stacks). */
    public Tier tier() {
        if (layers.isEmpty()) return null;
        Tier t = layers.getFirst().shift().tier();
        for (Layer l : layers) if (l.shift().tier() != t) return null;
        return t;
    }
}
