package dev.openagent.shift;

import dev.openagent.UserInputException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses {@code --shift} specs into conditions:
 * <ul>
 *   <li>{@code none}: the static environment;</li>
 *   <li>{@code a.b} or {@code a.b:k=v,k2=v2}: one shift;</li>
 *   <li>{@code a.b+c.d:k=v}: shifts composed (put in canonical order, see {@link Shift#order()});</li>
 *   <li>{@code tier:perception}: each shift of a tier, separately;</li>
 *   <li>{@code all}: each shift of the catalog, separately.</li>
 * </ul>
 * Several specs can be joined with ';' (conditions are concatenated). Peers' names ({@link ShiftAliases}: {@code slight},
 * {@code tool_name_scrambled}, ...) stand for their specs, and a severity may be written as a word
 * ({@code tool.name-noise:heavy}, {@link Shift#SEVERITY_WORDS}); {@link #canonical} writes both out before anything
 * else reads the spec.
 */
public final class ShiftSpec {
    private ShiftSpec() {}

    public static List<ShiftStack> expand(String spec) {
        spec = canonical(spec);
        List<ShiftStack> out = new ArrayList<>();
        for (String part : spec.split(";", -1)) {
            String s = part.strip();
            if (s.isEmpty()) throw new UserInputException("empty condition in shift spec '" + spec + "' (specs are joined by ';')");
            if (s.equals("none") || s.equals("static")) {
                out.add(ShiftStack.NONE);
            } else if (s.equals("all")) {
                ShiftCatalog.all().forEach(x -> out.add(single(x, Map.of())));
            } else if (s.startsWith("tier:")) {
                ShiftCatalog.tier(Tier.parse(s.substring(5))).forEach(x -> out.add(single(x, Map.of())));
            } else {
                out.add(parseStack(s));
            }
        }
        return out;
    }

    /** One composed stack, such as {@code tool.semantic-rename+obs.format:format=xml}. */
    public static ShiftStack parseStack(String text) {
        text = canonical(text);
        List<ShiftStack.Layer> layers = new ArrayList<>();
        for (String item : text.split("\\+", -1)) {
            String s = item.strip();
            if (s.isEmpty()) throw new UserInputException("empty shift in '" + text + "' (shifts are composed with '+': a+b)");
            int colon = s.indexOf(':');
            String id = colon < 0 ? s : s.substring(0, colon);
            Map<String, String> params = new LinkedHashMap<>();
            if (colon >= 0) {
                if (s.substring(colon + 1).isBlank()) {
                    throw new UserInputException("no parameters after ':' in '" + s + "' (write " + id + " or " + id + ":key=value)");
                }
                for (String kv : s.substring(colon + 1).split(",", -1)) {
                    if (kv.isBlank()) throw new UserInputException("empty parameter in '" + s + "' (parameters are key=value, joined by ',')");
                    int eq = kv.indexOf('=');
                    if (eq <= 0) {
                        throw new UserInputException("shift parameter '" + kv + "' is not key=value (nor a severity word: "
                                + String.join(", ", new java.util.TreeSet<>(Shift.SEVERITY_WORDS.keySet())) + ")");
                    }
                    params.put(kv.substring(0, eq).strip(), kv.substring(eq + 1).strip());
                }
            }
            layers.add(single(shift(id), params).layers().getFirst());
        }
        return new ShiftStack(layers);
    }

    /**
     * The spec with every peer's name ({@link ShiftAliases}) replaced by the spec it stands for and every severity word
     * ({@code :heavy}) by {@code severity=N}; a spec with neither comes back as it was given, so what was stored under it
     * before stays where it was. Everything that reads a spec reads it through here, once: what is stored, reported and
     * hashed into run ids holds catalog ids only.
     *
     * @throws IllegalArgumentException an alias given parameters, or {@code clean} composed with '+'
     */
    public static String canonical(String spec) {
        if (spec == null || spec.isBlank()) throw new UserInputException("empty shift spec");
        checkPrintable(spec);
        String[] parts = spec.split(";", -1);
        boolean changed = false;
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i].strip();
            if (part.isEmpty() || part.equals("none") || part.equals("static") || part.equals("all") || part.startsWith("tier:")) continue;
            String[] items = part.split("\\+", -1);
            boolean partChanged = false;
            for (int j = 0; j < items.length; j++) {
                String written = canonicalItem(items[j].strip(), items.length > 1);
                if (written != null) {
                    items[j] = written;
                    partChanged = true;
                }
            }
            if (partChanged) {
                parts[i] = String.join("+", items);
                changed = true;
            }
        }
        return changed ? String.join(";", parts) : spec;
    }

    /** One shift of a stack written out, or null when it is already in catalog terms (or empty: {@link #parseStack} says why). */
    private static String canonicalItem(String item, boolean composed) {
        if (item.isEmpty()) return null;
        int colon = item.indexOf(':');
        String id = (colon < 0 ? item : item.substring(0, colon)).strip();
        var alias = ShiftAliases.find(id);
        if (alias.isPresent()) {
            ShiftAliases.Alias a = alias.get();
            if (colon >= 0) {
                throw new UserInputException("'" + id + "' is " + a.peer() + "'s name for " + a.means() + " and takes no parameters"
                        + " (write " + a.means().split("\\+")[0].split(":")[0] + ":key=value to set them)");
            }
            if (a.means().equals("none")) {
                if (composed) throw new UserInputException("'" + id + "' is the static environment (" + a.peer() + "): it does not compose with '+'");
                return "none";
            }
            return a.means();
        }
        if (colon < 0) return null;
        String[] params = item.substring(colon + 1).split(",", -1);
        boolean changed = false;
        for (int k = 0; k < params.length; k++) {
            String level = Shift.SEVERITY_WORDS.get(params[k].strip().toLowerCase(java.util.Locale.ROOT));
            if (level != null) {
                params[k] = Shift.SEVERITY.name() + "=" + level;
                changed = true;
            }
        }
        return changed ? id + ":" + String.join(",", params) : null;
    }

    /** The catalog's shift of this id; an unknown one is refused naming the nearest ids and peers' names. */
    private static Shift shift(String id) {
        if (ShiftCatalog.all().stream().anyMatch(s -> s.id().equals(id))) return ShiftCatalog.get(id);
        List<String> names = new ArrayList<>();
        ShiftCatalog.all().forEach(s -> names.add(s.id()));
        ShiftAliases.all().forEach(a -> names.add(a.name()));
        List<String> near = Nearest.names(id, names, 3);
        throw new UserInputException("unknown shift '" + id + "'" + (near.isEmpty() ? "" : "; did you mean " + String.join(", ", near) + "?")
                + " (see `openagent shifts` and `openagent shifts --aliases`)");
    }

    /** A control character (a line break, a tab) is never part of a spec; refused before an error message would echo it. */
    public static void checkPrintable(String spec) {
        for (int i = 0; i < spec.length(); i++) {
            if (Character.isISOControl(spec.charAt(i)) || Character.getType(spec.charAt(i)) == Character.LINE_SEPARATOR
                    || Character.getType(spec.charAt(i)) == Character.PARAGRAPH_SEPARATOR) {
                throw new UserInputException("shift spec has a control character (U+" + String.format("%04X", (int) spec.charAt(i))
                        + ") at position " + (i + 1));
            }
        }
    }

    /** Validates parameters against the shift's declaration and fills in defaults. */
    static ShiftStack single(Shift shift, Map<String, String> given) {
        Map<String, String> params = new LinkedHashMap<>();
        for (ShiftParam p : shift.params()) params.put(p.name(), p.defaultValue());
        for (var e : given.entrySet()) {
            ShiftParam p = shift.params().stream().filter(x -> x.name().equals(e.getKey())).findFirst()
                    .orElseThrow(() -> new UserInputException(shift.id() + " has no parameter '" + e.getKey() + "' ("
                            + (shift.params().isEmpty() ? "it takes none" : "has: " + String.join(", ", shift.params().stream().map(ShiftParam::name).toList())) + ")"));
            if (!p.values().isEmpty() && !p.values().contains(e.getValue())) {
                throw new UserInputException(shift.id() + " parameter " + p.name() + " must be one of " + p.values());
            }
            params.put(e.getKey(), e.getValue());
        }
        return new ShiftStack(List.of(new ShiftStack.Layer(shift, params)));
    }
}
