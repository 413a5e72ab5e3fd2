package dev.openagent.cli;

import dev.openagent.agent.OracleAgent;
import dev.openagent.agent.RandomAgent;
import dev.openagent.episode.Agent;

/** Resolves {@code --agent} specs. The CLI sees every module, so agent kinds from all of them meet here. */
final class Agents {
    private Agents() {}

    static final String KNOWN = "oracle, random";

    static Agent resolve(String spec, long seed) {
        return switch (spec) {
            case "oracle" -> new OracleAgent();
            case "random" -> new RandomAgent(seed);
            default -> throw new Main.UserError("unknown agent '" + spec + "' (known: " + KNOWN + ")");
        };
    }
}
