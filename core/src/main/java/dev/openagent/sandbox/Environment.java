package dev.openagent.sandbox;

/** A registered environment: its facts and a factory of independent instances. */
public interface Environment {
    EnvironmentInfo info();

    /** A fresh instance; each worker thread gets its own. */
    Env create();

    default String id() { return info().id(); }
}
