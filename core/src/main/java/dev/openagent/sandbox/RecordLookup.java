package dev.openagent.sandbox;

import java.util.Set;

/**
 * The tool that returns the full record of an entity by its id: {@code tool(param = id)} returns an
 * object holding {@code fields} (empty: every field), for the entity whose id appears in results
 * under {@code idField}.
 */
public record RecordLookup(String tool, String idField, String param, Set<String> fields) {
    public RecordLookup {
        fields = Set.copyOf(fields);
    }
}
