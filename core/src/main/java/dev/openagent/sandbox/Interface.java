package dev.openagent.sandbox;

/** How an agent acts in an environment. */
public enum Interface {
    /** JSON function calls against a tool list. */
    FUNCTION_CALL("function-call"),
    /** Free text commands; valid commands are discovered by asking for help. */
    TEXT_COMMAND("text-command");

    private final String id;

    Interface(String id) { this.id = id; }

    public String id() { return id; }
}
