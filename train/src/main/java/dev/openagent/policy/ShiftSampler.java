package dev.openagent.policy;

import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftCatalog;
import dev.openagent.shift.ShiftParam;
import dev.openagent.shift.ShiftStack;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Draws the shift of a perturbed training episode (PAFT): a shift chosen uniformly among those
 * that apply to the environment, each enumerated parameter (severity, format, ...) drawn
 * uniformly from its values, the others at their defaults.
 */
public final class ShiftSampler {
    /** Shifts PAFT does not draw: they replace the environment rather than perturb it. */
    public static final Set<String> NOT_FOR_TRAINING = Set.of("domain.transfer");

    private final List<Shift> shifts;

    private ShiftSampler(List<Shift> shifts) {
        this.shifts = List.copyOf(shifts);
    }

    /** The catalog's shifts that apply to the environment (empty while the catalog is). */
    public static ShiftSampler catalog(EnvironmentInfo env) {
        return of(ShiftCatalog.all().stream()
                .filter(s -> !NOT_FOR_TRAINING.contains(s.id()) && s.notApplicable(env).isEmpty()).toList());
    }

    public static ShiftSampler of(List<Shift> shifts) {
        return new ShiftSampler(shifts);
    }

    public boolean isEmpty() { return shifts.isEmpty(); }

    public List<Shift> shifts() { return shifts; }

    public ShiftStack sample(SplittableRandom rnd) {
        Shift s = shifts.get(rnd.nextInt(shifts.size()));
        Map<String, String> params = new LinkedHashMap<>();
        for (ShiftParam p : s.params()) {
            params.put(p.name(), p.values().isEmpty() ? p.defaultValue() : p.values().get(rnd.nextInt(p.values().size())));
        }
        return new ShiftStack(List.of(new ShiftStack.Layer(s, params)));
    }
}
