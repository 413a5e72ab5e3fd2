package dev.openagent.cli;

import dev.openagent.agent.OracleAgent;
import dev.openagent.agent.RandomAgent;
import dev.openagent.episode.Agent;
import dev.openagent.policy.PolicyAgent;

import java.nio.file.Path;

/** Resolves {@code --agent} specs. The CLI sees every module, so agent kinds from all of them meet here. */
final class Agents {
    private Agents() {}

    static final String KNOWN = "oracle, random, policy:DIR";

    static Agent resolve(String spec, long seed) {
        if (spec.startsWith("policy:")) {
            String dir = spec.substring("policy:".length());
            if (dir.isBlank()) throw new Main.UserError("policy:DIR needs a checkpoint directory (as `openagent train --out` writes)");
            return PolicyAgent.load(Path.of(dir));
        }
        return switch (spec) {
            case "oracle" -> new OracleAgent();
            case "random" -> new RandomAgent(seed);
            default -> throw new Main.UserError("unknown agent '" + spec + "' (known: " + KNOWN + ")");
        };
    }
}
