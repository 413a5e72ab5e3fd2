package dev.openagent.shift;

import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Step;

import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A shift layer's guide: asks the inner guide for its next action, handing it the inner step the
 * layer kept, and translates that action outward. Subclasses add the steps their layer needs
 * (asking the user, retrying, fetching pages, confirming...) before or after.
 */
public class LayerGuide implements Guide {
    protected final Guide inner;
    private final ShiftEnv<?> layer;
    private boolean started;

    public LayerGuide(Guide inner, ShiftEnv<?> layer) {
        this.inner = inner;
        this.layer = layer;
    }

    @Override
    public Action next(Step last) {
        return outward(innerNext());
    }

    /**
     * The inner guide's next action, handed the inner step the layer kept for its latest forwarded
     * action (nothing before the inner guide's first action, whatever this layer did before).
     */
    protected Action innerNext() {
        return innerNext(started ? layer.innerStep : null);
    }

    /** The inner guide's next action for an inner step this layer put together itself. */
    protected Action innerNext(Step innerStep) {
        started = true;
        return inner.next(innerStep);
    }

    /** The layer keeps the step as the answer to the inner guide's latest action, and the layers below do too. */
    @Override
    public void handDown(Step step) {
        layer.innerStep = step;
        inner.handDown(step);
    }

    /**
     * The guide of a layer whose failures are transient: while {@code failed} says the latest action
     * failed at this layer, it sends that same action again (unchanged by the layers outside, which
     * translate it as before); otherwise the inner guide's next action.
     */
    public static LayerGuide retrying(Guide inner, ShiftEnv<?> layer, BooleanSupplier failed) {
        return new LayerGuide(inner, layer) {
            private Action lastAction;

            @Override
            public Action next(Step last) {
                if (failed.getAsBoolean() && lastAction != null) return lastAction;
                lastAction = innerNext();
                return lastAction;
            }
        };
    }

    /**
     * The guide of a layer that refuses a turn until the agent does something else first (renews a session, waits
     * out a rate limit): after a refused turn {@code recovery} gives that action (null when the latest turn was not
     * refused), and the refused action follows again.
     */
    public static LayerGuide recovering(Guide inner, ShiftEnv<?> layer, Supplier<Action> recovery) {
        return new LayerGuide(inner, layer) {
            private Action lastAction;
            private boolean recovered;

            @Override
            public Action next(Step last) {
                if (recovered) {
                    recovered = false;
                    return lastAction;   // recovered: the refused action again
                }
                Action r = lastAction == null ? null : recovery.get();
                if (r != null) {
                    recovered = true;
                    return r;
                }
                lastAction = innerNext();
                return lastAction;
            }
        };
    }

    /** The guide of a layer that only changes how actions look: each inner action goes through {@code outward}. */
    public static LayerGuide translating(Guide inner, ShiftEnv<?> layer, UnaryOperator<Action> outward) {
        return new LayerGuide(inner, layer) {
            @Override
            protected Action outward(Action a) { return outward.apply(a); }
        };
    }

    /**
     * The guide of a layer that sometimes needs calls of its own before the inner guide's next tool
     * calls: {@code before} answers those calls, or null when none are needed; then the inner calls
     * follow (asked of {@code before} again), as {@code outward} shows them at this layer. Actions
     * other than tool calls pass unchanged.
     */
    public static LayerGuide preceding(Guide inner, ShiftEnv<?> layer, Function<Action.CallTools, Action> before,
                                       UnaryOperator<Action.CallTools> outward) {
        return new LayerGuide(inner, layer) {
            private Action pending;

            @Override
            public Action next(Step last) {
                Action a = pending != null ? pending : innerNext();
                pending = null;
                if (!(a instanceof Action.CallTools c)) return a;
                Action first = before.apply(c);
                if (first == null) return outward.apply(c);
                pending = a;
                return first;
            }
        };
    }

    /** The calls with the tools {@code names} maps called by their new names (arguments unchanged). */
    public static Action.CallTools renamed(Action.CallTools c, Map<String, String> names) {
        return new Action.CallTools(c.calls().stream().map(x -> names.containsKey(x.name())
                ? new Action.ToolCall(x.id(), names.get(x.name()), x.arguments()) : x).toList());
    }

    /** Translates an inner action into what the agent would do at this layer (default: unchanged). */
    protected Action outward(Action inner) { return inner; }
}
