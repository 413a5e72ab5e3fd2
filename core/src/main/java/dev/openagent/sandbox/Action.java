package dev.openagent.sandbox;

import java.util.List;
import java.util.Objects;

/**
 * What an agent does on its turn: a closed set. Function-call environments take {@link CallTools},
 * text-command environments take {@link Command}; every environment takes the three endings
 * ({@link Answer}, {@link Refuse}) and {@link AskUser}.
 */
public sealed interface Action {

    /** One call as the model produced it: arguments are raw JSON text, validated by the environment. */
    record ToolCall(String id, String name, String arguments) {
        public ToolCall {
            Objects.requireNonNull(id, "id");
            name = name == null ? "" : name;
            arguments = arguments == null ? "" : arguments;
        }
    }

    /** One or more tool calls in a single turn (parallel tool calls, as in the OpenAI API). */
    record CallTools(List<ToolCall> calls) implements Action {
        public CallTools {
            calls = List.copyOf(calls);
            if (calls.isEmpty()) throw new IllegalArgumentException("CallTools needs at least one call");
        }

        public static CallTools of(String id, String name, String arguments) {
            return new CallTools(List.of(new ToolCall(id, name, arguments)));
        }
    }

    /** A text command for text-command environments ("go to kitchen"). */
    record Command(String text) implements Action {
        public Command { text = text == null ? "" : text; }
    }

    /** A question to the (simulated) user; the reply comes back as an observation. */
    record AskUser(String question) implements Action {
        public AskUser { question = question == null ? "" : question; }
    }

    /** The final answer: ends the episode and is checked. */
    record Answer(String text) implements Action {
        public Answer { text = text == null ? "" : text; }
    }

    /** Declares the task impossible: ends the episode; correct only on unsolvable tasks. */
    record Refuse(String reason) implements Action {
        public Refuse { reason = reason == null ? "" : reason; }
    }

    default boolean ends() {
        return this instanceof Answer || this instanceof Refuse;
    }
}
