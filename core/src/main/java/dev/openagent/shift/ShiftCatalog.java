package dev.openagent.shift;

import dev.openagent.UserInputException;
import dev.openagent.shift.action.VerificationChange;
import dev.openagent.shift.domain.DomainTransfer;
import dev.openagent.shift.domain.PolicyUpdate;
import dev.openagent.shift.logic.Conflict;
import dev.openagent.shift.logic.ExtraPrerequisite;
import dev.openagent.shift.logic.Inversion;
import dev.openagent.shift.iface.ActionList;
import dev.openagent.shift.logic.LongerChain;
import dev.openagent.shift.obs.AuthExpiry;
import dev.openagent.shift.obs.Flapping;
import dev.openagent.shift.obs.CascadingFailure;
import dev.openagent.shift.obs.FormatChange;
import dev.openagent.shift.obs.Injection;
import dev.openagent.shift.obs.Latency;
import dev.openagent.shift.obs.MalformedOutput;
import dev.openagent.shift.obs.MissingValues;
import dev.openagent.shift.obs.NonstandardFeedback;
import dev.openagent.shift.obs.Pagination;
import dev.openagent.shift.obs.QuotaExhausted;
import dev.openagent.shift.obs.Redirect;
import dev.openagent.shift.obs.RuntimeErrors;
import dev.openagent.shift.obs.SchemaDrift;
import dev.openagent.shift.obs.StaleData;
import dev.openagent.shift.obs.TypeDrift;
import dev.openagent.shift.query.Ambiguous;
import dev.openagent.shift.query.IntentDrift;
import dev.openagent.shift.query.NoisyUser;
import dev.openagent.shift.query.Paraphrase;
import dev.openagent.shift.query.QueryNoise;
import dev.openagent.shift.query.Redundant;
import dev.openagent.shift.query.Underspecified;
import dev.openagent.shift.task.Unsolvable;
import dev.openagent.shift.tool.Bare;
import dev.openagent.shift.tool.Crowded;
import dev.openagent.shift.tool.Distractors;
import dev.openagent.shift.tool.IdentityErasure;
import dev.openagent.shift.tool.NameNoise;
import dev.openagent.shift.tool.PoisonedDescription;
import dev.openagent.shift.tool.SchemaNoise;
import dev.openagent.shift.tool.SemanticRename;
import dev.openagent.shift.tool.SemanticTrap;
import dev.openagent.shift.tool.SetChange;
import dev.openagent.shift.tool.ToolRemoval;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every shift, in one place: the catalog in the order it is listed (docs/shifts.md, by tier), and the
 * order shifts compose in. Adding a shift is its class plus one line in each list (a new shift goes at the end of
 * {@link #LISTED}).
 */
public final class ShiftCatalog {

    /** The catalog as it is listed, by tier. */
    private static final List<Shift> LISTED = List.of(
            // Perception
            Paraphrase.SHIFT, QueryNoise.SHIFT, Redundant.SHIFT, NameNoise.SHIFT, IdentityErasure.SHIFT, SemanticRename.SHIFT,
            SemanticTrap.SHIFT, Distractors.SHIFT, SchemaNoise.SHIFT,
            // Interaction
            FormatChange.SHIFT, MissingValues.SHIFT, NonstandardFeedback.SHIFT, RuntimeErrors.SHIFT, Redirect.SHIFT, Pagination.SHIFT,
            VerificationChange.SHIFT, SetChange.SHIFT, SchemaDrift.SHIFT, AuthExpiry.SHIFT, MalformedOutput.SHIFT, ActionList.SHIFT,
            // Reasoning
            Inversion.SHIFT, ExtraPrerequisite.SHIFT, Conflict.SHIFT, LongerChain.SHIFT, Underspecified.SHIFT, Ambiguous.SHIFT,
            IntentDrift.SHIFT,
            // Internalization
            DomainTransfer.SHIFT, Unsolvable.SHIFT, PolicyUpdate.SHIFT, ToolRemoval.SHIFT,
            // Security
            Injection.SHIFT, PoisonedDescription.SHIFT,
            // The shifts the field reported next (issue 38), in their tiers but listed after the first catalog, so that
            // what is drawn by position over the catalog (the tests' pair seeds, exports' shift draws) stays as it was
            Bare.SHIFT, TypeDrift.SHIFT, QuotaExhausted.SHIFT, NoisyUser.SHIFT, StaleData.SHIFT, Flapping.SHIFT, Latency.SHIFT,
            CascadingFailure.SHIFT, Crowded.SHIFT);

    /**
     * The order layers compose in, innermost first, whatever order a spec writes them in (so {@code a+b}
     * and {@code b+a} are one condition): the environment swap, then what changes the task and the query,
     * the tool set, the input rules, the call protocol, the observation content, the tool names, and the
     * observation format outermost. A shift that injects calls by their base names or reads the
     * environment's facts sits inside every shift that renames, redirects or reformats them.
     */
    private static final List<String> COMPOSITION = List.of(
            "domain.transfer", "task.unsolvable", "query.noisy-user", "logic.longer-chain", "query.underspecified", "query.ambiguous", "query.paraphrase",
            "query.redundant", "query.noise", "query.intent-drift", "tool.crowded", "tool.bare", "tool.removal", "obs.missing-values", "obs.stale-data", "domain.policy-update",
            "obs.injection", "tool.poisoned-description", "obs.latency", "obs.cascading-failure", "logic.inversion", "logic.extra-prerequisite", "obs.auth-expiry", "obs.quota-exhausted",
            "action.verification-change", "obs.redirect", "tool.set-change", "tool.distractors", "obs.pagination",
            "logic.conflict", "obs.runtime-error", "obs.flapping", "obs.schema-drift", "obs.type-drift", "obs.malformed-output", "interface.action-list", "tool.schema-noise",
            "tool.semantic-rename", "tool.semantic-trap", "tool.identity-erasure", "tool.name-noise", "obs.format",
            "obs.nonstandard-feedback");

    private static final Map<String, Shift> ALL = byId();

    private static Map<String, Shift> byId() {
        Map<String, Shift> all = new LinkedHashMap<>();
        for (Shift s : LISTED) {
            if (all.put(s.id(), s) != null) throw new IllegalStateException("duplicate shift " + s.id());
        }
        if (!new HashSet<>(COMPOSITION).equals(all.keySet()) || COMPOSITION.size() != all.size()) {
            throw new IllegalStateException("the composition order must list every shift of the catalog once");
        }
        return java.util.Collections.unmodifiableMap(all);
    }

    private ShiftCatalog() {}

    public static List<Shift> all() { return LISTED; }

    /** The catalog by tier, in the order of {@link Tier} and as listed within one: how people read it. */
    public static List<Shift> byTier() {
        return LISTED.stream().sorted(java.util.Comparator.comparing(Shift::tier)).toList();
    }

    public static List<Shift> tier(Tier tier) {
        return LISTED.stream().filter(s -> s.tier() == tier).toList();
    }

    /** @throws IllegalArgumentException naming the known ids */
    public static Shift get(String id) {
        Shift s = ALL.get(id);
        if (s == null) throw new UserInputException("unknown shift '" + id + "' (see `openagent shifts`)");
        return s;
    }

    /** Where a shift sits in a composed stack, innermost first; shifts outside the catalog (tests) go outermost. */
    public static int order(String id) {
        int i = COMPOSITION.indexOf(id);
        return i < 0 ? COMPOSITION.size() : i;
    }
}
