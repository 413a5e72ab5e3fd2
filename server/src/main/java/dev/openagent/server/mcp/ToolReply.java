package dev.openagent.server.mcp;

import dev.openagent.sandbox.Observation;

import java.util.List;

/** What a tool call returns to an MCP client: a text, and whether it is an error. */
public record ToolReply(String text, boolean error) {
    /** The observations of a step as one reply: their texts one per line, an error when any of them is. */
    public static ToolReply of(List<Observation> observations) {
        StringBuilder text = new StringBuilder();
        boolean error = false;
        for (Observation o : observations) {
            if (!text.isEmpty()) text.append('\n');
            text.append(o.text());
            error |= o.isError();
        }
        return new ToolReply(text.toString(), error);
    }
}
