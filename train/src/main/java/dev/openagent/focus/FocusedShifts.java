package dev.openagent.focus;

import dev.openagent.UserInputException;
import dev.openagent.frontier.Focus;
import dev.openagent.policy.ShiftSampler;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftParam;
import dev.openagent.shift.ShiftStack;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Perturbed demonstrations aimed at what broke an agent: a frontier's focus file as the shift sampler of PAFT and of
 * the training export. Each entry of the environment trained on is drawn at its weight; its shifts keep the
 * parameters the frontier ran them with, except the severity, drawn among the entry's severities (the one that broke
 * the agent and those above it). Shifts that replace the environment ({@link ShiftSampler#NOT_FOR_TRAINING}) are
 * left out, as from every PAFT mix.
 */
public final class FocusedShifts {
    private FocusedShifts() {}

    /** The sampler of one training environment's entries. */
    public static ShiftSampler sampler(Focus focus, String env) {
        List<ShiftSampler.Draw> draws = new ArrayList<>();
        List<Double> weights = new ArrayList<>();
        for (Focus.Entry e : focus.entries()) {
            if (!e.env().equals(env)) continue;
            ShiftStack stack = e.stack();
            if (stack.layers().stream().anyMatch(l -> ShiftSampler.NOT_FOR_TRAINING.contains(l.shift().id()))) continue;
            List<ShiftSampler.Layer> layers = new ArrayList<>();
            for (ShiftStack.Layer l : stack.layers()) {
                Map<String, List<String>> values = new LinkedHashMap<>();
                for (ShiftParam p : l.shift().params()) {
                    if (p.values().isEmpty()) continue;
                    boolean severity = p.name().equals(Shift.SEVERITY.name()) && !e.severities().isEmpty();
                    values.put(p.name(), severity ? e.severities().stream().map(String::valueOf).toList() : List.of(l.params().get(p.name())));
                }
                layers.add(new ShiftSampler.Layer(l.shift(), values));
            }
            draws.add(new ShiftSampler.Draw(layers));
            weights.add(e.weight());
        }
        if (draws.isEmpty()) {
            throw new UserInputException("the focus file has nothing to train on for " + env + " (its entries are for "
                    + String.join(", ", focus.entries().stream().map(Focus.Entry::env).distinct().toList())
                    + (focus.entries().stream().anyMatch(e -> e.env().equals(env)) ? ", and only shifts that replace the environment" : "") + ")");
        }
        return ShiftSampler.weighted(draws, weights);
    }
}
