package dev.openagent.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `view` refuses what it cannot serve with one line and exit code 2, before it listens. */
class ViewCommandTest {
    @TempDir
    Path dir;

    static void oneLine(CliTest.Result r, String expected) {
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(expected), r.err());
        assertFalse(r.err().contains("\tat ") || r.err().contains("Exception"), "no stack trace: " + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    @Test
    void aMissingForeignOrCorruptStoreIsOneLine() throws Exception {
        oneLine(CliTest.run("view", "--store", dir.resolve("absent.db").toString(), "--port", "0"), "no results store at");

        Path foreign = dir.resolve("foreign.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + foreign); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)");
        }
        oneLine(CliTest.run("view", "--store", foreign.toString(), "--port", "0"), "is not an openagent results store");

        Path corrupt = dir.resolve("corrupt.db");
        Files.write(corrupt, "this is not an SQLite database at all, just text that goes on and on".repeat(100).getBytes());
        oneLine(CliTest.run("view", "--store", corrupt.toString(), "--port", "0"), "cannot open results store");
    }

    @Test
    void aTokenVariableThatIsUnsetIsOneLine() {
        oneLine(CliTest.run("view", "--store", dir.resolve("absent.db").toString(), "--token-env", "OPENAGENT_VIEW_TEST_UNSET_TOKEN"),
                "OPENAGENT_VIEW_TEST_UNSET_TOKEN: the environment variable is unset or empty");
    }
}
