package dev.openagent.policy;

import dev.openagent.registry.Environments;
import dev.openagent.episode.Trajectory;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Split;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How the policy acts must not depend on how its work is scheduled: which views share a forward
 * pass (length groups, padding, the piece table) or how many threads run episodes.
 */
class PolicyInferenceTest {
    static Policy policy;

    @BeforeAll
    static void train() {
        // A few SFT steps: enough that decisions are not the near-ties of random weights.
        policy = Trainer.train(TrainingTest.tiny(Trainer.Method.SFT, 30, 2), line -> {}).policy();
    }

    @AfterAll
    static void close() {
        policy.close();
    }

    static List<PolicyRunner.Job> jobs(String env, int n, long seed) {
        Environment e = Environments.get(env);
        return new TaskPlan(Split.TEST, n, seed, 0).requests().stream().map(r -> new PolicyRunner.Job(e, ShiftStack.NONE, r)).toList();
    }

    /** What the agent saw at every turn of oracle episodes: contexts of very different lengths. */
    static List<View> views() {
        Demonstrations demos = new Demonstrations(Environments.get("poi"), 0, ShiftSampler.of(List.of()), 3);
        List<View> views = new ArrayList<>();
        while (views.size() < 60) for (Demonstrations.Demo d : demos.next().steps()) views.add(d.view());
        return views;
    }

    /** What a number parameter may copy when acting greedily: the party size, never a time, a date or a name. */
    @Test
    void numberParametersCopyOnlyNumbers() {
        View v = new View("Book a table for 3 at Red Quill Espresso in Crescent City on 2026-12-11 at 13:00, rated 4.5.",
                "", views().getFirst().tools(), List.of(), List.of());
        Context x = policy.encode(v);
        ParamSpec partySize = new ParamSpec("party_size", "", ParamSpec.Type.INTEGER, List.of(), true);
        ParamSpec rating = new ParamSpec("min_rating", "", ParamSpec.Type.NUMBER, List.of(), false);
        List<String> integers = new ArrayList<>();
        List<String> numbers = new ArrayList<>();
        for (int s = 1; s < x.n; s++) {
            for (int e = s; e < Math.min(x.n, s + 3); e++) {
                if (Policy.reads(x, s, e, partySize)) integers.add(x.spanText(s, e));
                if (Policy.reads(x, s, e, rating)) numbers.add(x.spanText(s, e));
            }
        }
        assertEquals(List.of("3"), integers);
        assertEquals(List.of("3", "4.5"), numbers);
    }

    @Test
    void aViewGetsTheSameActionAloneAsInAMixedBatch() {
        List<View> views = views();
        assertTrue(LengthGroups.of(views.stream().mapToInt(v -> policy.encode(v).n).toArray()).size() > 1,
                "the batch spans several length groups");
        List<Policy.Acted> together = policy.act(views, null);
        for (int i = 0; i < views.size(); i++) {
            assertEquals(policy.act(List.of(views.get(i)), null).getFirst().action(), together.get(i).action(), "view " + i);
        }
    }

    @Test
    void episodesOnSeveralThreadsMatchOneThreadInJobOrder() {
        List<PolicyRunner.Job> jobs = jobs("poi", 40, 5);
        List<Trajectory> one = PolicyRunner.run(policy, "t", jobs, 16, null, false, e -> {}).stream().map(PolicyRunner.Episode::trajectory).toList();
        List<Trajectory> two = PolicyRunner.run(policy, "t", jobs, 16, 2, null, false, e -> {}).stream().map(PolicyRunner.Episode::trajectory).toList();
        assertEquals(jobs.size(), two.size());
        for (int i = 0; i < jobs.size(); i++) {
            assertEquals(jobs.get(i).request().seed(), two.get(i).seed(), "episode " + i + " in job order");
            assertEquals(one.get(i).messages(), two.get(i).messages(), "episode " + i + " acts the same on two threads");
        }
    }

    @Test
    void sampledEpisodesOnSeveralThreadsRepeatWithTheSeed() {
        List<PolicyRunner.Job> jobs = jobs("poi", 24, 7);
        List<List<?>> runs = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            runs.add(PolicyRunner.run(policy, "t", jobs, 8, 2, new SplittableRandom(9), false, e -> {}).stream()
                    .map(e -> e.trajectory().messages()).toList());
        }
        assertEquals(runs.get(0), runs.get(1));
    }

    @Test
    void lengthGroupsPartitionEveryBatchAtNoMoreThanOnePassCosts() {
        SplittableRandom rnd = new SplittableRandom(1);
        for (int trial = 0; trial < 200; trial++) {
            int[] lengths = new int[1 + rnd.nextInt(80)];
            for (int i = 0; i < lengths.length; i++) lengths[i] = 1 + rnd.nextInt(rnd.nextBoolean() ? 40 : 400);
            List<int[]> groups = LengthGroups.of(lengths);
            boolean[] seen = new boolean[lengths.length];
            double cost = 0;
            int longest = 0;
            for (int[] g : groups) {
                for (int k = 0; k < g.length; k++) {
                    assertTrue(!seen[g[k]], "index " + g[k] + " in one group only");
                    seen[g[k]] = true;
                    if (k > 0) assertTrue(lengths[g[k - 1]] <= lengths[g[k]], "ascending within a group");
                }
                cost += LengthGroups.PASS_COST + g.length * LengthGroups.perExample(lengths[g[g.length - 1]]);
            }
            for (int i = 0; i < lengths.length; i++) {
                assertTrue(seen[i], "index " + i + " placed");
                longest = Math.max(longest, lengths[i]);
            }
            assertTrue(cost <= LengthGroups.PASS_COST + lengths.length * LengthGroups.perExample(longest) + 1e-6);
        }
        assertEquals(1, LengthGroups.of(new int[]{50, 50, 50, 50}).size(), "equal lengths share one pass");
    }
}
