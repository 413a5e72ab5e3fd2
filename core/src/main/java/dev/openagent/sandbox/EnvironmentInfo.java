package dev.openagent.sandbox;

import dev.openagent.UserInputException;

import java.util.List;

/** Static facts about an environment, as `openagent envs` lists them. */
public record EnvironmentInfo(String id, String description, Interface iface, List<Integer> difficulties,
                              List<String> tools) {
    public EnvironmentInfo {
        difficulties = List.copyOf(difficulties);
        tools = List.copyOf(tools);
    }

    /** @throws IllegalArgumentException when the request asks for a difficulty level this environment does not have */
    public void checkDifficulty(TaskRequest request) {
        if (request.difficulty() != 0 && !difficulties.contains(request.difficulty())) {
            throw new UserInputException(id + " has no difficulty " + request.difficulty() + " (levels: " + difficulties + ")");
        }
    }
}
