package dev.openagent.tau2;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.domain.DomainEnv;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.DelegatingEnv;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.ToolError;

import java.util.ArrayList;
import java.util.List;

/**
 * One instance of {@link Tau2Retail}: a {@link DomainEnv} over its domain, with what tau2's orchestration adds
 * around the tools: what the agent asks the user is kept for the communicate check; a tool's refusal reads as tau2
 * shows it ({@code Error: <message>}); a successful transfer to a human agent ends the episode (judged like a final
 * answer with no text: the summary is for the human agent); a finished episode's outcome says which of the
 * task's natural-language assertions went unscored.
 */
final class Tau2Env extends DelegatingEnv {
    private final Tau2Retail environment;
    private final DomainEnv<RetailState> env;

    Tau2Env(Tau2Retail environment, DomainEnv<RetailState> env) {
        super(env);
        this.environment = environment;
        this.env = env;
    }

    @Override
    public Step step(Action action) {
        RetailState world = env.world();
        boolean transferred = world != null && world.transfer != null;
        switch (action) {
            case Action.AskUser q -> said(q.question());
            case Action.CallTools c -> c.calls().stream().filter(x -> Protocol.ASK_USER.equals(x.name())).forEach(x -> said(Protocol.question(x.arguments())));
            default -> { }
        }
        Step s = inner.step(action);
        List<Observation> out = new ArrayList<>(s.observations().size());
        for (Observation o : s.observations()) {
            out.add(o.isError() && o.error().code() == ToolError.Code.DOMAIN ? o.withText("Error: " + o.error().message()) : o);
        }
        s = s.withObservations(out);
        if (!s.done() && !transferred && world != null && world.transfer != null) {
            // The transfer's summary is for the human agent, not the user: tau2's communicate check does not read it.
            Step end = inner.step(new Action.Answer(""));
            return Step.end(s.observations(), note(end.outcome(), "transferred to a human agent; "));
        }
        return s.done() ? s.withOutcome(note(s.outcome(), "")) : s;
    }

    private void said(String text) {
        if (env.world() != null) env.world().said.add(text);
    }

    /** The outcome, saying how the episode ended and that the task's natural-language assertions were not scored. */
    private Outcome note(Outcome o, String prefix) {
        int nl = environment.nlAssertions(env.task()).size();
        String unscored = nl == 0 ? "" : "; not scored: " + nl + " natural-language assertion" + (nl == 1 ? "" : "s") + " (tau2 needs a model judge)";
        return new Outcome(o.success(), o.end(), prefix + o.detail() + unscored, o.attacked());
    }

    @Override
    public EnvFacts facts() { return RetailFacts.facts(environment.restatements(), inner.facts()); }

    @Override
    public JsonNode dbChanges() { return env.world() == null ? null : Tau2Retail.dbChanges(env.world()); }
}
