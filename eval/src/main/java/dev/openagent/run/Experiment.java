package dev.openagent.run;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.openagent.UserInputException;
import dev.openagent.sandbox.Split;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * An evaluation: agents × environments × shift conditions × tasks × trials, and how to run it.
 * Read from an experiment file (YAML) or built from {@code openagent eval} flags. See
 * docs/evaluation.md for the file format.
 *
 * @param shifts      shift specs ({@link dev.openagent.shift.ShiftSpec}); the static condition is always added
 * @param concurrency episodes in flight at once
 */
public record Experiment(String name,
                         List<AgentSpec> agents,
                         @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY) List<String> envs,
                         @JsonFormat(with = JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY) List<String> shifts,
                         Integer tasks,
                         Integer trials,
                         Long seed,
                         String split,
                         Integer difficulty,
                         Integer concurrency,
                         Budget budget) {

    /** Caps on what a run may spend; null or 0 for no cap. */
    public record Budget(@JsonProperty("max_requests") Long maxRequests, @JsonProperty("max_tokens") Long maxTokens) {
        public static final Budget NONE = new Budget(null, null);

        public long requests() { return maxRequests == null ? 0 : maxRequests; }

        public long tokens() { return maxTokens == null ? 0 : maxTokens; }
    }

    public static final int DEFAULT_CONCURRENCY = 8;

    public Experiment {
        agents = agents == null ? List.of() : List.copyOf(agents);
        envs = envs == null || envs.isEmpty() ? List.of("poi") : List.copyOf(envs);
        shifts = shifts == null || shifts.isEmpty() ? List.of("none") : List.copyOf(shifts);
        if (tasks == null) tasks = 20;
        if (trials == null) trials = 1;
        if (seed == null) seed = 1L;
        if (split == null) split = "test";
        if (difficulty == null) difficulty = 0;
        if (concurrency == null) concurrency = DEFAULT_CONCURRENCY;
        if (budget == null) budget = Budget.NONE;
        if (tasks < 1) throw new UserInputException("tasks must be at least 1");
        if (trials < 1) throw new UserInputException("trials must be at least 1");
        if (difficulty < 0) throw new UserInputException("difficulty must be >= 0");
        if (concurrency < 1) throw new UserInputException("concurrency must be at least 1");
        Split.parse(split);
    }

    public Split splitValue() { return Split.parse(split); }

    /** All shift specs as one {@code ;}-joined spec. */
    public String shiftSpec() { return String.join(";", shifts); }

    private static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    /**
     * Reads an experiment file. Every problem is one line naming the file and what is wrong in the
     * file's terms: a typo in a key names the key (never a silently ignored setting), a value of
     * the wrong type names the key and the type it needs.
     */
    public static Experiment read(Path file) {
        JsonNode tree;
        try {
            tree = YAML.readTree(text(file));
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new UserInputException(file + " is not valid YAML" + (at == null || at.getLineNr() < 1 ? "" : " (line " + at.getLineNr() + ")"));
        }
        if (tree == null || tree.isMissingNode() || tree.isNull()) throw new UserInputException(file + " is empty");
        if (!tree.isObject()) {
            throw new UserInputException(file + " must be a mapping of settings (name:, agents:, envs:, shifts:, ...), not "
                    + (tree.isArray() ? "a list" : "a single value"));
        }
        try {
            return YAML.treeToValue(tree, Experiment.class);
        } catch (UnrecognizedPropertyException e) {
            throw new UserInputException(file + ": unknown key '" + e.getPropertyName() + "' (known: "
                    + String.join(", ", e.getKnownPropertyIds().stream().map(Object::toString).sorted().toList()) + ")");
        } catch (MismatchedInputException e) {
            throw new UserInputException(file + ": " + key(e) + " must be " + kind(e.getTargetType()));
        } catch (JsonMappingException e) {
            // The record's own checks (tasks must be at least 1, ...) arrive wrapped.
            if (e.getCause() instanceof IllegalArgumentException iae) throw new UserInputException(file + ": " + iae.getMessage());
            throw new UserInputException(file + ": " + key(e) + " cannot be read");
        } catch (JsonProcessingException e) {
            throw new UserInputException(file + " cannot be read as an experiment");
        }
    }

    /** The file as text; a binary file is an error, not a YAML parser's complaint about its bytes. */
    private static String text(Path file) {
        try {
            String s = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(Files.readAllBytes(file))).toString();
            if (s.indexOf('\0') >= 0) throw new CharacterCodingException();
            return s;
        } catch (NoSuchFileException e) {
            throw new UserInputException("no such experiment file: " + file);
        } catch (CharacterCodingException e) {
            throw new UserInputException(file + " is not a text file (an experiment file is YAML, see docs/evaluation.md)");
        } catch (IOException e) {
            throw new UserInputException("cannot read " + file + ": " + e.getMessage());
        }
    }

    /** Where in the file a value is, as a user wrote it: {@code agents[0].temperature}. */
    private static String key(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) sb.append(sb.isEmpty() ? "" : ".").append(r.getFieldName());
            else if (r.getIndex() >= 0) sb.append('[').append(r.getIndex()).append(']');
        }
        return sb.isEmpty() ? "the file" : "'" + sb + "'";
    }

    private static String kind(Class<?> type) {
        if (type == null) return "of another type";
        if (type == Integer.class || type == Long.class || type == int.class || type == long.class) return "a whole number";
        if (type == Double.class || type == double.class) return "a number";
        if (type == Boolean.class || type == boolean.class) return "true or false";
        if (type == String.class) return "text";
        if (List.class.isAssignableFrom(type)) return "a list";
        return "a mapping of settings";
    }
}
