package dev.openagent.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.envs.Environments;
import dev.openagent.episode.Agent;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.metrics.Summary;
import dev.openagent.run.LocalRunner;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Split;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

@Command(name = "run", description = "Run an agent on an environment's tasks and summarise.")
final class RunCommand implements Runnable {
    @Option(names = "--env", defaultValue = "poi", description = "Environment id (default: ${DEFAULT-VALUE}).")
    String env;

    @Option(names = "--agent", defaultValue = "oracle", description = "Agent: " + Agents.KNOWN + " (default: ${DEFAULT-VALUE}).")
    String agent;

    @Option(names = "--tasks", defaultValue = "100", description = "Number of tasks (default: ${DEFAULT-VALUE}).")
    int tasks;

    @Option(names = "--seed", defaultValue = "1", description = "Run seed: the same seed gives the same tasks (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--split", defaultValue = "test", description = "train or test (default: ${DEFAULT-VALUE}).")
    String split;

    @Option(names = "--difficulty", defaultValue = "0", description = "Difficulty level; 0 mixes all levels (default: ${DEFAULT-VALUE}).")
    int difficulty;

    @Option(names = "--threads", description = "Worker threads (default: available processors).")
    Integer threads;

    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;

    @Option(names = "--out", description = "Directory to write trajectories.jsonl and summary.json into.")
    Path out;

    @Override
    public void run() {
        if (tasks < 1) throw new Main.UserError("--tasks must be at least 1");
        Environment environment = Environments.get(env);
        if (difficulty != 0 && !environment.info().difficulties().contains(difficulty)) {
            throw new Main.UserError(env + " has no difficulty " + difficulty + " (levels: " + environment.info().difficulties() + ")");
        }
        Agent a = Agents.resolve(agent, seed);
        TaskPlan plan = new TaskPlan(Split.parse(split), tasks, seed, difficulty);
        int workers = threads == null ? Runtime.getRuntime().availableProcessors() : Math.max(1, threads);
        List<Trajectory> trajectories = LocalRunner.run(environment::create, a, plan.requests(), workers);
        Summary summary = Summary.of(trajectories);
        ObjectNode result = Json.MAPPER.valueToTree(summary);
        result.put("env", env);
        result.put("agent", a.name());
        result.put("split", plan.split().id());
        result.put("seed", seed);
        result.put("difficulty", difficulty);
        if (out != null) write(out, trajectories, result);
        if (json) {
            System.out.println(Json.pretty(result));
        } else {
            System.out.printf("%s on %s (%s split, seed %d, difficulty %s): %d episodes%n", a.name(), env, plan.split().id(), seed,
                    difficulty == 0 ? "mixed" : difficulty, summary.episodes());
            System.out.printf("  success rate     %.4f  (%d/%d)%n", summary.successRate(), summary.successes(), summary.episodes() - summary.errors());
            System.out.printf("  tool error rate  %.4f  (%d of %d calls)%n", summary.toolErrorRate(), summary.toolErrors(), summary.toolCalls());
            System.out.printf("  average turns    %.2f%n", summary.avgTurns());
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
            throw new UncheckedIOException("cannot write to " + dir + ": " + e.getMessage(), e);
        }
    }
}
