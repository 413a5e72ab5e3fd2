package dev.openagent.byo;

import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Small desk-booking environment files for the tests of one declared fact. */
final class DeskFiles {
    private DeskFiles() {}

    /** Writes this environment file and a one-task tasks.jsonl (book desk 4, answer BK-1) into {@code dir}, and loads it. */
    static FileEnvironment load(Path dir, String yaml) throws IOException {
        Files.writeString(dir.resolve("env.yaml"), yaml);
        Files.writeString(dir.resolve("tasks.jsonl"), "{\"id\": \"a\", \"query\": \"Book desk 4.\", \"gold\": [{\"tool\": \"book\", \"args\": {\"desk\": \"4\"}}], \"answer\": \"BK-1\"}\n");
        return FileEnvironment.load(dir.resolve("env.yaml"));
    }

    /** An episode of the file's environment, reset to its first test task. */
    static Env started(FileEnvironment file) {
        Env env = file.create();
        env.reset(new TaskRequest(Split.TEST, 1, 0));
        return env;
    }
}
