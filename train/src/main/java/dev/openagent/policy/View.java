package dev.openagent.policy;

import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.sandbox.Commands;

import java.util.ArrayList;
import java.util.List;

/**
 * What the policy has read so far in an episode, exactly what an LLM agent would have: the
 * request (with the user's replies to its questions), the service rules of the system prompt,
 * the tools as shown, and every earlier action with what came back. Immutable; {@link #after}
 * gives the next view.
 */
public record View(String query, String rules, List<ToolSpec> tools, List<String> userReplies, List<Turn> turns) {
    /** One earlier action and the observations it produced. */
    public record Turn(Action action, List<Observation> observations) {
        public Turn {
            observations = List.copyOf(observations);
        }

        /** Whether this action was a question to the user (a call of ask_user or an AskUser action). */
        public boolean asked() {
            return switch (action) {
                case Action.AskUser q -> true;
                case Action.CallTools c -> c.calls().stream().anyMatch(x -> x.name().equals(Protocol.ASK_USER));
                default -> false;
            };
        }

        /** The action as the agent wrote it: the tool name and its raw JSON arguments. */
        public String actionText() {
            return switch (action) {
                case Action.CallTools c -> String.join("\n", c.calls().stream().map(x -> x.name() + " " + x.arguments()).toList());
                case Action.AskUser q -> Protocol.ASK_USER + " " + q.question();
                case Action.Command cmd -> cmd.text();
                case Action.Answer a -> a.text();
                case Action.Refuse r -> Protocol.finalText(r);
            };
        }

        public String observationText() {
            return String.join("\n", observations.stream().map(Observation::text).toList());
        }

        public boolean failed() {
            return observations.stream().anyMatch(Observation::isError);
        }

        /** The tool names this turn called (empty for questions and commands). */
        public List<String> calledTools() {
            return action instanceof Action.CallTools c ? c.calls().stream().map(Action.ToolCall::name).toList() : List.of();
        }
    }

    public View {
        tools = List.copyOf(tools);
        userReplies = List.copyOf(userReplies);
        turns = List.copyOf(turns);
    }

    private static final String RULES_HEADING = "Rules of this service:";

    public static View start(Start start) {
        String prompt = start.systemPrompt() == null ? "" : start.systemPrompt();
        int at = prompt.indexOf(RULES_HEADING);
        String rules = at < 0 ? "" : prompt.substring(at + RULES_HEADING.length()).strip();
        return new View(start.query(), rules, start.tools(), List.of(), List.of());
    }

    /** The view after the agent took {@code action} and the environment answered {@code step}. */
    public View after(Action action, Step step) {
        Turn turn = new Turn(action, step.observations());
        List<Turn> more = new ArrayList<>(turns);
        more.add(turn);
        List<String> replies = userReplies;
        if (turn.asked() || step.observations().stream().anyMatch(o -> o.source() == Observation.Source.USER)) {
            replies = new ArrayList<>(userReplies);
            for (Observation o : step.observations()) {
                if (o.source() == Observation.Source.USER || Protocol.ASK_USER.equals(o.tool())) replies.add(o.text());
            }
        }
        return new View(query, rules, tools, replies, more);
    }

    /** The request followed by the user's replies so far. */
    public String request() {
        return userReplies.isEmpty() ? query : query + "\n" + String.join("\n", userReplies);
    }

    /**
     * The tools the policy can point at: the tool list without the ask_user protocol tool (asking is
     * its own action); in a text-command environment, the command forms it read in the help text
     * ({@link #commandForms}) as tools.
     */
    public List<ToolSpec> callableTools() {
        if (textCommands()) return commandForms().stream().map(CommandTemplate::toolSpec).toList();
        return tools.stream().filter(t -> !t.name().equals(Protocol.ASK_USER)).toList();
    }

    /** Whether the agent acts by text commands: text-command environments offer no tool list. */
    public boolean textCommands() {
        return tools.isEmpty();
    }

    /**
     * The command forms of a text-command environment: those of the latest help text the agent read
     * (the system prompt tells it to send {@code help}), or only {@code help} before it has read one.
     */
    List<CommandTemplate> commandForms() {
        if (!textCommands()) return List.of();
        for (int i = turns.size() - 1; i >= 0; i--) {
            Turn t = turns.get(i);
            if (isHelp(t)) return parsedHelp(t.observationText());
        }
        return List.of(CommandTemplate.HELP);
    }

    /** Whether a turn sent {@code help} (or {@code commands}) and read a list of command forms. */
    static boolean isHelp(Turn t) {
        return t.action() instanceof Action.Command c && Protocol.isHelp(Commands.normalize(c.text())) && !t.failed()
                && !parsedHelp(t.observationText()).isEmpty();
    }

    /** Parsed help texts; an environment prints one (or, under a shift, a few), so this stays small. */
    private static final java.util.Map<String, List<CommandTemplate>> HELP_FORMS = new java.util.concurrent.ConcurrentHashMap<>();

    private static List<CommandTemplate> parsedHelp(String help) {
        if (HELP_FORMS.size() > 1_000) HELP_FORMS.clear();
        return HELP_FORMS.computeIfAbsent(help, CommandTemplate::parse);
    }
}
