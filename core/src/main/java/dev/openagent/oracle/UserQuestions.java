package dev.openagent.oracle;

import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Task;

import java.util.HashSet;
import java.util.Set;

/** Asking the user for a value of the request the agent was not shown, in words the user knows it by. */
final class UserQuestions {
    private final View view;
    private final Outbox outbox;
    private final WorldTap tap;
    private final Budget budget;
    /** Whether the environment takes text commands (the user is asked with a command, not a tool). */
    private final boolean commands;
    private final Set<String> asked = new HashSet<>();
    private String askedLast;

    UserQuestions(View view, Outbox outbox, WorldTap tap, Budget budget, boolean commands) {
        this.view = view;
        this.outbox = outbox;
        this.tap = tap;
        this.budget = budget;
        this.commands = commands;
    }

    /** Asks the user for a value of the request that was not shown: once, again only while the reply says "try again". */
    Action ask(Task task, String value, String param) {
        if (!asked.add(value) && !(askedLast != null && askedLast.equals(value) && transientReply() && budget.bounded("ask " + value))) return null;
        askedLast = value;
        // About what the user knows the value by: a fact of the request as the user means it (the one carried out),
        // else a detail of the request the world posed.
        String phrase = null;
        for (var f : task.userFacts().entrySet()) {
            if (phrase == null && View.contains(f.getValue().toLowerCase(java.util.Locale.ROOT), value.toLowerCase(java.util.Locale.ROOT))) {
                phrase = spoken(param, f.getKey());
            }
        }
        for (Detail x : tap.task().details()) {
            if (phrase != null) break;
            if (View.contains(x.span().toLowerCase(java.util.Locale.ROOT), value.toLowerCase(java.util.Locale.ROOT))
                    || View.contains(x.reply().toLowerCase(java.util.Locale.ROOT), value.toLowerCase(java.util.Locale.ROOT))) {
                phrase = spoken(x.key(), x.keywords());
            }
        }
        if (phrase == null) return null;
        String question = "Could you tell me the " + phrase + " you have in mind?";
        if (commands) return outbox.sendCommand(Protocol.ASK_COMMAND + " " + question, false);
        return outbox.askWithTool(Protocol.ASK_USER, question);
    }

    /** A name for what is asked about, in words the user's facts know it by: the name, or else the first of the keywords. */
    private static String spoken(String name, String keywords) {
        String phrase = name.replace('_', ' ');
        String normalized = dev.openagent.sandbox.Checks.normalize(phrase);
        boolean known = !phrase.isBlank() && java.util.Arrays.stream(keywords.split("\\|"))
                .anyMatch(k -> !k.isBlank() && normalized.contains(dev.openagent.sandbox.Checks.normalize(k)));
        return known ? phrase : keywords.split("\\|")[0];
    }

    /** Whether the latest step answered with a "try again" rather than the user's reply. */
    private boolean transientReply() {
        return view.latest().stream().noneMatch(x -> x.source() == Observation.Source.USER && !Answers.transientFailure(x.text()))
                && view.latest().stream().anyMatch(x -> Answers.transientFailure(x.text()));
    }
}
