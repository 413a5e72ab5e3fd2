package dev.openagent.domain;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.sandbox.Alternative;
import dev.openagent.sandbox.Sends;
import dev.openagent.sandbox.ToolFacts;
import dev.openagent.sandbox.ToolSpec;

import java.util.Set;

/**
 * A tool: its name, description and parameters beside its behaviour over a world of type W, and the
 * facts shifts may know about it ({@link ToolFacts}), declared here with the {@code after}, {@code recordOf} / {@code recordFor},
 * {@code personName}, {@code undoes}, {@code sends}, {@code orVia} and {@code readOnly} withers. Behaviours receive validated arguments
 * and either return a JSON result or throw {@link ToolFailure}.
 */
public record Tool<W>(String name, String description, Params params, Behaviour<W> behaviour, ToolFacts facts) {

    @FunctionalInterface
    public interface Behaviour<W> {
        JsonNode call(W world, Args args);
    }

    public Tool(String name, String description, Params params, Behaviour<W> behaviour) {
        this(name, description, params, behaviour, ToolFacts.none(name));
    }

    public ToolSpec spec() { return new ToolSpec(name, description, params.schema()); }

    /** It only looks things up: calling it changes nothing. */
    public Tool<W> readOnly() { return with(facts.withReadOnly()); }

    /** {@code before} must succeed before this tool (an order rule, no data flows between them). */
    public Tool<W> after(String before) { return with(facts.withAfter(before)); }

    /** It returns the record of the entity whose id it takes as {@code param} (and results name {@code param}), holding these fields. */
    public Tool<W> recordOf(String param, String... fields) { return recordFor(param, param, fields); }

    /** As {@link #recordOf}, for an entity whose id appears in results under another name, {@code idField}. */
    public Tool<W> recordFor(String idField, String param, String... fields) {
        checkParam(param);
        return with(facts.withRecord(idField, param, Set.of(fields)));
    }

    /** The parameter holds a person's full name. */
    public Tool<W> personName(String param) {
        checkParam(param);
        return with(facts.withPersonName(param));
    }

    /**
     * This tool cancels what {@code committing} made: its parameters are the fields of the same names in that
     * tool's result (an attacker may ask for the user's booking to be cancelled, obs.injection).
     */
    public Tool<W> undoes(String committing) { return with(facts.withUndoes(committing)); }

    /**
     * This tool sends the code {@code made} returned (its parameter {@code code}, the field of the same name in that
     * tool's result) to the address in its parameter {@code to} (an attacker may ask for the code to go to their
     * address, obs.injection).
     */
    public Tool<W> sends(String made, String code, String to) {
        checkParam(code);
        checkParam(to);
        return with(facts.withSends(new Sends(made, code, to)));
    }

    /** Another path reaches what this tool does. */
    public Tool<W> orVia(Alternative path) { return with(facts.withPath(path)); }

    private Tool<W> with(ToolFacts f) { return new Tool<>(name, description, params, behaviour, f); }

    private void checkParam(String param) {
        if (params.list().stream().noneMatch(p -> p.name().equals(param))) throw new IllegalArgumentException(name + " has no parameter " + param);
    }
}
