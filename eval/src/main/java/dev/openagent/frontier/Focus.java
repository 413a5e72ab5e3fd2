package dev.openagent.frontier;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.openagent.UserInputException;
import dev.openagent.json.Json;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The focus file a frontier writes ({@code focus.json}): the shifts and compositions that broke the agent, each with
 * the severities it broke the agent at and a weight, for training data aimed at them ({@code export --focus},
 * {@code train --method paft --focus}). A user may edit it: drop entries, change weights.
 *
 * @param agent   the agent whose frontier it is (a record, not read back)
 * @param entries what to draw perturbed demonstrations from, each at its weight
 */
public record Focus(int version, String agent, double drop, List<Entry> entries) {
    public static final int VERSION = 1;

    /**
     * One thing that broke the agent.
     *
     * @param env        the environment the frontier ran on
     * @param shift      the condition at the severity that broke it, as a {@code --shift} spec ({@code query.noise:severity=1},
     *                   {@code tool.distractors:severity=3+obs.missing-values:severity=3})
     * @param severities the severities to draw demonstrations at (the frontier writes the one that broke the agent and
     *                   every stronger one of the shift's ladder: a user may change them); empty keeps the spec's (a
     *                   composition, or a shift without severities)
     * @param weight     the entry's share of the perturbed demonstrations, relative to the others' (positive)
     * @param drop       the drop in success measured there (a record)
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Entry(String env, String shift, List<Integer> severities, double weight, Double drop) {
        public Entry {
            severities = severities == null ? List.of() : List.copyOf(severities);
        }

        /** The condition as a stack (checked as {@code --shift} checks it). */
        public ShiftStack stack() { return ShiftSpec.parseStack(shift); }
    }

    public Focus {
        entries = entries == null ? List.of() : List.copyOf(entries);
    }

    /**
     * The focus of a frontier: every shift that broke the agent, named at the severity that broke it (the frontier
     * itself: the agent survived the milder ones) and trained at that severity and every stronger one of its ladder (the
     * search takes a shift's ladder as monotone, so the agent fails the stronger rungs too, untested; and a policy trained
     * only at the breaking rung lost shifts that training at the stronger ones recovered: docs/training.md, *Focused
     * PAFT*), and every composition that broke it, each with the same weight (every failure mode as much data as any other).
     */
    public static Focus of(Frontier f, String agent) {
        List<Entry> entries = new ArrayList<>();
        for (Frontier.ShiftResult s : f.shifts()) {
            if (s.status() != Frontier.Status.BREAKS) continue;
            Frontier.Test t = s.decisive();
            List<Integer> at = s.severity() ? s.levels().stream().filter(level -> level >= t.level()).toList() : List.of();
            entries.add(new Entry(s.env(), spec(t.label(), s.severity(), t.level()), at, 1.0, Frontier.round(t.drop())));
        }
        for (Frontier.Test t : f.compositions()) {
            if (t.breaks()) entries.add(new Entry(t.env(), t.label(), List.of(), 1.0, Frontier.round(t.drop())));
        }
        return new Focus(VERSION, agent, f.settings().drop(), entries);
    }

    /** A label with its severity written out (a label leaves the default severity implicit). */
    private static String spec(String label, boolean severity, int level) {
        if (!severity || label.contains(Ladder.SEVERITY + "=")) return label;
        ShiftStack s = Ladder.at(ShiftSpec.parseStack(label), level);
        List<String> parts = new ArrayList<>();
        for (ShiftStack.Layer l : s.layers()) {
            StringBuilder sb = new StringBuilder(l.shift().id());
            String sep = ":";
            for (var e : l.params().entrySet()) {
                boolean isDefault = l.shift().params().stream().anyMatch(p -> p.name().equals(e.getKey()) && p.defaultValue().equals(e.getValue()));
                if (isDefault && !e.getKey().equals(Ladder.SEVERITY)) continue;
                sb.append(sep).append(e.getKey()).append('=').append(e.getValue());
                sep = ",";
            }
            parts.add(sb.toString());
        }
        return String.join("+", parts);
    }

    public void write(Path file) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            if (dir != null) Files.createDirectories(dir);
            Files.writeString(file, Json.pretty(this) + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserInputException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static final ObjectMapper STRICT = Json.MAPPER.copy().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /**
     * Reads a focus file; every problem is one line naming the file: not JSON, another version, an unknown shift or
     * parameter, a severity the shift does not take, a weight that is not positive, no entries.
     */
    public static Focus read(Path file) {
        Focus f;
        try {
            f = STRICT.readValue(Files.readString(file, StandardCharsets.UTF_8), Focus.class);
        } catch (NoSuchFileException e) {
            throw new UserInputException("no such focus file: " + file);
        } catch (JsonProcessingException e) {
            throw new UserInputException(file + " is not a focus file (as `openagent frontier` writes focus.json): "
                    + e.getOriginalMessage().lines().findFirst().orElse(""));
        } catch (IOException e) {
            throw new UserInputException("cannot read " + file + ": " + e.getMessage());
        }
        if (f.version() != VERSION) throw new UserInputException(file + ": focus file version " + f.version() + " (this openagent reads " + VERSION + ")");
        if (f.entries().isEmpty()) throw new UserInputException(file + " has no entries: nothing broke the agent, so there is nothing to focus on");
        for (int i = 0; i < f.entries().size(); i++) {
            Entry e = f.entries().get(i);
            String at = file + ": entries[" + i + "]";
            if (e.shift() == null || e.shift().isBlank()) throw new UserInputException(at + " has no shift");
            ShiftStack stack;
            try {
                stack = e.stack();
            } catch (IllegalArgumentException x) {
                throw new UserInputException(at + " '" + e.shift() + "': " + x.getMessage());
            }
            if (!(e.weight() > 0)) throw new UserInputException(at + " has weight " + e.weight() + "; weights must be positive");
            for (int s : e.severities()) {
                for (ShiftStack.Layer l : stack.layers()) {
                    var p = l.shift().params().stream().filter(x -> x.name().equals(Ladder.SEVERITY)).findFirst();
                    if (p.isEmpty()) {
                        throw new UserInputException(at + ": " + l.shift().id() + " takes no severity, but severities " + e.severities() + " are given");
                    }
                    if (!p.get().values().contains(Integer.toString(s))) {
                        throw new UserInputException(at + ": " + l.shift().id() + " takes severity " + p.get().values() + ", not " + s);
                    }
                }
            }
        }
        return f;
    }
}
