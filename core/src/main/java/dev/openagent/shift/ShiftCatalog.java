package dev.openagent.shift;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every shift, in catalog order (docs/shifts.md). Adding a shift is one class plus one line here. */
public final class ShiftCatalog {
    private static final Map<String, Shift> ALL = new LinkedHashMap<>();

    static {
        // Perception
        register(dev.openagent.shift.perception.Paraphrase.SHIFT);
        register(dev.openagent.shift.perception.QueryNoise.SHIFT);
        register(dev.openagent.shift.perception.Redundant.SHIFT);
        register(dev.openagent.shift.perception.NameNoise.SHIFT);
        register(dev.openagent.shift.perception.IdentityErasure.SHIFT);
        register(dev.openagent.shift.perception.SemanticRename.SHIFT);
        register(dev.openagent.shift.perception.SemanticTrap.SHIFT);
        register(dev.openagent.shift.perception.Distractors.SHIFT);
        register(dev.openagent.shift.perception.SchemaNoise.SHIFT);
        // Interaction
        register(dev.openagent.shift.interaction.FormatChange.SHIFT);
        register(dev.openagent.shift.interaction.MissingValues.SHIFT);
        register(dev.openagent.shift.interaction.NonstandardFeedback.SHIFT);
        register(dev.openagent.shift.interaction.RuntimeErrors.SHIFT);
        register(dev.openagent.shift.interaction.Redirect.SHIFT);
        register(dev.openagent.shift.interaction.Pagination.SHIFT);
        register(dev.openagent.shift.interaction.VerificationChange.SHIFT);
        // Reasoning
        register(dev.openagent.shift.reasoning.Inversion.SHIFT);
        register(dev.openagent.shift.reasoning.ExtraPrerequisite.SHIFT);
        register(dev.openagent.shift.reasoning.Conflict.SHIFT);
        register(dev.openagent.shift.reasoning.LongerChain.SHIFT);
        register(dev.openagent.shift.reasoning.Underspecified.SHIFT);
        register(dev.openagent.shift.reasoning.Ambiguous.SHIFT);
        // Internalization
        register(dev.openagent.shift.internalization.DomainTransfer.SHIFT);
        register(dev.openagent.shift.internalization.Unsolvable.SHIFT);
        register(dev.openagent.shift.internalization.PolicyUpdate.SHIFT);
        register(dev.openagent.shift.internalization.ToolRemoval.SHIFT);
    }

    private ShiftCatalog() {}

    static void register(Shift s) {
        if (ALL.put(s.id(), s) != null) throw new IllegalStateException("duplicate shift " + s.id());
    }

    public static List<Shift> all() { return List.copyOf(ALL.values()); }

    public static List<Shift> tier(Tier tier) {
        return ALL.values().stream().filter(s -> s.tier() == tier).toList();
    }

    /** @throws IllegalArgumentException naming the known ids */
    public static Shift get(String id) {
        Shift s = ALL.get(id);
        if (s == null) throw new IllegalArgumentException("unknown shift '" + id + "' (see `openagent shifts`)");
        return s;
    }
}
