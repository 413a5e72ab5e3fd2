package dev.openagent.run;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.openagent.sandbox.Split;

import java.io.IOException;
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
        if (tasks < 1) throw new IllegalArgumentException("tasks must be at least 1");
        if (trials < 1) throw new IllegalArgumentException("trials must be at least 1");
        if (difficulty < 0) throw new IllegalArgumentException("difficulty must be >= 0");
        if (concurrency < 1) throw new IllegalArgumentException("concurrency must be at least 1");
        Split.parse(split);
    }

    public Split splitValue() { return Split.parse(split); }

    /** All shift specs as one {@code ;}-joined spec. */
    public String shiftSpec() { return String.join(";", shifts); }

    private static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    /** Reads an experiment file; a typo in a key is an error naming the key, not a silently ignored setting. */
    public static Experiment read(Path file) {
        try {
            Experiment e = YAML.readValue(Files.readString(file), Experiment.class);
            if (e == null) throw new IllegalArgumentException(file + " is empty");
            return e;
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("no such experiment file: " + file);
        } catch (UnrecognizedPropertyException e) {
            throw new IllegalArgumentException(file + ": unknown key '" + e.getPropertyName() + "' (known: "
                    + String.join(", ", e.getKnownPropertyIds().stream().map(Object::toString).sorted().toList()) + ")");
        } catch (IOException e) {
            Throwable cause = e.getCause() instanceof IllegalArgumentException iae ? iae : e;
            throw new IllegalArgumentException(file + ": " + firstLine(cause.getMessage()));
        }
    }

    private static String firstLine(String s) {
        if (s == null) return "unreadable";
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
