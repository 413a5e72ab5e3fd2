package dev.openagent.tau2;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tools a tau2 domain declares in its {@code tools.py}, read as tau2 shows them to an agent: each method
 * decorated with {@code @is_tool(...)}, its parameters (names and type annotations) and its docstring, parsed as
 * tau2 parses it (its {@code Tool} class with {@code docstring_parser}'s Google style): the description is the
 * docstring's first line, then a blank line and the rest of the text before the first section; each parameter's
 * description is its entry under {@code Args:}. The parameters' JSON Schema is the one pydantic writes for tau2's
 * {@code create_model("parameters", ...)}: properties with description, title and type, all required.
 */
final class ToolDocs {
    private static final Pattern TITLES = Pattern.compile(
            "^((Arguments)|(Args)|(Parameters)|(Params)|(Raises)|(Exceptions)|(Except)|(Attributes)|(Example)|(Examples)|(Returns)|(Yields)):[ \\t\\r\\f\\u000B]*$",
            Pattern.MULTILINE);
    private static final Pattern TYPED_ARG = Pattern.compile("\\s*(.+?)\\s*\\(\\s*(.*[^\\s]+)\\s*\\)");

    /** One parameter: its name and its Python type annotation as written ({@code str}, {@code List[str]}). */
    record Param(String name, String type, String description) {}

    /**
     * One tool as tau2 declares it.
     *
     * @param kind the {@code ToolType} of its decorator ({@code READ}, {@code WRITE}, {@code GENERIC}, {@code THINK})
     */
    record Doc(String name, String kind, List<Param> params, String description) {
        Doc {
            params = List.copyOf(params);
        }

        /** The JSON Schema of its parameters, as tau2's tool shows it (pydantic's {@code model_json_schema()}). */
        ObjectNode schema() {
            ObjectNode root = Json.object();
            ObjectNode props = root.putObject("properties");
            for (Param p : params) {
                ObjectNode prop = props.putObject(p.name());
                if (p.description() != null) prop.put("description", p.description());
                String item = listItem(p.type());
                if (item != null) prop.putObject("items").put("type", jsonType(item));
                prop.put("title", title(p.name()));
                prop.put("type", item != null ? "array" : jsonType(p.type()));
            }
            if (!params.isEmpty()) {
                var required = root.putArray("required");
                params.forEach(p -> required.add(p.name()));
            }
            root.put("title", "parameters");
            root.put("type", "object");
            return root;
        }
    }

    private ToolDocs() {}

    /**
     * The tools of a {@code tools.py}, in the order it declares them.
     *
     * @throws BadTau2Data naming the file and line of a declaration this reader cannot follow
     */
    static Map<String, Doc> read(String source, String file) {
        String[] lines = source.split("\n", -1);
        Map<String, Doc> out = new LinkedHashMap<>();
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (!line.startsWith("@is_tool(")) continue;
            String kind = line.substring("@is_tool(".length(), Math.max("@is_tool(".length(), line.lastIndexOf(')')));
            kind = kind.isBlank() ? "READ" : kind.replace("ToolType.", "").split(",")[0].strip();
            int at = i + 1;
            while (at < lines.length && !lines[at].strip().startsWith("def ")) at++;
            if (at >= lines.length) throw new BadTau2Data(file + ":" + (i + 1) + ": @is_tool without a method after it");
            // The signature: from "def" to the line that ends it (its closing parenthesis at depth 0, then ':').
            StringBuilder sig = new StringBuilder();
            int depth = 0;
            int end = at;
            boolean open = false;
            for (; end < lines.length; end++) {
                String l = lines[end];
                sig.append(l).append('\n');
                for (char c : l.toCharArray()) {
                    if (c == '(' || c == '[') { depth++; open = true; }
                    if (c == ')' || c == ']') depth--;
                }
                if (open && depth == 0 && l.strip().endsWith(":")) break;
            }
            if (end >= lines.length) throw new BadTau2Data(file + ":" + (at + 1) + ": cannot find the end of this method's signature");
            String s = sig.toString().strip().substring(4);
            String name = s.substring(0, s.indexOf('(')).strip();
            String paramText = s.substring(s.indexOf('(') + 1, closing(s, s.indexOf('(')));
            List<String[]> params = new ArrayList<>();
            for (String part : splitTop(paramText)) {
                String p = part.strip();
                if (p.isEmpty() || p.equals("self")) continue;
                int colon = p.indexOf(':');
                if (colon < 0) throw new BadTau2Data(file + ":" + (at + 1) + ": parameter '" + p + "' of " + name + " has no type annotation");
                String type = p.substring(colon + 1).strip();
                if (type.contains("=")) throw new BadTau2Data(file + ":" + (at + 1) + ": parameter '" + p + "' of " + name + " has a default, which tau2's retail tools do not");
                params.add(new String[] {p.substring(0, colon).strip(), type});
            }
            String doc = docstring(lines, end + 1, file, name);
            Parsed parsed = parse(doc);
            List<Param> ps = params.stream().map(p -> new Param(p[0], p[1], parsed.params().get(p[0]))).toList();
            String description = parsed.shortDesc() == null ? name
                    : parsed.longDesc() == null ? parsed.shortDesc() : parsed.shortDesc() + "\n\n" + parsed.longDesc();
            out.put(name, new Doc(name, kind, ps, description));
            i = end;
        }
        return out;
    }

    /** The docstring that opens a method body at line {@code from}, as Python reads the literal. */
    private static String docstring(String[] lines, int from, String file, String name) {
        int i = from;
        while (i < lines.length && lines[i].isBlank()) i++;
        String first = i < lines.length ? lines[i].strip() : "";
        String quote = first.startsWith("\"\"\"") ? "\"\"\"" : first.startsWith("'''") ? "'''" : null;
        if (quote == null) return "";   // no docstring: tau2 shows the name as the description
        String rest = String.join("\n", java.util.Arrays.asList(lines).subList(i, lines.length));
        int start = rest.indexOf(quote) + 3;
        int stop = rest.indexOf(quote, start);
        if (stop < 0) throw new BadTau2Data(file + ":" + (i + 1) + ": the docstring of " + name + " is not closed");
        return unescape(rest.substring(start, stop));
    }

    private static String unescape(String s) {
        if (s.indexOf('\\') < 0) return s;
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 == s.length()) {
                sb.append(c);
                continue;
            }
            char n = s.charAt(++i);
            switch (n) {
                case 'n' -> sb.append('\n');
                case 't' -> sb.append('\t');
                case '\\', '\'', '"' -> sb.append(n);
                case '\n' -> { }   // a line continuation
                default -> sb.append('\\').append(n);
            }
        }
        return sb.toString();
    }

    private static int closing(String s, int open) {
        int depth = 0;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(' || c == '[') depth++;
            if ((c == ')' || c == ']') && --depth == 0) return i;
        }
        return s.length();
    }

    private static List<String> splitTop(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(' || c == '[') depth++;
            else if (c == ')' || c == ']') depth--;
            else if (c == ',' && depth == 0) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }

    // ---------------------------------------------------------------- docstring_parser's Google style

    record Parsed(String shortDesc, String longDesc, Map<String, String> params) {}

    static Parsed parse(String docstring) {
        if (docstring.isEmpty()) return new Parsed(null, null, Map.of());
        String text = cleandoc(docstring);
        Matcher first = TITLES.matcher(text);
        String descChunk = first.find() ? text.substring(0, first.start()) : text;
        String metaChunk = text.substring(descChunk.length());
        int nl = descChunk.indexOf('\n');
        String shortDesc = nl < 0 ? descChunk : descChunk.substring(0, nl);
        String longDesc = nl < 0 ? null : descChunk.substring(nl + 1).strip();
        if (shortDesc.isEmpty()) shortDesc = null;
        if (longDesc != null && longDesc.isEmpty()) longDesc = null;
        Map<String, String> params = new LinkedHashMap<>();
        List<int[]> titles = new ArrayList<>();
        List<String> names = new ArrayList<>();
        Matcher m = TITLES.matcher(metaChunk);
        while (m.find()) {
            titles.add(new int[] {m.start(), m.end()});
            names.add(m.group(1));
        }
        Map<String, String> chunks = new LinkedHashMap<>();
        for (int j = 0; j < titles.size(); j++) {
            int end = j + 1 < titles.size() ? titles.get(j + 1)[0] : metaChunk.length();
            chunks.put(names.get(j), stripNewlines(metaChunk.substring(titles.get(j)[1], end)));
        }
        for (String title : List.of("Arguments", "Args", "Parameters", "Params")) {
            String chunk = chunks.get(title);
            if (chunk == null) continue;
            int k = 0;
            while (k < chunk.length() && Character.isWhitespace(chunk.charAt(k))) k++;
            if (k == 0) continue;
            String indent = chunk.substring(0, k);
            Matcher entry = Pattern.compile("^" + Pattern.quote(indent) + "(?=\\S)", Pattern.MULTILINE).matcher(chunk);
            List<int[]> starts = new ArrayList<>();
            while (entry.find()) starts.add(new int[] {entry.start(), entry.end()});
            for (int j = 0; j < starts.size(); j++) {
                int end = j + 1 < starts.size() ? starts.get(j + 1)[0] : chunk.length();
                String part = stripNewlines(chunk.substring(starts.get(j)[1], end));
                int colon = part.indexOf(':');
                if (colon < 0) continue;
                String before = part.substring(0, colon);
                String desc = part.substring(colon + 1);
                if (!desc.isEmpty()) {
                    if (desc.charAt(0) == ' ') desc = desc.substring(1);
                    int n = desc.indexOf('\n');
                    if (n >= 0) desc = desc.substring(0, n) + "\n" + cleandoc(desc.substring(n + 1));
                    desc = stripNewlines(desc);
                }
                Matcher typed = TYPED_ARG.matcher(before);
                params.put(typed.matches() ? typed.group(1) : before, desc);
            }
        }
        return new Parsed(shortDesc, longDesc, params);
    }

    /** Python's {@code inspect.cleandoc}: the first line stripped on the left, the common indentation of the rest removed, blank ends dropped. */
    static String cleandoc(String doc) {
        List<String> lines = new ArrayList<>(List.of(doc.replace("\t", "        ").split("\n", -1)));
        int margin = Integer.MAX_VALUE;
        for (int i = 1; i < lines.size(); i++) {
            String l = lines.get(i);
            int content = l.stripLeading().length();
            if (content > 0) margin = Math.min(margin, l.length() - content);
        }
        lines.set(0, lines.getFirst().stripLeading());
        if (margin < Integer.MAX_VALUE) {
            for (int i = 1; i < lines.size(); i++) {
                String l = lines.get(i);
                lines.set(i, l.length() <= margin ? "" : l.substring(margin));
            }
        }
        while (!lines.isEmpty() && lines.getLast().isEmpty()) lines.removeLast();
        while (!lines.isEmpty() && lines.getFirst().isEmpty()) lines.removeFirst();
        return String.join("\n", lines);
    }

    private static String stripNewlines(String s) {
        int a = 0;
        int b = s.length();
        while (a < b && s.charAt(a) == '\n') a++;
        while (b > a && s.charAt(b - 1) == '\n') b--;
        return s.substring(a, b);
    }

    /** pydantic's default title of a field: its name with '_' as spaces, each word capitalised as Python's str.title(). */
    static String title(String field) {
        StringBuilder sb = new StringBuilder(field.length());
        boolean start = true;
        for (char c : field.toCharArray()) {
            sb.append(start ? Character.toUpperCase(c) : Character.toLowerCase(c));
            start = !Character.isLetter(c);
        }
        return sb.toString().replace('_', ' ');
    }

    /** The element type of a list annotation ({@code List[str]} -> {@code str}), or null. */
    static String listItem(String type) {
        for (String prefix : List.of("List[", "list[", "typing.List[")) {
            if (type.startsWith(prefix) && type.endsWith("]")) return type.substring(prefix.length(), type.length() - 1).strip();
        }
        return null;
    }

    static String jsonType(String python) {
        return switch (python) {
            case "str" -> "string";
            case "int" -> "integer";
            case "float" -> "number";
            case "bool" -> "boolean";
            default -> throw new BadTau2Data("tools.py: parameter type '" + python + "' is not one this environment reads (str, int, float, bool, List[...])");
        };
    }
}
