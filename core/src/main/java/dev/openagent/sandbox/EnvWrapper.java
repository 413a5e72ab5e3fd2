package dev.openagent.sandbox;

/**
 * Base class of a shift: wraps an environment and changes one thing, delegating the rest
 * (Gymnasium's {@code Wrapper}). Subclasses record themselves in {@link #spec()}.
 */
public abstract class EnvWrapper extends DelegatingEnv {
    protected EnvWrapper(Env inner) {
        super(inner);
    }

    /** How this layer records itself. */
    protected abstract ShiftRecord record();

    @Override
    public EnvSpec spec() { return inner.spec().with(record()); }
}
