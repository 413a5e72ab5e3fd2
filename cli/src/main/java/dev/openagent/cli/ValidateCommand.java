package dev.openagent.cli;

import dev.openagent.episode.Trajectory;
import dev.openagent.report.Transcript;
import dev.openagent.run.Conditions;
import dev.openagent.run.TaskPlan;
import dev.openagent.run.Validation;
import dev.openagent.sandbox.Environment;
import dev.openagent.shift.ShiftStack;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "validate", description = "Check shifts with two solvers: the oracle (through every layer's privileged guide) and the "
        + "view-only solver (from what the agent is shown alone). Each must solve every solvable task and refuse every unsolvable one. "
        + "Exits 1 on any failure.")
final class ValidateCommand implements Callable<Integer> {
    @Mixin
    Options.Env env;

    @Mixin
    Options.Shift shift = new Options.Shift("all");

    @Option(names = "--pairs", description = "Also compose every two distinct shifts of the spec.")
    boolean pairs;

    @Option(names = "--tasks", defaultValue = "100", description = "Tasks per condition (default: ${DEFAULT-VALUE}).")
    int tasks;

    @Mixin
    Options.Seed seed;

    @Mixin
    Options.SplitOption split;

    @Mixin
    Options.Threads threads;

    @Option(names = "--verbose", description = "Print the transcript of the first failed episode of each failing condition.")
    boolean verbose;

    @Option(names = "--view", description = "Only the view check: the task solved from what the agent is shown, never from a shift's own state.")
    boolean viewOnly;

    @Option(names = "--oracle", description = "Only the oracle.")
    boolean oracleOnly;

    @Override
    public Integer call() {
        if (tasks < 1) throw new Main.UserError("--tasks must be at least 1");
        Environment environment = env.environment();
        Conditions conditions = shift.conditions(environment, pairs);
        // Nothing to run is an error, not a pass: "0 conditions: all passed" would tell a user their
        // file or shift was checked when nothing was.
        if (conditions.stacks().isEmpty()) {
            throw new Main.UserError("nothing to validate: no condition of --shift '" + shift.spec() + "' applies to " + env.id + " ("
                    + String.join("; ", conditions.skipped().values()) + ")");
        }
        if (viewOnly && oracleOnly) throw new Main.UserError("--view and --oracle exclude each other (neither runs both)");
        List<Validation.Solver> solvers = viewOnly ? List.of(Validation.Solver.VIEW)
                : oracleOnly ? List.of(Validation.Solver.ORACLE) : List.of(Validation.Solver.ORACLE, Validation.Solver.VIEW);
        TaskPlan plan = new TaskPlan(split.split(), tasks, seed.value, 0);
        System.out.printf("%s on %s, %d tasks per condition (%s split, seed %d), %s%n",
                String.join(" and ", solvers.stream().map(s -> s == Validation.Solver.ORACLE ? "oracle" : "view check").toList()),
                env.id, tasks, plan.split().id(), seed.value, count(conditions.stacks().size(), "condition"));
        System.out.printf("%-60s %-6s %8s %15s %17s  %s%n", "condition", "solver", "episodes", "solved", "refused", "result");
        List<Validation.Result> failed = new ArrayList<>();
        int episodes = 0;
        for (ShiftStack stack : conditions.stacks()) {
            for (Validation.Solver solver : solvers) {
                Validation.Result r = Validation.run(environment, stack, plan, threads.workers(), solver);
                episodes += r.episodes();
                System.out.printf("%-60s %-6s %8d %15s %17s  %s%n", r.condition(), label(solver), r.episodes(), r.solved() + "/" + r.solvable(),
                        r.refused() + "/" + r.unsolvable(), r.passed() ? "ok" : "FAIL (" + r.failed() + ")");
                if (!r.passed()) failed.add(r);
            }
        }
        conditions.skipped().forEach((label, why) -> System.out.printf("%-60s %-6s %8s %15s %17s  not applicable: %s%n", label, "-", "-", "-", "-", why));
        for (Validation.Result r : failed) {
            System.out.println();
            System.out.println("FAILED " + r.condition() + " (" + label(r.solver()) + "): " + r.failed() + " episode(s), for example:");
            for (Trajectory t : r.failures()) {
                System.out.println("  " + t.taskId() + " (" + t.kind() + "): " + Validation.why(t));
            }
            if (verbose && !r.failures().isEmpty()) System.out.print(Transcript.render(r.failures().getFirst(), false));
        }
        System.out.printf("%n%s, %d episodes: %s%n", count(conditions.stacks().size(), "condition"), episodes,
                failed.isEmpty() ? "all passed" : failed.size() + " check(s) FAILED");
        return failed.isEmpty() ? 0 : 1;
    }

    private static String count(int n, String noun) { return n + " " + noun + (n == 1 ? "" : "s"); }

    private static String label(Validation.Solver s) {
        return s == Validation.Solver.ORACLE ? "oracle" : "view";
    }
}
