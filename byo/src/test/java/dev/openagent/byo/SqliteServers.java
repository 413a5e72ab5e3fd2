package dev.openagent.byo;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * An environment file over the small SQLite MCP server of the test resources (Python's standard library: it opens
 * its database at start and holds it open, as SQLite MCP servers do), with a fixture database of one note.
 */
final class SqliteServers {
    private SqliteServers() {}

    /**
     * Writes the server, fixtures/notes.db (a table notes(id, text) holding 'hello'), env.yaml (with {@code mcpExtra}
     * under mcp:) and a task that reads the note's id, then rewrites that note by id in SQL ({@code {0:/0/id}} inside the
     * statement), checked on the database afterwards.
     */
    static Path write(Path dir, String id, String mcpExtra) throws IOException, SQLException {
        try (InputStream in = SqliteServers.class.getResourceAsStream("/mcp/sqlite_server.py")) {
            Files.copy(in, dir.resolve("sqlite_server.py"));
        }
        Files.createDirectories(dir.resolve("fixtures"));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("fixtures/notes.db")); Statement s = c.createStatement()) {
            s.execute("create table notes(id integer primary key, text text)");
            s.execute("insert into notes(id, text) values (7, 'hello')");
        }
        Files.writeString(dir.resolve("tasks.jsonl"), """
                {"id": "rewrite", "query": "Change the note that says hello to say bye.", "gold": [{"tool": "query", "args": {"sql": "select id from notes where text = 'hello'"}}, {"tool": "execute", "args": {"sql": "update notes set text = 'bye' where id = {0:/0/id}"}}], "answer": "done", "check": {"state": [{"tool": "query", "args": {"sql": "select id, text from notes"}, "result_contains": "bye", "result_not_contains": "hello"}]}}
                """);
        return Files.writeString(dir.resolve("env.yaml"), """
                id: %s
                mcp:
                  command: ["python3", "{dir}/sqlite_server.py", "{workdir}/notes.db"]
                  timeout_seconds: 20
                %s
                reset: {copy: fixtures/}
                tasks: tasks.jsonl
                """.formatted(id, mcpExtra));
    }
}
