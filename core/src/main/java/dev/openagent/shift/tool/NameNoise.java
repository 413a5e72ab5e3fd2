package dev.openagent.shift.tool;

import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.RenamingEnv;
import dev.openagent.shift.Schemas;
import dev.openagent.shift.Shift;
import dev.openagent.shift.Sign;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * tool.name-noise: character edits of tool names (severity 1-3 edits each) and, from severity 2,
 * of parameter names (severity - 1 edits each): swapped, dropped, doubled or mistyped letters and
 * changed separators. Descriptions stay as they were.
 */
public final class NameNoise extends RenamingEnv {
    public static final Shift SHIFT = new Shift("tool.name-noise", Tier.PERCEPTION, Dimension.A,
            "Character edits of tool and parameter names (typos, dropped or swapped letters, changed separators), graded slight to heavy.",
            List.of(Shift.SEVERITY), NameNoise::new).seenAs(Sign.TOOL_RENAMED_BY_LETTERS, Sign.PARAMETERS_CHANGED);

    private static final String[] ROWS = {"qwertyuiop", "asdfghjkl", "zxcvbnm"};

    private NameNoise(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params);
    }

    @Override
    protected List<Mapped> rename(List<ToolSpec> tools) {
        return renameEach(tools, (t, taken) -> {
            String name = noisy(t.name(), severity(), taken, rnd);
            Map<String, String> innerToOuter = new LinkedHashMap<>();
            Set<String> paramNames = new HashSet<>(Schemas.params(t.parameters()));
            for (String p : Schemas.params(t.parameters())) {
                innerToOuter.put(p, severity() >= 2 ? noisy(p, severity() - 1, paramNames, rnd) : p);
            }
            return Mapped.of(t, new ToolSpec(name, t.description(), Schemas.rename(t.parameters(), innerToOuter, null)), innerToOuter);
        });
    }

    /** The name with {@code edits} character edits, different from every name in {@code taken} (then added to it). */
    static String noisy(String name, int edits, Set<String> taken, SplittableRandom rnd) {
        for (int attempt = 0; attempt < 50; attempt++) {
            String s = name;
            for (int i = 0; i < edits; i++) s = edit(s, rnd);
            if (!taken.contains(s) && s.matches("[A-Za-z0-9_-]{1,64}")) {
                taken.add(s);
                return s;
            }
        }
        String s = name + "x";
        while (taken.contains(s)) s += "x";
        taken.add(s);
        return s;
    }

    private static String edit(String s, SplittableRandom rnd) {
        StringBuilder b = new StringBuilder(s);
        List<Integer> letters = new ArrayList<>();
        List<Integer> seps = new ArrayList<>();
        for (int i = 0; i < b.length(); i++) {
            if (Character.isLetter(b.charAt(i))) letters.add(i);
            else if (b.charAt(i) == '_') seps.add(i);
        }
        if (letters.size() < 2) return s + "x";
        int i = letters.get(rnd.nextInt(letters.size()));
        switch (rnd.nextInt(seps.isEmpty() ? 4 : 5)) {
            case 0 -> { // swap with the next letter
                int j = i + 1 < b.length() && Character.isLetter(b.charAt(i + 1)) ? i + 1 : i - 1;
                if (j >= 0 && Character.isLetter(b.charAt(j)) && b.charAt(i) != b.charAt(j)) {
                    char c = b.charAt(i);
                    b.setCharAt(i, b.charAt(j));
                    b.setCharAt(j, c);
                } else {
                    b.insert(i, b.charAt(i));
                }
            }
            case 1 -> {
                if (letters.size() > 3) b.deleteCharAt(i);
                else b.insert(i, b.charAt(i));
            }
            case 2 -> b.insert(i, b.charAt(i));
            case 3 -> b.setCharAt(i, neighbour(b.charAt(i), rnd));
            default -> {
                int k = seps.get(rnd.nextInt(seps.size()));
                switch (rnd.nextInt(3)) {
                    case 0 -> b.deleteCharAt(k);
                    case 1 -> b.setCharAt(k, '-');
                    default -> {
                        b.deleteCharAt(k);
                        if (k < b.length()) b.setCharAt(k, Character.toUpperCase(b.charAt(k)));
                    }
                }
            }
        }
        return b.toString();
    }

    private static char neighbour(char c, SplittableRandom rnd) {
        char lower = Character.toLowerCase(c);
        for (String row : ROWS) {
            int k = row.indexOf(lower);
            if (k < 0) continue;
            int j = k == 0 ? 1 : k == row.length() - 1 ? k - 1 : k + (rnd.nextBoolean() ? 1 : -1);
            char n = row.charAt(j);
            return Character.isUpperCase(c) ? Character.toUpperCase(n) : n;
        }
        return c;
    }
}
