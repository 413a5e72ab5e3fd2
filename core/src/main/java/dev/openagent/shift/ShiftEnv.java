package dev.openagent.shift;

import dev.openagent.sandbox.SortedMaps;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Commands;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.EnvWrapper;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.ShiftRecord;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolError;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Base of every shift wrapper. Per episode it derives its seed from the inner episode seed and its
 * own spec, so the same seed gives the same shifted episode; it records itself (id, parameters,
 * seed) in the spec stack; and it routes tool calls one by one: a call is forwarded (possibly
 * rewritten, with its observation rewritten on the way back) or answered by the layer itself.
 * <p>
 * Every turn reaches the inner environment, even one the layer answers itself (then as a call the
 * inner environment rejects, whose observation is dropped), so step limits keep holding.
 * The inner step of the latest forwarded action is kept for the layer's guide, which hands it to
 * the inner guide: guides never parse what the agent is shown.
 * <p>
 * What a layer keeps during an episode lives in one object of its own type {@code E} (a small
 * mutable class nested in the shift), made afresh at every reset before {@link #begin}: a layer
 * never resets fields by hand. A layer that keeps nothing is a {@code ShiftEnv<Void>}.
 */
public abstract class ShiftEnv<E> extends EnvWrapper {
    private final Shift shift;
    protected final Map<String, String> params;
    private long seed;
    /** What the inner environment started the current episode with. */
    protected Start innerStart;
    /** What this layer showed the agent at the start of the current episode. */
    protected Start outerStart;
    /** The inner step answering this layer's latest forwarded action. */
    protected Step innerStep;
    /** This episode's randomness (derived from the episode seed and the shift spec). */
    protected SplittableRandom rnd;
    /** The task as this layer states it, when it restates it (null: the inner task). */
    protected Task shiftedTask;
    /** What this layer keeps during the current episode (null for a layer that keeps nothing). */
    protected E ep;
    private final Supplier<E> newEpisode;

    /** A layer that keeps {@code newEpisode.get()} for each episode. */
    protected ShiftEnv(Env inner, Shift shift, Map<String, String> params, Supplier<E> newEpisode) {
        super(inner);
        this.shift = shift;
        this.params = SortedMaps.copyOf(params);
        this.newEpisode = newEpisode;
    }

    /** A layer that keeps nothing from turn to turn. */
    protected ShiftEnv(Env inner, Shift shift, Map<String, String> params) {
        this(inner, shift, params, () -> null);
    }

    public Shift shift() { return shift; }

    @Override
    protected ShiftRecord record() { return new ShiftRecord(shift.id(), params, seed); }

    @Override
    public final Start reset(TaskRequest request) {
        innerStart = inner.reset(request);
        seed = Seeds.derive(inner.episodeSeed(), new ShiftRecord(shift.id(), params, 0).spec());
        rnd = new SplittableRandom(seed);
        innerStep = null;
        shiftedTask = null;
        ep = newEpisode.get();
        outerStart = begin(innerStart);
        return outerStart;
    }

    /**
     * Called once per episode after the inner reset (and after {@link #ep} is made): what the agent is
     * shown. By default what the inner environment shows.
     */
    protected Start begin(Start inner) { return inner; }

    /** The seed of this layer in the current episode. */
    protected long seed() { return seed; }

    protected int severity() { return Integer.parseInt(params.getOrDefault("severity", "2")); }

    @Override
    public Guide guide() { return new LayerGuide(inner.guide(), this); }

    // ---------------------------------------------------------------- stepping

    /** Forwards an action unchanged and keeps the inner step for the guide. */
    protected Step forward(Action action) {
        innerStep = inner.step(action);
        return innerStep;
    }

    /**
     * What a layer sends down for a turn it answered itself: a call no environment knows, so the
     * turn is counted; inner layers pass it through untouched and do not keep its step.
     */
    static final Action.CallTools TICK = Action.CallTools.of("tick", "", "");

    /** A turn this layer answers itself: the inner environment still counts it. */
    protected Step local(List<Observation> observations) {
        Step tick = inner.step(TICK);
        return tick.done() ? Step.end(observations, tick.outcome()) : Step.of(observations);
    }

    @Override
    public final Step step(Action action) {
        if (action == TICK) return inner.step(action);
        newTurn();
        // In a text-command environment a message may be an ending ("FINAL ANSWER: ...", "CANNOT COMPLETE: ..."):
        // every layer sees it as the ending it is.
        if (action instanceof Action.Command c && textCommand()) return act(Protocol.command(c.text()));
        return act(action);
    }

    /** Whether the environment below acts by text commands (then there is no tool list; see {@link TextVerbs}). */
    protected boolean textCommand() {
        return inner.info().iface() == Interface.TEXT_COMMAND;
    }

    /** Called at the start of each turn of the agent, before {@link #act}: where per-turn notes are cleared. */
    protected void newTurn() {}

    /** One turn of the agent (turns of outer layers' own answers never get here). */
    protected Step act(Action action) {
        if (action instanceof Action.CallTools c) return callTools(c);
        Step s = forward(other(action));
        return s.withObservations(s.observations().stream().map(this::otherObservation).toList());
    }

    /**
     * A turn with these commands of a text-command environment hidden: {@code help} lists them no more and
     * using one is an unknown command (answered here; the turn still counts below). Any other turn goes to
     * {@code otherwise}.
     */
    protected Step hidingCommands(Action action, Set<String> hidden, Function<Action, Step> otherwise) {
        if (action instanceof Action.Command c && textCommand() && !hidden.isEmpty()) {
            String text = Commands.normalize(c.text());
            if (Protocol.isHelp(text)) {
                Step s = forward(action);
                return s.withObservations(s.observations().stream().map(o -> o.isError() ? o : o.withText(TextVerbs.withoutVerbs(o.text(), hidden))).toList());
            }
            if (TextVerbs.verbOf(text, hidden) != null) return local(List.of(TextVerbs.unknown(c.text())));
        }
        return otherwise.apply(action);
    }

    /** What happens to one tool call. */
    public sealed interface Route permits Forward, Reply {}

    /** Forward the (possibly rewritten) call; rewrite its observation with {@code after}. */
    public record Forward(Action.ToolCall call, UnaryOperator<Observation> after) implements Route {
        public Forward(Action.ToolCall call) { this(call, UnaryOperator.identity()); }
    }

    /** Answer the call here. */
    public record Reply(Observation observation) implements Route {}

    /** Routes one call; by default forwards it and rewrites its observation with {@link #observation}. */
    protected Route route(Action.ToolCall call) {
        return new Forward(call, this::observation);
    }

    /** Rewrites the observation of a forwarded tool call (default: unchanged). */
    protected Observation observation(Observation o) { return o; }

    /** Rewrites an action other than tool calls before forwarding it (default: unchanged). */
    protected Action other(Action action) { return action; }

    /** Rewrites observations of other actions (user replies, environment messages). */
    protected Observation otherObservation(Observation o) { return o; }

    private Step callTools(Action.CallTools c) {
        if (c.calls().size() == 1) return callTool(c);
        List<Route> routes = new ArrayList<>(c.calls().size());
        List<Action.ToolCall> forwarded = new ArrayList<>();
        for (Action.ToolCall call : c.calls()) {
            Route r = route(call);
            routes.add(r);
            if (r instanceof Forward f) forwarded.add(f.call());
        }
        if (forwarded.isEmpty()) {
            return local(routes.stream().map(r -> ((Reply) r).observation()).toList());
        }
        Step s = forward(new Action.CallTools(forwarded));
        Map<String, ArrayDeque<Observation>> byId = new HashMap<>();
        List<Observation> rest = new ArrayList<>();
        for (Observation o : s.observations()) {
            if (o.callId() != null) byId.computeIfAbsent(o.callId(), k -> new ArrayDeque<>()).add(o);
            else rest.add(o);
        }
        List<Observation> out = new ArrayList<>(routes.size() + rest.size());
        for (Route r : routes) {
            switch (r) {
                case Reply reply -> out.add(reply.observation());
                case Forward f -> {
                    ArrayDeque<Observation> q = byId.get(f.call().id());
                    Observation o = q == null ? null : q.poll();
                    if (o != null) out.add(f.after().apply(o));
                }
            }
        }
        byId.values().forEach(q -> q.forEach(o -> out.add(otherObservation(o))));
        rest.forEach(o -> out.add(otherObservation(o)));
        return s.withObservations(out);
    }

    /** The common case of one call per turn, without the bookkeeping of several. */
    private Step callTool(Action.CallTools c) {
        Route r = route(c.calls().getFirst());
        if (r instanceof Reply reply) return local(List.of(reply.observation()));
        Forward f = (Forward) r;
        Step s = forward(f.call() == c.calls().getFirst() ? c : new Action.CallTools(List.of(f.call())));
        List<Observation> obs = s.observations();
        if (obs.size() == 1 && f.call().id().equals(obs.getFirst().callId())) return s.withObservations(List.of(f.after().apply(obs.getFirst())));
        List<Observation> out = new ArrayList<>(obs.size());
        for (Observation o : obs) out.add(f.call().id().equals(o.callId()) ? f.after().apply(o) : otherObservation(o));
        return s.withObservations(out);
    }

    // ---------------------------------------------------------------- helpers

    /** An error answer to a call, as the environment would give it. */
    protected static Observation error(Action.ToolCall call, ToolError.Code code, String message) {
        return Observation.toolError(call.id(), call.name(), ToolError.of(code, message));
    }

    @Override
    public Task task() { return shiftedTask != null ? shiftedTask : inner.task(); }

    /** The answer to a call of a tool this layer does not offer, naming the ones it does. */
    protected Observation unknownTool(Action.ToolCall call) {
        List<String> names = outerStart.tools().stream().map(dev.openagent.sandbox.ToolSpec::name).toList();
        return error(call, ToolError.Code.UNKNOWN_TOOL, "no tool named '" + Texts.abbreviate(call.name(), 60)
                + "'. Available tools: " + String.join(", ", names));
    }
}
