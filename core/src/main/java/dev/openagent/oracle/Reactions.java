package dev.openagent.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.ToolSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;

/**
 * The plan step sent and awaited: confirmed when the world received it, else sent again or after what its answer
 * asks first (a replacement, a wait, a longer timeout, a renewal, an earlier call redone), within bounds.
 */
final class Reactions {
    private final View view;
    private final Outbox outbox;
    private final WorldTap tap;
    private final ShownTools tools;
    private final Arguments arguments;
    private final Visibility visibility;
    private final Helpers helpers;
    private final CommandHelp help;
    private final Budget budget;
    /** The latest command an answer said to write before the awaited one again (a wait), or null. */
    private String helperCommand;

    Reactions(View view, Outbox outbox, WorldTap tap, ShownTools tools, Arguments arguments, Visibility visibility,
              Helpers helpers, CommandHelp help, Budget budget) {
        this.view = view;
        this.outbox = outbox;
        this.tap = tap;
        this.tools = tools;
        this.arguments = arguments;
        this.visibility = visibility;
        this.helpers = helpers;
        this.help = help;
        this.budget = budget;
    }

    /**
     * What to do about the awaited step ({@code awaited}: whether the latest action sent it): null once the world
     * confirmed it (its result recorded in its frame) and the plan goes on.
     */
    Action next(boolean awaited) {
        WorldTap.Call done = worldDid(outbox.awaiting);
        if ((done != null || notWorldTool(outbox.awaiting)) && awaited && view.answers(outbox.awaiting.id()).stream().anyMatch(x -> Answers.broken(x.raw()))) {
            // The service did it, but the answer arrived broken: ask again (only lookups arrive broken).
            return resend(outbox.awaiting);
        }
        if (done != null || (awaited && notWorldTool(outbox.awaiting) && Answers.answered(answerTo(outbox.awaiting)))) {
            complete(outbox.awaiting.frame(), done);
            outbox.awaiting = null;
        } else if (awaited) {
            Action follow = react(outbox.awaiting);
            if (follow != null) return follow;
            if (outbox.awaiting.frame().refusing()) {
                // A probe of an impossible request failed, as it should.
                complete(outbox.awaiting.frame(), null);
                outbox.awaiting = null;
            } else {
                Awaiting a = outbox.awaiting;
                throw new Stuck("step " + a.frame().step() + " (" + describe(a.call(), a.worldArgs())
                        + ") was sent as " + a.tool() + " " + Json.write(a.args()) + " but did not reach the service; it answered: "
                        + Answers.clip(answerTo(a), 240));
            }
        } else {
            return afterHelper(outbox.awaiting);
        }
        return null;
    }

    /** The awaited step after a helper the latest action sent for it (a wait, a renewal, a redone call). */
    private Action afterHelper(Awaiting a) {
        // The command an answer said to write first (a wait) answered "try again" (a busy system): it goes again.
        if (helperCommand != null && a.tries() < Budget.MAX_RETRIES && Answers.transientFailure(outbox.lastCommandAnswer)) {
            outbox.awaiting = a.again(a.id(), a.tool(), a.args(), a.mark());
            return outbox.sendCommand(helperCommand, false);
        }
        helperCommand = null;
        String lastHelper = helpers.lastHelper;
        // The redone call failed in turn, naming its own upstream call to redo: that first (a chain); the
        // call it serves goes again after it, and names what it still needs.
        if (lastHelper != null && a.tries() < Budget.MAX_TRIES) {
            Action first = helpers.redo(outbox.textOf(lastHelper));
            if (first != null) {
                outbox.awaiting = a.again(a.id(), a.tool(), a.args(), a.mark());
                return first;
            }
        }
        // The helper (a renewal, a token) answered "try again": it goes again before the call it serves.
        if (lastHelper != null && a.tries() < Budget.MAX_RETRIES && Answers.transientFailure(outbox.textOf(lastHelper))) {
            String said = outbox.textOf(lastHelper);
            // It reports that the call it serves timed out in turn (a hold completed in vain: "call
            // make_reservation again with async=true"): that call again, sent so.
            if (Answers.mentions(said, tools.replaced(a.tool())) && arguments.learnSettings(a, said)) return resend(a);
            // "try again" after a tool it names (429 ... "Call wait with seconds=30"): that tool first; the
            // call it serves goes again after it, and asks for the helper again if it still needs it.
            ToolSpec first = tools.oneToolNamed(said, outbox.tool(lastHelper));
            ObjectNode firstArgs = first == null ? null : arguments.argsFor(first, said, null, Json.object());
            // What it says to send that tool with (a longer timeout: a hold's completion reporting that the
            // held call timed out) goes with that tool's later calls too.
            if (first != null) arguments.learnSettings(tools.replaced(first.name()), first, Json.object(), said);
            outbox.awaiting = a.again(a.id(), a.tool(), a.args(), a.mark());
            if (firstArgs != null) return helpers.call(tools.replaced(first.name()), firstArgs);
            return helpers.call(outbox.tool(lastHelper), outbox.args(lastHelper));
        }
        // Its answer arrived broken (a token cut short): it goes again too, and the call it serves was not tried.
        if (lastHelper != null && view.answers(lastHelper).stream().anyMatch(x -> Answers.broken(x.raw()))
                && budget.bounded("broken helper " + outbox.tool(lastHelper) + " for " + a.id())) {
            return helpers.call(outbox.tool(lastHelper), outbox.args(lastHelper));
        }
        return resend(a);
    }

    /** What to do about the answer to a plan call that did not reach the world, or null when nothing it says helps. */
    private Action react(Awaiting a) {
        String said = answerTo(a);
        // An answer that says "try again" may come after many retries of layers that compose (a flapping tool, busy
        // servers, broken answers): what it asks first (a wait, a longer timeout) is bounded as retries are.
        int cap = Answers.transientFailure(said) ? Budget.MAX_RETRIES : Budget.MAX_TRIES;
        Matcher m = Answers.REPLACEMENT.matcher(said);
        if (m.find() && !m.group(1).equals(a.tool())) {
            tools.replace(a.tool(), m.group(1));
            return resend(a);
        }
        String first = a.call().isCommand() ? help.toWriteFirst(said) : null;
        if (first != null && a.tries() < cap) {
            // "Write 'wait 30', then the same command again": that command, then this one again.
            outbox.awaiting = a.again(a.id(), a.tool(), a.args(), a.mark());
            helpers.lastHelper = null;
            helperCommand = first;
            return outbox.sendCommand(first, false);
        }
        if (!a.call().isCommand() && a.tries() < cap && arguments.learnSettings(a, said)) {
            // "Call it again with a longer timeout: timeout_seconds=60": this call, and the tool's later ones, with it.
            return resend(a);
        }
        Action redo = a.tries() < Budget.MAX_TRIES ? helpers.redo(said) : null;
        if (redo != null) {
            // An earlier call to redo first (a result it gave went stale); the plan call goes again after it.
            outbox.awaiting = a.again(a.id(), a.tool(), a.args(), a.mark());
            return redo;
        }
        ToolSpec named = tools.oneToolNamed(said, a.tool());
        if (named != null && a.tries() < cap) {
            ObjectNode args = arguments.argsFor(named, said, a.target(), a.args());
            if (args != null) {
                // The plan call goes again after the helper (unless the helper completed it: a hold).
                outbox.awaiting = a.again(a.id(), a.tool(), a.args(), a.mark());
                return helpers.call(tools.replaced(named.name()), args);
            }
        }
        if (Answers.transientFailure(said)) return resend(a);
        return null;
    }

    private Action resend(Awaiting a) {
        helpers.lastHelper = null;
        boolean retry = Answers.transientFailure(answerTo(a)) || view.answers(a.id()).stream().anyMatch(x -> Answers.broken(x.raw()));
        int cap = retry ? Budget.MAX_RETRIES : Budget.MAX_TRIES;
        if (a.tries() >= cap) throw new Stuck("gave up after " + cap + " tries of " + a.tool() + ": " + Answers.clip(answerTo(a), 200));
        String id = outbox.nextId();
        if (a.call().isCommand()) {
            outbox.awaiting = a.again(id, a.tool(), a.args(), tap.size());
            return outbox.sendCommand(outbox.awaiting.args().path("text").asText(), true);
        }
        // Arguments again, as the tool now takes them (a listed replacement by its own schema; one only a reply
        // named takes the same parameters), with a token an answer since gave filling its parameter.
        String name = tools.replaced(a.tool());
        ObjectNode args = arguments.withSettings(name, arguments.translate(tools.world(a.call().tool()), tools.listed(name).orElse(a.target()), visibility.asSeen(a.worldArgs())));
        outbox.awaiting = a.again(id, name, args, tap.size());
        return outbox.send(outbox.awaiting.tool(), outbox.awaiting.args(), id, true);
    }

    /** The step the world confirmed: its answer is the step's result. */
    private void complete(Frame f, WorldTap.Call done) {
        Awaiting awaiting = outbox.awaiting;
        JsonNode result = null;
        if (done != null && done.succeeded()) {
            result = done.answer().payload() != null ? done.answer().payload() : TextNode.valueOf(done.answer().text());
        } else if (done == null && awaiting != null && notWorldTool(awaiting) && Answers.answered(answerTo(awaiting))) {
            result = Json.object(); // a tool the world does not have (a shift's ticket desk): nothing to read from it
        }
        // Every call made for the step (tries, renewals, a completion that carried its result) answers it.
        List<String> ids = new ArrayList<>(outbox.forStep);
        outbox.forStep.clear();
        f.results.add(result);
        f.sent.add(new Sent(awaiting == null ? "" : awaiting.tool(), awaiting == null ? Json.object() : awaiting.args(), ids));
        f.pathResults.add(null);
    }

    private WorldTap.Call worldDid(Awaiting a) {
        String tool = a.call().isCommand() ? GoldPlan.COMMAND : a.call().tool();
        ObjectNode want = a.call().isCommand() ? WorldTap.command(a.worldArgs().path("text").asText()) : a.worldArgs();
        for (WorldTap.Call c : tap.since(a.mark())) {
            if (c.tool().equals(tool) && c.args() != null && JsonValues.sameArgs(c.args(), want) && (c.succeeded() || a.frame().refusing())) return c;
        }
        return null;
    }

    private boolean notWorldTool(Awaiting a) {
        if (a.call().isCommand()) return help.notWorld(a.worldArgs().path("text").asText());
        return tools.world(a.call().tool()) == null;
    }

    /** The answer to a call: the text answering its id, with the notices that came with it. */
    private String answerTo(Awaiting a) {
        if (a.call().isCommand()) return outbox.lastCommandAnswer;
        StringBuilder sb = new StringBuilder();
        for (View.Shown s : view.answers(a.id())) sb.append(s.text()).append('\n');
        for (View.Shown s : view.latest()) if (s.callId() == null) sb.append(s.text()).append('\n');
        return sb.toString().strip();
    }

    private static String describe(GoldPlan.Call call, ObjectNode args) {
        return call.isCommand() ? "'" + args.path("text").asText() + "'" : call.tool() + " " + Answers.clip(Json.write(args), 120);
    }
}
