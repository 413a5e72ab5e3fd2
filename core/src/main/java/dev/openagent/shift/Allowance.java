package dev.openagent.shift;

/**
 * Knowledge from outside the episode that a shift needs of an agent, declared by the shift: the view-only
 * solver ({@code dev.openagent.oracle.ViewSolver}) applies exactly the transformations the shifts of the stack
 * declare and nothing else. A shift that declares none must be solvable from what the agent is shown alone.
 */
public enum Allowance {
    /**
     * Values are written in the input formats the instructions state (dates as DD.MM.YYYY, times on the
     * 12-hour clock, person names as "Last, First"): the agent rewrites a value it saw in one form into another.
     */
    INPUT_FORMATS("rewrites a date, time or person name it saw into the input format the instructions state"),
    /**
     * A result's field renamed to a synonym from the environment's vocabulary ({@code confirmation_id} shown as
     * {@code approvalRef}) is read as that field.
     */
    KEY_SYNONYMS("reads a result's field renamed to a synonym from the environment's vocabulary as that field"),
    /**
     * A value the instructions say comes in parts ({@code <name>_part_1} immediately followed by
     * {@code <name>_part_2}) is read as the parts joined.
     */
    JOINED_PARTS("joins a value shown in two labelled parts, as the instructions say"),
    /**
     * A number, date, time or yes/no written in another common form ({@code "1,250.00"}, {@code "Nov 27, 2026"},
     * {@code "1:00 PM"}, {@code "yes"}) is read as the value it stands for, and written back in the form the tools'
     * schemas ask for (a time "as HH:MM, 24-hour clock").
     */
    VALUE_FORMATS("reads a number, date, time or yes/no written in another common form as the value it stands for, and writes it as the tools' schemas ask");

    private final String description;

    Allowance(String description) {
        this.description = description;
    }

    /** What the agent may do, as docs/shifts.md lists it. */
    public String description() { return description; }
}
