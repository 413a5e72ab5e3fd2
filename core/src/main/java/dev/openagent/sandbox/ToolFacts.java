package dev.openagent.sandbox;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What shifts may know about one tool, declared where the tool is declared.
 *
 * @param tool        the tool's (base) name
 * @param readOnly    the tool only looks things up: calling it changes nothing
 * @param after       tools that must succeed before this one, with no data flowing between them
 * @param records     the entity records this tool returns by id (for recovering fields a result left out)
 * @param personNames parameters that hold a person's full name
 * @param path        another path to what this tool does (null: none), for when the tool is gone
 * @param undoes      the committing tool whose work this tool cancels (null: none); its parameters are the fields of
 *                    that tool's result of the same names (cancel_reservation undoes make_reservation)
 * @param sends       what this tool sends to an address (null: nothing): the code a committing tool's result holds
 */
public record ToolFacts(String tool, boolean readOnly, List<String> after, List<RecordLookup> records, Set<String> personNames,
                        Alternative path, String undoes, Sends sends) {
    public ToolFacts {
        after = List.copyOf(after);
        records = List.copyOf(records);
        personNames = Set.copyOf(new LinkedHashSet<>(personNames));
    }

    /** No facts. */
    public static ToolFacts none(String tool) {
        return new ToolFacts(tool, false, List.of(), List.of(), Set.of(), null, null, null);
    }

    public boolean isEmpty() {
        return !readOnly && after.isEmpty() && records.isEmpty() && personNames.isEmpty() && path == null && undoes == null && sends == null;
    }

    public Optional<Alternative> orVia() { return Optional.ofNullable(path); }

    public ToolFacts withReadOnly() { return new ToolFacts(tool, true, after, records, personNames, path, undoes, sends); }

    public ToolFacts withAfter(String before) {
        List<String> more = new ArrayList<>(after);
        more.add(before);
        return new ToolFacts(tool, readOnly, more, records, personNames, path, undoes, sends);
    }

    public ToolFacts withRecord(String idField, String param, Set<String> fields) {
        List<RecordLookup> more = new ArrayList<>(records);
        more.add(new RecordLookup(tool, idField, param, fields));
        return new ToolFacts(tool, readOnly, after, more, personNames, path, undoes, sends);
    }

    public ToolFacts withPersonName(String param) {
        Set<String> more = new LinkedHashSet<>(personNames);
        more.add(param);
        return new ToolFacts(tool, readOnly, after, records, more, path, undoes, sends);
    }

    public ToolFacts withPath(Alternative alternative) {
        return new ToolFacts(tool, readOnly, after, records, personNames, alternative, undoes, sends);
    }

    public ToolFacts withUndoes(String committing) {
        return new ToolFacts(tool, readOnly, after, records, personNames, path, committing, sends);
    }

    public ToolFacts withSends(Sends what) {
        return new ToolFacts(tool, readOnly, after, records, personNames, path, undoes, what);
    }
}
