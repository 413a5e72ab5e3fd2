package dev.openagent.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import dev.openagent.agent.framework.FrameworkEpisode;
import dev.openagent.sandbox.Observation;

import java.util.List;

/**
 * The episode's tools, as the shifts present them, for an AI service: each call is executed by the
 * sandbox ({@link FrameworkEpisode#call}), and an error observation (unknown tool, bad arguments,
 * a failure the tool reports) comes back as an error result with the sandbox's text.
 */
final class SandboxToolProvider implements ToolProvider {
    private final FrameworkEpisode episode;
    private final ToolProviderResult tools;

    /** @param specifications the episode's tools as LangChain4j specifications, in the episode's order */
    SandboxToolProvider(FrameworkEpisode episode, List<ToolSpecification> specifications) {
        this.episode = episode;
        ToolProviderResult.Builder result = ToolProviderResult.builder();
        for (ToolSpecification spec : specifications) result.add(spec, new Executor(spec.name()));
        this.tools = result.build();
    }

    /** The same tools on every call: an episode's tools do not change while it runs. */
    @Override
    public ToolProviderResult provideTools(ToolProviderRequest request) { return tools; }

    private final class Executor implements ToolExecutor {
        private final String tool;

        Executor(String tool) { this.tool = tool; }

        @Override
        public String execute(ToolExecutionRequest request, Object memoryId) {
            return episode.call(request.id(), tool, request.arguments()).text();
        }

        @Override
        public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
            Observation o = episode.call(request.id(), tool, request.arguments());
            return ToolExecutionResult.builder().resultText(o.text()).isError(o.isError()).build();
        }
    }
}
