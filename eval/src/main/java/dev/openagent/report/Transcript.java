package dev.openagent.report;

import dev.openagent.episode.Message;
import dev.openagent.episode.Trajectory;

/** A trajectory as a readable transcript for terminals. */
public final class Transcript {
    private Transcript() {}

    public static String render(Trajectory t, boolean withSystemPrompt) {
        StringBuilder sb = new StringBuilder();
        sb.append("=== ").append(t.taskId()).append("  kind=").append(t.kind()).append("  difficulty=").append(t.difficulty())
                .append("  agent=").append(t.agent()).append("  shifts=").append(t.shiftSpec()).append('\n');
        sb.append("tools: ").append(String.join(", ", t.tools().stream().map(x -> x.name()).toList())).append('\n');
        for (Message m : t.messages()) sb.append(line(m, withSystemPrompt));
        sb.append("outcome: ").append(t.outcome().success() ? "SUCCESS" : "FAILURE").append(" (").append(t.outcome().end())
                .append(": ").append(t.outcome().detail()).append(")  turns=").append(t.stats().turns())
                .append("  tool_errors=").append(t.stats().toolErrors()).append('\n');
        return sb.toString();
    }

    /** One message as transcript lines (ending in a newline); a system message is empty unless {@code withSystemPrompt}. */
    public static String line(Message m, boolean withSystemPrompt) {
        StringBuilder sb = new StringBuilder();
        switch (m.role()) {
            case "system" -> {
                if (withSystemPrompt) sb.append("[system]\n").append(indent(m.content() == null ? "" : m.content())).append('\n');
            }
            case "user" -> sb.append("[user] ").append(m.content()).append('\n');
            case "assistant" -> {
                if (m.toolCalls() != null) {
                    for (Message.ToolCall c : m.toolCalls()) {
                        sb.append("[assistant -> ").append(c.function().name()).append("] ").append(c.function().arguments()).append('\n');
                    }
                } else {
                    sb.append("[assistant] ").append(m.content()).append('\n');
                }
            }
            case "tool" -> sb.append("  [").append(m.name()).append(m.error() != null ? " ERROR " + m.error() : "").append("] ")
                    .append(abbreviate(m.content(), 600)).append('\n');
            default -> sb.append('[').append(m.role()).append("] ").append(m.content()).append('\n');
        }
        return sb.toString();
    }

    private static String indent(String s) {
        return "  " + s.strip().replace("\n", "\n  ");
    }

    private static String abbreviate(String s, int max) {
        if (s == null) return "";
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }
}
