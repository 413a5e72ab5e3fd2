package dev.openagent.policy;

import ai.djl.training.optimizer.Optimizer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * One group-relative policy-gradient update from sampled rollouts and their outcomes alone (GRPO-style), the unit
 * {@link Trainer}'s RL iterations and online adaptation ({@code eval --adapt online}) share. Each group is the
 * rollouts of one task; a rollout's advantage is (reward - group mean) / group std, reward 1 for success and 0
 * otherwise; the loss is -sum advantage * log pi(decision) over every step of every rollout, divided by the number of
 * steps; groups whose rollouts all agree carry no signal and are skipped. One optimiser step, or none when no group
 * has signal.
 */
public final class GroupUpdate {
    private GroupUpdate() {}

    /**
     * What an update did.
     *
     * @param groups     the groups given
     * @param withSignal groups whose rollouts did not all agree (only those move the policy)
     * @param successes  successful rollouts over all groups
     * @param rollouts   rollouts over all groups
     * @param steps      decisions the gradient was taken over
     * @param updated    whether the optimiser stepped
     */
    public record Stats(int groups, int withSignal, int successes, int rollouts, int steps, boolean updated) {
        /** The mean reward over all rollouts (with groups of one size, the mean of the groups' means, as the RL trainer logs it). */
        public double meanReward() { return rollouts == 0 ? 0 : (double) successes / rollouts; }
    }

    /** The reward of a rollout: its outcome only. */
    static double reward(PolicyRunner.Episode e) {
        return e.trajectory().success() ? 1 : 0;
    }

    /**
     * Accumulates the gradient of the groups' rollouts (recorded with their decisions, {@link PolicyRunner#run} with
     * {@code record}) in minibatches of {@code batch} steps, then steps {@code optimizer} once.
     */
    public static Stats apply(Policy policy, Optimizer optimizer, List<List<PolicyRunner.Episode>> groups, int batch) {
        if (batch < 1) throw new IllegalArgumentException("batch must be at least 1");
        List<Policy.Example> examples = new ArrayList<>();
        int signal = 0;
        int successes = 0;
        int rollouts = 0;
        for (List<PolicyRunner.Episode> group : groups) {
            double[] r = group.stream().mapToDouble(GroupUpdate::reward).toArray();
            rollouts += r.length;
            for (double x : r) successes += (int) x;
            double mean = Arrays.stream(r).average().orElse(0);
            double var = Arrays.stream(r).map(x -> (x - mean) * (x - mean)).average().orElse(0);
            if (var < 1e-12) continue; // all equal: no signal in this group
            signal++;
            double std = Math.sqrt(var);
            for (int g = 0; g < group.size(); g++) {
                float advantage = (float) ((r[g] - mean) / std);
                for (PolicyRunner.Decided d : group.get(g).steps()) examples.add(new Policy.Example(d.view(), d.decision(), advantage));
            }
        }
        if (examples.isEmpty()) return new Stats(groups.size(), signal, successes, rollouts, 0, false);
        examples.sort(Comparator.comparingInt(e -> e.view().turns().size())); // similar lengths pad less
        for (int i = 0; i < examples.size(); i += batch) {
            policy.accumulate(examples.subList(i, Math.min(examples.size(), i + batch)), examples.size());
        }
        policy.step(optimizer);
        return new Stats(groups.size(), signal, successes, rollouts, examples.size(), true);
    }
}
