package dev.openagent.sandbox;

import java.util.ArrayList;
import java.util.List;

/**
 * Self-description of an environment instance, like Gymnasium's spec stack: the base environment
 * and the shifts wrapped around it, innermost first.
 */
public record EnvSpec(String env, List<ShiftRecord> shifts) {
    public EnvSpec {
        shifts = List.copyOf(shifts);
    }

    public EnvSpec with(ShiftRecord shift) {
        List<ShiftRecord> more = new ArrayList<>(shifts);
        more.add(shift);
        return new EnvSpec(env, more);
    }

    /** "none" or the shift specs joined by '+'. */
    public String shiftSpec() {
        if (shifts.isEmpty()) return "none";
        return String.join("+", shifts.stream().map(ShiftRecord::spec).toList());
    }
}
