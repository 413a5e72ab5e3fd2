package dev.openagent.server;

import dev.openagent.UserInputException;
import dev.openagent.registry.Catalog;
import dev.openagent.run.Conditions;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;

import java.util.Locale;

/**
 * What a server runs: an environment under one shift stack. Built from the user's ids, with every
 * problem (unknown environment, unknown or inapplicable shift, a spec naming several conditions)
 * reported as a {@link dev.openagent.UserInputException} whose message says what is wrong.
 */
public record EnvChoice(Environment environment, ShiftStack shifts) {

    /** The environment {@code envId} names in {@code catalog}, under the stack {@code shiftSpec} names, resolved there. */
    public static EnvChoice of(Catalog catalog, String envId, String shiftSpec) {
        Environment environment = catalog.get(envId);
        ShiftStack stack = oneStack(shiftSpec).in(catalog);
        // Conditions' check, not the stack's alone: a file environment also rules shifts out by the facts it lacks.
        Conditions.notApplicable(stack, environment).ifPresent(why -> {
            throw new UserInputException("shift does not apply to " + envId + ": " + why);
        });
        return new EnvChoice(environment, stack);
    }

    /**
     * One stack: {@code none} (or empty), one shift, or shifts composed with '+'. Specs that expand
     * to several conditions ({@code all}, {@code tier:...}, ';'-joined) are for runs, not for one
     * environment instance.
     */
    public static ShiftStack oneStack(String spec) {
        String s = spec == null ? "" : spec.strip();
        if (s.isEmpty() || s.equals("none") || s.equals("static")) return ShiftStack.NONE;
        ShiftSpec.checkPrintable(s);
        String lower = s.toLowerCase(Locale.ROOT);
        if (lower.equals("all") || lower.startsWith("tier:") || s.contains(";")) {
            throw new UserInputException("shift '" + s + "' names several conditions; a server runs one stack "
                    + "(one shift, or shifts joined with '+')");
        }
        return ShiftSpec.parseStack(s);
    }

    /** A fresh instance with the shifts applied: one per session, never shared. */
    public Env create() { return shifts.apply(environment.create()); }

    public String envId() { return environment.id(); }

    public String shiftLabel() { return shifts.label(); }
}
