package dev.openagent.byo;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A file being read, for errors that name it: where each key sits (line by JSON pointer), and the reading of
 * YAML or JSON into the file's records with Jackson's errors turned into one line.
 */
final class SourceFile {
    static final ObjectMapper YAML = configure(new ObjectMapper(new YAMLFactory()));
    static final ObjectMapper JSON = configure(new ObjectMapper());

    final Path path;
    /** The line of the first line of this source within its file (a JSONL record's line). */
    private final int firstLine;
    private final Map<String, Integer> lines = new HashMap<>();

    private SourceFile(Path path, int firstLine) {
        this.path = path;
        this.firstLine = firstLine;
    }

    private static ObjectMapper configure(ObjectMapper m) {
        return m.setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
    }

    /** Reads a whole file (YAML, or JSON by its extension) into a tree, remembering each key's line. */
    static Parsed read(Path path, String text, int firstLine) {
        ObjectMapper m = path.toString().endsWith(".json") || path.toString().endsWith(".jsonl") ? JSON : YAML;
        SourceFile src = new SourceFile(path, firstLine);
        try {
            try (JsonParser p = m.getFactory().createParser(text)) {
                for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                    src.lines.putIfAbsent(p.getParsingContext().pathAsPointer().toString(), p.currentTokenLocation().getLineNr());
                }
            }
            JsonNode tree = m.readTree(text);
            if (tree == null || !tree.isObject()) throw src.error("", "expected an object of keys");
            return new Parsed(src, tree, m);
        } catch (JsonProcessingException e) {
            int line = e.getLocation() == null ? 1 : e.getLocation().getLineNr();
            String msg = e.getOriginalMessage();
            if (msg.contains("\n")) msg = msg.substring(0, msg.indexOf('\n'));
            throw new BadEnvironmentFile(src.where(line) + ": not valid " + (m == JSON ? "JSON" : "YAML") + ": " + msg);
        } catch (IOException e) {
            throw new BadEnvironmentFile(path + ": cannot read: " + e.getMessage());
        }
    }

    /** A file's tree and how to read it into records. */
    record Parsed(SourceFile source, JsonNode tree, ObjectMapper mapper) {
        <T> T as(Class<T> type) {
            try {
                return mapper.treeToValue(tree, type);
            } catch (JsonMappingException e) {
                String key = e.getPath().stream().map(r -> r.getFieldName() != null ? "/" + r.getFieldName() : "/" + r.getIndex())
                        .reduce("", String::concat);
                String msg = e.getOriginalMessage();
                if (e instanceof com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException u) {
                    msg = "unknown key '" + u.getPropertyName() + "'";
                } else if (msg.contains("\n")) {
                    msg = msg.substring(0, msg.indexOf('\n'));
                }
                throw source.error(key, msg.replaceAll(" \\(class [^)]*\\)", "").replaceAll("`[a-z.]+\\.([A-Za-z$]+)`", "$1"));
            } catch (JsonProcessingException e) {
                throw source.error("", e.getOriginalMessage());
            }
        }
    }

    /** An error at a key (a JSON pointer such as {@code /tools/write_file/after/0}), named the way the file writes it. */
    BadEnvironmentFile error(String pointer, String message) {
        Integer line = null;
        for (String p = pointer; line == null; p = p.substring(0, Math.max(0, p.lastIndexOf('/')))) {
            line = lines.get(p);
            if (p.isEmpty()) break;
        }
        String key = pointer.isEmpty() ? "" : " " + keyName(pointer) + ":";
        return new BadEnvironmentFile(where(line == null ? 1 : line) + ":" + key + " " + message);
    }

    private String where(int line) { return path + ":" + (firstLine - 1 + line); }

    /** {@code /gold/0/tool} -> {@code gold[0].tool}. */
    static String keyName(String pointer) {
        StringBuilder sb = new StringBuilder();
        for (String part : pointer.substring(1).split("/")) {
            if (part.chars().allMatch(Character::isDigit) && !part.isEmpty()) sb.append('[').append(part).append(']');
            else sb.append(sb.isEmpty() ? "" : ".").append(part.replace("~1", "/").replace("~0", "~"));
        }
        return sb.toString();
    }
}
