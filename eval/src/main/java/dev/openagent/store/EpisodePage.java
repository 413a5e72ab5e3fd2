package dev.openagent.store;

import java.util.List;

/** One page of a run's episodes that pass a filter: their ids in plan order, and how many pass it in all. */
public record EpisodePage(List<String> ids, int total) {
    public EpisodePage {
        ids = List.copyOf(ids);
    }
}
