package dev.openagent.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.policy.Checkpoint;
import dev.openagent.policy.Policy;
import dev.openagent.policy.PolicyBench;
import dev.openagent.policy.PolicyConfig;
import dev.openagent.policy.Vocabulary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

@Command(name = "bench-policy", description = {
        "Measure the built-in policy's inference speed in actions per second: batched across episodes (as training and",
        "evaluation run), the same with a lockstep batch per core, and one episode at a time (as --agent policy:DIR runs).",
        "Without --policy, an untrained default policy."})
final class PolicyBenchCommand implements Runnable {
    @Option(names = "--policy", description = "Checkpoint directory (default: an untrained policy of the default size).")
    Path policy;

    @Mixin
    Options.Env env;

    @Mixin
    Options.Episodes episodes = new Options.Episodes(512);

    @Mixin
    Options.JsonOutput json;

    @Override
    public void run() {
        try (Policy p = policy != null ? Checkpoint.load(policy) : Policy.create(PolicyConfig.defaults(), Vocabulary.open(), 1)) {
            List<PolicyBench.Figures> figures = PolicyBench.run(p, env.environment(), episodes.count(), 1);
            if (json.on) {
                ObjectNode o = Json.object();
                o.put("env", env.id);
                o.put("parameters", p.parameterCount());
                ArrayNode runs = o.putArray("runs");
                for (PolicyBench.Figures f : figures) {
                    runs.addObject().put("mode", f.mode()).put("episodes", f.episodes()).put("actions", f.actions())
                            .put("seconds", f.seconds()).put("cpu_seconds", f.cpuSeconds())
                            .put("actions_per_second", Math.round(f.actionsPerSecond()))
                            .put("actions_per_cpu_second", Math.round(f.actionsPerCpuSecond()));
                }
                json.print(o);
            } else {
                System.out.printf(Locale.ROOT, "policy (%d parameters) on %s, one intra-op thread per Java thread:%n", p.parameterCount(), env.id);
                for (PolicyBench.Figures f : figures) {
                    System.out.printf(Locale.ROOT, "  %-32s %,8.0f actions/s  (%,.0f per CPU second; %d actions in %.1f s)%n", f.mode(),
                            f.actionsPerSecond(), f.actionsPerCpuSecond(), f.actions(), f.seconds());
                }
            }
        }
    }
}
