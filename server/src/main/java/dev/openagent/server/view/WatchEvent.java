package dev.openagent.server.view;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.episode.Message;
import dev.openagent.results.EpisodeResult;
import dev.openagent.run.WatchNote;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A watch event as recorded proxy sessions carry it ({@link WatchNote}: docs/watch.md), with the first session that
 * carries it (each session notes the events raised before it opened, so one event is in many sessions).
 */
record WatchEvent(JsonNode event, String episodeId) {
    /** The events of these sessions, each once, in the order first noted. */
    static List<WatchEvent> of(List<EpisodeResult> sessions) {
        Map<String, WatchEvent> seen = new LinkedHashMap<>();
        for (EpisodeResult e : sessions) {
            if (e.trajectory() == null) continue;
            for (Message m : e.trajectory().messages()) {
                WatchNote.read(m).ifPresent(ev -> seen.putIfAbsent(ev.toString(), new WatchEvent(ev, e.id())));
            }
        }
        return new ArrayList<>(seen.values());
    }
}
