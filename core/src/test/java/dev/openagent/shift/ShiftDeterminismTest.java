package dev.openagent.shift;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.registry.Environments;
import dev.openagent.episode.AgentSession;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The same seed gives the same shifted episode (prompt, query, tools, observations); other seeds give
 * others. Every shift on every environment it applies to (poi with more seeds).
 */
class ShiftDeterminismTest {
    static Stream<Arguments> shifts() {
        return Environments.ids().stream().flatMap(e -> ShiftExpectations.applicable(e).stream().map(s -> Arguments.of(e, s)));
    }

    /** Everything the agent is shown in an oracle episode, and the shift records. */
    static String fingerprint(Env env, TaskRequest request) {
        Start start = env.reset(request);
        StringBuilder sb = new StringBuilder(Json.write(start));
        AgentSession oracle = new OracleAgent().begin(start, env);
        Step last = null;
        do {
            last = env.step(oracle.act(last));
            last.observations().forEach(o -> sb.append('\n').append(o.text()));
        } while (!last.done());
        sb.append('\n').append(Json.write(env.spec()));
        return sb.toString();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("shifts")
    void theSameSeedGivesTheSameShiftedEpisode(String envId, String id) {
        ShiftStack stack = ShiftSpec.parseStack(id);
        Env a = stack.apply(Environments.get(envId).create());
        Env b = stack.apply(Environments.get(envId).create());
        Set<String> seen = new HashSet<>();
        int seeds = envId.equals("poi") ? 25 : 10;
        for (long seed = 0; seed < seeds; seed++) {
            TaskRequest r = new TaskRequest(seed % 2 == 0 ? Split.TEST : Split.TRAIN, seed, 0);
            String first = fingerprint(a, r);
            assertEquals(first, fingerprint(b, r), id + ": a fresh instance replays seed " + seed + " exactly");
            seen.add(first);
        }
        // Replaying on the same instance after other episodes gives the same episode too.
        assertEquals(fingerprint(b, new TaskRequest(Split.TEST, 0, 0)), fingerprint(a, new TaskRequest(Split.TEST, 0, 0)));
        assertEquals(seeds, seen.size(), id + ": different seeds give different episodes");
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = ';', value = {
            "poi;query.noise:severity=3+obs.runtime-error+obs.format+logic.extra-prerequisite:severity=3",
            "medical;logic.inversion+obs.missing-values:severity=3+tool.removal+logic.longer-chain:severity=2",
            "household;tool.semantic-trap+obs.format:severity=3+obs.runtime-error+logic.longer-chain:severity=2",
            "retail;domain.transfer:to=household+tool.name-noise+query.redundant"})
    void aTrajectoryReplaysFromItsRecordedShiftStack(String envId, String spec) {
        var poi = Environments.get(envId);
        ShiftStack stack = ShiftSpec.parseStack(spec);
        for (long seed = 0; seed < 10; seed++) {
            TaskRequest r = new TaskRequest(Split.TRAIN, seed, 0);
            var first = dev.openagent.episode.Episodes.run(stack.apply(poi.create()), new OracleAgent(), r);
            ShiftStack recorded = ShiftSpec.parseStack(first.shiftSpec());
            var again = dev.openagent.episode.Episodes.run(recorded.apply(poi.create()), new OracleAgent(), new TaskRequest(Split.parse(first.split()), first.seed(), 0));
            assertEquals(first.toJson(), again.toJson());
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("shifts")
    void shiftSeedsDependOnTheEpisodeAndTheSpec(String envId, String id) {
        Env env = ShiftSpec.parseStack(id).apply(Environments.get(envId).create());
        Set<Long> seeds = new HashSet<>();
        for (long seed = 0; seed < 10; seed++) {
            env.reset(new TaskRequest(Split.TEST, seed, 0));
            var records = env.spec().shifts();
            assertEquals(List.of(id), records.stream().map(r -> r.id()).toList());
            seeds.add(records.getFirst().seed());
        }
        assertTrue(seeds.size() == 10, id + ": each episode has its own shift seed");
    }
}
