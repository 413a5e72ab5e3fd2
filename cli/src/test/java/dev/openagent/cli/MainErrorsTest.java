package dev.openagent.cli;

import dev.openagent.UserInputException;
import dev.openagent.episode.InfrastructureException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What {@link Main} makes of an exception: one line and exit 2 for the user's mistakes, a trace and exit 1 for bugs. */
class MainErrorsTest {
    /** A command that throws what it is told to. */
    @Command(name = "throwing")
    static final class Throwing implements Runnable {
        @Parameters(index = "0")
        String what;

        @Override
        public void run() {
            switch (what) {
                case "user-input" -> throw new UserInputException("--tasks must be at least 1");
                case "user-error" -> throw new Main.UserError("no such run 'r-1' in the store");
                case "infrastructure" -> throw new InfrastructureException("the environment kept failing");
                case "bare-illegal-argument" -> throw new IllegalArgumentException("a precondition broken by the code");
                case "null-pointer" -> {
                    String nothing = null;
                    System.out.println(nothing.length());
                }
                default -> throw new IllegalStateException("unknown case " + what);
            }
        }
    }

    record Run(int code, String err) {
        List<String> lines() { return err.lines().toList(); }
    }

    private static Run run(String what) {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new Throwing());
        cli.setErr(new PrintWriter(err, true));
        int code = Main.execute(cli, what);
        return new Run(code, err.toString());
    }

    @Test
    void theUsersMistakeIsOneLineAndExitCode2() {
        for (String what : new String[]{"user-input", "user-error", "infrastructure"}) {
            Run r = run(what);
            assertEquals(2, r.code(), r.err());
            assertEquals(1, r.lines().size(), "one line, no trace: " + r.err());
            assertTrue(r.err().startsWith("openagent: "), r.err());
            assertFalse(r.err().contains("\tat "), r.err());
        }
        assertEquals("openagent: --tasks must be at least 1", run("user-input").lines().getFirst());
    }

    @Test
    void aBugPrintsASummaryAndItsTraceAndExitCode1() {
        for (String what : new String[]{"null-pointer", "bare-illegal-argument"}) {
            Run r = run(what);
            assertEquals(1, r.code(), r.err());
            assertTrue(r.lines().getFirst().startsWith("openagent: internal error: "), r.err());
            assertTrue(r.err().contains("\tat dev.openagent.cli.MainErrorsTest$Throwing.run"), "the trace names where it failed: " + r.err());
        }
        assertTrue(run("null-pointer").lines().getFirst().contains("NullPointerException"));
        assertTrue(run("bare-illegal-argument").lines().getFirst().contains("a precondition broken by the code"));
    }

    @Test
    void aRealCommandsBadInputStaysOneLine() {
        CliTest.Result r = CliTest.run("run", "--env", "atlantis", "--tasks", "1");
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
    }
}
