package dev.openagent.oracle;

import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.ToolSpec;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * The tools the agent is shown beside the world's own: which shown tool does a world tool's work, the names errors and
 * notices said replace a shown one, and the tools found of no help.
 */
final class ShownTools {
    private final List<ToolSpec> shown;
    private final Map<String, ToolSpec> worldTools = new LinkedHashMap<>();
    /** Shown names that an error or a notice said are replaced by another name. */
    private final Map<String, String> replacedBy = new HashMap<>();
    /** Helper tools that were called for a value and did not show it. */
    private final Set<String> useless = new HashSet<>();

    ShownTools(List<ToolSpec> shown, List<ToolSpec> world) {
        this.shown = new ArrayList<>(shown);
        for (ToolSpec t : world) worldTools.put(t.name(), t);
    }

    List<ToolSpec> shown() { return shown; }

    /** The world's tool of this name, or null. */
    ToolSpec world(String name) { return worldTools.get(name); }

    Collection<ToolSpec> worldTools() { return worldTools.values(); }

    /** Records that an error or a notice said a shown name is replaced by another. */
    void replace(String name, String by) { replacedBy.put(name, by); }

    void useless(String name) { useless.add(name); }

    /** The shown tool that does what a world tool does. */
    Optional<ToolSpec> doing(ToolSpec world) { return Descriptions.tool(world, shown); }

    /** The shown tools that do what a world tool does. */
    Set<String> worldMatched() {
        Set<String> out = new HashSet<>();
        for (ToolSpec w : worldTools.values()) Descriptions.tool(w, shown).ifPresent(t -> out.add(t.name()));
        return out;
    }

    /** The shown tool of this name, if the list shows it (a replacement only a reply named is not listed). */
    Optional<ToolSpec> listed(String name) {
        return shown.stream().filter(t -> t.name().equals(name)).findFirst();
    }

    ToolSpec shownTool(String name) {
        for (ToolSpec t : shown) if (t.name().equals(name)) return t;
        for (var e : replacedBy.entrySet()) {
            if (e.getValue().equals(name)) return shownTool(e.getKey());
        }
        return null;
    }

    /** The name to call a shown tool by, after every replacement an error or a notice named. */
    String replaced(String name) {
        String n = name;
        for (int i = 0; i < 5 && replacedBy.containsKey(n); i++) n = replacedBy.get(n);
        return n;
    }

    /** The world tool a shown tool does the work of, or null. */
    private ToolSpec worldOf(ToolSpec shownTool) {
        for (ToolSpec w : worldTools.values()) {
            if (Descriptions.tool(w, shown).filter(t -> t.name().equals(shownTool.name())).isPresent()) return w;
        }
        return null;
    }

    /**
     * The parameters of two shown tools that mean the same (shown name -> shown name): those that stand for the
     * same parameter of the world's tools (each tool's parameters taken to the world tool it does by their
     * descriptions, as calls are translated), and of the parameters no world tool has (a shift's auth token), those
     * alike by their descriptions. Where either tool does no world tool's work, all by their descriptions.
     */
    Map<String, String> sameParams(ToolSpec from, ToolSpec to) {
        ToolSpec wf = worldOf(from);
        ToolSpec wt = worldOf(to);
        Map<String, String> alike = Descriptions.params(from, to);
        if (wf == null || wt == null) return alike;
        Map<String, String> fromWorld = new HashMap<>();
        Descriptions.params(wf, from).forEach((world, shownName) -> fromWorld.put(shownName, world));
        Map<String, String> toShown = Descriptions.params(wt, to);
        Map<String, String> out = new LinkedHashMap<>();
        fromWorld.forEach((shownName, world) -> {
            if (toShown.containsKey(world)) out.put(shownName, toShown.get(world));
        });
        alike.forEach((f, t) -> {
            if (!fromWorld.containsKey(f) && !toShown.containsValue(t)) out.putIfAbsent(f, t);
        });
        return out;
    }

    /** The one shown tool (other than {@code except}) whose name the text mentions; null when none or several. */
    ToolSpec oneToolNamed(String text, String except) {
        ToolSpec found = null;
        for (ToolSpec t : shown) {
            // Not the tool called, under any name it had (a notice or an error may still use its old one).
            if (replaced(t.name()).equals(except) || t.name().equals(Protocol.ASK_USER) || !Answers.mentions(text, t.name())) continue;
            if (found != null) return null;
            found = t;
        }
        if (found != null) return found;
        // "Call X" of a name not listed: a new version of a listed tool (renew_session_v2 of renew_session).
        Matcher m = Answers.CALL.matcher(text);
        while (m.find()) {
            String name = m.group(1);
            if (listed(name).isPresent() || replaced(name).equals(except)) continue;
            ToolSpec base = shown.stream().filter(t -> name.startsWith(t.name() + "_") || name.startsWith(t.name() + "V"))
                    .max(java.util.Comparator.comparingInt(t -> t.name().length())).orElse(null);
            if (base != null) {
                replacedBy.put(base.name(), name);
                return base;
            }
        }
        return null;
    }

    /**
     * The one of some shown tools that adds nothing of its own: a tool whose description holds every word of another's
     * and more is a variant of it (a dry run, a queued copy), so it goes. Tools already found useless go first.
     */
    List<ToolSpec> plainest(List<ToolSpec> tools) {
        List<ToolSpec> out = new ArrayList<>();
        for (ToolSpec t : tools) {
            if (useless.contains(t.name())) continue;
            Set<String> w = Descriptions.words(t.description());
            boolean variant = tools.stream().anyMatch(o -> o != t && !useless.contains(o.name()) && w.containsAll(Descriptions.words(o.description()))
                    && w.size() > Descriptions.words(o.description()).size());
            if (!variant) out.add(t);
        }
        return out;
    }
}
