package dev.openagent.study;

import dev.openagent.policy.ShiftSampler;
import dev.openagent.policy.Trainer;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the paper study trains: the scaling ablation's agents are SFT with 4x the steps and SFT over 4x the tasks. */
class PaperStudyPlanTest {
    private static Map<String, PaperStudy.Plan> plan(PaperStudy.Budget b) {
        return PaperStudy.plan(b, 1, Path.of("runs/x")).stream().collect(Collectors.toMap(PaperStudy.Plan::agent, Function.identity()));
    }

    @Test
    void theScalingAblationScalesStepsOrTasksAndNothingElse() {
        PaperStudy.Budget b = PaperStudy.Budget.quick().withScaling(true).withAlphaSweep(true);
        Map<String, PaperStudy.Plan> p = plan(b);
        Trainer.Options sft = p.get("sft").options();
        Trainer.Options steps = p.get(PaperStudy.SFT_4X_STEPS).options();
        Trainer.Options data = p.get(PaperStudy.SFT_4X_DATA).options();
        assertEquals(4 * sft.steps(), steps.steps());
        assertEquals(sft.taskPool(), steps.taskPool());
        assertEquals(sft.steps(), data.steps());
        assertEquals(4 * sft.taskPool(), data.taskPool());
        assertTrue(sft.taskPool() > 0, "SFT draws from a fixed pool, so 4x the data means something");
        for (Trainer.Options o : List.of(steps, data)) {
            assertEquals(Trainer.Method.SFT, o.method());
            assertEquals(sft.batch(), o.batch());
            assertEquals(sft.lr(), o.lr());
            assertEquals(sft.seed(), o.seed());
        }
        assertFalse(p.get(PaperStudy.SFT_4X_STEPS).fromSft());
        assertTrue(p.get("paft-0.3").fromSft() && p.get("rl").fromSft());
        assertEquals(List.of("sft", "rl", "paft-0.1", "paft-0.3", "paft-0.5", PaperStudy.SFT_4X_DATA, PaperStudy.SFT_4X_STEPS),
                PaperStudy.agents(PaperStudy.plan(b, 1, Path.of("runs/x"))));
    }

    @Test
    void quickLeavesTheAlphaSweepAndTheAblationOutUnlessAskedAndTheFullStudyRunsBoth() {
        assertEquals(List.of("sft", "rl", "paft-0.3"),
                PaperStudy.agents(PaperStudy.plan(PaperStudy.Budget.quick(), 1, Path.of("runs/x"))));
        assertEquals(List.of("sft", "rl", "paft-0.1", "paft-0.3", "paft-0.5"),
                PaperStudy.agents(PaperStudy.plan(PaperStudy.Budget.quick().withAlphaSweep(true), 1, Path.of("runs/x"))));
        assertEquals(List.of("sft", "rl", "paft-0.1", "paft-0.3", "paft-0.5", PaperStudy.SFT_4X_DATA, PaperStudy.SFT_4X_STEPS),
                PaperStudy.agents(PaperStudy.plan(PaperStudy.Budget.full(), 1, Path.of("runs/x"))));
        // Every agent but its alphas is the same: PAFT-0.3 is trained the same way with or without the sweep.
        assertEquals(plan(PaperStudy.Budget.quick()).get("paft-0.3"), plan(PaperStudy.Budget.quick().withAlphaSweep(true)).get("paft-0.3"));
    }

    /**
     * PAFT takes the recipe {@code study paft-mix} chose (its last variant), at every alpha; RL's shifted
     * rollouts keep every shift equally likely, so its refusal stays a measurement of RL.
     */
    @Test
    void paftTakesTheMeasuredRecipeAndRlKeepsEveryShiftEquallyLikely() {
        Map<String, PaperStudy.Plan> p = plan(PaperStudy.Budget.quick().withAlphaSweep(true));
        PaftMixStudy.Variant chosen = PaftMixStudy.variants().getLast();
        for (String paft : List.of("paft-0.1", "paft-0.3", "paft-0.5")) {
            assertEquals(chosen.mix(), p.get(paft).options().mix());
            assertEquals(chosen.lr(), p.get(paft).options().lr());
        }
        assertEquals(ShiftSampler.Mix.UNIFORM, p.get("rl").options().mix());
        assertTrue(PaftMixStudy.variants().stream().map(PaftMixStudy.Variant::name).distinct().count() == PaftMixStudy.variants().size());
        assertTrue(PaftMixStudy.variants().stream().anyMatch(v -> v.mix().equals(ShiftSampler.Mix.UNIFORM)),
                "the ablation keeps the first recipe to compare with");
    }
}
