package dev.openagent.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.episode.Agent;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.metrics.ByShift;
import dev.openagent.metrics.Summary;
import dev.openagent.oracle.ViewSolver;
import dev.openagent.run.Conditions;
import dev.openagent.shift.ShiftStack;
import dev.openagent.run.LocalRunner;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

@Command(name = "run", description = "Run an agent on an environment's tasks and summarise.")
final class RunCommand implements Runnable {
    @Mixin
    Options.Env env;

    @Option(names = "--agent", defaultValue = "oracle", description = "Agent: " + Agents.KNOWN + " (default: ${DEFAULT-VALUE}).")
    String agent;

    @Option(names = "--tasks", defaultValue = "100", description = "Number of tasks (default: ${DEFAULT-VALUE}).")
    int tasks;

    @Mixin
    Options.Seed seed;

    @Mixin
    Options.SplitOption split;

    @Option(names = "--difficulty", defaultValue = "0", description = "Difficulty level; 0 mixes all levels (default: ${DEFAULT-VALUE}).")
    int difficulty;

    @Mixin
    Options.Threads threads;

    @Mixin
    Options.JsonOutput json;

    @Option(names = "--out", description = "Directory to write trajectories.jsonl and summary.json into.")
    Path out;

    @Mixin
    Options.Shift shift;

    @Override
    public void run() {
        if (tasks < 1) throw new Main.UserError("--tasks must be at least 1");
        Environment environment = env.environment(difficulty);
        Agent a = Agents.resolve(agent, seed.value);
        TaskPlan plan = new TaskPlan(split.split(), tasks, seed.value, difficulty);
        Conditions conditions = shift.conditions(environment, false);
        if (conditions.stacks().isEmpty()) {
            throw new Main.UserError("no shift of '" + shift.spec() + "' applies to " + env.id + ": " + conditions.skipped());
        }
        List<Trajectory> trajectories = new ArrayList<>();
        Map<String, ByShift> byShift = new LinkedHashMap<>();
        for (ShiftStack stack : conditions.stacks()) {
            // The view solver runs in the world it watches (a tap under the shifts that change what it is shown).
            Supplier<Env> envs = a instanceof ViewSolver ? () -> ViewSolver.watched(stack, environment.create()) : () -> stack.apply(environment.create());
            List<Trajectory> ts = LocalRunner.run(envs, a, plan.requests(), threads.workers());
            byShift.put(stack.label(), ByShift.of(ts));
            trajectories.addAll(ts);
        }
        Summary summary = Summary.of(trajectories);
        ObjectNode result = Json.MAPPER.valueToTree(summary);
        result.put("env", env.id);
        result.put("agent", a.name());
        result.put("split", plan.split().id());
        result.put("seed", seed.value);
        result.put("difficulty", difficulty);
        result.put("shift", shift.spec());
        result.set("by_shift", Json.MAPPER.valueToTree(byShift));
        if (!conditions.skipped().isEmpty()) result.set("not_applicable", Json.MAPPER.valueToTree(conditions.skipped()));
        if (out != null) write(out, trajectories, result);
        if (json.on) {
            json.print(result);
        } else {
            System.out.printf("%s on %s (%s split, seed %d, difficulty %s, shift %s): %d episodes%n", a.name(), env.id, plan.split().id(),
                    seed.value, difficulty == 0 ? "mixed" : difficulty, shift.spec(), summary.episodes());
            System.out.printf("  success rate     %.4f  (%d/%d)%n", summary.successRate(), summary.successes(), summary.episodes() - summary.errors());
            System.out.printf("  tool error rate  %.4f  (%d of %d calls)%n", summary.toolErrorRate(), summary.toolErrors(), summary.toolCalls());
            System.out.printf("  average turns    %.2f%n", summary.avgTurns());
            if (byShift.size() > 1 || !byShift.containsKey("none")) {
                System.out.printf("  %-58s %8s %8s %8s%n", "by shift", "episodes", "success", "refusal");
                byShift.forEach((label, b) -> System.out.printf("  %-58s %8d %8.4f %8.4f%n", label, b.episodes(), b.successRate(), b.refusalRate()));
                conditions.skipped().forEach((label, why) -> System.out.printf("  %-58s not applicable: %s%n", label, why));
            }
            if (out != null) System.out.println("  trajectories     " + out.resolve("trajectories.jsonl"));
        }
    }

    static void write(Path dir, List<Trajectory> trajectories, ObjectNode summary) {
        try {
            Files.createDirectories(dir);
            try (Writer w = Files.newBufferedWriter(dir.resolve("trajectories.jsonl"), StandardCharsets.UTF_8)) {
                for (Trajectory t : trajectories) w.write(t.toJson() + "\n");
            }
            Files.writeString(dir.resolve("summary.json"), Json.pretty(summary) + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserInputException("cannot write to " + dir + ": " + e.getMessage(), e);
        }
    }
}
