package dev.openagent.shift;

import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Step;

import java.util.function.BooleanSupplier;

/**
 * A shift layer's guide: asks the inner guide for its next action, handing it the inner step the
 * layer kept, and translates that action outward. Subclasses add the steps their layer needs
 * (asking the user, retrying, fetching pages, confirming...) before or after.
 */
public class LayerGuide implements Guide {
    protected final Guide inner;
    private final ShiftEnv layer;
    private boolean started;

    public LayerGuide(Guide inner, ShiftEnv layer) {
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
    public static LayerGuide retrying(Guide inner, ShiftEnv layer, BooleanSupplier failed) {
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

    /** Translates an inner action into what the agent would do at this layer (default: unchanged). */
    protected Action outward(Action inner) { return inner; }
}
