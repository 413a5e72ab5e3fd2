package dev.openagent.byo;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.Episodes;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The fuzzing pass over the environment-file loader (Jazzer, coverage-guided, a bounded number of executions): an
 * environment file and its task file, built from the fuzzer's bytes (a valid inline-tool file with keys and values
 * swapped for others, or raw text), either load (and then an oracle episode runs to its end) or are refused with one
 * line and no internal text. Anything else (an exception of another kind, a trace, a Java type name) is a finding.
 * No file here names an MCP server: nothing is started.
 */
class EnvironmentFileFuzzTest {
    private static final Path DIR;

    static {
        try {
            DIR = Files.createTempDirectory("openagent-fuzz-env-");
            Files.createDirectories(DIR.resolve("fixtures"));
            Files.writeString(DIR.resolve("fixtures/a.txt"), "A");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> Worker.delete(DIR)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final String[] KEYS = {"id", "description", "rules", "reset", "copy", "tools", "tasks", "max_steps", "synonyms",
            "paraphrases", "distractions", "read_only", "after", "record_of", "param", "id_field", "fields", "person_name", "undoes",
            "sends", "made", "code", "to", "parameters", "response", "responses", "when", "error", "timeout_seconds", "restart", "tolls"};
    private static final String[] VALUES = {"x", "lookup", "A1", "5", "-1", "0", "true", "null", "[]", "{}", "[lookup]", "{code: A1}",
            "\"{0:/next}\"", "{\"$ref\": \"0:/next\"}", "fixtures/", "../", "/etc", "tasks.jsonl", "'", "\"", "~", "&a", "*a", "!!binary x",
            "{type: object}", "[[\"a\", \"b\"]]", "2026-12-04", "1e999", "\u00e9", "\t"};
    private static final String[] TASK_VALUES = {"\"t\"", "\"q\"", "1", "-3", "9", "null", "true", "[]", "{}", "\"test\"", "\"train\"", "\"lookup\"",
            "[{\"tool\": \"lookup\", \"args\": {\"code\": \"A1\"}}]", "[{\"tool\": \"lookup\", \"args\": {\"code\": {\"$ref\": \"0:/next\"}}}]",
            "[{\"tool\": \"lookup\", \"args\": {\"code\": \"A1\"}}, {\"tool\": \"lookup\", \"args\": {\"code\": \"{0:/next}\"}}]",
            "\"{1:/name}\"", "\"{0:/nothing}\"", "{\"answer_contains\": [\"Alpha\"]}", "{\"state\": [{\"tool\": \"lookup\", \"result_contains\": \"x\"}]}",
            "[{\"text\": \"q\", \"user_reply\": \"r\"}]", "{\"query\": \"q2\", \"reason\": \"r\"}", "{\"$ref\": 1}"};
    private static final String[] TASK_KEYS = {"id", "split", "difficulty", "kind", "query", "gold", "answer", "check", "solvable", "reason",
            "details", "user", "impossible", "answr"};

    private static final String ENV = LookupFile.yaml("fuzz") + "reset: {copy: fixtures/}\n";

    @FuzzTest(maxExecutions = 400)
    void loadsOrSaysWhyInOneLine(FuzzedDataProvider data) throws IOException {
        String env;
        StringBuilder tasks = new StringBuilder();
        if (data.consumeBoolean()) {
            // The valid file with some lines changed: a key renamed, a value replaced, a line dropped or doubled.
            List<String> lines = new java.util.ArrayList<>(ENV.lines().toList());
            for (int n = data.consumeInt(1, 4); n > 0; n--) {
                int i = data.consumeInt(0, lines.size() - 1);
                String line = lines.get(i);
                int colon = line.indexOf(':');
                switch (data.consumeInt(0, 3)) {
                    case 0 -> lines.set(i, line.substring(0, line.length() - line.stripLeading().length()) + data.pickValue(KEYS)
                            + (colon < 0 ? ": x" : line.substring(colon)));
                    case 1 -> lines.set(i, (colon < 0 ? line : line.substring(0, colon + 1)) + " " + data.pickValue(VALUES));
                    case 2 -> lines.remove(i);
                    default -> lines.add(i, line);
                }
                if (lines.isEmpty()) break;
            }
            env = String.join("\n", lines) + "\n";
            int count = data.consumeInt(1, 3);
            for (int t = 0; t < count; t++) {
                tasks.append("{\"id\": \"t").append(t).append("\", \"query\": \"What is the name of A1?\", \"gold\": [{\"tool\": \"lookup\", \"args\": {\"code\": \"A1\"}}], \"answer\": \"Alpha\"");
                for (int k = data.consumeInt(0, 3); k > 0; k--) tasks.append(", \"").append(data.pickValue(TASK_KEYS)).append("\": ").append(data.pickValue(TASK_VALUES));
                tasks.append("}\n");
            }
        } else {
            env = data.consumeString(400);
            tasks.append(data.consumeRemainingAsString());
        }
        if (env.contains("command") || env.contains("url") || env.contains("mcp")) return;   // nothing is started by a fuzzed file
        Files.write(DIR.resolve("env.yaml"), env.getBytes(StandardCharsets.UTF_8));
        Files.write(DIR.resolve("tasks.jsonl"), tasks.toString().getBytes(StandardCharsets.UTF_8));
        FileEnvironment loaded;
        try {
            loaded = FileEnvironment.load(DIR.resolve("env.yaml"));
        } catch (BadEnvironmentFile e) {
            String m = e.getMessage();
            assertEquals(1, m.lines().count(), m);
            for (String internal : new String[] {"Exception", "java.", "com.fasterxml", "jackson", "\tat ", "LinkedHashMap", "dev.openagent"}) {
                assertFalse(m.contains(internal), "'" + internal + "' in: " + m);
            }
            return;
        }
        try (FileEnvironment file = loaded) {
            for (Split split : Split.values()) {
                if (file.tasks(split) > 0) Episodes.run(file.create(), new OracleAgent(), new TaskRequest(split, data.consumeInt(0, 9), 0));
            }
        }
    }
}
