package dev.openagent.policy;

import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;

import java.nio.file.Path;
import java.util.List;

/**
 * The built-in policy as an {@link Agent} ({@code --agent policy:DIR}): greedy decoding, one
 * episode per session. It reads only what the agent is shown, never the privileged env.
 * For many episodes at once, {@link PolicyRunner} batches across episodes and is much faster.
 */
public final class PolicyAgent implements Agent {
    private final Policy policy;
    private final String name;

    public PolicyAgent(Policy policy, String name) {
        this.policy = policy;
        this.name = name;
    }

    /** Loads {@code dir}; the agent is named {@code policy:<dir name>}. */
    public static PolicyAgent load(Path dir) {
        Path name = dir.toAbsolutePath().normalize().getFileName();
        return new PolicyAgent(Checkpoint.load(dir), "policy:" + (name == null ? dir : name));
    }

    public Policy policy() { return policy; }

    @Override
    public String name() { return name; }

    @Override
    public AgentSession begin(Start start, Env env) {
        return new AgentSession() {
            private View view = View.start(start);
            private Action previous;

            @Override
            public Action act(Step last) {
                if (last != null && previous != null) view = view.after(previous, last);
                previous = policy.act(List.of(view), null).getFirst().action();
                return previous;
            }
        };
    }
}
