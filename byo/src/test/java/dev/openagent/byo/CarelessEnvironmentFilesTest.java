package dev.openagent.byo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Careless files get one line naming file, line and key: a key given twice (the last silently won), a file that is
 * not UTF-8 ("Input length = 1", no line), a value of the wrong kind such as when: 5 (a Java type name).
 */
class CarelessEnvironmentFilesTest {
    @TempDir
    Path dir;

    private static final String TASK = "{\"id\": \"a\", \"query\": \"q\", \"gold\": [{\"tool\": \"lookup\", \"args\": {\"code\": \"A1\"}}], \"answer\": \"Alpha\"}\n";

    private String error(byte[] env, String tasks) throws Exception {
        Files.write(dir.resolve("env.yaml"), env);
        Files.writeString(dir.resolve("tasks.jsonl"), tasks);
        BadEnvironmentFile e = assertThrows(BadEnvironmentFile.class, () -> FileEnvironment.load(dir.resolve("env.yaml")));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        for (String internal : new String[] {"java.", "LinkedHashMap", "Exception", "Input length"}) assertFalse(e.getMessage().contains(internal), e.getMessage());
        return e.getMessage();
    }

    private String error(String env, String tasks) throws Exception {
        return error(env.getBytes(StandardCharsets.UTF_8), tasks);
    }

    private static String inline(String responses) {
        return """
                id: careless
                tools:
                  lookup:
                    description: Looks a code up.
                    parameters: {type: object, properties: {code: {type: string}}, required: [code]}
                %s
                tasks: tasks.jsonl
                """.formatted(responses);
    }

    @Test
    void aKeyGivenTwice() throws Exception {
        String m = error("id: one\nid: two\n" + inline("    response: x").substring("id: careless\n".length()), TASK);
        assertTrue(m.matches(".*env\\.yaml:2: the key 'id' is given twice"), m);
        m = error(inline("    response: x"), "{\"id\": \"a\", \"id\": \"b\", \"query\": \"q\", \"answer\": \"x\"}\n");
        assertTrue(m.matches(".*tasks\\.jsonl:1: the key 'id' is given twice"), m);
    }

    @Test
    void aFileThatIsNotUtf8() throws Exception {
        byte[] latin1 = (inline("    response: x") + "description: caf\u00e9\n").getBytes(StandardCharsets.ISO_8859_1);
        String m = error(latin1, TASK);
        assertTrue(m.matches(".*env\\.yaml:8: not UTF-8 text \\(byte 0xE9\\): save the file as UTF-8"), m);
        Files.writeString(dir.resolve("env.yaml"), inline("    response: x"));
        Files.write(dir.resolve("tasks.jsonl"), ("\n" + TASK.replace("\"q\"", "\"caf\u00e9?\"")).getBytes(StandardCharsets.ISO_8859_1));
        BadEnvironmentFile e = assertThrows(BadEnvironmentFile.class, () -> FileEnvironment.load(dir.resolve("env.yaml")));
        assertTrue(e.getMessage().matches(".*tasks\\.jsonl:2: not UTF-8 text \\(byte 0xE9\\): save the file as UTF-8"), e.getMessage());
    }

    @Test
    void valuesOfTheWrongKind() throws Exception {
        String m = error(inline("    responses:\n      - when: 5\n        response: x"), TASK);
        assertTrue(m.matches(".*env\\.yaml:7: tools\\.lookup\\.responses\\[0]\\.when: expected a mapping of keys, not 5"), m);
        m = error(inline("    response: x\n    after: read"), TASK);
        assertTrue(m.contains("tools.lookup.after: expected a list, not the text 'read'"), m);
        m = error(inline("    response: x") + "max_steps: many\n", TASK);
        assertTrue(m.contains("max_steps: expected a whole number, not the text 'many'"), m);
    }
}
