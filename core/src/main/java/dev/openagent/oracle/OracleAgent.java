package dev.openagent.oracle;

import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Start;

/**
 * Follows the environment's privileged guide: the gold plan, translated through every shift in
 * the stack. It validates the sandbox: it must solve every solvable task and refuse every
 * unsolvable one. It lives in core because environments and shifts are tested against it.
 */
public final class OracleAgent implements Agent {
    @Override
    public String name() { return "oracle"; }

    @Override
    public AgentSession begin(Start start, Env env) {
        Guide guide = env.guide();
        return guide::next;
    }
}
