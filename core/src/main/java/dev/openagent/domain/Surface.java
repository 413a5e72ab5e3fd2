package dev.openagent.domain;

import dev.openagent.sandbox.Interface;

import java.util.List;

/**
 * How an agent acts on a domain: by JSON function calls of its tools, or by text commands read by an
 * interpreter (the valid commands listed only by {@code help}).
 *
 * @param <W> the world of one episode
 */
public sealed interface Surface<W> {

    /** Function calls: the tools, each with its JSON-Schema parameters and behaviour. */
    record FunctionCalls<W>(List<Tool<W>> tools) implements Surface<W> {
        public FunctionCalls {
            tools = List.copyOf(tools);
        }
    }

    /**
     * Text commands: the verbs (what `openagent envs` lists, the text-command counterpart of tool names),
     * what {@code help} shows, and the interpreter.
     */
    record TextCommands<W>(List<String> verbs, String help, Interpreter<W> interpreter) implements Surface<W> {
        public TextCommands {
            verbs = List.copyOf(verbs);
        }
    }

    /** Runs one text command on the world. */
    @FunctionalInterface
    interface Interpreter<W> {
        /**
         * The text is already normalised ({@link dev.openagent.sandbox.Commands#normalize}: lower case, single
         * spaces, no surrounding punctuation) and is neither empty, {@code help} nor {@code ask ...}. Must never
         * throw on bad input: unknown verbs, unknown names and impossible actions are {@link Reply#error}s.
         */
        Reply execute(W world, String command);
    }

    default Interface iface() {
        return switch (this) {
            case FunctionCalls<W> f -> Interface.FUNCTION_CALL;
            case TextCommands<W> t -> Interface.TEXT_COMMAND;
        };
    }

    /** The names an agent learns to call: tool names, or command verbs. */
    default List<String> names() {
        return switch (this) {
            case FunctionCalls<W> f -> f.tools().stream().map(Tool::name).toList();
            case TextCommands<W> t -> t.verbs();
        };
    }
}
