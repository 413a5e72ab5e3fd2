package dev.openagent.sandbox;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Immutable copies of maps that iterate in key order. {@code Map.of} and {@code Map.copyOf}
 * iterate in an order salted per JVM run, so any output built by iterating them (tool-call
 * arguments, trajectories, shift records) would differ between two runs of the same seed.
 */
public final class SortedMaps {
    private SortedMaps() {}

    public static <V> SortedMap<String, V> copyOf(Map<String, ? extends V> map) {
        for (var e : map.entrySet()) {
            if (e.getKey() == null || e.getValue() == null) throw new NullPointerException("null key or value in " + map.keySet());
        }
        return Collections.unmodifiableSortedMap(new TreeMap<>(map));
    }
}
