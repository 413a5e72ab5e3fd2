package dev.openagent.shift;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every shift, in catalog order. Adding a shift is one class plus one line here. */
public final class ShiftCatalog {
    private static final Map<String, Shift> ALL = new LinkedHashMap<>();

    static {
        // Registered by the shift engine; see docs/shifts.md.
    }

    private ShiftCatalog() {}

    static void register(Shift s) {
        if (ALL.put(s.id(), s) != null) throw new IllegalStateException("duplicate shift " + s.id());
    }

    public static List<Shift> all() { return List.copyOf(ALL.values()); }

    public static List<Shift> tier(Tier tier) {
        return ALL.values().stream().filter(s -> s.tier() == tier).toList();
    }

    /** @throws IllegalArgumentException naming the known ids */
    public static Shift get(String id) {
        Shift s = ALL.get(id);
        if (s == null) throw new IllegalArgumentException("unknown shift '" + id + "' (see `openagent shifts`)");
        return s;
    }
}
