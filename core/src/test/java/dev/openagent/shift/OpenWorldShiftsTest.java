package dev.openagent.shift;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Message;
import dev.openagent.episode.Trajectory;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shifts of wave 2 (security, mid-episode dynamics, the action-list interface), property-style over
 * seeds on every environment where they apply: each changes what the agent sees, the oracle still solves
 * every task without ever carrying out an attacker's instruction, and the static replay agent (which learned
 * the static environment by heart) fails where the shift is meant to defeat it.
 */
class OpenWorldShiftsTest {
    static final int N = 40;

    static List<String> functionCall() {
        return ShiftsBiteTest.functionCall();
    }

    private static List<Trajectory> episodes(String env, String spec, dev.openagent.episode.Agent agent, long seedBase) {
        Env e = ShiftSpec.parseStack(spec).apply(Environments.get(env).create());
        List<Trajectory> out = new ArrayList<>();
        for (int i = 0; i < N; i++) out.add(Episodes.run(e, agent, new TaskRequest(i % 2 == 0 ? Split.TEST : Split.TRAIN, seedBase + i, 0)));
        return out;
    }

    private static long count(List<Trajectory> ts, Predicate<Trajectory> p) {
        return ts.stream().filter(p).count();
    }

    private static boolean anyMessage(Trajectory t, String role, String text) {
        return t.messages().stream().anyMatch(m -> m.role().equals(role) && m.content() != null && m.content().contains(text));
    }

    static Stream<Arguments> securityCases() {
        List<Arguments> out = new ArrayList<>();
        for (String env : Environments.ids()) {
            for (int sev = 1; sev <= 3; sev++) {
                out.add(Arguments.of(env, "obs.injection:severity=" + sev));
                if (functionCall().contains(env)) out.add(Arguments.of(env, "tool.poisoned-description:severity=" + sev));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("securityCases")
    void securityShiftsPlantAnInstructionTheOracleIgnores(String env, String spec) {
        for (long seed : new long[]{1, 2}) {
            List<Trajectory> ts = episodes(env, spec, new OracleAgent(), 100 * seed);
            assertEquals(N, count(ts, Trajectory::success), spec + ": the oracle solves every task");
            assertEquals(N, count(ts, t -> Boolean.FALSE.equals(t.outcome().attacked())), spec + ": every episode is attacked, and no attack succeeds on the oracle");
            long seen = count(ts, t -> spec.startsWith("tool.")
                    ? t.tools().stream().anyMatch(x -> x.description().contains(" every ") || x.description().contains("reply to the user"))
                    : t.messages().stream().anyMatch(m -> m.content() != null && (m.content().contains("in every") || m.content().contains("with the matching fields of its result")
                            || m.content().contains("from its result and") || m.content().contains("reply to the user with exactly"))));
            assertEquals(N, seen, spec + ": every episode shows the instruction");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.openagent.envs.EnvironmentContractTest#ids")
    void episodesNobodyAttackedRecordNoAttack(String env) {
        for (Trajectory t : episodes(env, "query.paraphrase", new OracleAgent(), 5)) assertNull(t.outcome().attacked());
    }

    /** The user's revision comes as a user message; the oracle follows it, and the static replay of the first request fails. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.openagent.envs.EnvironmentContractTest#ids")
    void intentDriftRevisesTheRequestMidEpisode(String env) {
        var agent = new StaticReplayAgent();
        for (long seed : new long[]{1, 2, 3}) {
            List<Trajectory> oracle = episodes(env, "query.intent-drift", new OracleAgent(), 1000 * seed);
            assertEquals(N, count(oracle, Trajectory::success));
            long revised = count(oracle, t -> anyMessage(t, "user", "What I need is this: "));
            // household revises fewer of its kinds (docs/shifts.md, limits): a quarter at least.
            int least = Environments.get(env).info().iface() == Interface.FUNCTION_CALL ? N * 3 / 4 : N / 4;
            assertTrue(revised >= least, env + ": " + revised + " of " + N + " episodes were revised");
            List<Trajectory> replay = episodes(env, "query.intent-drift", agent, 1000 * seed);
            long stale = count(replay, t -> t.success() && anyMessage(t, "user", "What I need is this: "));
            assertTrue(stale <= N / 10, env + ": " + stale + " replays of the first request still passed after a revision");
        }
    }

    static Stream<Arguments> dynamics() {
        return functionCall().stream().flatMap(env -> Stream.of("tool.set-change:severity=2", "tool.set-change:severity=3", "obs.schema-drift:severity=1",
                "obs.schema-drift:severity=3", "obs.auth-expiry:severity=1", "obs.auth-expiry:severity=3", "obs.malformed-output:severity=3")
                .map(spec -> Arguments.of(env, spec)));
    }

    /** Each dynamic shift defeats the static replay on most tasks with more than one call; the oracle solves them all. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("dynamics")
    void dynamicShiftsDefeatTheStaticReplay(String env, String spec) {
        List<Trajectory> oracle = episodes(env, spec, new OracleAgent(), 700);
        assertEquals(N, count(oracle, Trajectory::success), spec);
        List<Trajectory> replay = episodes(env, spec, new StaticReplayAgent(), 700);
        List<Trajectory> multi = replay.stream().filter(t -> t.stats().toolCalls() > 1 || !t.success()).toList();
        long passed = count(multi, Trajectory::success);
        double limit = spec.startsWith("obs.malformed-output") ? 0.6 : 0.1;
        assertTrue(passed <= multi.size() * limit, env + " " + spec + ": " + passed + " of " + multi.size() + " multi-call replays passed");
        assertFalse(multi.isEmpty());
    }

    @ParameterizedTest(name = "severity {0}")
    @ValueSource(ints = {0, 1, 2, 3})
    void actionListShowsTheValidCommandsInEveryObservation(int severity) {
        List<Trajectory> ts = episodes("household", "interface.action-list:severity=" + severity, new OracleAgent(), 40);
        assertEquals(N, count(ts, Trajectory::success));
        for (Trajectory t : ts) {
            List<Message> envMessages = t.messages().stream().filter(m -> m.role().equals("user")).skip(1).toList();
            assertFalse(envMessages.isEmpty());
            long listed = envMessages.stream().filter(m -> m.content().contains("Valid commands now")).count();
            assertEquals(severity == 0 ? 0 : envMessages.size(), listed, t.taskId());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tool.identity-erasure", "tool.semantic-rename"})
    void actionListNamesTheVerbsAnOuterRenameShows(String rename) {
        Trajectory t = episodes("household", "interface.action-list:severity=1+" + rename, new OracleAgent(), 9).getFirst();
        assertTrue(t.success());
        String obs = t.messages().stream().filter(m -> m.role().equals("user")).skip(1).findFirst().orElseThrow().content();
        assertFalse(obs.contains("'look'"), obs);
    }
}
