package dev.openagent.envs.kit;

import dev.openagent.domain.ToolFailure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/** Lookups for tool behaviours: by id (ignoring case and surrounding spaces; unknown ids are domain errors) and by name. */
public final class Lookup {
    private Lookup() {}

    /**
     * The entity with this id (ids are stored in upper case).
     *
     * @throws ToolFailure naming what was not found, e.g. "no patient with id 'PT-1'"
     */
    public static <T> T byId(Map<String, T> index, String id, String what) {
        T found = index.get(id.strip().toUpperCase(Locale.ROOT));
        if (found == null) throw ToolFailure.domain("no " + what + " with id '" + id + "'");
        return found;
    }

    /**
     * The elements whose lower-case name contains the fragment (case and surrounding spaces ignored; a null
     * fragment matches every name) and that pass the filter, in list order. Layouts keep lists in the
     * order tools return them, so no sorting is needed.
     */
    public static <T> List<T> named(List<T> all, String fragment, Function<T, String> lowerName, Predicate<T> filter) {
        String f = fragment == null ? null : fragment.strip().toLowerCase(Locale.ROOT);
        List<T> out = new ArrayList<>();
        for (T x : all) if ((f == null || lowerName.apply(x).contains(f)) && filter.test(x)) out.add(x);
        return out;
    }
}
