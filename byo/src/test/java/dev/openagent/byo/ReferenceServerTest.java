package dev.openagent.byo;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.run.Conditions;
import dev.openagent.run.TaskPlan;
import dev.openagent.run.Validation;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The two examples against the real official servers: the oracle and the view check through every applicable shift, state checks, workdirs. */
class ReferenceServerTest {
    static FileEnvironment files;
    static FileEnvironment memory;

    @BeforeAll
    static void load() {
        ReferenceServers.require();
        files = FileEnvironment.load(ReferenceServers.FILESYSTEM);
        memory = FileEnvironment.load(ReferenceServers.MEMORY);
    }

    @AfterAll
    static void stop() {
        if (files != null) files.close();
        if (memory != null) memory.close();
    }

    @Test
    void theOracleAndTheViewCheckSolveOrRefuseEveryTaskUnderEveryApplicableShift() {
        for (FileEnvironment env : List.of(files, memory)) {
            Conditions c = Conditions.of("all", env, false);
            assertTrue(c.stacks().size() >= 20, env.id() + ": " + c.skipped());
            List<String> failed = new ArrayList<>();
            for (ShiftStack s : c.stacks()) {
                for (Validation.Solver solver : Validation.Solver.values()) {
                    Validation.Result r = Validation.run(env, s, new TaskPlan(Split.TEST, 12, 3, 0), 2, solver);
                    if (!r.passed()) failed.add(env.id() + " " + r.condition() + " " + solver + ": " + Validation.why(r.failures().getFirst()));
                }
            }
            Validation.Result plain = Validation.run(env, ShiftStack.NONE, new TaskPlan(Split.TEST, 30, 1, 0), 2);
            assertTrue(plain.passed() && plain.unsolvable() > 0, env.id() + " static: " + plain);
            assertEquals(List.of(), failed);
        }
    }

    @Test
    void shiftsTheFileDeclaresNoFactsForAreNotApplicableWithTheFactNamed() {
        Conditions c = Conditions.of("all", files, false);
        assertTrue(c.skipped().get("domain.policy-update").contains("person_name"), c.skipped().toString());
        assertTrue(c.skipped().get("obs.missing-values").contains("record_of"), c.skipped().toString());
        assertTrue(c.stacks().stream().anyMatch(s -> s.label().equals("logic.inversion")), "files declares 'after'");
    }

    @Test
    void aWritingTaskIsCheckedOnTheServersStateAndEveryEpisodeStartsFromTheFixtures() throws Exception {
        Env env = files.create();
        TaskRequest write = request(files, "done-marker");
        env.reset(write);
        // Answer without writing: the state check reads out.txt on the real server and fails.
        Step end = env.step(new Action.Answer("done"));
        assertFalse(end.outcome().success());
        assertTrue(end.outcome().detail().contains("state check 0"), end.outcome().detail());

        Trajectory t = Episodes.run(files.create(), new OracleAgent(), write);
        assertEquals(Outcome.End.ANSWERED, t.outcome().end());
        assertTrue(t.outcome().success(), t.outcome().detail());

        // The next episode gets a fresh copy of the fixtures: out.txt is gone again.
        Env again = files.create();
        again.reset(write);
        Path workdir = Path.of(again.task().plan().calls().get(1).args().get("path").asText()).getParent();
        assertTrue(Files.exists(workdir.resolve("project.txt")));
        assertFalse(Files.exists(workdir.resolve("out.txt")));
    }

    @Test
    void aWrongAnswerOrANearMissFails() {
        Env env = files.create();
        env.reset(request(files, "deadline"));
        assertFalse(env.step(new Action.Answer("It is 2026-12-05.")).outcome().success());
        env.reset(request(files, "deadline"));
        assertTrue(env.step(new Action.Answer("The deadline is 2026-12-04.")).outcome().success());
        env.reset(request(files, "no-budget-file"));
        assertTrue(env.step(new Action.Refuse("no such file")).outcome().success());
    }

    @Test
    void aRefOfAFieldOfAJsonResultReadsIt() {
        Trajectory t = Episodes.run(memory.create(), new OracleAgent(), request(memory, "on-call"));
        assertTrue(t.outcome().success(), t.outcome().detail());
        assertTrue(t.messages().getLast().toString().contains("Lee Park"), t.messages().getLast().toString());
    }

    /** The request whose seed draws this task (tasks are drawn by seed among the split's). */
    static TaskRequest request(FileEnvironment env, String id) {
        Env e = env.create();
        for (long seed = 0; seed < 10_000; seed++) {
            TaskRequest r = new TaskRequest(Split.TEST, seed, 0);
            e.reset(r);
            if (e.task().id().equals(id)) return r;
        }
        throw new AssertionError("no seed draws " + id);
    }
}
