package dev.openagent.sandbox;

import java.util.Map;

/** One applied shift as recorded in a trajectory: enough to re-apply it exactly. */
public record ShiftRecord(String id, Map<String, String> params, long seed) {
    public ShiftRecord {
        params = SortedMaps.copyOf(params);
    }

    /** The canonical spec text, for example {@code obs.format:format=xml,severity=2}. */
    public String spec() {
        if (params.isEmpty()) return id;
        StringBuilder sb = new StringBuilder(id).append(':');
        params.forEach((k, v) -> sb.append(k).append('=').append(v).append(','));
        sb.setLength(sb.length() - 1);
        return sb.toString();
    }
}
