package dev.openagent.springai;

import dev.openagent.agent.framework.FrameworkEpisode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.ToolSpec;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * One of the episode's tools, as the shifts present it (its JSON Schema verbatim), for Spring AI:
 * a call is executed by the sandbox ({@link FrameworkEpisode#call}) and the observation's text,
 * error or not, is the result the model reads. Spring AI does not hand a callback the call's id,
 * so the episode matches the call by name and arguments.
 */
final class SandboxToolCallback implements ToolCallback {
    private final FrameworkEpisode episode;
    private final ToolSpec tool;
    private final ToolDefinition definition;

    SandboxToolCallback(FrameworkEpisode episode, ToolSpec tool) {
        this.episode = episode;
        this.tool = tool;
        this.definition = definition(tool);
    }

    static ToolDefinition definition(ToolSpec tool) {
        return ToolDefinition.builder().name(tool.name()).description(tool.description()).inputSchema(Json.write(tool.parameters())).build();
    }

    @Override
    public ToolDefinition getToolDefinition() { return definition; }

    @Override
    public String call(String toolInput) {
        return episode.call(null, tool.name(), toolInput).text();
    }

    @Override
    public String call(String toolInput, ToolContext toolContext) { return call(toolInput); }
}
