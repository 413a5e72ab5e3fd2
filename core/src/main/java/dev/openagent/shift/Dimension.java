package dev.openagent.shift;

/** What a shift changes: the query (Q), the actions/tools (A), the observations (O) or the domain (D). */
public enum Dimension {
    Q, A, O, D
}
