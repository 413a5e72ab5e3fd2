package dev.openagent.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Allowance;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Whether a value was shown to the agent, and in what form: the view check's test of every value a call or answer takes. */
final class Visibility {
    private final View view;
    private final Set<Allowance> allowed;
    private final Names names;
    private final LabelReader labels;
    /** The world under the shifts: what it showed itself (the request, instructions and tools before any shift). */
    private final WorldTap tap;

    Visibility(View view, Set<Allowance> allowed, Names names, LabelReader labels, WorldTap tap) {
        this.view = view;
        this.allowed = allowed;
        this.names = names;
        this.labels = labels;
        this.tap = tap;
    }

    boolean visible(String value) {
        return seen(value) != null;
    }

    /**
     * The value as the agent saw it (exactly, or in other letter case), or null when it was not shown. A value shown
     * in another form of its type (a number as "1,250", a time as "1:00 PM") is the value itself, written back in the
     * form the tools take.
     */
    String seen(String value) {
        String s = view.seen(value);
        if (s != null) return s;
        if (allowed.contains(Allowance.VALUE_FORMATS) && view.all().stream().anyMatch(x -> ValueForms.shows(x.text(), value))) return value;
        return allowed.contains(Allowance.JOINED_PARTS) && joinedParts(value) ? value : null;
    }

    /** The arguments with every text value as the agent saw it (values not shown stay as the plan has them). */
    ObjectNode asSeen(ObjectNode worldArgs) {
        ObjectNode out = worldArgs.deepCopy();
        for (Iterator<Map.Entry<String, JsonNode>> it = out.fields(); it.hasNext(); ) {
            var e = it.next();
            if (e.getValue().isTextual()) {
                String s = seen(e.getValue().asText());
                if (s != null) e.setValue(TextNode.valueOf(s));
            }
        }
        return out;
    }

    /** Whether the value is shown as two labelled parts, part 1 directly followed by part 2. */
    private boolean joinedParts(String value) {
        for (View.Shown s : view.all()) {
            List<Labels.Label> ls = labels.labelsOf(s.text());
            for (Labels.Label a : ls) {
                List<String> wa = Names.words(a.key());
                if (wa.isEmpty() || !names.same(wa.getLast(), "part") || !a.key().endsWith("1")) continue;
                for (Labels.Label b : ls) {
                    List<String> wb = Names.words(b.key());
                    if (b == a || !b.key().endsWith("2") || wb.isEmpty() || !names.same(wb.getLast(), "part") || !(a.value() + b.value()).equals(value)) continue;
                    // The same name before the part number; under renamed fields, each may be its own synonym of it.
                    boolean sameStem = wa.subList(0, wa.size() - 1).equals(wb.subList(0, wb.size() - 1));
                    if (sameStem || allowed.contains(Allowance.KEY_SYNONYMS)) return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether a value of the request is something the agent writes rather than copies: the world's own request,
     * instructions and tools do not show it whole either (a path joined from a folder and a file name, an SQL
     * statement). Such a value is judged by its parts ({@link #unshownPart}).
     */
    boolean composed(String value) {
        Start world = tap.start();
        if (View.contains(world.systemPrompt(), value) || View.contains(world.query(), value)) return false;
        for (ToolSpec t : world.tools()) if (View.contains(View.describe(t), value)) return false;
        return true;
    }

    /**
     * The first part of a written value that was not shown, or null when every part was: each quoted text, each
     * word shaped like an id, a number, an address or a column name, and for a path its folder and its name.
     */
    String unshownPart(String value) {
        List<String> parts = new ArrayList<>();
        Matcher q = Pattern.compile("'([^']+)'|\"([^\"]+)\"").matcher(value);
        while (q.find()) parts.add(q.group(1) != null ? q.group(1) : q.group(2));
        String unquoted = q.replaceAll(" ");
        if (value.indexOf('/') >= 0 && !value.contains(" ")) {
            return missingOfPath(value);
        } else {
            for (String w : unquoted.split("[\\s,;()=<>]+")) if (dev.openagent.sandbox.ExactWords.shaped(w)) parts.add(dev.openagent.sandbox.ExactWords.bare(w));
        }
        for (String p : parts) if (!p.isBlank() && !visible(p)) return p;
        return null;
    }

    /**
     * Null when a path was shown, or is a path that was shown joined with names that were ("/srv/notes" + "todo.txt");
     * else the first piece that was not: a name, or the folder it all starts from.
     */
    private String missingOfPath(String path) {
        if (visible(path)) return null;
        int slash = path.lastIndexOf('/');
        if (slash <= 0) return path;
        String name = path.substring(slash + 1);
        if (!name.isEmpty() && !visible(name)) return name;
        return missingOfPath(path.substring(0, slash));
    }
}
