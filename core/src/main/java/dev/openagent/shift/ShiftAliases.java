package dev.openagent.shift;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Peers' names for our shifts (issue 38): what a team arriving from another benchmark types, and the spec in our
 * catalog's terms it means. {@link ShiftSpec#canonical} replaces a name by its spec once, where a spec is read, so
 * stores, reports, exports and run ids only ever see catalog ids.
 *
 * <p>One table, by peer, rather than a line on each shift's declaration: an alias is a fact about a peer's vocabulary
 * (its source is the peer's code or paper, cited here), several name no single shift ({@code clean} is the static
 * environment, {@code union} three shifts composed), and the mapping is a judgement best read and checked against the
 * sources side by side. Every name was looked up in the peer's own source; a peer's condition with no counterpart in
 * the catalog has no alias (docs/shifts.md lists those).
 *
 * <p>Names are matched ignoring case, and {@code _}, {@code -} and spaces are the same ({@code TOOL_NAME_SCRAMBLED},
 * {@code tool-name-scrambled}, {@code "query rewrite"}).
 */
public final class ShiftAliases {

    /**
     * @param name   the peer's name, as the peer spells it
     * @param means  the spec it stands for, in catalog ids ({@code none} for the static environment)
     * @param peer   whose name it is
     * @param source where the name is defined
     * @param note   where our shift differs from the peer's condition (empty: it does what the peer describes)
     */
    public record Alias(String name, String means, String peer, String source, String note) {}

    private static final String ROTBENCH = "RoTBench";
    private static final String ROTBENCH_SRC = "github.com/Junjie-Ye/RoTBench Code/Data_Process/transformer.py and transform_process.py "
            + "(paper: arXiv 2401.08326)";
    private static final String TOOLSANDBOX = "ToolSandbox";
    private static final String TOOLSANDBOX_SRC = "github.com/apple/ToolSandbox tool_sandbox/common/execution_context.py (ScenarioCategories) "
            + "and tool_sandbox/scenarios/__init__.py (scenario name suffixes)";
    private static final String ADB = "AgentDisruptBench";
    private static final String ADB_SRC = "github.com/Kavirubc/AgentDisruptBench python/agentdisruptbench/core/engine.py (DisruptionType)";
    private static final String RBTC = "RobustBench-TC";
    private static final String RBTC_SRC = "huggingface.co/datasets/robustbench-tc/RobustBench-TC README.md (splits; paper: arXiv 2605.11928)";
    private static final String OPENAGENT = "OpenAgent paper";
    private static final String OPENAGENT_SRC = "the authors' README (LAMDA-NeSy/OpenAgent) as quoted in WAVE3-NOTES.md, and arXiv 2607.01084 "
            + "as summarised in DESIGN.md";

    /** RoTBench's levels, after its transformer.py: each level is a kind of noise of tool names and parameter names. */
    private static final String SLIGHT = "tool.name-noise:severity=2";
    private static final String MEDIUM = "tool.identity-erasure:severity=2";
    private static final String HEAVY = "tool.semantic-trap:severity=3";

    private static final List<Alias> ALL = List.of(
            // RoTBench: Clean / Slight / Medium / Heavy / Union environments
            new Alias("clean", "none", ROTBENCH + ", " + ADB + ", " + RBTC,
                    ROTBENCH_SRC + "; " + ADB + " profile 'clean' (README); " + RBTC + " split 'clean'", ""),
            new Alias("slight", SLIGHT, ROTBENCH, ROTBENCH_SRC,
                    "RoTBench inserts, drops or replaces up to a third of the letters of half the tool (or parameter) names; "
                            + "ours edits every tool name (2 edits) and parameter name (1 edit)"),
            new Alias("medium", MEDIUM, ROTBENCH, ROTBENCH_SRC,
                    "RoTBench gives half the names random letters or reverses them; ours makes every tool and parameter name an opaque id"),
            new Alias("heavy", HEAVY, ROTBENCH, ROTBENCH_SRC,
                    "RoTBench swaps names among tools, or among a tool's parameters; its other heavy noise, an added required "
                            + "parameter to set to a given value, has no counterpart here"),
            new Alias("union", SLIGHT + "+" + MEDIUM + "+" + HEAVY, ROTBENCH, ROTBENCH_SRC,
                    "RoTBench draws one tool-name and one parameter-name level per example; ours composes all three levels, "
                            + "and since identity-erasure sits outside semantic-trap, the opaque ids replace the traded names"),
            // ToolSandbox: tool augmentations (scenario name suffixes)
            new Alias("tool_name_scrambled", "tool.identity-erasure:severity=1", TOOLSANDBOX, TOOLSANDBOX_SRC,
                    "ToolSandbox's generic names keep a hint of the domain (messaging_1); ours are opaque ids"),
            new Alias("arg_name_scrambled", "tool.identity-erasure:severity=2", TOOLSANDBOX, TOOLSANDBOX_SRC,
                    "ToolSandbox keeps the tool names; no shift here makes parameter names opaque alone, so tool names go too"),
            new Alias("tool_description_scrambled", "tool.bare:severity=1", TOOLSANDBOX, TOOLSANDBOX_SRC, ""),
            new Alias("arg_description_scrambled", "tool.bare:severity=2", TOOLSANDBOX, TOOLSANDBOX_SRC,
                    "ToolSandbox keeps the tool descriptions; tool.bare removes them before parameter descriptions"),
            new Alias("3_distraction_tools", "tool.distractors:severity=1", TOOLSANDBOX, TOOLSANDBOX_SRC,
                    "ToolSandbox adds 3 real tools most similar to the needed ones; ours shadows about a third of the tools "
                            + "with near-duplicates (dry runs, queued variants)"),
            new Alias("10_distraction_tools", "tool.distractors:severity=3", TOOLSANDBOX, TOOLSANDBOX_SRC,
                    "ToolSandbox adds 10 similar real tools; ours shadows every tool with a near-duplicate"),
            new Alias("all_tools", "tool.crowded:severity=1", TOOLSANDBOX, TOOLSANDBOX_SRC,
                    "ToolSandbox offers every tool of its sandbox (a few dozen, of all its domains); ours adds 100 tools of the other "
                            + "environments and of generated services (250 and 500 at severity 2 and 3)"),
            // AgentDisruptBench: disruption types
            new Alias("timeout", "obs.runtime-error", ADB, ADB_SRC,
                    "a call fails now and then and succeeds when retried; ours mixes timeouts with 503s, 429s and resets"),
            new Alias("http_429", "obs.runtime-error", ADB, ADB_SRC, "ours mixes 429s with timeouts, 503s and resets"),
            new Alias("http_500", "obs.runtime-error", ADB, ADB_SRC, "ours fails with 503, 504, 429 or a reset, each cured by a retry"),
            new Alias("http_502", "obs.runtime-error", ADB, ADB_SRC, "ours fails with 503, 504, 429 or a reset, each cured by a retry"),
            new Alias("http_503", "obs.runtime-error", ADB, ADB_SRC, "ours mixes 503s with timeouts, 429s and resets"),
            new Alias("intermittent", "obs.runtime-error", ADB, ADB_SRC,
                    "AgentDisruptBench fails every n-th call; ours fails calls at random, at most severity-many times in a row"),
            new Alias("flapping", "obs.flapping", ADB, ADB_SRC,
                    "AgentDisruptBench's tool fails and recovers on a schedule of its own; ours is down k calls, up k calls, "
                            + "per tool from its first call (k and how many tools flap by severity), and says it is flapping"),
            new Alias("latency", "obs.latency", ADB, ADB_SRC,
                    "AgentDisruptBench delays the right result (nothing the agent sees changes); ours times a slow call out "
                            + "until the agent passes a longer documented timeout or, at severity 3, runs it as a job and polls"),
            new Alias("malformed_json", "obs.malformed-output", ADB, ADB_SRC, "ours reaches look-ups only, and a retry succeeds"),
            new Alias("truncated", "obs.malformed-output", ADB, ADB_SRC, "ours cuts results or breaks their syntax; a retry succeeds"),
            new Alias("missing_fields", "obs.missing-values", ADB, ADB_SRC,
                    "ours drops fields of list items, recoverable through the tool that returns the full record"),
            new Alias("schema_drift", "obs.schema-drift", ADB, ADB_SRC,
                    "AgentDisruptBench suffixes keys (_v2, _new); ours wraps results in an envelope and renames keys"),
            new Alias("auth_expiry", "obs.auth-expiry", ADB, ADB_SRC, "ours names the tool that renews the session"),
            new Alias("http_401", "obs.auth-expiry", ADB, ADB_SRC,
                    "AgentDisruptBench answers 401 at random; ours expires the session mid-episode until the agent renews it"),
            new Alias("type_mismatch", "obs.type-drift", ADB, ADB_SRC,
                    "ours also writes times on the 12-hour clock and dates in another form, and at severity 3 flattens nested objects"),
            new Alias("quota_exhausted", "obs.quota-exhausted", ADB, ADB_SRC,
                    "ours lifts once the agent waits out the Retry-After with the listed wait tool; retrying at once keeps failing"),
            new Alias("wrong_data", "obs.stale-data", ADB, ADB_SRC,
                    "AgentDisruptBench perturbs every value of a result (numbers by up to 1000, booleans flipped, texts marked, "
                            + "lists shuffled) with nothing to tell it by; ours keeps ids, texts and the values asked about, puts "
                            + "numbers and times out of date in an answer stamped with an old as_of, and documents fresh=true for the live answer"),
            new Alias("cascading", "obs.cascading-failure", ADB, ADB_SRC,
                    "read from the disruption's name (a failure that carries over to the calls after it); ours invalidates a look-up's "
                            + "result mid-episode so the calls that use it fail with an error naming the look-up to redo, and after the "
                            + "redo they succeed"),
            // RobustBench-TC: perturbation splits
            new Alias("realistic_typos", "query.noise", RBTC, RBTC_SRC, "ours also changes casing, spacing and abbreviations"),
            new Alias("query_paraphrase", "query.paraphrase", RBTC, RBTC_SRC, ""),
            new Alias("paraphrase_parameter_description", "tool.schema-noise:severity=1", RBTC, RBTC_SRC,
                    "ours also reorders the parameters"),
            new Alias("redundant", "tool.distractors:severity=1", RBTC, RBTC_SRC,
                    "RobustBench-TC injects one redundant similar tool; ours shadows about a third of the tools "
                            + "(query.redundant is the redundant request)"),
            // The OpenAgent authors' names for their shifts
            new Alias("query-rewrite", "query.paraphrase", OPENAGENT, OPENAGENT_SRC, ""),
            new Alias("ambiguous-request", "query.ambiguous", OPENAGENT, OPENAGENT_SRC, ""),
            new Alias("underspecified-request", "query.underspecified", OPENAGENT, OPENAGENT_SRC, ""),
            new Alias("redundant-request", "query.redundant", OPENAGENT, OPENAGENT_SRC, ""),
            new Alias("renamed-tools", "tool.identity-erasure", OPENAGENT, OPENAGENT_SRC,
                    "our reading: the tool-identity shift, beside the names listed for noise and semantic renaming"),
            new Alias("tool-name-noise", "tool.name-noise", OPENAGENT, OPENAGENT_SRC, ""),
            new Alias("semantic-renaming", "tool.semantic-rename", OPENAGENT, OPENAGENT_SRC, ""),
            new Alias("noisy-schemas", "tool.schema-noise", OPENAGENT, OPENAGENT_SRC, ""),
            new Alias("distractor-tools", "tool.distractors", OPENAGENT, OPENAGENT_SRC, ""),
            new Alias("changed-verification-codes", "action.verification-change", OPENAGENT, OPENAGENT_SRC, ""),
            new Alias("missing-values", "obs.missing-values", OPENAGENT, OPENAGENT_SRC, ""),
            new Alias("non-standard-feedback", "obs.nonstandard-feedback", OPENAGENT, OPENAGENT_SRC, ""),
            new Alias("runtime-errors", "obs.runtime-error", OPENAGENT, OPENAGENT_SRC, ""),
            new Alias("tool-redirection", "obs.redirect", OPENAGENT, OPENAGENT_SRC, ""),
            new Alias("logic-inversion", "logic.inversion", OPENAGENT, OPENAGENT_SRC, "the paper's name for reversed call dependencies"),
            new Alias("poi-to-medical", "domain.transfer:to=medical", OPENAGENT, OPENAGENT_SRC, "the paper's POI -> medical domain shift"));

    private static final Map<String, Alias> BY_KEY = byKey();

    private static Map<String, Alias> byKey() {
        Map<String, Alias> byKey = new LinkedHashMap<>();
        for (Alias a : ALL) {
            if (byKey.put(key(a.name()), a) != null) throw new IllegalStateException("two aliases are named " + a.name());
            if (ShiftCatalog.all().stream().anyMatch(s -> key(s.id()).equals(key(a.name())))) {
                throw new IllegalStateException("alias " + a.name() + " is a shift id");
            }
            if (List.of("none", "static", "all").contains(key(a.name())) || a.name().contains(":") || a.name().contains("+")
                    || a.name().contains(";") || a.name().contains(",")) {
                throw new IllegalStateException("alias " + a.name() + " reads as spec grammar");
            }
        }
        return java.util.Collections.unmodifiableMap(byKey);
    }

    private ShiftAliases() {}

    /** Every alias, by peer. */
    public static List<Alias> all() { return ALL; }

    /** The alias of this name (ignoring case; {@code _}, {@code -} and spaces alike), if there is one. */
    public static Optional<Alias> find(String name) { return Optional.ofNullable(BY_KEY.get(key(name))); }

    private static String key(String name) {
        return name.strip().toLowerCase(Locale.ROOT).replaceAll("[_\\s-]+", "-");
    }
}
