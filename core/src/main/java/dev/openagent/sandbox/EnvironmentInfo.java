package dev.openagent.sandbox;

import java.util.List;

/** Static facts about an environment, as `openagent envs` lists them. */
public record EnvironmentInfo(String id, String description, Interface iface, List<Integer> difficulties,
                              List<String> tools) {
    public EnvironmentInfo {
        difficulties = List.copyOf(difficulties);
        tools = List.copyOf(tools);
    }
}
