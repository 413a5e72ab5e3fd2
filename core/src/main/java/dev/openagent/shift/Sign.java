package dev.openagent.shift;

/**
 * What a shift looks like from outside: a change someone sees who has only a server's surface (its tool list) and
 * its traffic, as the watch has (docs/watch.md). Each shift declares the signs it shows, its most telling first
 * ({@link Shift#signs()}); the watch names a change it sees by the shifts that declare its sign.
 */
public enum Sign {
    /** A tool is gone from the list and nothing with its description took its place. */
    TOOL_REMOVED("a tool is gone"),
    /** A tool is new, unlike the ones there were. */
    TOOL_ADDED("a new tool"),
    /** A new tool is a near-duplicate of one that is still there (a dry run, a queued variant). */
    TOOL_LOOKALIKE_ADDED("a near-duplicate of a tool"),
    /** A new tool is a new version of one that is still there ({@code search_v2} beside {@code search}). */
    TOOL_VERSION_ADDED("a new version of a tool"),
    /** A new tool renews access or a session. */
    RENEWAL_TOOL_ADDED("a tool that renews access"),
    /** A tool's name changed by a few characters: a typo, a dropped or swapped letter, another separator. */
    TOOL_RENAMED_BY_LETTERS("a tool's name changed by a few letters"),
    /** A tool's name changed to other words. */
    TOOL_RENAMED_BY_WORDS("a tool's name changed to other words"),
    /** A tool's name became an opaque id. */
    TOOL_RENAMED_OPAQUE("a tool's name became an opaque id"),
    /** Tools traded names: a name now stands for what another tool did. */
    TOOL_NAMES_TRADED("tools traded names"),
    /** A tool's parameters were renamed, reordered, nested, added or dropped. */
    PARAMETERS_CHANGED("a tool's parameters changed"),
    /** A tool's description was reworded (or emptied). */
    DESCRIPTION_REWORDED("a tool's description was reworded"),
    /** A tool's description now says it is deprecated, retired or replaced. */
    DESCRIPTION_RETIRED("a tool's description says it is retired"),
    /** A tool's description now carries an instruction to the agent. */
    DESCRIPTION_INSTRUCTS("a tool's description carries an instruction"),
    /** A tool takes a page token or cursor it did not take. */
    PAGING_PARAMETER_ADDED("a tool takes a page token"),
    /** A tool's declared output schema changed. */
    OUTPUT_SCHEMA_CHANGED("a tool's output schema changed");

    private final String text;

    Sign(String text) { this.text = text; }

    /** A short phrase for messages. */
    public String text() { return text; }
}
