package dev.openagent.policy;

import dev.openagent.sandbox.ToolSpec;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the policy reads of one tool, worked out once per {@link ToolSpec} instance: its parameters, its
 * description channel, and its hash. A context is re-encoded every step and a batch looks every example's
 * tools up, while a ToolSpec's own hash walks its whole JSON schema and its {@code parameters()} hands out a
 * deep copy; an episode shows the same instances step after step.
 *
 * @param params      the parameters in schema order ({@link ParamSpec#parse})
 * @param description the description channel: the description and the parameter names ({@link Batch#descriptionText})
 * @param hash        {@code spec.hashCode()}
 */
record ToolReading(List<ParamSpec> params, String description, int hash) {
    /** Per thread, by identity: no locking on the hot path; a thread sees a few hundred distinct instances an episode batch. */
    private static final ThreadLocal<Map<ToolSpec, ToolReading>> READ = ThreadLocal.withInitial(IdentityHashMap::new);
    private static final int LIMIT = 5_000;

    static ToolReading of(ToolSpec spec) {
        Map<ToolSpec, ToolReading> read = READ.get();
        ToolReading known = read.get(spec);
        if (known != null) return known;
        if (read.size() > LIMIT) read.clear();
        ToolReading r = new ToolReading(ParamSpec.parse(spec), Batch.descriptionText(spec), spec.hashCode());
        read.put(spec, r);
        return r;
    }

    /** A tool as a hash key with its hash computed once; equal to another key for an equal tool. */
    record Key(ToolSpec spec, int hash) {
        static Key of(ToolSpec spec) { return new Key(spec, ToolReading.of(spec).hash()); }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.hash == hash && (k.spec == spec || k.spec.equals(spec));
        }

        @Override
        public int hashCode() { return hash; }
    }
}
