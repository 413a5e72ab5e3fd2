package dev.openagent.agent.framework;

import dev.openagent.UserInputException;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.InfrastructureException;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.TaskRequest;

/**
 * Runs a {@link FrameworkAgent} on one task: resets the environment, hands the agent its episode,
 * and records the result as {@link Episodes#run} records any agent's (the same conversation
 * rendering, outcome and stats), with the agent's own transcript beside it. Whatever the agent's
 * code does ends in a scored episode: a final message is checked, a throw is an agent error
 * ({@link AgentCrash}), a loop meets the step limit; only a failing model endpoint makes an
 * infrastructure error.
 */
public final class FrameworkEpisodes {
    private FrameworkEpisodes() {}

    /** A finished episode: the trajectory and what the agent's framework sent and received. */
    public record Run(Trajectory trajectory, AgentTranscript transcript) {}

    /** @throws IllegalArgumentException when the environment is not a function-call one (framework agents act through tools) */
    public static Run run(Env env, FrameworkAgent agent, TaskRequest request) {
        if (env.info().iface() != Interface.FUNCTION_CALL) {
            throw new UserInputException(env.spec().env() + " is a text-command environment; framework agents act through tools, "
                    + "so they need a function-call environment");
        }
        Start start = env.reset(request);
        FrameworkEpisode episode = new FrameworkEpisode(env, start);
        String text = null;
        boolean returned = false;
        try {
            text = agent.run(episode);
            returned = true;
        } catch (EpisodeOver e) {
            // the sandbox ended the episode (step limit); its outcome stands
        } catch (InfrastructureException e) {
            episode.infrastructureFailed(e);
        } catch (Exception e) {
            episode.crash(e);
        }
        if (returned) episode.finish(text);
        Trajectory t = Episodes.trajectory(env, request, agent.name(), start, episode.conversation(), episode.outcome(), episode.usage());
        return new Run(t, episode.transcript());
    }
}
