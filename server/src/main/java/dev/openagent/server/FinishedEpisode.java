package dev.openagent.server;

import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Task;

/**
 * An episode a server ran to its end, as its sink records it.
 *
 * @param task       privileged: the task with its gold plan (for the results store's failure taxonomy)
 * @param taskIndex  the task's index in the server's task sequence, or null when chosen by seed
 * @param durationMs from reset to the last step
 */
public record FinishedEpisode(Trajectory trajectory, Task task, Integer taskIndex, long durationMs) {}
