package dev.openagent.sandbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;

import java.util.Locale;

/**
 * The agent protocol every agent is told in its system prompt and every checker applies: how to
 * ask the user, how to answer, how to refuse. One place, so agents, servers and exporters agree.
 */
public final class Protocol {
    /** The protocol tool that reaches the simulated user; never renamed by shifts. */
    public static final String ASK_USER = "ask_user";
    /** A final message starting with this (case-insensitive) is a refusal. */
    public static final String REFUSAL_MARKER = "CANNOT COMPLETE:";
    /** In text-command environments, a command starting with this word is a question to the user. */
    public static final String ASK_COMMAND = "ask";
    /**
     * In text-command environments, where a plain message is a command, a message starting with this
     * (case-insensitive) is the final answer.
     */
    public static final String FINAL_ANSWER = "FINAL ANSWER:";

    public static final ToolSpec ASK_USER_TOOL = new ToolSpec(ASK_USER,
            "Ask the user a clarifying question when a detail you need is missing or ambiguous. Returns the user's reply.",
            askUserSchema());

    /** The command that lists the valid commands of a text-command environment (also "commands"). */
    public static final String HELP = "help";

    private Protocol() {}

    /** {@value #ASK_USER}'s parameters: one required string, {@code question}. */
    private static ObjectNode askUserSchema() {
        ObjectNode schema = Json.object();
        schema.put("type", "object");
        ObjectNode question = schema.putObject("properties").putObject("question");
        question.put("type", "string");
        question.put("description", "The question for the user.");
        question.put("maxLength", 200);
        schema.putArray("required").add("question");
        schema.put("additionalProperties", false);
        return schema;
    }

    /** Whether a normalised command ({@link Commands#normalize}) asks for the command list. */
    public static boolean isHelp(String normalized) {
        return normalized.equals(HELP) || normalized.equals("commands");
    }

    /** The system prompt: the protocol, then the environment's own rules. */
    public static String systemPrompt(String domainRules, Interface iface) {
        String acting = iface == Interface.FUNCTION_CALL
                ? "Use the provided tools to look things up and to act. Never invent ids, codes or facts: take them from tool results."
                : "Act by writing one text command per turn (write 'help' to list the valid commands). Never invent facts: take them from what you observe.";
        return "You are an assistant that completes the user's request. " + acting + "\n"
                + "If a detail you need is missing or ambiguous, ask the user "
                + (iface == Interface.FUNCTION_CALL ? "with the " + ASK_USER + " tool.\n" : "with the command '" + ASK_COMMAND + " <your question>'.\n")
                + (iface == Interface.FUNCTION_CALL
                ? "When you are done, reply with the final answer as plain text; include every code, id or value a tool issued that the user asked for.\n"
                : "When you are done, reply with '" + FINAL_ANSWER + "' followed by the final answer; include every code or value the "
                + "environment showed that the user asked for.\n")
                + "If the request cannot be fulfilled (what it needs does not exist or is not allowed), reply with a message that starts with '"
                + REFUSAL_MARKER + "' followed by the reason. Do not refuse a request that can be fulfilled.\n"
                + (domainRules == null || domainRules.isBlank() ? "" : "\nRules of this service:\n" + domainRules.strip() + "\n");
    }

    /** The question of an {@value #ASK_USER} call: its {@code question} argument, or the raw arguments when they hold none. */
    public static String question(String arguments) {
        try {
            JsonNode a = Json.MAPPER.readTree(arguments);
            if (a != null && a.path("question").isTextual()) return a.get("question").asText();
        } catch (JsonProcessingException e) {
            // malformed: the raw text is the question
        }
        return arguments;
    }

    /** A final assistant message as an action: a refusal when it starts with the marker, else an answer. */
    public static Action finalText(String text) {
        String t = text == null ? "" : text.strip();
        String bare = t.replaceFirst("^[*_#>`\\s]+", "");
        if (bare.toUpperCase(Locale.ROOT).startsWith(REFUSAL_MARKER.substring(0, REFUSAL_MARKER.length() - 1))) {
            String reason = bare.substring(REFUSAL_MARKER.length() - 1).replaceFirst("^[:\\s*]+", "");
            return new Action.Refuse(reason);
        }
        return new Action.Answer(t);
    }

    /**
     * A message of an agent in a text-command environment as an action: the final answer when it starts
     * with {@link #FINAL_ANSWER}, a refusal when it starts with the refusal marker, else a command.
     */
    public static Action command(String text) {
        String t = text == null ? "" : text.strip();
        String bare = t.replaceFirst("^[*_#>`\\s]+", "");
        if (bare.regionMatches(true, 0, FINAL_ANSWER, 0, FINAL_ANSWER.length())) {
            return new Action.Answer(bare.substring(FINAL_ANSWER.length()).replaceFirst("^[*_\\s]+", "").strip());
        }
        Action ending = finalText(t);
        return ending instanceof Action.Refuse ? ending : new Action.Command(t);
    }

    /** The text an ending takes as a final message in an environment of this interface (inverse of {@link #command}). */
    public static String finalText(Action ending, Interface iface) {
        if (iface == Interface.TEXT_COMMAND && ending instanceof Action.Answer a) return FINAL_ANSWER + " " + a.text();
        return finalText(ending);
    }

    /** The text an action takes as a final assistant message (inverse of {@link #finalText}). */
    public static String finalText(Action ending) {
        return switch (ending) {
            case Action.Answer a -> a.text();
            case Action.Refuse r -> REFUSAL_MARKER + " " + r.reason();
            default -> throw new IllegalArgumentException("not an ending: " + ending);
        };
    }
}
