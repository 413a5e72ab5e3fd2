package dev.openagent.sandbox;

/**
 * Base class of a shift: wraps an environment and changes one thing, delegating the rest
 * (Gymnasium's {@code Wrapper}). Subclasses record themselves in {@link #spec()}.
 */
public abstract class EnvWrapper implements Env {
    protected final Env inner;

    protected EnvWrapper(Env inner) {
        this.inner = inner;
    }

    public Env inner() { return inner; }

    /** How this layer records itself. */
    protected abstract ShiftRecord record();

    @Override
    public EnvSpec spec() { return inner.spec().with(record()); }

    @Override
    public EnvironmentInfo info() { return inner.info(); }

    @Override
    public Start reset(TaskRequest request) { return inner.reset(request); }

    @Override
    public Step step(Action action) { return inner.step(action); }

    @Override
    public Task task() { return inner.task(); }

    @Override
    public Guide guide() { return inner.guide(); }

    @Override
    public long episodeSeed() { return inner.episodeSeed(); }

    @Override
    public EnvFacts facts() { return inner.facts(); }
}
