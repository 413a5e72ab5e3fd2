package dev.openagent.oracle;

import dev.openagent.sandbox.Commands;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The commands a text-command environment's help lists, as read from the help text in whatever rendering it was
 * shown (plain lines, or numbered sentences as XML, YAML, key=value lines or a table): each a usage such as
 * {@code take <thing> from <furniture>} (with its other forms, "also: '...'") and what it does.
 */
final class HelpLines {
    private HelpLines() {}

    /** One command: its usages (the first is the main one) and its description. */
    record Line(List<String> usages, String description) {
        /** The values of the placeholders when {@code command} is a use of usage {@code u}, else null. */
        List<String> values(int u, String command) {
            Matcher m = pattern(usages.get(u)).matcher(Commands.normalize(command));
            if (!m.matches()) return null;
            List<String> out = new ArrayList<>();
            for (int g = 1; g <= m.groupCount(); g++) out.add(m.group(g));
            return out;
        }

        /** Usage {@code u} with its placeholders filled in order. */
        String fill(int u, List<String> values) {
            Matcher m = PLACEHOLDER.matcher(usages.get(Math.min(u, usages.size() - 1)));
            StringBuilder sb = new StringBuilder();
            int i = 0;
            while (m.find()) m.appendReplacement(sb, Matcher.quoteReplacement(i < values.size() ? values.get(i++) : ""));
            m.appendTail(sb);
            return sb.toString().strip();
        }

        /** The number of literal words of usage {@code u}: the more, the more specific a match. */
        int literals(int u) {
            return PLACEHOLDER.matcher(usages.get(u)).replaceAll(" ").strip().split("\\s+").length;
        }
    }

    private static final Pattern PLACEHOLDER = Pattern.compile("<[^<>]+>");
    /** A usage (words and placeholders), two or more spaces, and a description up to the end of its line or cell. */
    private static final Pattern ENTRY = Pattern.compile("([a-z0-9][\\w-]*(?: (?:[a-z0-9][\\w-]*|<[^<>\\n]+>))*) {2,}([^\\n|\"]*?)\\s*(?=</|\\||\"|\\n|$)");
    private static final Pattern ALSO = Pattern.compile("\\(also: '([^']+)'\\)");

    static List<Line> of(String help) {
        List<Line> out = new ArrayList<>();
        Matcher m = ENTRY.matcher(help);
        while (m.find()) {
            String usage = m.group(1).strip();
            String description = m.group(2).strip();
            List<String> usages = new ArrayList<>();
            usages.add(usage);
            Matcher also = ALSO.matcher(description);
            while (also.find()) usages.add(also.group(1).strip());
            out.add(new Line(usages, ALSO.matcher(description).replaceAll("").strip()));
        }
        return out;
    }

    /** The line and usage a command is a use of (the most specific usage when several fit). */
    record Use(Line line, int usage, List<String> values) {}

    static Optional<Use> use(List<Line> lines, String command) {
        Use best = null;
        for (Line l : lines) {
            for (int u = 0; u < l.usages().size(); u++) {
                List<String> v = l.values(u, command);
                if (v != null && (best == null || l.literals(u) > best.line().literals(best.usage()))) best = new Use(l, u, v);
            }
        }
        return Optional.ofNullable(best);
    }

    /** The shown line that does what a world line does, by its description. */
    static Optional<Line> same(Line world, List<Line> shown) {
        Descriptions.Score best = null;
        Line found = null;
        for (Line s : shown) {
            Descriptions.Score sc = Descriptions.score(world.description(), s.description());
            if (sc.held() >= Descriptions.OFFERED && (best == null || sc.compareTo(best) > 0)) {
                best = sc;
                found = s;
            }
        }
        return Optional.ofNullable(found);
    }

    private static final Pattern TOKEN = Pattern.compile("<[^<>]+>|\\S+");

    /** A usage as a pattern of normalised commands: its words as they are, each placeholder one or more words. */
    private static Pattern pattern(String usage) {
        List<String> parts = new ArrayList<>();
        Matcher m = TOKEN.matcher(usage);
        while (m.find()) {
            String t = m.group();
            if (t.startsWith("<")) {
                parts.add("(.+?)");
            } else {
                String w = Commands.normalize(t);
                if (!w.isEmpty()) parts.add(Pattern.quote(w));
            }
        }
        return Pattern.compile(String.join(" ", parts));
    }
}
