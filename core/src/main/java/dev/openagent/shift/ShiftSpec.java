package dev.openagent.shift;

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
 * Several specs can be joined with ';' (conditions are concatenated).
 */
public final class ShiftSpec {
    private ShiftSpec() {}

    public static List<ShiftStack> expand(String spec) {
        if (spec == null || spec.isBlank()) throw new IllegalArgumentException("empty shift spec");
        checkPrintable(spec);
        List<ShiftStack> out = new ArrayList<>();
        for (String part : spec.split(";", -1)) {
            String s = part.strip();
            if (s.isEmpty()) throw new IllegalArgumentException("empty condition in shift spec '" + spec + "' (specs are joined by ';')");
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
        checkPrintable(text);
        List<ShiftStack.Layer> layers = new ArrayList<>();
        for (String item : text.split("\\+", -1)) {
            String s = item.strip();
            if (s.isEmpty()) throw new IllegalArgumentException("empty shift in '" + text + "' (shifts are composed with '+': a+b)");
            int colon = s.indexOf(':');
            String id = colon < 0 ? s : s.substring(0, colon);
            Map<String, String> params = new LinkedHashMap<>();
            if (colon >= 0) {
                if (s.substring(colon + 1).isBlank()) {
                    throw new IllegalArgumentException("no parameters after ':' in '" + s + "' (write " + id + " or " + id + ":key=value)");
                }
                for (String kv : s.substring(colon + 1).split(",", -1)) {
                    if (kv.isBlank()) throw new IllegalArgumentException("empty parameter in '" + s + "' (parameters are key=value, joined by ',')");
                    int eq = kv.indexOf('=');
                    if (eq <= 0) throw new IllegalArgumentException("shift parameter '" + kv + "' is not key=value");
                    params.put(kv.substring(0, eq).strip(), kv.substring(eq + 1).strip());
                }
            }
            layers.add(single(ShiftCatalog.get(id), params).layers().getFirst());
        }
        return new ShiftStack(layers);
    }

    /** A control character (a line break, a tab) is never part of a spec; refused before an error message would echo it. */
    public static void checkPrintable(String spec) {
        for (int i = 0; i < spec.length(); i++) {
            if (Character.isISOControl(spec.charAt(i)) || Character.getType(spec.charAt(i)) == Character.LINE_SEPARATOR
                    || Character.getType(spec.charAt(i)) == Character.PARAGRAPH_SEPARATOR) {
                throw new IllegalArgumentException("shift spec has a control character (U+" + String.format("%04X", (int) spec.charAt(i))
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
                    .orElseThrow(() -> new IllegalArgumentException(shift.id() + " has no parameter '" + e.getKey() + "' (has: "
                            + String.join(", ", shift.params().stream().map(ShiftParam::name).toList()) + ")"));
            if (!p.values().isEmpty() && !p.values().contains(e.getValue())) {
                throw new IllegalArgumentException(shift.id() + " parameter " + p.name() + " must be one of " + p.values());
            }
            params.put(e.getKey(), e.getValue());
        }
        return new ShiftStack(List.of(new ShiftStack.Layer(shift, params)));
    }
}
