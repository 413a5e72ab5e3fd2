package dev.openagent.agent.openai;

import dev.openagent.UserInputException;

import java.util.Locale;

/** How tool calls travel between the harness and the model. */
public enum ToolProtocol {
    /** Tools sent as the OpenAI {@code tools} field; calls come back as {@code tool_calls}. */
    NATIVE,
    /**
     * For models served without a tool-call parser: tools are described in the system prompt and
     * calls are parsed from the assistant's plain text ({@link TextToolCalls}).
     */
    TEXT;

    public String id() { return name().toLowerCase(Locale.ROOT); }

    public static ToolProtocol parse(String text) {
        return switch (text == null ? "" : text.strip().toLowerCase(Locale.ROOT)) {
            case "native" -> NATIVE;
            case "text" -> TEXT;
            default -> throw new UserInputException("unknown tool protocol '" + text + "' (native|text)");
        };
    }
}
