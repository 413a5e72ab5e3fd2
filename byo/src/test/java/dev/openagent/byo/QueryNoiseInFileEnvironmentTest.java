package dev.openagent.byo;

import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.ExactWords;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What a new user hit with a SQL server declared in a file: query.noise misspelt the e-mail addresses and the column
 * names the request gave ("grcae@example.org", "bok_id"). In a file environment, what a tool needs exactly is
 * inferred from its gold arguments and tool schemas: over 1,000 requests of a file environment whose tasks name
 * members by e-mail and columns of SQL, at every severity, each such value stands in the noisy request as it stood.
 */
class QueryNoiseInFileEnvironmentTest {
    private static final List<String> FIRST = List.of("grace", "marie", "alan", "ada", "linus", "barbara", "edsger", "katherine");
    private static final List<String> LAST = List.of("hopper", "curie", "turing", "lovelace", "torvalds", "liskov", "dijkstra", "johnson");
    private static final List<String> COLUMNS = List.of("book_id", "member_email", "due_date", "loan_status", "branch_code");

    @Test
    void eMailAddressesAndColumnNamesSurviveTheNoise(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("env.yaml"), """
                id: library
                description: A lending library's loans, looked up by member and queried in SQL.
                tools:
                  find_member:
                    description: Finds a member by e-mail address.
                    parameters: {type: object, properties: {email: {type: string, description: "The member's e-mail address."}}, required: [email]}
                    response: {"member_id": "M-1"}
                    read_only: true
                  run_sql:
                    description: Runs one SELECT statement on the library database and returns the rows.
                    parameters: {type: object, properties: {sql: {type: string, description: "One SELECT statement."}}, required: [sql]}
                    response: "no rows"
                    read_only: true
                tasks: tasks.jsonl
                """);
        Random rnd = new Random(7);
        StringBuilder tasks = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            String email = FIRST.get(rnd.nextInt(FIRST.size())) + (rnd.nextBoolean() ? "." + LAST.get(rnd.nextInt(LAST.size())) : "")
                    + "@" + (rnd.nextBoolean() ? "example.org" : "library.example.com");
            String column = COLUMNS.get(rnd.nextInt(COLUMNS.size()));
            String sql = "SELECT " + column + " FROM loans WHERE member_email = '" + email + "'";
            String query = "Please look up the member " + email + " and tell me the " + column
                    + " of every loan they have, from the loans table, because they are asking about it at the desk.";
            tasks.append("{\"id\": \"t").append(i).append("\", \"query\": \"").append(query).append("\", \"gold\": [")
                    .append("{\"tool\": \"find_member\", \"args\": {\"email\": \"").append(email).append("\"}}, ")
                    .append("{\"tool\": \"run_sql\", \"args\": {\"sql\": \"").append(sql).append("\"}}], \"answer\": \"no rows\"}\n");
        }
        Files.writeString(dir.resolve("tasks.jsonl"), tasks);
        try (FileEnvironment file = FileEnvironment.load(dir.resolve("env.yaml"))) {
            int changed = 0;
            int spans = 0;
            for (int severity = 1; severity <= 3; severity++) {
                Env base = file.create();
                Env noisy = ShiftSpec.parseStack("query.noise:severity=" + severity).apply(file.create());
                for (int i = 0; i < 1000; i++) {
                    TaskRequest r = new TaskRequest(Split.TEST, 40_000L + i, 0);
                    base.reset(r);
                    String before = base.task().query();
                    String after = noisy.reset(r).query();
                    if (!after.equals(before)) changed++;
                    for (String span : spans(base.task())) {
                        spans++;
                        if (!wholeWord(after, span)) fail("severity " + severity + ": '" + span + "' was touched\n  before: " + before + "\n  after:  " + after);
                    }
                }
            }
            assertTrue(spans >= 6000, "e-mail addresses and columns checked: " + spans);
            assertTrue(changed >= 1800, "the noise still bites: " + changed + " of 3000 requests changed");
        }
    }

    /** The e-mail address, the column and every other word of the gold arguments that the request states. */
    private static Set<String> spans(Task t) {
        Set<String> out = new LinkedHashSet<>();
        for (GoldPlan.Call c : t.plan().calls()) {
            c.args().forEach(v -> {
                for (String w : v.asText().split("\\s+")) {
                    String b = ExactWords.bare(w);
                    if (b.length() > 2 && wholeWord(t.query(), b)) out.add(b);
                }
            });
        }
        return out;
    }

    private static boolean wholeWord(String text, String word) {
        return Pattern.compile("(?<![\\p{L}\\p{N}])" + Pattern.quote(word) + "(?![\\p{L}\\p{N}])").matcher(text).find();
    }
}
