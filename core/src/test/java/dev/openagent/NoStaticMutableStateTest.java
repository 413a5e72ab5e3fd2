package dev.openagent;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No static state that changes at run time in main code (issue #33): what a command loads lives in the objects it
 * builds and passes down (a {@link dev.openagent.registry.Catalog}), never in a static field. The rule, over every
 * module's {@code src/main/java} (comments and string literals removed first):
 * <ol>
 *   <li>a static field is {@code final} (a static non-final field is state anyone can reassign);</li>
 *   <li>a {@code static final} field is not initialised with a mutable object: {@code new} of a mutable collection,
 *       map, atomic, builder or {@code ThreadLocal}, nor assigned later in a static block (a blank static final
 *       collection filled there). Immutable data ({@code List.of}, {@code Map.copyOf}, a builder method returning
 *       {@code Collections.unmodifiableMap(...)}, records, enums) is fine.</li>
 * </ol>
 * {@link #ALLOWED} lists the exceptions, each with why: memo caches of pure functions, whose contents a caller
 * cannot tell from recomputing.
 */
class NoStaticMutableStateTest {
    private static final Pattern STATIC_FIELD = Pattern.compile(
            "(?m)^[ \\t]*((?:(?:public|private|protected|static|final|volatile|transient)\\s+)*)static\\s+((?:(?:final|volatile|transient)\\s+)*)"
                    + "([\\w.$<>\\[\\], ?]+?)\\s+(\\w+)\\s*(=|;)");
    private static final Pattern MUTABLE_INIT = Pattern.compile(
            "^\\s*new\\s+(?:java\\.util\\.(?:concurrent\\.(?:atomic\\.)?)?)?(HashMap|LinkedHashMap|TreeMap|ConcurrentHashMap|ConcurrentSkipListMap|"
                    + "IdentityHashMap|WeakHashMap|EnumMap|HashSet|LinkedHashSet|TreeSet|ArrayList|LinkedList|ArrayDeque|PriorityQueue|"
                    + "CopyOnWriteArrayList|CopyOnWriteArraySet|Atomic\\w+|StringBuilder|StringBuffer|BitSet|ThreadLocal)\\b"
                    + "|^\\s*ThreadLocal\\.withInitial|^\\s*(?:java\\.util\\.)?Collections\\.synchronized");
    private static final Pattern COLLECTION_TYPE = Pattern.compile(
            "^(?:java\\.util\\.(?:concurrent\\.)?)?(Map|List|Set|Collection|Deque|Queue|SortedMap|NavigableMap|ConcurrentMap|\\w*(?:Hash|Tree|Array|Linked)\\w*)\\b");

    /** Static mutable fields allowed, by file and field, with the reason. */
    private static final Map<String, String> ALLOWED = Map.of(
            "Paraphrase.COMPILED", "memo of Pattern.compile over the rewrite rules' regexes",
            "Records.CACHE", "memo of parsing a record's text (a pure function of it)",
            "Pieces.CACHE", "memo of a pure function of its key",
            "View.HELP_FORMS", "memo of parsing a help text (a pure function of it)",
            "ToolReading.READ", "per-thread memo of reading tool specs (a pure function of the spec)");

    @Test
    void mainCodeHasNoStaticMutableState() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        List<Path> sources;
        try (Stream<Path> modules = Files.list(root)) {
            sources = new ArrayList<>();
            for (Path m : modules.filter(d -> Files.isDirectory(d.resolve("src/main/java"))).toList()) {
                try (Stream<Path> files = Files.walk(m.resolve("src/main/java"))) {
                    files.filter(f -> f.toString().endsWith(".java")).forEach(sources::add);
                }
            }
        }
        assertTrue(sources.size() > 300, "the scan found the modules' sources: " + sources.size());
        List<String> found = new ArrayList<>();
        for (Path f : sources) {
            String code = strip(Files.readString(f));
            String name = f.getFileName().toString().replace(".java", "");
            Matcher m = STATIC_FIELD.matcher(code);
            while (m.find()) {
                String modifiers = m.group(1) + " " + m.group(2);
                String type = m.group(3).strip();
                String field = m.group(4);
                if (type.matches("(class|interface|record|enum|abstract|sealed|void|synchronized|native|<.*)\\b.*")) continue;
                if (ALLOWED.containsKey(name + "." + field)) continue;
                String why = problem(m, code);
                if (why != null) found.add(root.relativize(f) + ": " + field + " " + why);
            }
        }
        assertEquals(List.of(), found, "static mutable state in main code (pass it down in an object instead; see this test's rule)");
    }

    @Test
    void theRuleCatchesWhatItSaysItCatches() {
        String code = strip("""
                class X {
                    private static Map<String, String> a = Map.of();
                    static final Map<String, String> B = new java.util.concurrent.ConcurrentHashMap<>();
                    private static final List<String> C;
                    static final List<String> D = List.of("x"); // static int e = 1;
                    private static final String F = "static int g = 2;";
                    static int h() { return 1; }
                    public static final ThreadLocal<Integer> I = ThreadLocal.withInitial(() -> 1);
                }
                """);
        List<String> names = new ArrayList<>();
        Matcher m = STATIC_FIELD.matcher(code);
        while (m.find()) {
            if (problem(m, code) != null) names.add(m.group(4));
        }
        assertEquals(List.of("a", "B", "C", "I"), names);
    }

    /** Why the static field {@code m} found is mutable state, or null when it is not. */
    private static String problem(Matcher m, String code) {
        if (!(m.group(1) + " " + m.group(2)).contains("final")) return "is static and not final";
        if (m.group(5).equals("=")) {
            int end = code.indexOf(';', m.end());
            String init = code.substring(m.end(), end < 0 ? code.length() : end);
            return MUTABLE_INIT.matcher(init).find() ? "is static final but holds a mutable object" : null;
        }
        return COLLECTION_TYPE.matcher(m.group(3).strip()).find() ? "is a static final collection filled in a static block" : null;
    }

    /** The code without comments and string, text-block and char literals (their text could look like fields). */
    static String strip(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (s.startsWith("//", i)) {
                while (i < s.length() && s.charAt(i) != '\n') i++;
            } else if (s.startsWith("/*", i)) {
                int end = s.indexOf("*/", i + 2);
                i = end < 0 ? s.length() : end + 2;
            } else if (s.startsWith("\"\"\"", i)) {
                int end = s.indexOf("\"\"\"", i + 3);
                out.append("\"\"");
                i = end < 0 ? s.length() : end + 3;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < s.length() && s.charAt(j) != c) j += s.charAt(j) == '\\' ? 2 : 1;
                out.append(c).append(c);
                i = j + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
