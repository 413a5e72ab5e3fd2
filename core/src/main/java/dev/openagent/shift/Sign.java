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
    /** Many new tools at once (at least 50), unlike the ones there were: a crowd of other services' tools. */
    TOOLS_CROWDED("many new tools at once"),
    /** A new tool is a near-duplicate of one that is still there (a dry run, a queued variant). */
    TOOL_LOOKALIKE_ADDED("a near-duplicate of a tool"),
    /** A new tool is a new version of one that is still there ({@code search_v2} beside {@code search}). */
    TOOL_VERSION_ADDED("a new version of a tool"),
    /** A new tool renews access or a session. */
    RENEWAL_TOOL_ADDED("a tool that renews access"),
    /** A new tool waits: it lets time pass before the next call (after a rate limit). */
    WAIT_TOOL_ADDED("a tool that waits"),
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
    /** A tool's description was reworded. */
    DESCRIPTION_REWORDED("a tool's description was reworded"),
    /** A tool's description was emptied or removed. */
    DESCRIPTION_REMOVED("a tool's description was removed"),
    /** A tool's description now says it is deprecated, retired or replaced. */
    DESCRIPTION_RETIRED("a tool's description says it is retired"),
    /** A tool's description now carries an instruction to the agent. */
    DESCRIPTION_INSTRUCTS("a tool's description carries an instruction"),
    /** A tool takes a timeout, or an option to run as a job, it did not take. */
    TIMEOUT_PARAMETER_ADDED("a tool takes a timeout"),
    /** A new tool returns the result of a job started earlier (a poll). */
    JOB_TOOL_ADDED("a tool that polls a job"),
    /** A tool takes a page token or cursor it did not take. */
    PAGING_PARAMETER_ADDED("a tool takes a page token"),
    /** A tool takes a flag that reads live data instead of a cache ({@code fresh}, {@code no_cache}) it did not take. */
    FRESHNESS_PARAMETER_ADDED("a tool takes a freshness flag"),
    /** A tool's declared output schema changed. */
    OUTPUT_SCHEMA_CHANGED("a tool's output schema changed"),

    // What traffic shows: a tool's results and errors, call after call.
    /** Results come in another format (XML, YAML, key=value lines, a table) than they did. */
    RESULT_FORMAT_CHANGED("results come in another format"),
    /** Results hold keys or nesting they never held. */
    RESULT_KEYS_CHANGED("results hold new keys or nesting"),
    /** Results are data written as prose, or errors shaped as successes. */
    RESULTS_AS_PROSE("results are prose or errors shaped as successes"),
    /** Results arrive truncated or as invalid JSON. */
    MALFORMED_RESULTS("results arrive malformed"),
    /** Calls fail with transient errors (a timeout, 503, a rate limit) more often. */
    TRANSIENT_ERRORS("transient errors"),
    /** Calls fail with errors of a kind not seen before, or more often. */
    MORE_ERRORS("more errors"),
    /** Calls fail saying the tool is retired or gone and naming another. */
    RETIRED_ERRORS("errors saying the tool is retired"),
    /** Results carry a notice that tools were withdrawn. */
    WITHDRAWAL_NOTICE("a notice that tools were withdrawn"),
    /** Calls fail with authentication errors. */
    AUTH_ERRORS("authentication errors"),
    /** A tool fails and works by turns: errors that say it is flapping, down and up again. */
    FLAPPING("errors saying a tool is flapping"),
    /** Calls time out with errors that name a longer timeout or a job to run instead. */
    TIMEOUTS("time-outs naming a longer timeout or a job"),
    /** Calls fail with a rate limit that says how long to wait first (a Retry-After, a quota used up). */
    RATE_LIMITED("rate-limit errors naming a Retry-After"),
    /** Calls fail because an earlier result they use is no longer valid, naming the earlier call to redo. */
    DEPENDENCY_ERRORS("errors naming an earlier call to redo"),
    /** Results come a page at a time, with a token for the next. */
    PAGED_RESULTS("results come in pages"),
    /** Results carry an instruction to the agent. */
    INSTRUCTIONS_IN_RESULTS("results carry an instruction");

    private final String text;

    Sign(String text) { this.text = text; }

    /** A short phrase for messages. */
    public String text() { return text; }
}
