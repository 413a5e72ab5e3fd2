package dev.openagent.sandbox;

/** A registered environment: its facts and a factory of independent instances. */
public interface Environment {
    EnvironmentInfo info();

    /** A fresh instance; each worker thread gets its own. */
    Env create();

    default String id() { return info().id(); }

    /**
     * Why a shift cannot apply to this environment beyond what its interface says (the shift's own
     * applicability): a fact the environment does not declare that the shift needs. Empty by default;
     * environments declared in a file name the missing fact.
     */
    default java.util.Optional<String> notApplicable(String shiftId) { return java.util.Optional.empty(); }
}
