package dev.openagent.proxy;

import dev.openagent.byo.FileEnvironment;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With --env FILE --task ID, each scored session starts from a fresh copy of the file's reset.copy in the upstream's
 * folder, as an episode does (a second session saw the first one's writes), and an upstream that holds a file there
 * open (SQLite) is restarted first, so its writes do not go to a replaced file.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ScoredSessionsStartFromTheFixturesTest {
    @TempDir
    Path dir;

    @Test
    void eachScoredSessionSeesOnlyTheFixtures() throws Exception {
        Path envDir = Files.createDirectories(dir.resolve("env"));
        try (InputStream in = Files.newInputStream(Path.of("..", "byo", "src", "test", "resources", "mcp", "sqlite_server.py"))) {
            Files.copy(in, envDir.resolve("sqlite_server.py"));
        }
        Files.createDirectories(envDir.resolve("fixtures"));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + envDir.resolve("fixtures/notes.db")); Statement s = c.createStatement()) {
            s.execute("create table notes(id integer primary key, text text)");
        }
        Files.writeString(envDir.resolve("tasks.jsonl"), "{\"id\": \"add\", \"query\": \"Add a note saying hi.\", \"gold\": [{\"tool\": \"execute\", \"args\": "
                + "{\"sql\": \"insert into notes(text) values ('hi')\"}}], \"answer\": \"done\", \"check\": {\"state\": [{\"tool\": \"query\", \"args\": "
                + "{\"sql\": \"select count(*) as n from notes\"}, \"result_contains\": \"\\\"n\\\": 1\"}]}}\n");
        Files.writeString(envDir.resolve("env.yaml"), """
                id: notes
                mcp:
                  command: ["python3", "{dir}/sqlite_server.py", "{workdir}/notes.db"]
                reset: {copy: fixtures/}
                tasks: tasks.jsonl
                """);
        Path work = dir.resolve("work");
        FileEnvironment.ScoredTask task;
        try (FileEnvironment env = FileEnvironment.load(envDir.resolve("env.yaml"))) {
            task = env.scoredTask("add", work.toString(), 1);
        }
        Files.createDirectories(work);
        Files.writeString(work.resolve("left-over.txt"), "from before");
        task.reset().refill();   // the database the upstream opens at start
        try (Upstream upstream = new Upstream(List.of("python3", envDir.resolve("sqlite_server.py").toString(), work.resolve("notes.db").toString()),
                null, Duration.ofSeconds(30), dir.resolve("upstream.log"));
             SessionPool pool = new SessionPool(upstream, List.of(ShiftStack.NONE), Map.of(), task, 1, 1, Duration.ofMinutes(5), null)) {
            for (int i = 0; i < 3; i++) {
                Map.Entry<String, ProxySession> opened = pool.open();
                ProxySession session = opened.getValue();
                assertFalse(Files.exists(work.resolve("left-over.txt")), "the folder was emptied");
                ProxySession.Reply r = session.call("execute", Map.of("sql", "insert into notes(text) values ('hi')"));
                assertFalse(r.error(), "session " + i + ": " + r.text());
                assertTrue(session.outcome().success(), "session " + i + " sees only its own note: " + session.outcome().detail());
                pool.close(opened.getKey());
            }
            assertEquals(4, upstream.starts(), "started once, then again before each session: it holds notes.db open");
        }
    }
}
