package dev.openagent.sandbox;

import java.util.List;

/**
 * What an agent is given when an episode starts: the system prompt (protocol and domain rules),
 * the user's request, and the tools as it sees them. Text-command environments offer no tools.
 */
public record Start(String systemPrompt, String query, List<ToolSpec> tools) {
    public Start {
        tools = List.copyOf(tools);
    }

    public Start withQuery(String newQuery) { return new Start(systemPrompt, newQuery, tools); }

    public Start withTools(List<ToolSpec> newTools) { return new Start(systemPrompt, query, newTools); }

    public Start withSystemPrompt(String prompt) { return new Start(prompt, query, tools); }
}
