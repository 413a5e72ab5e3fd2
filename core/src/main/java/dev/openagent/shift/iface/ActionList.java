package dev.openagent.shift.iface;

import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.ShiftParam;
import dev.openagent.shift.TextVerbs;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * interface.action-list (package {@code iface}: {@code interface} is a Java keyword): whether a text-command
 * environment lists its valid commands in every observation, the interface difference the companion study
 * (Xi et al.) found most harmful to transfer. Severity 0 lists them only on {@code help} (today's behaviour);
 * 1 appends "Valid commands now: ..." to every observation; 2 puts the list before the observation; 3 puts it
 * before the observation as a numbered menu, one command per line. Commands are quoted, so a layer that
 * renames verbs renames them in the list too.
 */
public final class ActionList extends ShiftEnv<ActionList.Episode> {
    public static final ShiftParam LEVEL = new ShiftParam("severity",
            "0 only on help (today's behaviour), 1 after every observation, 2 before it, 3 before it as a numbered menu", "2",
            List.of("0", "1", "2", "3"));

    public static final Shift SHIFT = new Shift("interface.action-list", Tier.INTERACTION, Dimension.A,
            "Text-command environments list the valid commands in every observation (severity 0: only on help, as before).",
            List.of(LEVEL), info -> info.iface() == Interface.TEXT_COMMAND ? Optional.empty()
                    : Optional.of("only for text-command environments: a function-call agent is shown its tools with every request already"),
            ActionList::new);

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        List<String> commands;
    }

    private ActionList(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    @Override
    protected Start begin(Start in) {
        ep.commands = new ArrayList<>(TextVerbs.verbs(inner.info()));
        ep.commands.add("help");
        ep.commands.add(Protocol.ASK_COMMAND);
        return in;
    }

    @Override
    protected Step act(Action action) {
        Step s = super.act(action);
        if (severity() == 0 || !(action instanceof Action.Command) || s.observations().isEmpty()) return s;
        List<Observation> out = new ArrayList<>(s.observations());
        Observation last = out.getLast();
        out.set(out.size() - 1, last.withText(listed(last.text())));
        return s.withObservations(out);
    }

    private String listed(String text) {
        List<String> quoted = ep.commands.stream().map(c -> "'" + c + "'").toList();
        return switch (severity()) {
            case 1 -> text + "\nValid commands now: " + String.join(", ", quoted) + ".";
            case 2 -> "Valid commands now: " + String.join(", ", quoted) + ".\n" + text;
            default -> {
                StringBuilder sb = new StringBuilder("Valid commands now:\n");
                for (int i = 0; i < quoted.size(); i++) sb.append(i + 1).append(". ").append(quoted.get(i)).append('\n');
                yield sb.append("---\n").append(text).toString();
            }
        };
    }
}
