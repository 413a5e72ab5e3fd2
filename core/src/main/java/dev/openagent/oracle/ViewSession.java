package dev.openagent.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.episode.AgentSession;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Alternative;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Allowance;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;

import static dev.openagent.oracle.Answers.clip;

/**
 * One episode of the view solver: the task's plan carried out step by step, each step's values checked as shown
 * before it is sent, ending with the answer the plan's template gives (in the values as shown).
 */
final class ViewSession implements AgentSession {
    private final ViewSolver.Watched env;
    private final WorldTap tap;
    private final View view;
    private final Outbox outbox;
    private final ShownTools tools;
    private final Arguments arguments;
    private final Visibility visibility;
    private final Helpers helpers;
    private final Jobs jobs;
    private final Recovery recovery;
    private final UserQuestions questions;
    private final CommandHelp help;
    private final Reactions reactions;
    private final Budget budget = new Budget();
    private final EnvFacts facts;
    private Task task;
    private Frame frame;

    ViewSession(Start start, ViewSolver.Watched env, Set<Allowance> allowed) {
        this.env = env;
        this.tap = env.tap;
        this.view = new View(start);
        this.outbox = new Outbox(view);
        this.facts = env.facts();
        Matcher auth = Answers.AUTHORITY.matcher(start.systemPrompt());
        String authority = auth.find() ? auth.group(1) : null;
        java.time.Instant staleBefore = Freshness.cutoff(start.systemPrompt()).orElse(null);
        Names names = new Names(allowed.contains(Allowance.KEY_SYNONYMS) ? dev.openagent.shift.Words.table(facts.synonyms()) : Map.of());
        LabelReader labels = new LabelReader(view, names, authority);
        this.tools = new ShownTools(start.tools(), tap.start().tools());
        this.arguments = new Arguments(tools, labels, outbox, view, allowed);
        this.visibility = new Visibility(view, allowed, names, labels, tap);
        this.helpers = new Helpers(outbox, tools, arguments, labels);
        this.jobs = new Jobs(view, outbox, tools, arguments, labels, helpers, budget);
        this.recovery = new Recovery(view, outbox, tools, arguments, labels, visibility, helpers, jobs, budget, facts, staleBefore, names);
        this.questions = new UserQuestions(view, outbox, tap, budget, env.info().iface() == Interface.TEXT_COMMAND);
        this.help = new CommandHelp(tap);
        this.reactions = new Reactions(view, outbox, tap, tools, arguments, visibility, helpers, help, budget);
        this.task = env.task();
        this.frame = new Frame(task.plan());
    }

    @Override
    public Action act(Step last) {
        view.absorb(last);
        if (last != null) learnFrom(last);
        Task now = env.task();
        if (!now.plan().equals(task.plan())) {
            // The user revised the request: start over on what it now asks.
            task = now;
            frame = new Frame(task.plan());
            outbox.awaiting = null;
        }
        boolean awaited = outbox.lastWasAwaited;
        outbox.lastWasAwaited = false;
        try {
            return decide(awaited);
        } catch (Stuck s) {
            return new Action.Answer(ViewSolver.FAILED + s.getMessage());
        }
    }

    /** What the latest step teaches: a notice naming replacements, the help text, a command's answer. */
    private void learnFrom(Step last) {
        for (Observation o : last.observations()) {
            if (o.source() == Observation.Source.TOOL && o.callId() != null) {
                // An answer to one of our calls that names the tool to use instead (a retired tool).
                String called = outbox.tool(o.callId());
                Matcher m = Answers.REPLACEMENT.matcher(o.text());
                if (called != null && m.find() && !m.group(1).equals(called)) tools.replace(called, m.group(1));
                continue;
            }
            Matcher m = Answers.WITHDRAWN.matcher(o.text());
            while (m.find()) if (!m.group(1).equals(m.group(2))) tools.replace(m.group(1), m.group(2));
        }
        if (outbox.lastCommand != null) {
            outbox.lastCommandAnswer = last.observations().isEmpty() ? "" : View.decode(last.observations().getFirst().text());
            if (Protocol.isHelp(dev.openagent.sandbox.Commands.normalize(outbox.lastCommand.text()))) {
                help.shown(outbox.lastCommandAnswer);
            }
        }
    }

    private Action decide(boolean awaited) {
        if (outbox.awaiting != null) {
            Action a = reactions.next(awaited);
            if (a != null) return a;
        }
        return advance();
    }

    // ---------------------------------------------------------------- the plan

    private Action advance() {
        Action poll = jobs.pendingJob();
        if (poll != null) return poll;
        while (true) {
            GoldPlan.Call call = frame.current();
            if (call == null) {
                if (frame.parent == null) return ending();
                Frame done = frame;
                frame = done.parent;
                JsonNode result = done.path.result().apply(done.pathArgs, done.results);
                frame.results.add(result);
                frame.sent.add(new Sent("", Json.object(), new ArrayList<>()));
                frame.pathResults.add(done.results);
                continue;
            }
            ObjectNode worldArgs;
            try {
                worldArgs = call.resolve(frame.results);
            } catch (IllegalStateException noResult) {
                if (frame.refusing()) return refusal();
                throw new Stuck("step " + frame.step() + " (" + call.tool() + ") needs a result an earlier step did not give");
            }
            Action needed = valuesShown(call, worldArgs);
            if (needed != null) return needed;
            return call.isCommand() ? command(call, worldArgs) : toolCall(call, worldArgs, visibility.asSeen(worldArgs));
        }
    }

    /** Null when every value the call needs was shown; else what to do to see the missing one. */
    private Action valuesShown(GoldPlan.Call call, ObjectNode worldArgs) {
        if (call.isCommand()) {
            // Values of a command are the words its usage's placeholders take: checked once the usage is known.
            return null;
        }
        Set<String> given = frame.path == null ? Set.of() : new HashSet<>(JsonValues.leaves(frame.pathArgs));
        for (Iterator<Map.Entry<String, JsonNode>> it = worldArgs.fields(); it.hasNext(); ) {
            var e = it.next();
            String template = call.templates().get(e.getKey());
            if (template != null) {
                // A text the agent writes around values (an SQL statement): the values it takes from results must
                // have been shown; the rest is its own writing.
                for (GoldPlan.Ref ref : GoldPlan.placeholders(template)) {
                    JsonNode r = ref.call() < frame.results.size() ? frame.results.get(ref.call()) : null;
                    JsonNode v = r == null ? null : r.at(ref.pointer());
                    if (v == null || v.isMissingNode()) continue;
                    String text = v.isTextual() ? v.asText() : v.toString();
                    if (visibility.visible(text) || frame.derived(ref.call(), text)) continue;
                    Action a = recovery.recover(frame, ref.call(), text);
                    if (a != null) return a;
                    throw new Stuck("the value '" + clip(text, 60) + "' that " + call.tool() + "." + e.getKey() + " writes in was never shown"
                            + " (it comes from the result of step " + ref.call() + ", " + ref.pointer() + ")");
                }
                continue;
            }
            GoldPlan.Ref ref = call.refs().get(e.getKey());
            for (String v : JsonValues.leaves(e.getValue())) {
                // On another path to a removed tool, a constant the path brings (a search radius) is the agent's choice.
                if (frame.path != null && ref == null && !given.contains(v)) continue;
                if (ref == null && !visibility.visible(v) && visibility.composed(v)) {
                    // Not shown whole even without a shift (an SQL statement, a path the agent joins): its parts must be.
                    String part = visibility.unshownPart(v);
                    if (part == null) continue;
                    Action a = questions.ask(task, part, e.getKey());
                    if (a != null) return a;
                    if (frame.refusing()) return refusal();
                    throw new Stuck("'" + clip(part, 60) + "', part of what " + call.tool() + "." + e.getKey() + " takes ('" + clip(v, 80)
                            + "'), was never shown (it is part of the request)");
                }
                if (visibility.visible(v) || (ref != null && frame.derived(ref.call(), v))) continue;
                // A value of the request an earlier result holds (the entity a longer chain leads to) comes from there.
                int from = ref != null ? ref.call() : frame.stepHolding(v);
                Action a = from >= 0 ? recovery.recover(frame, from, v) : null;
                if (a == null && ref == null) a = questions.ask(task, v, e.getKey());
                if (a != null) return a;
                if (frame.refusing() && ref == null) return refusal();
                throw new Stuck("the value '" + clip(v, 60) + "' for " + call.tool() + "." + e.getKey() + " was never shown"
                        + (ref != null ? " (it comes from the result of step " + ref.call() + ", " + ref.pointer() + ")" : " (it is part of the request)"));
            }
        }
        return null;
    }

    private Action toolCall(GoldPlan.Call call, ObjectNode worldArgs, ObjectNode seenArgs) {
        ToolSpec world = tools.world(call.tool());
        Optional<ToolSpec> target = world != null ? tools.doing(world)
                : Descriptions.byNameWords(call.tool(), tools.shown(), tools.worldMatched());
        if (target.isEmpty()) {
            Alternative other = world == null ? null : facts.alternatives().get(call.tool());
            if (other != null && !frame.refusing()) {
                frame = new Frame(frame.plan, other, worldArgs, frame);
                return advance();
            }
            if (frame.refusing()) return refusal();
            throw new Stuck("no tool shown does what " + call.tool() + " does (" + clip(world == null ? "" : world.description(), 120) + ")");
        }
        String name = tools.replaced(target.get().name());
        ToolSpec to = tools.listed(name).orElse(target.get());
        ObjectNode args = arguments.withSettings(name, arguments.translate(world, to, seenArgs));
        String id = outbox.nextId();
        outbox.awaiting = new Awaiting(frame, call, worldArgs, to, name, args, id, tap.size(), 0);
        outbox.forStep.clear();
        return outbox.send(name, args, id, true);
    }

    private Action ending() {
        if (frame.refusing()) return refusal();
        Matcher m = Answers.PLACEHOLDER.matcher(frame.plan.answerTemplate());
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            int i = Integer.parseInt(m.group(1));
            JsonNode r = i < frame.results.size() ? frame.results.get(i) : null;
            JsonNode v = r == null ? null : r.at(m.group(2));
            if (v == null || v.isMissingNode()) throw new Stuck("the answer needs " + m.group() + ", which the results do not hold");
            String text = v.isTextual() ? v.asText() : v.toString();
            String shownAs = visibility.seen(text);
            if (shownAs == null && frame.derived(i, text)) shownAs = text;
            if (shownAs == null) {
                Action a = recovery.recover(frame, i, text);
                if (a != null) return a;
                throw new Stuck("the answer needs '" + clip(text, 60) + "' (the result of step " + i + ", " + m.group(2) + "), which was never shown");
            }
            m.appendReplacement(sb, Matcher.quoteReplacement(shownAs));
        }
        m.appendTail(sb);
        return new Action.Answer(sb.toString());
    }

    private Action refusal() {
        return new Action.Refuse(task.plan().answerTemplate().isBlank() ? "the request cannot be fulfilled" : task.plan().answerTemplate());
    }

    // ---------------------------------------------------------------- text commands

    private Action command(GoldPlan.Call call, ObjectNode worldArgs) {
        String text = worldArgs.path("text").asText();
        String normalized = dev.openagent.sandbox.Commands.normalize(text);
        if (Protocol.isHelp(normalized)) return awaitCommand(call, worldArgs, Protocol.HELP);
        List<HelpLines.Line> worldHelp = help.world();
        List<HelpLines.Line> shownHelp = help.shown();
        if (worldHelp == null || shownHelp == null) {
            if (!budget.bounded("help")) throw new Stuck("the help text could not be read");
            return outbox.sendCommand(Protocol.HELP, false);
        }
        Optional<HelpLines.Use> use = HelpLines.use(worldHelp, text);
        String shownCommand;
        List<String> values;
        if (use.isPresent()) {
            Optional<HelpLines.Line> line = HelpLines.same(use.get().line(), shownHelp);
            if (line.isEmpty()) {
                if (frame.refusing()) return refusal();
                throw new Stuck("no command shown does what '" + use.get().line().usages().getFirst() + "' does (" + use.get().line().description() + ")");
            }
            values = use.get().values();
            shownCommand = line.get().fill(use.get().usage(), values);
        } else {
            // A command the world does not have (a shift's ticket desk): as the shown help lists it.
            Optional<HelpLines.Use> direct = HelpLines.use(shownHelp, text);
            if (direct.isEmpty()) {
                if (frame.refusing()) return refusal();
                throw new Stuck("no command shown fits '" + clip(text, 60) + "'");
            }
            values = direct.get().values();
            shownCommand = text;
        }
        for (String v : values) {
            if (visibility.visible(v)) continue;
            Action a = questions.ask(task, v, "");
            if (a != null) return a;
            if (frame.refusing()) return refusal();
            throw new Stuck("the command '" + clip(text, 60) + "' needs '" + v + "', which was never shown");
        }
        return awaitCommand(call, worldArgs, shownCommand);
    }

    private Action awaitCommand(GoldPlan.Call call, ObjectNode worldArgs, String shownCommand) {
        outbox.awaiting = new Awaiting(frame, call, worldArgs, null, "command", Json.object("text", shownCommand), outbox.nextId(), tap.size(), 0);
        return outbox.sendCommand(shownCommand, true);
    }
}
