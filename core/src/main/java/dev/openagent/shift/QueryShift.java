package dev.openagent.shift;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.SimulatedUser;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Task;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Base of the shifts that rewrite the user's request. The layer's {@link #task()} carries the
 * rewritten query, the details whose spans it still contains, and any facts the simulated user
 * gained; when the layer added facts it answers {@code ask_user} from all of them.
 */
public abstract class QueryShift extends ShiftEnv<Void> {
    private boolean addedFacts;

    protected QueryShift(Env inner, Shift shift, Map<String, String> params) {
        super(inner, shift, params);
    }

    /** The task as this layer states it. */
    protected abstract Task rewrite(Task inner);

    @Override
    protected Start begin(Start in) {
        Task before = inner.task();
        Task after = rewrite(before);
        String q = after.query();
        after = after.withDetails(after.details().stream().filter(d -> q.contains(d.span())).toList());
        addedFacts = !after.userFacts().equals(before.userFacts());
        shiftedTask = after;
        return in.withQuery(q);
    }

    @Override
    protected dev.openagent.sandbox.Step act(Action action) {
        String question = switch (action) {
            case Action.AskUser q -> q.question();
            case Action.Command c -> {   // text-command environments: "ask <question>"
                String q = dev.openagent.sandbox.Commands.after(dev.openagent.sandbox.Commands.normalize(c.text()), Protocol.ASK_COMMAND);
                yield q == null || q.isEmpty() ? null : c.text();
            }
            default -> null;
        };
        if (answersUser() && question != null) {
            var s = forward(action);
            return s.withObservations(s.observations().stream()
                    .map(o -> o.source() == Observation.Source.USER ? o.withText(reply(question)) : o).toList());
        }
        return super.act(action);
    }

    @Override
    protected Route route(Action.ToolCall call) {
        if (answersUser() && Protocol.ASK_USER.equals(call.name())) {
            ObjectNode args = Texts.argsObject(call.arguments());
            String question = args != null && args.hasNonNull("question") ? args.get("question").asText() : call.arguments();
            return new Forward(call, o -> o.isError() ? o : o.withText(reply(question)));
        }
        return super.route(call);
    }

    /** Whether this layer answers {@code ask_user} itself: by default when it added facts the user knows. */
    protected boolean answersUser() {
        return addedFacts;
    }

    /** The user's reply to a question, from the facts of the task as this layer states it. */
    protected String reply(String question) {
        return SimulatedUser.reply(shiftedTask.userFacts(), question);
    }

    // ---------------------------------------------------------------- helpers for subclasses

    /** The query without the detail's span, tidied. */
    protected static String without(String query, Detail d) {
        int i = query.indexOf(d.span());
        if (i < 0) return query;
        return tidy(query.substring(0, i) + query.substring(i + d.span().length()));
    }

    protected static String tidy(String s) {
        return s.replaceAll(" {2,}", " ").replace(" .", ".").replace(" ,", ",").replace(" ?", "?").strip();
    }

    /** The task after a detail was removed: the user now knows it as a fact. */
    protected static Task removed(Task t, List<Detail> gone) {
        String q = t.query();
        Map<String, String> facts = new HashMap<>(t.userFacts());
        for (Detail d : gone) {
            q = without(q, d);
            facts.merge(d.keywords(), d.reply(), (a, b) -> a.equals(b) ? a : a + " " + b);
        }
        return t.withQuery(q).withUserFacts(facts);
    }

    /** A question the simulated user recognises as being about the detail. */
    public static String question(Detail d) {
        String phrase = d.key().replace('_', ' ');
        String norm = dev.openagent.sandbox.Checks.normalize(phrase);
        boolean recognised = false;
        for (String k : d.keywords().split("\\|")) {
            if (!k.isBlank() && norm.contains(dev.openagent.sandbox.Checks.normalize(k))) recognised = true;
        }
        if (!recognised) phrase = d.keywords().split("\\|")[0];
        return "Could you tell me the " + phrase + " you have in mind?";
    }
}
