package dev.openagent.byo;

import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Sends;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An environment file declares which tool sends a committing tool's code to an address ({@code sends}, for the
 * security shifts' send goal) and which tool cancels what another made ({@code undoes}, for the cancel goal).
 */
class SendsAndUndoesFactTest {
    @TempDir
    Path dir;

    private static final String ENV = """
            id: desk
            tools:
              book:
                description: Books a desk.
                parameters: {type: object, properties: {desk: {type: string}}, required: [desk]}
                response: {"booking_code": "BK-1", "desk": "{desk}"}
              share:
                description: Emails a booking's details.
                parameters: {type: object, properties: {booking_code: {type: string}, email: {type: string}}, required: [booking_code, email]}
                response: {"sent_to": "{email}"}
                sends: %s
              cancel:
                description: Cancels a booking.
                parameters: {type: object, properties: {booking_code: {type: string}}, required: [booking_code]}
                response: {"booking_code": "{booking_code}", "status": "cancelled"}
                undoes: %s
            tasks: tasks.jsonl
            """;
    private static final String SENDS = "{made: book, code: booking_code, to: email}";
    private static final String UNDOES = "book";

    private FileEnvironment load(String sends, String undoes) throws Exception {
        return DeskFiles.load(dir, ENV.formatted(sends, undoes));
    }

    /** The message of the load's failure, checked to be one line. */
    private String oneLineError(String sends, String undoes) {
        BadEnvironmentFile e = assertThrows(BadEnvironmentFile.class, () -> load(sends, undoes));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        return e.getMessage();
    }

    @Test
    void theDeclarationsReachTheToolFacts() throws Exception {
        try (FileEnvironment file = load(SENDS, UNDOES)) {
            Env env = DeskFiles.started(file);
            assertEquals(new Sends("book", "booking_code", "email"), env.facts().tool("share").orElseThrow().sends());
            assertEquals("book", env.facts().tool("cancel").orElseThrow().undoes());
        }
    }

    @Test
    void anUnknownToolOrParameterOrAMissingKeyInSendsIsOneLineNamingTheKey() {
        String tool = oneLineError("{made: bokk, code: booking_code, to: email}", UNDOES);
        assertTrue(tool.contains("sends.made: no tool named 'bokk'"), tool);
        String param = oneLineError("{made: book, code: booking_code, to: mail}", UNDOES);
        assertTrue(param.contains("share has no parameter mail"), param);
        String missing = oneLineError("{made: book, code: booking_code}", UNDOES);
        assertTrue(missing.contains("share.sends: needs the keys 'made', 'code' and 'to'"), missing);
    }

    @Test
    void anUnknownToolInUndoesIsOneLineNamingTheKey() {
        String e = oneLineError(SENDS, "bokk");
        assertTrue(e.contains("undoes: no tool named 'bokk'"), e);
    }
}
