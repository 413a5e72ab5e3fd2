package dev.openagent.registry;

import dev.openagent.UserInputException;
import dev.openagent.sandbox.Environment;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The environments one entry point works with (a CLI command, a server, a JUnit extension builds one and passes it
 * down): the built-in ones ({@link Environments}) and those it loaded at run time (environment files, tau2-bench's
 * retail domain), all reachable by id. Closing the catalog closes what it loaded. Shift stacks that swap in another
 * environment ({@code domain.transfer}) reach every environment of the catalog through {@code ShiftStack.in(catalog)}.
 */
public final class Catalog implements AutoCloseable {
    /** Loaded environments by id, in the order they were loaded. */
    private final Map<String, Environment> loaded = new LinkedHashMap<>();
    /** Loaded environments by what they were loaded from (a file's path), so each source is loaded once. */
    private final Map<Object, Environment> bySource = new HashMap<>();
    private boolean closed;

    /**
     * The environment loaded from {@code source} (a normalised path, for example): loaded with {@code loader} the first
     * time and kept under its id; later calls give the same instance.
     *
     * @throws UserInputException when another environment already has its id (what was loaded is closed again)
     */
    public synchronized Environment load(Object source, Supplier<? extends Environment> loader) {
        if (closed) throw new IllegalStateException("the catalog is closed");
        Environment e = bySource.get(source);
        if (e != null) return e;
        Environment fresh = loader.get();
        try {
            add(fresh);
        } catch (RuntimeException refused) {
            if (fresh instanceof AutoCloseable c) closeQuietly(c, refused);
            throw refused;
        }
        bySource.put(source, fresh);
        return fresh;
    }

    /** @throws UserInputException when another environment already has its id */
    private void add(Environment e) {
        if (Environments.find(e.id()).isPresent()) {
            throw new UserInputException("environment id '" + e.id() + "' is a built-in one; give the file another id");
        }
        Environment old = loaded.putIfAbsent(e.id(), e);
        if (old != null && old != e) throw new UserInputException("environment id '" + e.id() + "' is already taken; give the file another id");
    }

    /** The environment with this id, built-in or loaded, if there is one. */
    public synchronized Optional<Environment> find(String id) {
        Optional<Environment> e = Environments.find(id);
        return e.isPresent() ? e : Optional.ofNullable(loaded.get(id));
    }

    /** @throws UserInputException naming the built-in ids when there is no such environment */
    public Environment get(String id) {
        return find(id).orElseThrow(() -> Environments.unknown(id));
    }

    /** Every environment's id: the built-in ones as they are listed, then the loaded ones as they were loaded. */
    public synchronized List<String> ids() {
        List<String> ids = new ArrayList<>(Environments.ids());
        ids.addAll(loaded.keySet());
        return List.copyOf(ids);
    }

    /** Every environment: the built-in ones as they are listed, then the loaded ones as they were loaded. */
    public synchronized List<Environment> all() {
        List<Environment> all = new ArrayList<>(Environments.all());
        all.addAll(loaded.values());
        return List.copyOf(all);
    }

    /** The environments this catalog loaded, as they were loaded. */
    public synchronized List<Environment> loaded() { return List.copyOf(loaded.values()); }

    /** Closes every environment it loaded (last loaded first); the catalog loads nothing more. */
    @Override
    public void close() {
        List<Environment> open;
        synchronized (this) {
            if (closed) return;
            closed = true;
            open = new ArrayList<>(loaded.values());
        }
        RuntimeException first = null;
        for (Environment e : open.reversed()) {
            if (!(e instanceof AutoCloseable c)) continue;
            try {
                c.close();
            } catch (Exception x) {
                if (first == null) first = x instanceof RuntimeException r ? r : new IllegalStateException("closing " + e.id() + ": " + x, x);
                else first.addSuppressed(x);
            }
        }
        if (first != null) throw first;
    }

    private static void closeQuietly(AutoCloseable c, RuntimeException into) {
        try {
            c.close();
        } catch (Exception x) {
            into.addSuppressed(x);
        }
    }
}
