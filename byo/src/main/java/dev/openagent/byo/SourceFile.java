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
        m.getFactory().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);   // a key given twice is a mistake, not "the last wins"
        return m.setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
    }

    /**
     * A file's text, which must be UTF-8.
     *
     * @throws BadEnvironmentFile naming the line of the first byte that is not UTF-8, or why the file cannot be read
     */
    static String text(Path path) {
        byte[] bytes;
        try {
            bytes = java.nio.file.Files.readAllBytes(path);
        } catch (IOException e) {
            throw new BadEnvironmentFile(path + ": cannot read: " + e.getMessage());
        }
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(bytes);
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(bytes.length);
        java.nio.charset.CoderResult r = java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT).onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                .decode(in, out, true);
        if (r.isError()) {
            int at = in.position();
            int line = 1;
            for (int i = 0; i < at; i++) if (bytes[i] == '\n') line++;
            throw new BadEnvironmentFile(path + ":" + line + ": not UTF-8 text (byte 0x" + String.format("%02X", bytes[at] & 0xff)
                    + "): save the file as UTF-8");
        }
        return out.flip().toString();
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
            java.util.regex.Matcher dup = java.util.regex.Pattern.compile("Duplicate (?:field|Object property) '(.*)'").matcher(msg);
            if (dup.find()) throw new BadEnvironmentFile(src.where(line) + ": the key '" + dup.group(1) + "' is given twice");
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
                } else if (e instanceof com.fasterxml.jackson.databind.exc.MismatchedInputException mismatch && mismatch.getTargetType() != null) {
                    msg = "expected " + kind(mismatch.getTargetType()) + given(mismatch);
                } else if (msg.contains("\n")) {
                    msg = msg.substring(0, msg.indexOf('\n'));
                }
                throw source.error(key, msg.replaceAll(" \\(class [^)]*\\)", "").replaceAll("`[a-z.]+\\.([A-Za-z$]+)`", "$1"));
            } catch (JsonProcessingException e) {
                throw source.error("", e.getOriginalMessage());
            }
        }
    }

    /** What a file must give for a value of this Java type, in the file's words. */
    private static String kind(Class<?> type) {
        if (java.util.Map.class.isAssignableFrom(type) || type.isRecord()) return "a mapping of keys";
        if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) return "a list";
        if (type == String.class) return "a text";
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) return "a whole number";
        if (type == Boolean.class || type == boolean.class) return "true or false";
        return "another kind of value";
    }

    /** ", not 5" (what the file gave there), or nothing when it cannot be told. */
    private static String given(com.fasterxml.jackson.databind.exc.MismatchedInputException e) {
        if (!(e.getProcessor() instanceof JsonParser p) || p.currentToken() == null) return "";
        JsonToken t = p.currentToken();
        try {
            return switch (t) {
                case START_OBJECT -> ", not a mapping";
                case START_ARRAY -> ", not a list";
                case VALUE_STRING -> ", not the text '" + abbreviate(p.getText()) + "'";
                case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT, VALUE_TRUE, VALUE_FALSE -> ", not " + p.getText();
                case VALUE_NULL -> ", not an empty value";
                default -> "";
            };
        } catch (IOException unreadable) {
            return "";
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
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
