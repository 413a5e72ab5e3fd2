package dev.openagent.shift;

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

    /** shift | the environments it applies to. */
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
            """;

    /**
     * spec[@env] | what the agent is shown differently, as the least share (%) of episodes at every
     * severity | the least share (%) of episodes a static replay fails.
     * <p>
     * What is shown: {@code query}; {@code prompt} (the system prompt); {@code tools} (the tool list:
     * names, descriptions, schemas; in a text-command environment its help text); {@code results}
     * (the observations when the oracle's actions on the static environment are replayed, after one
     * bad call). A bare id covers each severity of the shift; a spec with parameters that spec alone; {@code @env} overrides the line
     * for one environment. Shares are about half of what was measured (the minimum over environments
     * and severities), so a shift that stops doing what it does fails, and a legitimate change of
     * an environment does not.
     */
    private static final String BITES = """
            query.paraphrase                     | query 90                                     | 0
            query.noise                          | query 90                                     | 0
            query.redundant                      | query 90                                     | 0
            tool.name-noise                      | tools 90, results 90                         | 90
            tool.identity-erasure                | tools 90, results 90                         | 90
            tool.semantic-rename                 | tools 90, results 90                         | 90
            tool.semantic-trap                   | tools 90, results 20                         | 20
            tool.distractors                     | tools 90                                     | 0
            tool.schema-noise                    | tools 90                                     | 0
            tool.schema-noise:severity=3         | tools 90, results 90                         | 90
            obs.format                           | results 90                                   | 90
            obs.format@household                 | tools 90, results 90                         | 0
            obs.missing-values                   | prompt 90, results 10                        | 0
            obs.nonstandard-feedback             | results 90                                   | 0
            obs.nonstandard-feedback:severity=3  | results 90                                   | 90
            obs.runtime-error                    | results 20                                   | 15
            obs.redirect                         | results 90                                   | 90
            obs.pagination                       | prompt 90, tools 90, results 3               | 0
            obs.pagination@poi                   | prompt 90, tools 90                          | 0
            action.verification-change           | prompt 90, tools 90, results 4               | 4
            logic.inversion                      | prompt 90, tools 90, results 10              | 10
            logic.extra-prerequisite             | prompt 90, tools 90, results 90              | 90
            logic.conflict                       | prompt 90, results 25                        | 25
            logic.longer-chain                   | query 90                                     | 0
            query.underspecified                 | query 80                                     | 0
            query.ambiguous                      | query 10                                     | 0
            domain.transfer                      | query 90, prompt 90, tools 90, results 90    | 0
            task.unsolvable                      | query 90                                     | 90
            domain.policy-update                 | prompt 90, tools 90, results 5               | 5
            tool.removal                         | tools 90                                     | 0
            tool.set-change                      | results 90                                   | 0
            tool.set-change:severity=3           | results 90                                   | 35
            obs.schema-drift                     | results 35                                   | 35
            obs.auth-expiry                      | tools 90, results 90                         | 90
            obs.malformed-output                 | results 15                                   | 15
            interface.action-list                | tools 90, results 90                         | 0
            query.intent-drift                   | results 40                                   | 40
            obs.injection                        | results 90                                   | 0
            tool.poisoned-description            | tools 90                                     | 0
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

    /** What the agent is shown. */
    enum Channel { QUERY, PROMPT, TOOLS, RESULTS }

    /** One line of {@link #BITES}: least shares (%) per channel, and of failed static replays. */
    record Bite(String spec, Optional<String> env, Map<Channel, Integer> changes, int staticFails) {}

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
        for (String[] row : rows(BITES, 3)) {
            int at = row[0].indexOf('@');
            Map<Channel, Integer> changes = new LinkedHashMap<>();
            for (String c : row[1].split(",")) {
                String[] kv = c.strip().split("\\s+");
                changes.put(Channel.valueOf(kv[0].toUpperCase(java.util.Locale.ROOT)), Integer.parseInt(kv[1]));
            }
            out.add(new Bite(at < 0 ? row[0] : row[0].substring(0, at), at < 0 ? Optional.empty() : Optional.of(row[0].substring(at + 1)),
                    changes, Integer.parseInt(row[2])));
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
