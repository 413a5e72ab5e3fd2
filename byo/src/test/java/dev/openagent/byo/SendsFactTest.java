package dev.openagent.byo;

import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Sends;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An environment file declares which tool sends a committing tool's code to an address ({@code sends}), for the security shifts' send goal. */
class SendsFactTest {
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
            tasks: tasks.jsonl
            """;

    private FileEnvironment load(String sends) throws Exception {
        return DeskFiles.load(dir, ENV.formatted(sends));
    }

    @Test
    void theDeclarationReachesTheToolFacts() throws Exception {
        try (FileEnvironment file = load("{made: book, code: booking_code, to: email}")) {
            Env env = DeskFiles.started(file);
            assertEquals(new Sends("book", "booking_code", "email"), env.facts().tool("share").orElseThrow().sends());
        }
    }

    @Test
    void anUnknownToolOrParameterOrAMissingKeyIsOneLineNamingTheKey() {
        BadEnvironmentFile tool = assertThrows(BadEnvironmentFile.class, () -> load("{made: bokk, code: booking_code, to: email}"));
        assertTrue(tool.getMessage().contains("sends.made: no tool named 'bokk'"), tool.getMessage());
        BadEnvironmentFile param = assertThrows(BadEnvironmentFile.class, () -> load("{made: book, code: booking_code, to: mail}"));
        assertTrue(param.getMessage().contains("share has no parameter mail"), param.getMessage());
        BadEnvironmentFile missing = assertThrows(BadEnvironmentFile.class, () -> load("{made: book, code: booking_code}"));
        assertTrue(missing.getMessage().contains("share.sends: needs the keys 'made', 'code' and 'to'"), missing.getMessage());
        for (BadEnvironmentFile e : new BadEnvironmentFile[]{tool, param, missing}) assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    }
}
