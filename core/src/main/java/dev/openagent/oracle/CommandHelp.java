package dev.openagent.oracle;

import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Protocol;

import java.util.List;
import java.util.regex.Matcher;

/** The help texts of a text-command environment: the world's own, read from the tap, and the one the agent was shown. */
final class CommandHelp {
    private final WorldTap tap;
    private List<HelpLines.Line> world;
    private List<HelpLines.Line> shown;

    CommandHelp(WorldTap tap) {
        this.tap = tap;
    }

    /** The world's help, once the world has answered a help command (else null). */
    List<HelpLines.Line> world() {
        if (world == null) world = tap.calls().stream()
                .filter(c -> c.tool().equals(GoldPlan.COMMAND) && Protocol.isHelp(c.args().path("text").asText()) && c.answer() != null)
                .map(c -> HelpLines.of(View.decode(c.answer().text()))).findFirst().orElse(null);
        return world;
    }

    /** The help the agent was shown, or null before it was. */
    List<HelpLines.Line> shown() { return shown; }

    /** Reads the help the agent was shown from a command's answer. */
    void shown(String answer) { shown = HelpLines.of(answer); }

    /** Whether a command of the plan is none the world's help lists (a shift's ticket desk), once that help is known. */
    boolean notWorld(String text) {
        return world != null && HelpLines.use(world, text).isEmpty() && !Protocol.isHelp(dev.openagent.sandbox.Commands.normalize(text));
    }

    /**
     * The command an answer says to write before the command again ("Write 'wait 30', then the same command
     * again"): a quoted command the shown help lists and the world's does not (a shift's own command), or null.
     */
    String toWriteFirst(String said) {
        if (shown == null) return null;
        Matcher m = Answers.WRITE_FIRST.matcher(said);
        while (m.find()) {
            String c = m.group(1).strip();
            if (HelpLines.use(shown, c).isPresent() && (world == null || HelpLines.use(world, c).isEmpty())) return c;
        }
        return null;
    }
}
