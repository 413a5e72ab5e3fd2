package dev.openagent.shift;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The fuzzing pass over the {@code --shift} grammar (Jazzer, coverage-guided, a bounded number of executions): a spec
 * built from the grammar's own pieces (ids, peers' names, tiers, parameters, their values and severity words, separators), well
 * and badly joined,
 * or the fuzzer's text. {@link ShiftSpec#expand} and {@link ShiftSpec#parseStack} either parse it to conditions whose
 * labels parse back to the same conditions, or refuse it with one line (an {@link IllegalArgumentException} whose
 * message has no control character, no Java text and no trace); any other exception is a finding.
 */
class ShiftSpecFuzzTest {
    private static final List<String> PIECES = pieces();
    /** Java's own text in a message: an exception's name, a package-qualified or nested class name, a stack frame. */
    private static final Pattern JAVA_TEXT = Pattern.compile("Exception|\\bjava\\.|\\tat |\\b[a-z]+(?:\\.[a-z]+)+\\.[A-Z]\\w*|\\w\\$[A-Za-z_]");

    private static List<String> pieces() {
        List<String> p = new ArrayList<>(List.of("none", "static", "all", "tier:", "+", ";", ":", ",", "=", " ", "X", "-1",
                "99999999999", "é", "tier:perception", "==", "::", "++", "\t", "\n", "\u2028"));
        for (Tier t : Tier.values()) p.add(t.id());
        ShiftAliases.all().forEach(a -> p.add(a.name()));
        p.addAll(Shift.SEVERITY_WORDS.keySet());
        for (Shift s : ShiftCatalog.all()) {
            p.add(s.id());
            for (ShiftParam param : s.params()) {
                p.add(param.name());
                p.add(param.name() + "=" + param.defaultValue());
                p.addAll(param.values());
            }
        }
        return List.copyOf(p);
    }

    @FuzzTest(maxExecutions = 5000, maxDuration = "30s")
    void parsesToWhatItsLabelParsesToOrSaysWhyInOneLine(FuzzedDataProvider data) {
        String spec;
        if (data.consumeInt(0, 7) == 0) {
            spec = data.consumeRemainingAsString();
        } else {
            StringBuilder sb = new StringBuilder();
            for (int n = data.consumeInt(1, 8); n > 0; n--) sb.append(data.consumeBoolean() ? data.pickValue(PIECES) : data.consumeString(6));
            spec = sb.toString();
        }
        List<ShiftStack> conditions = parsedOrRefused(spec, () -> ShiftSpec.expand(spec));
        if (conditions != null) {
            String labels = String.join(";", conditions.stream().map(ShiftStack::label).toList());
            assertEquals(conditions, ShiftSpec.expand(labels), "'" + spec + "' is " + labels + ", which parses to other conditions");
        }
        ShiftStack stack = parsedOrRefused(spec, () -> ShiftSpec.parseStack(spec));
        if (stack != null) assertEquals(stack, ShiftSpec.parseStack(stack.label()), "'" + spec + "' is " + stack.label() + ", which parses to another stack");
    }

    private static <T> T parsedOrRefused(String spec, java.util.function.Supplier<T> parse) {
        try {
            T parsed = parse.get();
            assertNotNull(parsed);
            return parsed;
        } catch (IllegalArgumentException e) {
            String m = e.getMessage();
            assertNotNull(m, "a refusal says why: '" + spec + "'");
            assertFalse(m.isBlank(), "a refusal says why: '" + spec + "'");
            assertFalse(m.chars().anyMatch(Character::isISOControl) || m.contains("\u2028") || m.contains("\u2029"),
                    "one line for '" + spec + "': " + m);
            var java = JAVA_TEXT.matcher(m);
            while (java.find()) assertFalse(!spec.contains(java.group()), "Java's text '" + java.group() + "' for '" + spec + "': " + m);
            return null;
        }
    }
}
