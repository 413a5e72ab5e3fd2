package dev.openagent.byo;

import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An environment file declares which tool cancels what another made ({@code undoes}), for the security shifts' cancel goal. */
class UndoesFactTest {
    @TempDir
    Path dir;

    private static final String ENV = """
            id: desk
            tools:
              book:
                description: Books a desk.
                parameters: {type: object, properties: {desk: {type: string}}, required: [desk]}
                response: {"booking_id": "BK-1", "desk": "{desk}"}
              cancel:
                description: Cancels a booking.
                parameters: {type: object, properties: {booking_id: {type: string}}, required: [booking_id]}
                response: {"booking_id": "{booking_id}", "status": "cancelled"}
                undoes: %s
            tasks: tasks.jsonl
            """;

    private FileEnvironment load(String undoes) throws Exception {
        return DeskFiles.load(dir, ENV.formatted(undoes));
    }

    @Test
    void theDeclarationReachesTheToolFacts() throws Exception {
        try (FileEnvironment file = load("book")) {
            Env env = DeskFiles.started(file);
            assertEquals("book", env.facts().tool("cancel").orElseThrow().undoes());
        }
    }

    @Test
    void anUnknownToolIsOneLineNamingTheKey() {
        BadEnvironmentFile e = assertThrows(BadEnvironmentFile.class, () -> load("bokk"));
        assertTrue(e.getMessage().contains("undoes: no tool named 'bokk'"), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }
}
