package dev.openagent.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A small environment file with one inline tool (no MCP server), for tests of `--env FILE`. */
final class InlineEnvFile {
    private InlineEnvFile() {}

    static final String ENV = """
            id: %s
            description: Product codes
            tools:
              lookup:
                description: Looks a product code up.
                parameters: {type: object, properties: {code: {type: string}}, required: [code]}
                responses:
                  - when: {code: A1}
                    response: "Alpha"
                  - error: "no product with code {code}"
            tasks: tasks.jsonl
            """;

    /** A task the gold plan solves: the answer is what lookup returns. */
    static final String SOLVABLE = """
            {"id": "t1", "query": "What is product A1 called?", "gold": [{"tool": "lookup", "args": {"code": "A1"}}], "answer": "Alpha"}
            """;

    /** A task no plan can pass: its state check wants a result lookup never gives. */
    static final String BROKEN = """
            {"id": "t1", "query": "What is product A1 called?", "gold": [{"tool": "lookup", "args": {"code": "A1"}}], "answer": "Alpha", \
            "check": {"state": [{"tool": "lookup", "args": {"code": "A1"}, "result_contains": "Gamma"}]}}
            """;

    /**
     * Writes env.yaml (with this id: ids are registered once per process, so each file needs its own)
     * and tasks.jsonl (holding {@code tasks}) into {@code dir}; returns the env.yaml path.
     */
    static Path write(Path dir, String id, String tasks) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("tasks.jsonl"), tasks);
        return Files.writeString(dir.resolve("env.yaml"), ENV.formatted(id));
    }
}
