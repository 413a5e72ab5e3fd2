package dev.openagent.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.episode.Message;
import dev.openagent.json.Json;

import java.util.Optional;

/**
 * How a recorded proxy session carries the watch's events (docs/watch.md): a system message {@code watch: } followed by
 * the event's JSON, written by {@code openagent proxy mcp --watch ... --store ...} and read by {@code openagent view}.
 */
public final class WatchNote {
    static final String PREFIX = "watch: ";

    private WatchNote() {}

    /** The message's text for this event. */
    public static String of(JsonNode event) {
        return PREFIX + Json.write(event);
    }

    /** The event a message of a trajectory records, if it is such a note. */
    public static Optional<JsonNode> read(Message m) {
        if (!"system".equals(m.role()) || m.content() == null || !m.content().startsWith(PREFIX)) return Optional.empty();
        try {
            JsonNode n = Json.parse(m.content().substring(PREFIX.length()));
            return n != null && n.isObject() ? Optional.of(n) : Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty();   // a note that is not JSON is not an event
        }
    }
}
