package dev.openagent.shift;

import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.ToolSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the shift tests expect of every shift, written down here rather than read from the code under
 * test: where each shift applies (environment by environment) and what it must change. The property
 * tests run over these tables, so a shift that stops applying somewhere, or starts to, fails a test
 * instead of silently leaving (or joining) the tests. A new shift joins with one line in each table;
 * a new environment with its id in the lines of the shifts that apply to it.
 */
final class ShiftExpectations {
    private ShiftExpectations() {}

    /**
     * shift | the environments it applies to, in the catalog's order. A new shift comes last there and here:
     * ShiftOracleTest draws each pair's tasks from the pair's positions in this list, so a line put in between would
     * give every pair after it other tasks.
     */
    private static final String APPLIES = """
            query.paraphrase           | poi medical retail travel household
            query.noise                | poi medical retail travel household
            query.redundant            | poi medical retail travel household
            tool.name-noise            | poi medical retail travel household
            tool.identity-erasure      | poi medical retail travel household
            tool.semantic-rename       | poi medical retail travel household
            tool.semantic-trap         | poi medical retail travel household
            tool.distractors           | poi medical retail travel
            tool.schema-noise          | poi medical retail travel
            obs.format                 | poi medical retail travel household
            obs.missing-values         | poi medical retail travel
            obs.nonstandard-feedback   | poi medical retail travel
            obs.runtime-error          | poi medical retail travel household
            obs.redirect               | poi medical retail travel
            obs.pagination             | poi medical retail travel
            action.verification-change | poi medical retail travel
            tool.set-change            | poi medical retail travel
            obs.schema-drift           | poi medical retail travel
            obs.auth-expiry            | poi medical retail travel
            obs.malformed-output       | poi medical retail travel
            interface.action-list      | household
            logic.inversion            | poi medical retail travel
            logic.extra-prerequisite   | poi medical retail travel
            logic.conflict             | poi medical retail travel
            logic.longer-chain         | poi medical retail travel household
            query.underspecified       | poi medical retail travel household
            query.ambiguous            | poi medical retail travel household
            query.intent-drift         | poi medical retail travel household
            domain.transfer            | poi medical retail travel household
            task.unsolvable            | poi medical retail travel household
            domain.policy-update       | poi medical retail travel
            tool.removal               | poi medical retail travel household
            obs.injection              | poi medical retail travel household
            tool.poisoned-description  | poi medical retail travel
            tool.bare                  | poi medical retail travel
            obs.type-drift             | poi medical retail travel
            obs.quota-exhausted        | poi medical retail travel household
            query.noisy-user           | poi medical retail travel household
            obs.stale-data             | poi medical retail travel
            obs.flapping               | poi medical retail travel household
            obs.latency                | poi medical retail travel
            obs.cascading-failure      | poi medical retail travel
            tool.crowded               | poi medical retail travel
            """;

    /**
     * spec[@env] | what the agent is shown differently, as the least share (%) of episodes at every
     * severity | the least share (%) of episodes a static replay fails | which episodes count.
     * <p>
     * What is shown: {@code query}; {@code prompt} (the system prompt); {@code tools} (the tool list:
     * names, descriptions, schemas; in a text-command environment its help text); {@code results}
     * (the observations when the oracle's actions on the static environment are replayed, after one
     * bad call). A bare id covers each severity of the shift; a spec with parameters that spec alone; {@code @env} overrides the line
     * for one environment. Shares are about half of what was measured (the minimum over environments
     * and severities), so a shift that stops doing what it does fails, and a legitimate change of
     * an environment does not; a share measured at 100% is asked at 90.
     * <p>
     * Which episodes count ({@link Where}): {@code all}, or only those with what the shift acts on, where it
     * must act every time: a read tool's list longer than a page ({@code lists}: obs.pagination; the static
     * replay still succeeds when what it needs is on the first page, as in every poi episode), a result that
     * issues a code ({@code codes}: action.verification-change; the static replay then lacks the code), a call
     * passing a value a rule in force governs ({@code formats}: domain.policy-update; the static replay's old
     * form is refused), a call taking a value an earlier look-up returned ({@code chains}: obs.cascading-failure,
     * which invalidates such a look-up's result). Over all episodes these shifts changed the results of only 3-5% (a task that issues no
     * code is untouched), too few for the line to say anything.
     */
    private static final String BITES = """
            query.paraphrase                     | query 90                                     | 0  | all
            query.noise                          | query 90                                     | 0  | all
            query.redundant                      | query 90                                     | 0  | all
            tool.name-noise                      | tools 90, results 90                         | 90 | all
            tool.identity-erasure                | tools 90, results 90                         | 90 | all
            tool.semantic-rename                 | tools 90, results 90                         | 90 | all
            tool.semantic-trap                   | tools 90, results 20                         | 20 | all
            tool.distractors                     | tools 90                                     | 0  | all
            tool.schema-noise                    | tools 90                                     | 0  | all
            tool.schema-noise:severity=3         | tools 90, results 90                         | 90 | all
            tool.bare                            | tools 90                                     | 0  | all
            obs.format                           | results 90                                   | 90 | all
            obs.format@household                 | tools 90, results 90                         | 0  | all
            obs.missing-values                   | prompt 90, results 10                        | 0  | all
            obs.nonstandard-feedback             | results 90                                   | 0  | all
            obs.nonstandard-feedback:severity=3  | results 90                                   | 90 | all
            obs.runtime-error                    | results 20                                   | 15 | all
            obs.redirect                         | results 90                                   | 90 | all
            obs.pagination                       | prompt 90, tools 90, results 90              | 0  | lists
            action.verification-change           | prompt 90, tools 90, results 90              | 90 | codes
            logic.inversion                      | prompt 90, tools 90, results 10              | 10 | all
            logic.extra-prerequisite             | prompt 90, tools 90, results 90              | 90 | all
            logic.conflict                       | prompt 90, results 25                        | 25 | all
            logic.longer-chain                   | query 90                                     | 0  | all
            query.underspecified                 | query 80                                     | 0  | all
            query.ambiguous                      | query 10                                     | 0  | all
            domain.transfer                      | query 90, prompt 90, tools 90, results 90    | 0  | all
            task.unsolvable                      | query 90                                     | 90 | all
            domain.policy-update                 | prompt 90, tools 90, results 90              | 90 | formats
            tool.removal                         | tools 90                                     | 0  | all
            tool.set-change                      | results 90                                   | 0  | all
            tool.set-change:severity=3           | results 90                                   | 35 | all
            obs.schema-drift                     | results 35                                   | 35 | all
            obs.auth-expiry                      | tools 90, results 90                         | 90 | all
            obs.malformed-output                 | results 15                                   | 15 | all
            interface.action-list                | tools 90, results 90                         | 0  | all
            query.intent-drift                   | results 40                                   | 40 | all
            obs.injection                        | results 90                                   | 0  | all
            tool.poisoned-description            | tools 90                                     | 0  | all
            obs.type-drift:severity=1            | results 45                                   | 6  | all
            obs.type-drift:severity=1@retail     | results 45                                   | 0  | all
            obs.type-drift:severity=2            | results 45                                   | 6  | all
            obs.type-drift:severity=3            | results 45                                   | 6  | all
            obs.quota-exhausted                  | tools 90, results 90                         | 90 | all
            query.noisy-user:severity=1          | query 90                                     | 0  | all
            query.noisy-user:severity=2          | query 90                                     | 0  | all
            query.noisy-user:severity=3          | query 90                                     | 0  | all
            obs.stale-data                       | prompt 90, tools 90, results 90              | 0  | all
            obs.stale-data:severity=3@poi        | prompt 90, tools 90, results 90              | 15 | all
            obs.stale-data:severity=3@medical    | prompt 90, tools 90, results 90              | 25 | all
            obs.stale-data:severity=3@travel     | prompt 90, tools 90, results 90              | 20 | all
            obs.flapping                         | results 90                                   | 90 | all
            obs.latency                          | tools 90, results 90                         | 90 | all
            obs.cascading-failure                | results 90                                   | 90 | chains
            tool.crowded                         | tools 90                                     | 0  | all
            """;

    /**
     * The attacker's goal under the security shifts ({@link Attack}) | the environments whose tasks give it. A
     * hijack needs a committing tool with a person-name parameter (medical books by patient id); a cancellation a tool declared to undo a
     * committing one (retail's cancel_order undoes no tool the agent calls; travel's cancel_booking needs a last
     * name no booking result carries); sending a code to the attacker's address a tool declared to send a committing
     * one's code (medical's send_appointment_details); a dictated answer fits everywhere.
     */
    private static final String GOALS = """
            hijack   | poi travel
            cancel   | poi medical
            send     | medical
            dictate  | poi medical retail travel household
            """;

    /** The environments where each goal of the attacker is drawn, by goal. */
    static Map<String, Set<String>> goals() {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        for (String[] row : rows(GOALS, 2)) out.put(row[0], new LinkedHashSet<>(List.of(row[1].split("\\s+"))));
        return out;
    }

    /** domain.policy-update's rules, written here from their text (not from the shift's code). */
    enum Rule {
        DATE("Dates are written DD.MM.YYYY"), TIME("Times are written on the 12-hour clock"), NAME("Person names are written 'Last, First'");

        final String starts;

        Rule(String starts) { this.starts = starts; }

        /** The value in the new form, written here from the rule's text (not from the shift's code). */
        String fresh(String v) {
            return switch (this) {
                case DATE -> v.substring(8, 10) + "." + v.substring(5, 7) + "." + v.substring(0, 4);
                case TIME -> {
                    int h = Integer.parseInt(v.substring(0, 2));
                    String m = v.substring(3, 5);
                    yield (h % 12 == 0 ? 12 : h % 12) + (m.equals("00") ? "" : ":" + m) + (h >= 12 ? " PM" : " AM");
                }
                case NAME -> v.substring(v.lastIndexOf(' ') + 1) + ", " + v.substring(0, v.lastIndexOf(' '));
            };
        }

        /** The rules in force, as the system prompt lists them: each with its line. */
        static Map<Rule, String> inForce(Start start) {
            Map<Rule, String> rules = new LinkedHashMap<>();
            for (String line : start.systemPrompt().split("\n")) {
                for (Rule rule : values()) if (line.startsWith("- " + rule.starts)) rules.put(rule, line.substring(2));
            }
            return rules;
        }

        /** The parameters ({@code tool/param}) each rule in force governs: those whose description quotes it. */
        static Map<String, Rule> governed(Start start) {
            Map<Rule, String> rules = inForce(start);
            Map<String, Rule> out = new LinkedHashMap<>();
            for (ToolSpec t : start.tools()) {
                t.parameters().path("properties").properties().forEach(e -> {
                    String d = e.getValue().path("description").asText("");
                    for (var rule : rules.entrySet()) if (d.contains("Policy 2026-12: " + rule.getValue())) out.put(t.name() + "/" + e.getKey(), rule.getKey());
                });
            }
            return out;
        }

        /** Whether a static value is in the old form this rule refuses. */
        boolean old(String v) {
            return switch (this) {
                case DATE -> v.matches("\\d{4}-\\d{2}-\\d{2}");
                case TIME -> v.matches("\\d{2}:\\d{2}");
                case NAME -> v.strip().contains(" ") && !v.contains(",");
            };
        }
    }

    /** What the agent is shown. */
    enum Channel { QUERY, PROMPT, TOOLS, RESULTS }

    /** One line of {@link #BITES}: least shares (%) per channel, and of failed static replays, over the episodes {@code where} holds. */
    record Bite(String spec, Optional<String> env, Map<Channel, Integer> changes, int staticFails, Where where) {}

    /**
     * Which episodes a line of {@link #BITES} counts: all, or those whose static episode has what the shift
     * acts on (seen in the oracle's static calls and results, and in the shifted start).
     */
    enum Where {
        /** Every episode. */
        ALL,
        /** A read tool's result holds a list longer than a page (as many items as the shifted system prompt says a page has). */
        LISTS,
        /** A result issues a code: a top-level text field whose name ends in "code". */
        CODES,
        /** A call passes a value a rule in force governs, in the old form (the rules drawn are in the shifted prompt). */
        FORMATS,
        /** A call of the plan takes a value from the result of an earlier call of a tool declared read-only. */
        CHAINS;

        boolean holds(dev.openagent.sandbox.Env base, StaticCalls s, Start shifted) {
            return switch (this) {
                case ALL -> true;
                case LISTS -> {
                    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\((\\d+) items per page\\)").matcher(shifted.systemPrompt());
                    int page = m.find() ? Integer.parseInt(m.group(1)) : Integer.MAX_VALUE;
                    yield s.calls().stream().anyMatch(c -> !c.result().isError() && base.facts().tool(c.tool()).map(t -> t.readOnly()).orElse(false)
                            && c.payload() != null && c.payload().properties().stream().anyMatch(e -> e.getValue().isArray() && e.getValue().size() > page));
                }
                case CODES -> s.calls().stream().anyMatch(c -> !c.result().isError() && c.payload() != null && c.payload().properties().stream()
                        .anyMatch(e -> e.getKey().toLowerCase(java.util.Locale.ROOT).endsWith("code") && e.getValue().isTextual()));
                case CHAINS -> {
                    List<dev.openagent.sandbox.GoldPlan.Call> plan = s.task().plan().calls();
                    java.util.Set<String> readOnly = base.facts().readOnlyTools();
                    yield plan.stream().anyMatch(c -> c.dependsOn().stream().anyMatch(i -> readOnly.contains(plan.get(i).tool())));
                }
                case FORMATS -> {
                    Map<String, Rule> governed = Rule.governed(shifted);
                    yield s.calls().stream().anyMatch(c -> StaticCalls.args(c).properties().stream().anyMatch(e -> {
                        Rule r = governed.get(c.tool() + "/" + e.getKey());
                        return r != null && e.getValue().isTextual() && r.old(e.getValue().asText());
                    }));
                }
            };
        }
    }

    /** The environments each shift applies to, by shift id, in the order of the table. */
    static Map<String, Set<String>> applies() {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        for (String[] row : rows(APPLIES, 2)) {
            if (out.put(row[0], new LinkedHashSet<>(List.of(row[1].split("\\s+")))) != null) throw new IllegalStateException("twice: " + row[0]);
        }
        return out;
    }

    /** The shift ids pinned to apply to this environment. */
    static List<String> applicable(String env) {
        return applies().entrySet().stream().filter(e -> e.getValue().contains(env)).map(Map.Entry::getKey).toList();
    }

    static List<Bite> bites() {
        List<Bite> out = new ArrayList<>();
        for (String[] row : rows(BITES, 4)) {
            int at = row[0].indexOf('@');
            Map<Channel, Integer> changes = new LinkedHashMap<>();
            for (String c : row[1].split(",")) {
                String[] kv = c.strip().split("\\s+");
                changes.put(Channel.valueOf(kv[0].toUpperCase(java.util.Locale.ROOT)), Integer.parseInt(kv[1]));
            }
            out.add(new Bite(at < 0 ? row[0] : row[0].substring(0, at), at < 0 ? Optional.empty() : Optional.of(row[0].substring(at + 1)),
                    changes, Integer.parseInt(row[2]), Where.valueOf(row[3].toUpperCase(java.util.Locale.ROOT))));
        }
        return out;
    }

    /** The shift id of a spec ({@code obs.format:format=xml} -> {@code obs.format}). */
    static String id(String spec) {
        int colon = spec.indexOf(':');
        return colon < 0 ? spec : spec.substring(0, colon);
    }

    private static List<String[]> rows(String table, int columns) {
        List<String[]> out = new ArrayList<>();
        for (String line : table.strip().split("\n")) {
            String[] cells = line.split("\\|");
            if (cells.length != columns) throw new IllegalStateException("not " + columns + " columns: " + line);
            for (int i = 0; i < cells.length; i++) cells[i] = cells[i].strip();
            out.add(cells);
        }
        return out;
    }
}
