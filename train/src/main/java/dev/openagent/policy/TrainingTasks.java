package dev.openagent.policy;

import dev.openagent.UserInputException;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.EnvironmentInfo;

import java.util.HashSet;
import java.util.List;

/**
 * Which training tasks a run draws: one environment, or a mixture of several (each episode or RL
 * group takes the next environment in turn), optionally only tasks within a difficulty range.
 *
 * @param envs          environment ids, at least one, no repeats
 * @param minDifficulty lowest difficulty level drawn (0 with {@code maxDifficulty} 0: every level, as the task seed chooses)
 * @param maxDifficulty highest difficulty level drawn
 */
public record TrainingTasks(List<String> envs, int minDifficulty, int maxDifficulty) {
    public TrainingTasks {
        envs = List.copyOf(envs);
        if (envs.isEmpty()) throw new UserInputException("training needs at least one environment");
        if (new HashSet<>(envs).size() != envs.size()) throw new UserInputException("an environment is listed twice: " + envs);
        if (minDifficulty < 0 || maxDifficulty < minDifficulty || (minDifficulty == 0) != (maxDifficulty == 0)) {
            throw new UserInputException("bad difficulty range " + minDifficulty + ".." + maxDifficulty);
        }
    }

    /** Every task of one environment. */
    public static TrainingTasks of(String env) { return new TrainingTasks(List.of(env), 0, 0); }

    /** Every task of several environments, drawn in turn. */
    public static TrainingTasks mixture(List<String> envs) { return new TrainingTasks(envs, 0, 0); }

    /** The same environments, only tasks whose difficulty is in {@code [min, max]}. */
    public TrainingTasks difficulty(int min, int max) { return new TrainingTasks(envs, min, max); }

    public boolean anyDifficulty() { return minDifficulty == 0; }

    /**
     * The levels of {@code env} this range draws from; empty when any level will do (the task
     * seed chooses, as untargeted requests always did).
     *
     * @throws IllegalArgumentException when the environment has no level in the range
     */
    public List<Integer> levels(EnvironmentInfo env) {
        if (anyDifficulty()) return List.of();
        List<Integer> in = env.difficulties().stream().filter(d -> d >= minDifficulty && d <= maxDifficulty).toList();
        if (in.isEmpty()) {
            throw new UserInputException(env.id() + " has no task of difficulty " + minDifficulty + ".." + maxDifficulty
                    + " (levels: " + env.difficulties() + ")");
        }
        return in;
    }

    /** Checks every environment is registered and has a level in range. */
    public void validate(java.util.function.Function<String, Environment> find) {
        for (String e : envs) levels(find.apply(e).info());
    }

    /** For logs and {@code training.json}: {@code poi}, {@code poi+medical}, {@code poi d1-2}. */
    public String label() {
        String s = String.join("+", envs);
        return anyDifficulty() ? s : s + " d" + minDifficulty + "-" + maxDifficulty;
    }
}
