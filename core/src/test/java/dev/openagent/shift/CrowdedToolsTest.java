package dev.openagent.shift;

import dev.openagent.episode.Agent;
import dev.openagent.episode.Episodes;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * tool.crowded, written from its documentation, on every function-call environment at every severity: 100 / 250 /
 * 500 tools are added (severity 1-3), the real ones keep their names, descriptions, schemas and order among
 * themselves with {@code ask_user} last, none added is a near-duplicate of a real one (half its description's words in
 * common), some come from the other environments and some from other services, and the added tools are spread among
 * the real ones. Calling one never reaches the service, so a plan that picks each tool by its static place in the list
 * fails; and a retriever that ranks tools by the words they share with the request has the plan's first tool in its top
 * five measurably less often. Names are kept, so the static replay by name still succeeds (ShiftExpectations' line asks
 * 0 of it); that the oracle and the view check solve every task is ShiftOracleTest's. (Mutations tried: the added tools
 * put after the real ones instead of among them, 28 failures of 36; the near-duplicate filter counting words of any
 * length but a few stop words, 8: travel's cancel_booking crowded poi's cancel_reservation.)
 */
class CrowdedToolsTest {
    static final int EPISODES = 20;

    static Stream<Arguments> envsAndSeverities() {
        return ShiftsBiteTest.functionCall().stream().flatMap(e -> Stream.of(1, 2, 3).map(s -> Arguments.of(e, s)));
    }

    private static int added(int severity) {
        return switch (severity) { case 1 -> 100; case 2 -> 250; default -> 500; };
    }

    private static TaskRequest request(int i) {
        return new TaskRequest(i % 2 == 0 ? Split.TEST : Split.TRAIN, 900 + i, i % 5);
    }

    @ParameterizedTest(name = "{0} severity {1}")
    @MethodSource("envsAndSeverities")
    void theListIsCrowdedTheRealToolsStay(String envId, int severity) {
        Env plain = Environments.get(envId).create();
        Env crowded = ShiftMechanismsTest.shifted(envId, "tool.crowded:severity=" + severity);
        Set<String> otherEnvTools = new HashSet<>();
        Environments.declaredTools().forEach((id, tools) -> { if (!id.equals(envId)) tools.forEach(t -> otherEnvTools.add(t.description())); });
        for (int i = 0; i < 6; i++) {
            Start before = plain.reset(request(i));
            Start after = crowded.reset(request(i));
            assertEquals(before.tools().size() + added(severity), after.tools().size(), "tools added at severity " + severity);
            Map<String, ToolSpec> shown = new HashMap<>();
            after.tools().forEach(t -> assertTrue(shown.put(t.name(), t) == null, "one tool per name: " + t.name()));
            assertEquals(before.tools(), after.tools().stream().filter(t -> before.tools().contains(t)).toList(),
                    "the real tools, unchanged and in their order");
            assertEquals(Protocol.ASK_USER, after.tools().getLast().name(), "ask_user stays last");
            List<ToolSpec> extra = after.tools().stream().filter(t -> !before.tools().contains(t)).toList();
            int borrowed = 0;
            for (ToolSpec x : extra) {
                if (otherEnvTools.contains(x.description())) borrowed++;
                assertFalse(x.description().isBlank(), x.name() + " says what it does");
                for (ToolSpec real : before.tools()) {
                    if (real.name().equals(Protocol.ASK_USER)) continue;
                    Set<String> shared = meaningful(x.description());
                    shared.retainAll(meaningful(real.description()));
                    assertTrue(2 * shared.size() < meaningful(x.description()).size() && 2 * shared.size() < meaningful(real.description()).size(),
                            x.name() + " is a near-duplicate of " + real.name() + ": " + shared);
                }
            }
            assertTrue(borrowed > 0 && borrowed < extra.size(), "other environments' tools and other services' tools: " + borrowed + " of " + extra.size());
            // Spread: the first real tool is not first, and an added tool sits between the first and the last real one.
            int first = after.tools().indexOf(before.tools().getFirst());
            int last = after.tools().indexOf(before.tools().get(before.tools().size() - 2));
            assertTrue(last - first + 1 > before.tools().size() - 1, "added tools among the real ones");
            assertEquals(before.systemPrompt(), after.systemPrompt());
            assertEquals(before.query(), after.query());
        }
    }

    /**
     * An agent that learned the static tool list by position (the third tool books) calls whatever now sits there: an
     * added tool, which never reaches the service. Under the static list it solves every task.
     */
    @ParameterizedTest(name = "{0} severity {1}")
    @MethodSource("envsAndSeverities")
    void aPlanThatPicksToolsByPositionFails(String envId, int severity) {
        Env plain = Environments.get(envId).create();
        Env crowded = ShiftMechanismsTest.shifted(envId, "tool.crowded:severity=" + severity);
        int staticOk = 0;
        int shiftedOk = 0;
        for (int i = 0; i < EPISODES; i++) {
            List<String> staticNames = plain.reset(request(i)).tools().stream().map(ToolSpec::name).toList();
            if (Episodes.run(plain, byPosition(staticNames), request(i)).success()) staticOk++;
            if (Episodes.run(crowded, byPosition(staticNames), request(i)).success()) shiftedOk++;
        }
        assertEquals(EPISODES, staticOk, "by position is by name on the static list");
        assertTrue(shiftedOk <= EPISODES / 10, "by position under the shift: " + shiftedOk + " of " + EPISODES);
    }

    /**
     * A retriever that ranks tools by the words they share with the request, name and description (as agents that
     * pre-select tools do), finds the plan's first tool first less often in the crowded list.
     */
    @ParameterizedTest(name = "{0} severity {1}")
    @MethodSource("envsAndSeverities")
    void aRetrieverByWordsIsConfused(String envId, int severity) {
        Env plain = Environments.get(envId).create();
        Env crowded = ShiftMechanismsTest.shifted(envId, "tool.crowded:severity=" + severity);
        int n = 60;
        int[] staticTop = new int[3];
        int[] shiftedTop = new int[3];
        int[] ks = {1, 3, 5};
        for (int i = 0; i < n; i++) {
            Start before = plain.reset(request(i));
            String first = plain.task().plan().calls().stream().map(GoldPlan.Call::tool).filter(t -> !Protocol.ASK_USER.equals(t)).findFirst().orElseThrow();
            Start after = crowded.reset(request(i));
            int rb = rank(before, first);
            int ra = rank(after, first);
            for (int k = 0; k < 3; k++) {
                if (rb < ks[k]) staticTop[k]++;
                if (ra < ks[k]) shiftedTop[k]++;
            }
        }
        // Measured: of 60 episodes, the plan's first tool was in the top five 20-48 times on the static lists, and 3-15
        // fewer times crowded (medical the least: 20 -> 15).
        assertTrue(shiftedTop[2] <= staticTop[2] - 3, "in the top five crowded " + shiftedTop[2] + " vs static " + staticTop[2]);
        assertTrue(shiftedTop[0] <= staticTop[0], "first crowded " + shiftedTop[0] + " vs static " + staticTop[0]);
    }

    /** Where the tool comes in the ranking by words shared with the request (ties: the first listed first). */
    private static int rank(Start start, String tool) {
        Set<String> q = words(start.query());
        List<Map.Entry<String, Integer>> scored = new ArrayList<>();
        for (ToolSpec t : start.tools()) {
            if (t.name().equals(Protocol.ASK_USER)) continue;
            Set<String> w = words(t.name().replace('_', ' ') + " " + t.description());
            w.retainAll(q);
            scored.add(Map.entry(t.name(), w.size()));
        }
        List<String> ranked = scored.stream().sorted((a, b) -> Integer.compare(b.getValue(), a.getValue())).map(Map.Entry::getKey).toList();
        return ranked.indexOf(tool);
    }

    private static Set<String> words(String text) {
        Set<String> out = new HashSet<>();
        for (String w : text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) if (w.length() > 2) out.add(w);
        return out;
    }

    /** The words of four letters or more (what a description says, its "the", "for" and "from" aside). */
    private static Set<String> meaningful(String text) {
        Set<String> out = words(text);
        out.removeIf(w -> w.length() < 4);
        return out;
    }

    /** The static replay with each tool taken by its position in the static tool list. */
    private static Agent byPosition(List<String> staticNames) {
        return new StaticReplayAgent((start, tool) -> start.tools().get(staticNames.indexOf(tool)).name());
    }
}
