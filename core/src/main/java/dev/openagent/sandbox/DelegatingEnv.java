package dev.openagent.sandbox;

/**
 * An environment that passes every call to the one it holds; a subclass overrides what it changes.
 * {@link EnvWrapper} (a shift layer, which records itself in {@link #spec()}) and an environment
 * that only adds bookkeeping around another (a file environment leasing a worker per episode) both build on it.
 */
public abstract class DelegatingEnv implements Env {
    protected final Env inner;

    protected DelegatingEnv(Env inner) {
        this.inner = inner;
    }

    public Env inner() { return inner; }

    @Override
    public EnvSpec spec() { return inner.spec(); }

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

    @Override
    public void grantTurns(int turns) { inner.grantTurns(turns); }

    @Override
    public com.fasterxml.jackson.databind.JsonNode dbChanges() { return inner.dbChanges(); }
}
