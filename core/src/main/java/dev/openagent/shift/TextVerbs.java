package dev.openagent.shift;

import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.Commands;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What shifts need to treat a text-command environment's verbs as its tools: the verbs listed by
 * {@code help} are what an agent learns to call, so they are what a shift renames or removes. The
 * help text is rewritten where commands stand (the start of a command line, an example, a quoted
 * command), and a command is mapped back by its leading verb. {@code help} and the protocol's
 * {@code ask} are never touched, like {@code ask_user}.
 */
public final class TextVerbs {
    private TextVerbs() {}

    /** Words a renamed verb may not become (they keep their protocol meaning). */
    public static final Set<String> RESERVED = Set.of("help", "commands", Protocol.ASK_COMMAND);

    /** The verbs a shift may rename or remove: every listed verb but {@code help}. */
    public static List<String> verbs(EnvironmentInfo info) {
        return info.tools().stream().filter(v -> !RESERVED.contains(v)).toList();
    }

    /** The longest verb (of several words, like "go to") a normalised command starts with, or null. */
    public static String verbOf(String command, Collection<String> verbs) {
        String best = null;
        for (String v : verbs) {
            boolean starts = command.equals(v) || (command.startsWith(v) && command.charAt(v.length()) == ' ');
            if (starts && (best == null || v.length() > best.length())) best = v;
        }
        return best;
    }

    /** The command with its leading verb {@code verb} replaced by {@code by}. */
    public static String replaceVerb(String command, String verb, String by) {
        return by + command.substring(verb.length());
    }

    /** A command (any text) with its leading verb renamed; unchanged when it starts with none. */
    public static String renameCommand(String command, Map<String, String> renamed) {
        String normalized = Commands.normalize(command);
        String verb = verbOf(normalized, renamed.keySet());
        return verb == null ? command : replaceVerb(normalized, verb, renamed.get(verb));
    }

    /** How a renamed tool name reads as a verb: lower case, words separated by spaces ("find_venue" -> "find venue"). */
    public static String verbName(String toolName) {
        return Commands.normalize(toolName.replace('_', ' '));
    }

    /**
     * The help text with verbs renamed where commands stand: at the start of a command line, after
     * "Example:" and inside quotes. Descriptions stay as they are; columns stay aligned where they fit.
     */
    public static String renameInHelp(String help, Map<String, String> renamed) {
        List<String> out = new ArrayList<>();
        for (String line : help.split("\n", -1)) {
            String body = line.stripLeading();
            String indent = line.substring(0, line.length() - body.length());
            String example = "Example: ";
            if (body.startsWith(example)) {
                out.add(indent + example + renameCommand(body.substring(example.length()), renamed));
                continue;
            }
            String verb = indent.isEmpty() ? null : verbOf(body.toLowerCase(java.util.Locale.ROOT), renamed.keySet());
            if (verb == null) {
                out.add(renameQuoted(line, renamed));
                continue;
            }
            String rest = body.substring(verb.length());
            String usage = rest.contains("  ") ? rest.substring(0, rest.indexOf("  ")) : rest;
            String after = rest.substring(usage.length());
            String renamedUsage = renamed.get(verb) + usage;
            int pad = verb.length() + usage.length() + countLeading(after) - renamedUsage.length();
            String description = after.strip();
            out.add(indent + renamedUsage + (description.isEmpty() ? "" : " ".repeat(Math.max(2, pad)) + renameQuoted(description, renamed)));
        }
        return String.join("\n", out);
    }

    /** The help text without the command lines (and examples) of these verbs. */
    public static String withoutVerbs(String help, Set<String> gone) {
        List<String> out = new ArrayList<>();
        for (String line : help.split("\n", -1)) {
            String body = line.stripLeading().toLowerCase(java.util.Locale.ROOT);
            if (body.startsWith("example: ")) body = body.substring("example: ".length());
            else if (line.length() == body.length()) {
                out.add(line);
                continue;
            }
            if (verbOf(Commands.normalize(body), gone) == null) out.add(line);
        }
        return String.join("\n", out);
    }

    /** The help text with one more command line. */
    public static String withLine(String help, String usage, String description) {
        String line = "  " + usage + " ".repeat(Math.max(2, 34 - usage.length())) + description;
        int example = help.indexOf("\nExample: ");
        return example < 0 ? help + "\n" + line : help.substring(0, example) + "\n" + line + help.substring(example);
    }

    /** Quoted commands ('take red mug from countertop') with their verbs renamed. */
    public static String renameQuoted(String text, Map<String, String> renamed) {
        if (text.indexOf('\'') < 0) return text;
        return Texts.replaceQuoted(text, q -> {
            String verb = verbOf(q, renamed.keySet());
            return verb == null ? q : replaceVerb(q, verb, renamed.get(verb));
        });
    }

    /** The answer of the environment to a command it does not know. */
    public static Observation unknown(String command) {
        String text = "I don't understand '" + Texts.abbreviate(command.strip(), 40) + "'. Type 'help' for the list of commands.";
        return new Observation(Observation.Source.ENV, null, null, text, null, ToolError.of(ToolError.Code.UNKNOWN_TOOL, text));
    }

    private static int countLeading(String s) {
        int n = 0;
        while (n < s.length() && s.charAt(n) == ' ') n++;
        return n;
    }
}
