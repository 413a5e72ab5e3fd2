package dev.openagent.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Alternative;
import dev.openagent.sandbox.DelegatingEnv;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.RecordLookup;
import dev.openagent.sandbox.ShiftRecord;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.ToolFacts;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Allowance;
import dev.openagent.shift.ShiftCatalog;
import dev.openagent.shift.ShiftStack;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The view-only solver: carries out a task from what the agent is shown, never from a shift's own state. It knows
 * the task in the world's terms (its gold plan, as the request means it) and the world's own tools, and must:
 * choose each tool by the shown descriptions (a name only where no description says what the tool does), find every argument value in what was shown (the
 * request, the instructions, the user's answers, earlier results as rendered), read results in their shifted form,
 * and act on what errors and notices say (retry, use the named replacement, renew, confirm, fetch the next page,
 * complete a hold, ask the user). A {@link WorldTap} tells it which values are true and whether the world received
 * each call a plan step intends; shifts may declare knowledge from outside the episode ({@link Allowance}), and it
 * applies exactly those.
 * <p>
 * Where it cannot take a step it ends the episode with an answer that starts with {@link #FAILED} and names what
 * was missing: that is the finding {@code validate --view} reports.
 */
public final class ViewSolver implements Agent {
    /** Its agent id ({@code --agent view}). */
    public static final String NAME = "view";

    /** How a failed view check's final answer starts. */
    public static final String FAILED = "VIEW CHECK: ";

    private final boolean allowancesHonoured;

    public ViewSolver() {
        this(true);
    }

    /** A solver that applies no transformation at all, whatever the shifts declare (tests of the allowances). */
    static ViewSolver withoutAllowances() {
        return new ViewSolver(false);
    }

    private ViewSolver(boolean allowancesHonoured) {
        this.allowancesHonoured = allowancesHonoured;
    }

    @Override
    public String name() { return NAME; }

    /** A fresh world under the stack, watched by a tap: the environment the view solver runs in. */
    public static Env watched(ShiftStack stack, Env world) {
        WorldTap[] tap = new WorldTap[1];
        Env env = stack.apply(world, w -> tap[0] = new WorldTap(w));
        return new Watched(env, tap[0]);
    }

    /** A stack with its tap: passes everything through. */
    static final class Watched extends DelegatingEnv {
        final WorldTap tap;

        Watched(Env env, WorldTap tap) {
            super(env);
            this.tap = tap;
        }
    }

    @Override
    public AgentSession begin(Start start, Env env) {
        if (!(env instanceof Watched w)) {
            throw new IllegalArgumentException("the view solver runs on environments made by ViewSolver.watched(stack, world)");
        }
        return new Session(start, w, allowances(env));
    }

    /** What the view solver found missing in an episode it ran (its final answer), or empty when it did not give up. */
    public static Optional<String> finding(dev.openagent.episode.Trajectory t) {
        for (int i = t.messages().size() - 1; i >= 0; i--) {
            dev.openagent.episode.Message m = t.messages().get(i);
            if (!"assistant".equals(m.role()) || m.content() == null) continue;
            int at = m.content().indexOf(FAILED);
            return at < 0 ? Optional.empty() : Optional.of(m.content().substring(at + FAILED.length()));
        }
        return Optional.empty();
    }

    /** Whether the view solver solved an episode: it succeeded without giving up (whatever its last words). */
    public static boolean solved(dev.openagent.episode.Trajectory t) {
        return t.success() && finding(t).isEmpty();
    }

    /** The allowances the shifts of an environment's stack declare (none for a solver that may use none). */
    private Set<Allowance> allowances(Env env) {
        Set<Allowance> out = EnumSet.noneOf(Allowance.class);
        if (!allowancesHonoured) return out;
        for (ShiftRecord r : env.spec().shifts()) {
            try {
                out.addAll(ShiftCatalog.get(r.id()).allowances());
            } catch (IllegalArgumentException outsideTheCatalog) {
                // a test's own shift: declares nothing
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- one episode

    /** A plan being carried out: the task's, or another path to a removed tool ({@link Alternative}). */
    private static final class Frame {
        final GoldPlan plan;
        final Alternative path;
        final ObjectNode pathArgs;
        final Frame parent;
        final List<JsonNode> results = new ArrayList<>();
        /** Per step: the shown tool, what was sent and every call made for it (pages, repeats). */
        final List<Sent> sent = new ArrayList<>();
        /** Per step, for a step done by another path: the world's answers to the path's calls (else null). */
        final List<List<JsonNode>> pathResults = new ArrayList<>();

        Frame(GoldPlan plan) {
            this(plan, null, null, null);
        }

        Frame(GoldPlan plan, Alternative path, ObjectNode pathArgs, Frame parent) {
            this.plan = plan;
            this.path = path;
            this.pathArgs = pathArgs;
            this.parent = parent;
        }

        int step() { return results.size(); }

        /** The next call, or null when the frame is done. */
        GoldPlan.Call current() {
            if (path != null) return path.next().apply(pathArgs, results);
            return step() < plan.calls().size() ? plan.calls().get(step()) : null;
        }

        boolean refusing() { return plan.refuse(); }
    }

    /** What was sent for one step: the tool as shown, the arguments as sent, the ids of every call made for it. */
    private record Sent(String tool, ObjectNode args, List<String> ids) {}

    /** A plan step sent and not yet confirmed by the world. */
    private record Awaiting(Frame frame, GoldPlan.Call call, ObjectNode worldArgs, ToolSpec target, String tool, ObjectNode args, String id,
                            int mark, int tries) {
        Awaiting again(String newId, String newTool, ObjectNode newArgs, int newMark) {
            return new Awaiting(frame, call, worldArgs, target, newTool, newArgs, newId, newMark, tries + 1);
        }
    }

    private static final int MAX_TRIES = 12;
    /**
     * Tries of a call whose latest answer said "try again" or arrived broken: retry layers compose and multiply (under
     * obs.runtime-error:3 each of obs.malformed-output:3's four answers may come after three failures: 16 tries).
     */
    private static final int MAX_RETRIES = 48;
    /** How a JSON document starts (not "[FILE] notes.txt"). */
    private static final Pattern JSON_START = Pattern.compile("\\{|\\[\\s*[\\[{\"\\d\\-\\]]|\\[\\s*(true|false|null)\\b");
    private static final int MAX_RECOVERIES = 12;
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\d+):(/[^}]*)}");
    private static final Pattern REPLACEMENT = Pattern.compile("(?i)\\buse '([^'\\s]+)'");
    private static final Pattern WITHDRAWN = Pattern.compile("'([^'\\s]+)'[^'\\n]*?\\buse '([^'\\s]+)'");
    /** A source's name where a result lists several (JSON, XML, YAML, key=value and prose renderings). */
    private static final Pattern SOURCE = Pattern.compile("(?i)\\bsource\\b[\"']?\\s*(?:[:=>]|is)\\s*[\"']?([A-Za-z_][\\w-]*)");
    /** "the 'registry' source is authoritative" in the instructions. */
    private static final Pattern AUTHORITY = Pattern.compile("(?i)'([A-Za-z_][\\w-]*)' source is authoritative");
    /** "Write 'wait 30', then ...": a command an answer says to write first. */
    private static final Pattern WRITE_FIRST = Pattern.compile("(?i)\\bwrite '([^'\\n]+)',? then\\b");
    private static final Pattern CALL = Pattern.compile("(?i)\\bcall '?([A-Za-z_][\\w-]*)'?");
    /** "Call search_places again with the same arguments as before ({...})": an earlier call to redo, named with its arguments. */
    private static final Pattern REDO = Pattern.compile("(?i)\\bcall '?([A-Za-z_][\\w-]*)'? again with the same arguments as before \\((?=\\{)");
    /** What a transient failure says; a bare 503 or 429 is a street number or a price as often as a status. */
    /** An answer saying the call runs on as a job: its result comes later, from the tool that takes the job's id. */
    private static final Pattern RUNNING_JOB = Pattern.compile("(?i)job.{0,80}\\b(running|pending|queued|in progress)\\b|\\b(running|pending|queued|in progress)\\b.{0,80}\\bjob");
    private static final Pattern TRANSIENT = Pattern.compile("(?i)try (the same \\w+ )?again|\\bretry|temporar|timed? ?out|\\b503 service|\\b429 too many|(?:http|status|error)\\W{0,3}(?:503|429)\\b|rate limit|busy|overloaded|\\bask me again\\b");

    private final class Session implements AgentSession {
        private final Watched env;
        private final WorldTap tap;
        private final View view;
        private final boolean commands;
        private final Set<Allowance> allowed;
        private final EnvFacts facts;
        private final Map<String, ToolSpec> worldTools = new LinkedHashMap<>();
        /** How field names shown compare with the names descriptions and protocols give. */
        private final Names names;
        /** The source the instructions call authoritative, where they name one. */
        private final String authority;
        /** The time before which data is stale, where the instructions give a freshness rule (else null). */
        private final java.time.Instant staleBefore;
        private final List<ToolSpec> shown;
        /** What answers said to send a shown tool with every call (a longer timeout), by its name. */
        private final Map<String, ObjectNode> passAlso = new HashMap<>();
        /** Shown names that an error or a notice said are replaced by another name. */
        private final Map<String, String> replacedBy = new HashMap<>();
        private final Set<String> asked = new HashSet<>();
        /** The latest call of a helper tool for a value (tool and value -> call id), and the helpers that did not show it. */
        private final Map<String, String> helperCalls = new HashMap<>();
        private final Set<String> useless = new HashSet<>();
        private String askedLast;
        private final Map<String, Integer> recoveries = new HashMap<>();
        /** The arguments last sent to each shown tool. */
        private final Map<String, ObjectNode> lastArgs = new HashMap<>();
        /** The tool each call id was sent to, and with what. */
        private final Map<String, String> calledTool = new HashMap<>();
        private final Map<String, ObjectNode> sentArgs = new HashMap<>();
        /** The calls made for the plan step awaited, in order. */
        private final List<String> forStep = new ArrayList<>();
        /** The latest helper call an answer asked for (a renewal, a token, a completion), or null. */
        private String lastHelper;
        /** The latest poll of a running job (its call id) and the job's id. */
        private String lastPoll;
        private String lastPollJob;
        /** The helper a refused poll called first (a token), after whose answer the poll goes again. */
        private String pollAfter;
        /** Each job's id -> the latest poll of it (its call id). */
        private final Map<String, String> polls = new HashMap<>();
        /** The latest command an answer said to write before the awaited one again (a wait), or null. */
        private String helperCommand;
        /** The latest call that fetched a record by its id to see a value not shown, or null. */
        private String lastLookup;
        /** Unawaited calls whose answer's helper was called. */
        private final Set<String> helpedFor = new HashSet<>();
        /** Steps whose answer was out of date: asked again for live data until a live answer comes (by identity). */
        private final Set<Sent> wantLive = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        private Task task;
        private Frame frame;
        private Awaiting awaiting;
        private boolean lastWasAwaited;
        private Action.Command lastCommand;
        private String lastCommandAnswer = "";
        private List<HelpLines.Line> worldHelp;
        private List<HelpLines.Line> shownHelp;
        private int ids;

        Session(Start start, Watched env, Set<Allowance> allowed) {
            this.env = env;
            this.tap = env.tap;
            this.view = new View(start);
            this.commands = env.info().iface() == Interface.TEXT_COMMAND;
            this.allowed = allowed;
            this.facts = env.facts();
            Matcher auth = AUTHORITY.matcher(start.systemPrompt());
            this.authority = auth.find() ? auth.group(1) : null;
            this.staleBefore = Freshness.cutoff(start.systemPrompt()).orElse(null);
            this.names = new Names(allowed.contains(Allowance.KEY_SYNONYMS) ? dev.openagent.shift.Words.table(facts.synonyms()) : Map.of());
            this.shown = new ArrayList<>(start.tools());
            for (ToolSpec t : tap.start().tools()) worldTools.put(t.name(), t);
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
                awaiting = null;
            }
            boolean awaited = lastWasAwaited;
            lastWasAwaited = false;
            try {
                return decide(awaited);
            } catch (Stuck s) {
                return new Action.Answer(FAILED + s.getMessage());
            }
        }

        /** What the latest step teaches: a notice naming replacements, the help text, a command's answer. */
        private void learnFrom(Step last) {
            for (Observation o : last.observations()) {
                if (o.source() == Observation.Source.TOOL && o.callId() != null) {
                    // An answer to one of our calls that names the tool to use instead (a retired tool).
                    String called = calledTool.get(o.callId());
                    Matcher m = REPLACEMENT.matcher(o.text());
                    if (called != null && m.find() && !m.group(1).equals(called)) replacedBy.put(called, m.group(1));
                    continue;
                }
                Matcher m = WITHDRAWN.matcher(o.text());
                while (m.find()) if (!m.group(1).equals(m.group(2))) replacedBy.put(m.group(1), m.group(2));
            }
            if (lastCommand != null) {
                lastCommandAnswer = last.observations().isEmpty() ? "" : View.decode(last.observations().getFirst().text());
                if (Protocol.isHelp(dev.openagent.sandbox.Commands.normalize(lastCommand.text()))) {
                    shownHelp = HelpLines.of(lastCommandAnswer);
                }
            }
        }

        private Action decide(boolean awaited) {
            if (awaiting != null) {
                WorldTap.Call done = worldDid(awaiting);
                if ((done != null || notWorldTool(awaiting)) && awaited && view.answers(awaiting.id()).stream().anyMatch(x -> broken(x.raw()))) {
                    // The service did it, but the answer arrived broken: ask again (only lookups arrive broken).
                    return resend(awaiting);
                }
                if (done != null || (awaited && notWorldTool(awaiting) && answered(answerTo(awaiting)))) {
                    complete(awaiting.frame(), done);
                    awaiting = null;
                } else if (awaited) {
                    Action follow = react(awaiting);
                    if (follow != null) return follow;
                    if (awaiting.frame().refusing()) {
                        // A probe of an impossible request failed, as it should.
                        complete(awaiting.frame(), null);
                        awaiting = null;
                    } else {
                        throw new Stuck("step " + awaiting.frame().step() + " (" + describe(awaiting.call(), awaiting.worldArgs())
                                + ") was sent as " + awaiting.tool() + " " + Json.write(awaiting.args()) + " but did not reach the service; it answered: "
                                + clip(answerTo(awaiting), 240));
                    }
                } else {
                    // The command an answer said to write first (a wait) answered "try again" (a busy system): it goes again.
                    if (helperCommand != null && awaiting.tries() < MAX_RETRIES && TRANSIENT.matcher(lastCommandAnswer).find()) {
                        awaiting = awaiting.again(awaiting.id(), awaiting.tool(), awaiting.args(), awaiting.mark());
                        return sendCommand(helperCommand, false);
                    }
                    helperCommand = null;
                    // The redone call failed in turn, naming its own upstream call to redo: that first (a chain); the
                    // call it serves goes again after it, and names what it still needs.
                    if (lastHelper != null && awaiting.tries() < MAX_TRIES) {
                        Action first = redo(textOf(lastHelper));
                        if (first != null) {
                            awaiting = awaiting.again(awaiting.id(), awaiting.tool(), awaiting.args(), awaiting.mark());
                            return first;
                        }
                    }
                    // The helper (a renewal, a token) answered "try again": it goes again before the call it serves.
                    if (lastHelper != null && awaiting.tries() < MAX_RETRIES && TRANSIENT.matcher(textOf(lastHelper)).find()) {
                        String again = lastHelper;
                        String said = textOf(again);
                        // It reports that the call it serves timed out in turn (a hold completed in vain: "call
                        // make_reservation again with async=true"): that call again, sent so.
                        if (mentions(said, replaced(awaiting.tool())) && learnSettings(awaiting, said)) return resend(awaiting);
                        // "try again" after a tool it names (429 ... "Call wait with seconds=30"): that tool first; the
                        // call it serves goes again after it, and asks for the helper again if it still needs it.
                        ToolSpec first = oneToolNamed(said, calledTool.get(again));
                        ObjectNode firstArgs = first == null ? null : argsFor(first, said, null, Json.object());
                        // What it says to send that tool with (a longer timeout: a hold's completion reporting that the
                        // held call timed out) goes with that tool's later calls too.
                        if (first != null) learnSettings(replaced(first.name()), first, Json.object(), said);
                        if (firstArgs != null) {
                            awaiting = awaiting.again(awaiting.id(), awaiting.tool(), awaiting.args(), awaiting.mark());
                            lastHelper = nextId();
                            return send(replaced(first.name()), firstArgs, lastHelper, false);
                        }
                        awaiting = awaiting.again(awaiting.id(), awaiting.tool(), awaiting.args(), awaiting.mark());
                        lastHelper = nextId();
                        return send(calledTool.get(again), sentArgs.get(again), lastHelper, false);
                    }
                    // Its answer arrived broken (a token cut short): it goes again too, and the call it serves was not tried.
                    if (lastHelper != null && view.answers(lastHelper).stream().anyMatch(x -> broken(x.raw()))
                            && bounded("broken helper " + calledTool.get(lastHelper) + " for " + awaiting.id())) {
                        String again = lastHelper;
                        lastHelper = nextId();
                        return send(calledTool.get(again), sentArgs.get(again), lastHelper, false);
                    }
                    return resend(awaiting);
                }
            }
            return advance();
        }

        // ------------------------------------------------------------ the plan

        private Action advance() {
            Action poll = pendingJob();
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
                return call.isCommand() ? command(call, worldArgs) : toolCall(call, worldArgs, asSeen(worldArgs));
            }
        }

        /**
         * A job the latest answers say is still running, asked for its result with the listed tool that takes a job's
         * id (by its parameter's name or description) and otherwise only what answers labelled (a token another shift
         * asks for), as long as it runs (bounded); null when none runs. A poll answered "try again" (a flapping service) or broken
         * goes again; one refused for want of something a tool it names gives (a token) goes again after that tool.
         */
        private Action pendingJob() {
            if (lastPoll != null) {
                boolean answeredNow = view.latest().stream().anyMatch(s -> lastPoll.equals(s.callId()));
                String said = textOf(lastPoll);
                boolean brokenAnswer = view.answers(lastPoll).stream().anyMatch(x -> broken(x.raw()));
                if (answeredNow && (TRANSIENT.matcher(said).find() || RUNNING_JOB.matcher(said).find() || brokenAnswer)) {
                    // "Call wait with seconds=60, then repeat the call" (a rate limit): that tool first, then the poll.
                    ToolSpec first = oneToolNamed(said, calledTool.get(lastPoll));
                    ObjectNode firstArgs = first == null ? null : argsFor(first, said, null, Json.object());
                    if (firstArgs != null && boundedRetry("poll " + lastPollJob)) {
                        pollAfter = nextId();
                        return send(replaced(first.name()), firstArgs, pollAfter, false);
                    }
                    if (boundedRetry("poll " + lastPollJob)) return poll(calledTool.get(lastPoll), sentArgs.get(lastPoll).deepCopy(), lastPollJob);
                } else if (answeredNow && looksLikeError(said)) {
                    // The job's start is to be redone (a cascading failure invalidated the job's id): that call again,
                    // as the error quotes it; its new job is polled when its answer says it runs.
                    Action redone = redo(said);
                    if (redone != null && boundedRetry("poll " + lastPollJob)) return redone;
                    Action first = helperFor(lastPoll);
                    if (first != null) {
                        pollAfter = lastHelper;
                        return first;
                    }
                } else if (pollAfter != null && view.latest().stream().anyMatch(s -> pollAfter.equals(s.callId()))) {
                    pollAfter = null;
                    ToolSpec t = shownTool(calledTool.get(lastPoll));
                    ObjectNode args = t == null ? null : pollArgs(t, lastPollJob);
                    if (args != null && boundedRetry("poll " + lastPollJob)) return poll(t.name(), args, lastPollJob);
                }
            }
            for (View.Shown s : view.latest()) {
                if (s.source() != Observation.Source.TOOL || !RUNNING_JOB.matcher(s.text()).find()) continue;
                // Of the tools that take a job's id, those that add nothing of their own (not a queued copy).
                for (ToolSpec t : plainest(shown.stream().filter(t -> jobParam(t) != null).toList())) {
                    String param = jobParam(t);
                    String job = labelFor(s.text(), param, Descriptions.descriptions(t.parameters()).getOrDefault(param, ""));
                    ObjectNode args = job == null ? null : pollArgs(t, job);
                    if (args == null || !boundedRetry("poll " + job)) continue;
                    return poll(t.name(), args, job);
                }
            }
            return null;
        }

        /** The one required parameter of a tool that takes a job's id (by its name or description), or null. */
        private static String jobParam(ToolSpec t) {
            String found = null;
            for (String p : Descriptions.required(t.parameters())) {
                String about = Descriptions.descriptions(t.parameters()).getOrDefault(p, "");
                if (!(p + " " + about).toLowerCase(java.util.Locale.ROOT).contains("job")) continue;
                if (found != null) return null;
                found = p;
            }
            return found;
        }

        /** A poll's arguments: the job's id, and each other parameter it requires as the latest answer labelled it (a token); without one none labelled, for its answer to name the tool that gives it. */
        private ObjectNode pollArgs(ToolSpec t, String job) {
            ObjectNode args = Json.object();
            args.put(jobParam(t), job);
            for (String r : Descriptions.required(t.parameters())) {
                String v = args.has(r) ? null : labeled(r);
                if (v != null) args.put(r, v);
            }
            return args;
        }

        private Action poll(String tool, ObjectNode args, String job) {
            lastPoll = nextId();
            lastPollJob = job;
            polls.put(job, lastPoll);
            return send(tool, args, lastPoll, false);
        }

        /** Null when every value the call needs was shown; else what to do to see the missing one. */
        private Action valuesShown(GoldPlan.Call call, ObjectNode worldArgs) {
            if (call.isCommand()) {
                // Values of a command are the words its usage's placeholders take: checked once the usage is known.
                return null;
            }
            Set<String> given = frame.path == null ? Set.of() : new HashSet<>(leaves(frame.pathArgs));
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
                        if (visible(text) || derived(frame, ref.call(), text)) continue;
                        Action a = recover(frame, ref.call(), text);
                        if (a != null) return a;
                        throw new Stuck("the value '" + clip(text, 60) + "' that " + call.tool() + "." + e.getKey() + " writes in was never shown"
                                + " (it comes from the result of step " + ref.call() + ", " + ref.pointer() + ")");
                    }
                    continue;
                }
                GoldPlan.Ref ref = call.refs().get(e.getKey());
                for (String v : leaves(e.getValue())) {
                    // On another path to a removed tool, a constant the path brings (a search radius) is the agent's choice.
                    if (frame.path != null && ref == null && !given.contains(v)) continue;
                    if (ref == null && !visible(v) && composed(v)) {
                        // Not shown whole even without a shift (an SQL statement, a path the agent joins): its parts must be.
                        String part = unshownPart(v);
                        if (part == null) continue;
                        Action a = ask(part, e.getKey());
                        if (a != null) return a;
                        if (frame.refusing()) return refusal();
                        throw new Stuck("'" + clip(part, 60) + "', part of what " + call.tool() + "." + e.getKey() + " takes ('" + clip(v, 80)
                                + "'), was never shown (it is part of the request)");
                    }
                    // On another path to a removed tool, a constant the path brings (a search radius) is the agent's choice.
                    if (visible(v) || (ref != null && derived(frame, ref.call(), v))) continue;
                    // A value of the request an earlier result holds (the entity a longer chain leads to) comes from there.
                    int from = ref != null ? ref.call() : stepHolding(v);
                    Action a = from >= 0 ? recover(frame, from, v) : null;
                    if (a == null && ref == null) a = ask(v, e.getKey());
                    if (a != null) return a;
                    if (frame.refusing() && ref == null) return refusal();
                    throw new Stuck("the value '" + clip(v, 60) + "' for " + call.tool() + "." + e.getKey() + " was never shown"
                            + (ref != null ? " (it comes from the result of step " + ref.call() + ", " + ref.pointer() + ")" : " (it is part of the request)"));
                }
            }
            return null;
        }

        private Action toolCall(GoldPlan.Call call, ObjectNode worldArgs, ObjectNode seenArgs) {
            ToolSpec world = worldTools.get(call.tool());
            Optional<ToolSpec> target = world != null ? Descriptions.tool(world, shown)
                    : Descriptions.byNameWords(call.tool(), shown, worldMatched());
            if (target.isEmpty()) {
                Alternative other = world == null ? null : facts.alternatives().get(call.tool());
                if (other != null && !frame.refusing()) {
                    frame = new Frame(frame.plan, other, worldArgs, frame);
                    return advance();
                }
                if (frame.refusing()) return refusal();
                throw new Stuck("no tool shown does what " + call.tool() + " does (" + clip(world == null ? "" : world.description(), 120) + ")");
            }
            String name = replaced(target.get().name());
            ToolSpec to = listed(name).orElse(target.get());
            ObjectNode args = withSettings(name, translate(world, to, seenArgs));
            String id = nextId();
            awaiting = new Awaiting(frame, call, worldArgs, to, name, args, id, tap.size(), 0);
            forStep.clear();
            return send(name, args, id, true);
        }

        private Action send(String tool, ObjectNode args, String id, boolean awaited) {
            lastWasAwaited = awaited;
            lastCommand = null;
            lastArgs.put(tool, args.deepCopy());
            calledTool.put(id, tool);
            sentArgs.put(id, args.deepCopy());
            if (awaiting != null) forStep.add(id);
            return Action.CallTools.of(id, tool, Json.write(args));
        }

        /** Everything that answered a call, as one text. */
        private String textOf(String callId) {
            return view.answers(callId).stream().map(View.Shown::text).reduce("", (x, y) -> x + y + "\n");
        }

        private Action resend(Awaiting a) {
            lastHelper = null;
            boolean retry = TRANSIENT.matcher(answerTo(a)).find() || view.answers(a.id()).stream().anyMatch(x -> broken(x.raw()));
            int cap = retry ? MAX_RETRIES : MAX_TRIES;
            if (a.tries() >= cap) throw new Stuck("gave up after " + cap + " tries of " + a.tool() + ": " + clip(answerTo(a), 200));
            String id = nextId();
            if (a.call().isCommand()) {
                awaiting = a.again(id, a.tool(), a.args(), tap.size());
                return sendCommand(awaiting.args().path("text").asText(), true);
            }
            // Arguments again, as the tool now takes them (a listed replacement by its own schema; one only a reply
            // named takes the same parameters), with a token an answer since gave filling its parameter.
            String name = replaced(a.tool());
            ObjectNode args = withSettings(name, translate(worldTools.get(a.call().tool()), listed(name).orElse(a.target()), asSeen(a.worldArgs())));
            awaiting = a.again(id, name, args, tap.size());
            return send(awaiting.tool(), awaiting.args(), id, true);
        }

        /** The step the world confirmed: its answer is the step's result. */
        private void complete(Frame f, WorldTap.Call done) {
            JsonNode result = null;
            if (done != null && done.succeeded()) {
                result = done.answer().payload() != null ? done.answer().payload() : TextNode.valueOf(done.answer().text());
            } else if (done == null && awaiting != null && notWorldTool(awaiting) && answered(answerTo(awaiting))) {
                result = Json.object(); // a tool the world does not have (a shift's ticket desk): nothing to read from it
            }
            // Every call made for the step (tries, renewals, a completion that carried its result) answers it.
            List<String> ids = new ArrayList<>(forStep);
            forStep.clear();
            f.results.add(result);
            f.sent.add(new Sent(awaiting == null ? "" : awaiting.tool(), awaiting == null ? Json.object() : awaiting.args(), ids));
            f.pathResults.add(null);
        }

        private WorldTap.Call worldDid(Awaiting a) {
            String tool = a.call().isCommand() ? GoldPlan.COMMAND : a.call().tool();
            ObjectNode want = a.call().isCommand() ? WorldTap.command(a.worldArgs().path("text").asText()) : a.worldArgs();
            for (WorldTap.Call c : tap.since(a.mark())) {
                if (c.tool().equals(tool) && c.args() != null && sameArgs(c.args(), want) && (c.succeeded() || a.frame().refusing())) return c;
            }
            return null;
        }

        private boolean notWorldTool(Awaiting a) {
            if (a.call().isCommand()) return worldHelp != null && HelpLines.use(worldHelp, a.worldArgs().path("text").asText()).isEmpty()
                    && !Protocol.isHelp(dev.openagent.sandbox.Commands.normalize(a.worldArgs().path("text").asText()));
            return !worldTools.containsKey(a.call().tool());
        }

        private Action ending() {
            if (frame.refusing()) return refusal();
            Matcher m = PLACEHOLDER.matcher(frame.plan.answerTemplate());
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                int i = Integer.parseInt(m.group(1));
                JsonNode r = i < frame.results.size() ? frame.results.get(i) : null;
                JsonNode v = r == null ? null : r.at(m.group(2));
                if (v == null || v.isMissingNode()) throw new Stuck("the answer needs " + m.group() + ", which the results do not hold");
                String text = v.isTextual() ? v.asText() : v.toString();
                String shownAs = seen(text);
                if (shownAs == null && derived(frame, i, text)) shownAs = text;
                if (shownAs == null) {
                    Action a = recover(frame, i, text);
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

        // ------------------------------------------------------------ reading what the service said

        /** What to do about the answer to a plan call that did not reach the world, or null when nothing it says helps. */
        private Action react(Awaiting a) {
            String said = answerTo(a);
            // An answer that says "try again" may come after many retries of layers that compose (a flapping tool, busy
            // servers, broken answers): what it asks first (a wait, a longer timeout) is bounded as retries are.
            int cap = TRANSIENT.matcher(said).find() ? MAX_RETRIES : MAX_TRIES;
            Matcher m = REPLACEMENT.matcher(said);
            if (m.find() && !m.group(1).equals(a.tool())) {
                replacedBy.put(a.tool(), m.group(1));
                return resend(a);
            }
            String first = a.call().isCommand() ? commandToWriteFirst(said) : null;
            if (first != null && a.tries() < cap) {
                // "Write 'wait 30', then the same command again": that command, then this one again.
                awaiting = a.again(a.id(), a.tool(), a.args(), a.mark());
                lastHelper = null;
                helperCommand = first;
                return sendCommand(first, false);
            }
            if (!a.call().isCommand() && a.tries() < cap && learnSettings(a, said)) {
                // "Call it again with a longer timeout: timeout_seconds=60": this call, and the tool's later ones, with it.
                return resend(a);
            }
            Action redo = a.tries() < MAX_TRIES ? redo(said) : null;
            if (redo != null) {
                // An earlier call to redo first (a result it gave went stale); the plan call goes again after it.
                awaiting = a.again(a.id(), a.tool(), a.args(), a.mark());
                return redo;
            }
            ToolSpec named = oneToolNamed(said, a.tool());
            if (named != null && a.tries() < cap) {
                ObjectNode args = argsFor(named, said, a.target(), a.args());
                if (args != null) {
                    // The plan call goes again after the helper (unless the helper completed it: a hold).
                    awaiting = a.again(a.id(), a.tool(), a.args(), a.mark());
                    String id = nextId();
                    lastHelper = id;
                    return send(replaced(named.name()), args, id, false);
                }
            }
            if (TRANSIENT.matcher(said).find()) return resend(a);
            return null;
        }

        /**
         * Learns from an answer to a call the values it labels for optional parameters of the tool called that the call
         * did not send so (a longer {@code timeout_seconds}, {@code async=true}), read as the schema types them: the tool
         * is sent them from now on. Whether it learned any.
         */
        private boolean learnSettings(Awaiting a, String said) {
            String name = replaced(a.tool());
            return learnSettings(name, listed(name).orElse(a.target()), sentArgs.getOrDefault(a.id(), a.args()), said);
        }

        private boolean learnSettings(String name, ToolSpec tool, ObjectNode sent, String said) {
            if (tool == null || sent == null) return false;
            List<String> required = Descriptions.required(tool.parameters());
            boolean learnt = false;
            for (var p : Descriptions.descriptions(tool.parameters()).entrySet()) {
                if (required.contains(p.getKey())) continue;
                String v = labelFor(said, p.getKey(), p.getValue());
                if (v == null) continue;
                JsonNode typed = typed(v, typeOf(tool, p.getKey()));
                if (typed == null || typed.equals(sent.get(p.getKey()))) continue;
                passAlso.computeIfAbsent(name, k -> Json.object()).set(p.getKey(), typed);
                learnt = true;
            }
            return learnt;
        }

        /** The JSON type a tool's schema gives a parameter ("" when it gives none). */
        private static String typeOf(ToolSpec tool, String param) {
            return tool.parameters().path("properties").path(param).path("type").asText("");
        }

        /** A labelled value as a parameter of this JSON type takes it, or null when it is not one. */
        private static JsonNode typed(String v, String type) {
            String s = v.strip();
            return switch (type) {
                case "integer" -> s.matches("-?\\d{1,9}") ? com.fasterxml.jackson.databind.node.IntNode.valueOf(Integer.parseInt(s)) : null;
                case "boolean" -> s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false") ? com.fasterxml.jackson.databind.node.BooleanNode.valueOf(Boolean.parseBoolean(s.toLowerCase(java.util.Locale.ROOT))) : null;
                default -> null;
            };
        }

        /** The arguments with what answers said to send the tool also (a longer timeout). */
        private ObjectNode withSettings(String tool, ObjectNode args) {
            ObjectNode also = passAlso.get(tool);
            if (also != null) args.setAll(also.deepCopy());
            return args;
        }

        /**
         * Arguments for a tool an answer to a call says to call: what it was last sent, the call's own arguments for
         * the parameters that mean the same (a hold is completed "with the same" date, item...), the values the answer labels with its
         * parameters' names, then the latest such labels anywhere; null when a required one is not to be found.
         */
        private ObjectNode argsFor(ToolSpec tool, String said, ToolSpec called, ObjectNode callArgs) {
            ObjectNode args = lastArgs.containsKey(tool.name()) ? lastArgs.get(tool.name()).deepCopy() : Json.object();
            // The call's own values, for the parameters of the tool that mean the same: those that stand for the same
            // parameter of the world's tools (an order id is no product id, however alike their descriptions read).
            if (called != null) {
                sameParams(called, tool).forEach((from, to) -> {
                    if (callArgs.has(from)) args.set(to, callArgs.get(from));
                });
            }
            List<String> required = Descriptions.required(tool.parameters());
            for (var p : Descriptions.descriptions(tool.parameters()).entrySet()) {
                // An optional parameter only by a field its description names as a name ("hold_id"), not in passing ("next").
                String v = required.contains(p.getKey()) ? labelFor(said, p.getKey(), p.getValue()) : labelNamed(said, p.getValue());
                if (v == null && !args.has(p.getKey()) && Descriptions.required(tool.parameters()).contains(p.getKey())) v = labeled(p.getKey());
                // As the schema types it (a timeout an error labels is a number).
                String type = typeOf(tool, p.getKey());
                JsonNode typed = v == null ? null : typed(v, type);
                if (typed != null) args.set(p.getKey(), typed);
                else if (v != null && !type.equals("boolean") && !type.equals("integer")) args.put(p.getKey(), v);
            }
            for (String r : Descriptions.required(tool.parameters())) if (!args.has(r)) return null;
            return args;
        }

        /**
         * The parameters of two shown tools that mean the same (shown name -> shown name): those that stand for the
         * same parameter of the world's tools (each tool's parameters taken to the world tool it does by their
         * descriptions, as calls are translated), and of the parameters no world tool has (a shift's auth token), those
         * alike by their descriptions. Where either tool does no world tool's work, all by their descriptions.
         */
        private Map<String, String> sameParams(ToolSpec from, ToolSpec to) {
            ToolSpec wf = worldOf(from);
            ToolSpec wt = worldOf(to);
            Map<String, String> alike = Descriptions.params(from, to);
            if (wf == null || wt == null) return alike;
            Map<String, String> fromWorld = new HashMap<>();
            Descriptions.params(wf, from).forEach((world, shownName) -> fromWorld.put(shownName, world));
            Map<String, String> toShown = Descriptions.params(wt, to);
            Map<String, String> out = new LinkedHashMap<>();
            fromWorld.forEach((shownName, world) -> {
                if (toShown.containsKey(world)) out.put(shownName, toShown.get(world));
            });
            alike.forEach((f, t) -> {
                if (!fromWorld.containsKey(f) && !toShown.containsValue(t)) out.putIfAbsent(f, t);
            });
            return out;
        }

        /** The world tool a shown tool does the work of, or null. */
        private ToolSpec worldOf(ToolSpec shownTool) {
            for (ToolSpec w : worldTools.values()) {
                if (Descriptions.tool(w, shown).filter(t -> t.name().equals(shownTool.name())).isPresent()) return w;
            }
            return null;
        }

        /**
         * The value a text labels for a parameter: under the parameter's own name, else under a name its description
         * gives ("The confirmation_id of the pending result." under {@code cnfirmation_id}).
         */
        private String labelFor(String text, String param, String description) {
            // By the description where there is one: a name can lie (tools and parameters that traded names), a
            // description does not. By the name only where nothing describes the parameter.
            if (description.isBlank()) return lastLabel(text, param);
            String v = null;
            for (Labels.Label l : labelsOf(text)) {
                if (l.key().length() > 2 && mentioned(description, l.key()) && !l.value().isEmpty() && !l.value().equals("null")) v = l.value();
            }
            return v;
        }

        /**
         * The labelled values of a text, read from the authoritative source's part where the instructions name one
         * and the text lists what several sources say ("the 'registry' source is authoritative").
         */
        /** The last value a text labels with this name (from the authoritative source's part where there is one). */
        private String lastLabel(String text, String name) {
            return Labels.last(authoritativePart(text), name);
        }

        private List<Labels.Label> labelsOf(String text) {
            return Labels.of(authoritativePart(text));
        }

        private String authoritativePart(String text) {
            if (authority == null) return text;
            // A JSON result that lists its sources: the authoritative source's entry, read as JSON (a record's own
            // "source" field, as a tau2 payment method has, is not where the next source starts).
            if (text.stripLeading().startsWith("{")) {
                try {
                    for (JsonNode e : Json.MAPPER.readTree(text).path("sources")) {
                        if (authority.equalsIgnoreCase(e.path("source").asText())) return Json.write(e);
                    }
                } catch (com.fasterxml.jackson.core.JsonProcessingException notJson) {
                    // another rendering: by the source labels below
                }
            }
            Matcher m = SOURCE.matcher(text);
            List<int[]> starts = new ArrayList<>();
            List<String> sources = new ArrayList<>();
            while (m.find()) {
                starts.add(new int[]{m.start()});
                sources.add(m.group(1));
            }
            for (int i = 0; i < sources.size(); i++) {
                if (!sources.get(i).equalsIgnoreCase(authority)) continue;
                int end = i + 1 < starts.size() ? starts.get(i + 1)[0] : text.length();
                return text.substring(starts.get(i)[0], end);
            }
            return text;
        }

        /** The value a text labels with a name the description gives as a name (with '_' or in camelCase). */
        private String labelNamed(String text, String description) {
            String v = null;
            for (Labels.Label l : labelsOf(text)) {
                if (Names.words(l.key()).size() < 2 || l.value().isEmpty() || l.value().equals("null")) continue;
                if (mentioned(description, l.key())) v = l.value();
            }
            return v;
        }

        /** Whether a description mentions a field by this shown name ("the confirmation_id of" names {@code confirmationId}). */
        private boolean mentioned(String description, String key) {
            for (String w : description.split("[^A-Za-z0-9_]+")) if (!w.isEmpty() && names.same(key, w)) return true;
            return false;
        }

        /**
         * The command an answer says to write before the command again ("Write 'wait 30', then the same command
         * again"): a quoted command the shown help lists and the world's does not (a shift's own command), or null.
         */
        private String commandToWriteFirst(String said) {
            if (shownHelp == null) return null;
            Matcher m = WRITE_FIRST.matcher(said);
            while (m.find()) {
                String c = m.group(1).strip();
                if (HelpLines.use(shownHelp, c).isPresent() && (worldHelp == null || HelpLines.use(worldHelp, c).isEmpty())) return c;
            }
            return null;
        }

        /**
         * The call an answer says to redo ("Call X again with the same arguments as before ({...})"), sent as a helper:
         * the earlier call to X whose values the quoted arguments hold (as it was sent, in the names this tool shows),
         * else the quoted arguments themselves; null when the answer names no such call.
         */
        private Action redo(String said) {
            Matcher m = REDO.matcher(said);
            if (!m.find()) return null;
            String name = m.group(1);
            // The same tool as the call it serves may be named: an earlier call of it, with other arguments.
            if (listed(name).isEmpty() && shownTool(name) == null) return null;
            ObjectNode quoted;
            try (var parser = Json.MAPPER.createParser(said.substring(m.end()))) {
                quoted = parser.readValueAsTree() instanceof ObjectNode o ? o : null;
            } catch (java.io.IOException notJson) {
                return null;
            }
            if (quoted == null) return null;
            List<String> wanted = leaves(quoted);
            ObjectNode args = null;
            int best = 0;
            boolean bestAnswered = false;
            int fewestExtra = Integer.MAX_VALUE;
            int latest = -1;
            for (var e : sentArgs.entrySet()) {
                if (!replaced(calledTool.get(e.getKey())).equals(replaced(name)) || !e.getKey().startsWith("view_")) continue;
                List<String> have = leaves(e.getValue());
                // The earlier call holding most of the quoted values; among equals one that was answered (not refused
                // for want of a token); then the one sending fewest parameters the quote does not name (not a later
                // page's cursor: the service may serve pages from what it fetched before, so only the first page's call
                // is a call again); then the latest (it carries what other layers asked of that tool since, a token).
                int held = (int) wanted.stream().filter(have::contains).count();
                String itsAnswer = textOf(e.getKey());
                boolean answered = !itsAnswer.isBlank() && answered(itsAnswer);
                int extra = 0;
                for (var f = e.getValue().fieldNames(); f.hasNext(); ) if (!quoted.has(f.next())) extra++;
                int n = Integer.parseInt(e.getKey().substring("view_".length()));
                // (a call quoted without arguments is the latest call of that tool).
                boolean better = held > best || held == best && (answered && !bestAnswered
                        || answered == bestAnswered && (extra < fewestExtra || extra == fewestExtra && n > latest));
                if ((held > 0 || wanted.isEmpty()) && better) {
                    best = held;
                    bestAnswered = answered;
                    fewestExtra = extra;
                    latest = n;
                    args = e.getValue().deepCopy();
                }
            }
            if (args == null) args = quoted;
            // What the quote does not name but the tool requires (a token another shift asks for) as answers label it
            // now: an earlier call's token may have been renewed since.
            ToolSpec redone = shownTool(replaced(name));
            if (redone != null) {
                for (String r : Descriptions.required(redone.parameters())) {
                    // Not a parameter carrying a quoted value, whatever its name now (a renamed one).
                    boolean carries = args.has(r) && wanted.contains(args.get(r).isValueNode() ? args.get(r).asText() : args.get(r).toString());
                    String now = quoted.has(r) || !args.has(r) || carries ? null : labeled(r);
                    if (now != null) args.put(r, now);
                }
            }
            String id = nextId();
            lastHelper = id;
            return send(replaced(name), args, id, false);
        }

        /** The one shown tool (other than {@code except}) whose name the text mentions; null when none or several. */
        private ToolSpec oneToolNamed(String text, String except) {
            ToolSpec found = null;
            for (ToolSpec t : shown) {
                // Not the tool called, under any name it had (a notice or an error may still use its old one).
                if (replaced(t.name()).equals(except) || t.name().equals(Protocol.ASK_USER) || !mentions(text, t.name())) continue;
                if (found != null) return null;
                found = t;
            }
            if (found != null) return found;
            // "Call X" of a name not listed: a new version of a listed tool (renew_session_v2 of renew_session).
            Matcher m = CALL.matcher(text);
            while (m.find()) {
                String name = m.group(1);
                if (listed(name).isPresent() || replaced(name).equals(except)) continue;
                ToolSpec base = shown.stream().filter(t -> name.startsWith(t.name() + "_") || name.startsWith(t.name() + "V"))
                        .max(java.util.Comparator.comparingInt(t -> t.name().length())).orElse(null);
                if (base != null) {
                    replacedBy.put(base.name(), name);
                    return base;
                }
            }
            return null;
        }

        /** Whether a text names a tool: the name as a whole identifier (not {@code get_hotel} inside {@code get_hotel_rates}). */
        private static boolean mentions(String text, String name) {
            return Pattern.compile("(?<![\\w-])" + Pattern.quote(name) + "(?![\\w-])").matcher(text).find();
        }

        /** The answer to a call: the text answering its id, with the notices that came with it. */
        private String answerTo(Awaiting a) {
            if (a.call().isCommand()) return lastCommandAnswer;
            StringBuilder sb = new StringBuilder();
            for (View.Shown s : view.answers(a.id())) sb.append(s.text()).append('\n');
            for (View.Shown s : view.latest()) if (s.callId() == null) sb.append(s.text()).append('\n');
            return sb.toString().strip();
        }

        /** Whether an answer (of a tool the world does not have) is a result: neither an error nor a "try again". */
        private static boolean answered(String text) {
            return !looksLikeError(text) && !TRANSIENT.matcher(text).find();
        }

        private static boolean looksLikeError(String text) {
            String t = text.strip();
            return t.startsWith("Error [") || t.matches("(?s).*\"success\"\\s*:\\s*false.*") || t.startsWith("Sorry, I couldn't")
                    || t.startsWith("There is no ") || t.startsWith("I don't understand");
        }

        /** Whether the latest step answered with a "try again" rather than the user's reply. */
        private boolean transientReply() {
            return view.latest().stream().noneMatch(x -> x.source() == Observation.Source.USER && !TRANSIENT.matcher(x.text()).find())
                    && view.latest().stream().anyMatch(x -> TRANSIENT.matcher(x.text()).find());
        }

        /** The latest value any text shown labels with this name. */
        private String labeled(String name) {
            List<View.Shown> all = view.all();
            for (int i = all.size() - 1; i >= 0 && all.get(i).turn() > 0; i--) {
                String v = lastLabel(all.get(i).text(), name);
                if (v != null) return v;
            }
            return null;
        }

        // ------------------------------------------------------------ values

        private boolean visible(String value) {
            return seen(value) != null;
        }

        /**
         * The value as the agent saw it (exactly, or in other letter case), or null when it was not shown. A value shown
         * in another form of its type (a number as "1,250", a time as "1:00 PM") is the value itself, written back in the
         * form the tools take.
         */
        private String seen(String value) {
            String s = view.seen(value);
            if (s != null) return s;
            if (allowed.contains(Allowance.VALUE_FORMATS) && view.all().stream().anyMatch(x -> ValueForms.shows(x.text(), value))) return value;
            return allowed.contains(Allowance.JOINED_PARTS) && joinedParts(value) ? value : null;
        }

        /** The arguments with every text value as the agent saw it (values not shown stay as the plan has them). */
        private ObjectNode asSeen(ObjectNode worldArgs) {
            ObjectNode out = worldArgs.deepCopy();
            for (Iterator<Map.Entry<String, JsonNode>> it = out.fields(); it.hasNext(); ) {
                var e = it.next();
                if (e.getValue().isTextual()) {
                    String s = seen(e.getValue().asText());
                    if (s != null) e.setValue(TextNode.valueOf(s));
                }
            }
            return out;
        }

        /** Whether the value is shown as two labelled parts, part 1 directly followed by part 2. */
        private boolean joinedParts(String value) {
            for (View.Shown s : view.all()) {
                List<Labels.Label> ls = labelsOf(s.text());
                for (Labels.Label a : ls) {
                    List<String> wa = Names.words(a.key());
                    if (wa.isEmpty() || !names.same(wa.getLast(), "part") || !a.key().endsWith("1")) continue;
                    for (Labels.Label b : ls) {
                        List<String> wb = Names.words(b.key());
                        if (b == a || !b.key().endsWith("2") || wb.isEmpty() || !names.same(wb.getLast(), "part") || !(a.value() + b.value()).equals(value)) continue;
                        // The same name before the part number; under renamed fields, each may be its own synonym of it.
                        boolean sameStem = wa.subList(0, wa.size() - 1).equals(wb.subList(0, wb.size() - 1));
                        if (sameStem || allowed.contains(Allowance.KEY_SYNONYMS)) return true;
                    }
                }
            }
            return false;
        }

        /** The latest earlier step whose world result holds the value, or -1. */
        private int stepHolding(String value) {
            for (int k = frame.results.size() - 1; k >= 0; k--) {
                JsonNode r = frame.results.get(k);
                if (r != null && pointerOf(r, value) != null) return k;
            }
            return -1;
        }

        /**
         * Whether a value of a step done by another path is the path's own computation (a deadline from a delivery
         * date and a return window, a count of a list), as the environment declares the path: it stands in none of
         * the world's answers to the path's calls, so it was worked out, not hidden. A value that does stand there
         * must have been shown.
         */
        private boolean derived(Frame f, int step, String value) {
            List<JsonNode> answers = step < f.pathResults.size() ? f.pathResults.get(step) : null;
            if (answers == null) return false;
            for (JsonNode a : answers) if (a != null && pointerOf(a, value) != null) return false;
            return true;
        }

        /**
         * Whether a value of the request is something the agent writes rather than copies: the world's own request,
         * instructions and tools do not show it whole either (a path joined from a folder and a file name, an SQL
         * statement). Such a value is judged by its parts ({@link #unshownPart}).
         */
        private boolean composed(String value) {
            Start world = tap.start();
            if (View.contains(world.systemPrompt(), value) || View.contains(world.query(), value)) return false;
            for (ToolSpec t : world.tools()) if (View.contains(View.describe(t), value)) return false;
            return true;
        }

        /**
         * The first part of a written value that was not shown, or null when every part was: each quoted text, each
         * word shaped like an id, a number, an address or a column name, and for a path its folder and its name.
         */
        private String unshownPart(String value) {
            List<String> parts = new ArrayList<>();
            Matcher q = Pattern.compile("'([^']+)'|\"([^\"]+)\"").matcher(value);
            while (q.find()) parts.add(q.group(1) != null ? q.group(1) : q.group(2));
            String unquoted = q.replaceAll(" ");
            if (value.indexOf('/') >= 0 && !value.contains(" ")) {
                return missingOfPath(value);
            } else {
                for (String w : unquoted.split("[\\s,;()=<>]+")) if (dev.openagent.sandbox.ExactWords.shaped(w)) parts.add(dev.openagent.sandbox.ExactWords.bare(w));
            }
            for (String p : parts) if (!p.isBlank() && !visible(p)) return p;
            return null;
        }

        /**
         * Null when a path was shown, or is a path that was shown joined with names that were ("/srv/notes" + "todo.txt");
         * else the first piece that was not: a name, or the folder it all starts from.
         */
        private String missingOfPath(String path) {
            if (visible(path)) return null;
            int slash = path.lastIndexOf('/');
            if (slash <= 0) return path;
            String name = path.substring(slash + 1);
            if (!name.isEmpty() && !visible(name)) return name;
            return missingOfPath(path.substring(0, slash));
        }

        /** A name for what is asked about, in words the user's facts know it by: the name, or else the first of the keywords. */
        private static String spoken(String name, String keywords) {
            String phrase = name.replace('_', ' ');
            String normalized = dev.openagent.sandbox.Checks.normalize(phrase);
            boolean known = !phrase.isBlank() && java.util.Arrays.stream(keywords.split("\\|"))
                    .anyMatch(k -> !k.isBlank() && normalized.contains(dev.openagent.sandbox.Checks.normalize(k)));
            return known ? phrase : keywords.split("\\|")[0];
        }

        /** Asks the user for a value of the request that was not shown: once, again only while the reply says "try again". */
        private Action ask(String value, String param) {
            if (!asked.add(value) && !(askedLast != null && askedLast.equals(value) && transientReply() && bounded("ask " + value))) return null;
            askedLast = value;
            // About what the user knows the value by: a fact of the request as the user means it (the one carried out),
            // else a detail of the request the world posed.
            String phrase = null;
            for (var f : task.userFacts().entrySet()) {
                if (phrase == null && View.contains(f.getValue().toLowerCase(java.util.Locale.ROOT), value.toLowerCase(java.util.Locale.ROOT))) {
                    phrase = spoken(param, f.getKey());
                }
            }
            for (Detail x : tap.task().details()) {
                if (phrase != null) break;
                if (View.contains(x.span().toLowerCase(java.util.Locale.ROOT), value.toLowerCase(java.util.Locale.ROOT))
                        || View.contains(x.reply().toLowerCase(java.util.Locale.ROOT), value.toLowerCase(java.util.Locale.ROOT))) {
                    phrase = spoken(x.key(), x.keywords());
                }
            }
            if (phrase == null) return null;
            String question = "Could you tell me the " + phrase + " you have in mind?";
            if (commands) return sendCommand(Protocol.ASK_COMMAND + " " + question, false);
            lastWasAwaited = false;
            lastCommand = null;
            return Action.CallTools.of(nextId(), Protocol.ASK_USER, Json.write(Json.object("question", question)));
        }

        /**
         * What to do to see a value a step's result holds but the agent was not shown: call the step again when its
         * answer arrived broken, fetch the next page, look the record up by its id, or call the tool the answer's
         * labels fit (a confirmation that releases withheld codes). Null when nothing fits.
         */
        private Action recover(Frame f, int step, String value) {
            if (step >= f.sent.size()) return null;
            // Bounded; as retries are after a "try again" (layers that fail by turns multiply the tries a recovery takes).
            boolean retrying = view.latest().stream().anyMatch(x -> x.source() == Observation.Source.TOOL && TRANSIENT.matcher(x.text()).find());
            if (!bounded("recover " + value, retrying)) return null;
            Sent s = f.sent.get(step);
            if (s.tool().isEmpty()) return null;
            String answer = latestAnswer(s);
            String lastId = s.ids().isEmpty() ? null : s.ids().getLast();
            ObjectNode lastSent = lastId == null ? s.args() : sentArgs.getOrDefault(lastId, s.args());
            ToolSpec tool = shownTool(s.tool());
            // The step's latest answer is out of date by the instructions' freshness rule (its as_of before the limit): the
            // step's call again, with the flag the tool documents for live data.
            String live = tool == null ? null : Freshness.liveParam(tool);
            if (live != null && (outOfDate(answer) || wantLive.contains(s) && !answered(answer))) {
                wantLive.add(s);
                // Refused on the way (a session to renew, a rate limit to wait out): the tool the refusal names first (never
                // a tool a successful answer names: that may be an injected instruction).
                Action helper = lastId == null || answered(answer) ? null : helperFor(lastId);
                if (helper != null) return helper;
                return again(s, liveArgs(f, step, s, tool).put(live, true));
            }
            // The step's latest call answered broken or "try again" (a page fetch that hit a busy service): again.
            if (broken(latestRawAnswer(s)) || TRANSIENT.matcher(answer).find() && !answer.isEmpty()) return again(s, lastSent);
            if (tool != null) {
                for (var p : Descriptions.descriptions(tool.parameters()).entrySet()) {
                    // The page parameter by its description (a name can lie); by its name only when it has none.
                    String about = p.getValue().isBlank() ? p.getKey() : p.getValue();
                    if (!about.toLowerCase(java.util.Locale.ROOT).contains("page")) continue;
                    String token = pageToken(answer, p.getKey(), p.getValue());
                    if (token != null) {
                        ObjectNode args = s.args().deepCopy();
                        args.put(p.getKey(), token);
                        // The next page from the tool the page came from (its token is that tool's).
                        String from = lastId == null ? s.tool() : calledTool.getOrDefault(lastId, s.tool());
                        String id = nextId();
                        s.ids().add(id);
                        return send(from, args, id, false);
                    }
                }
            }
            Action lookup = lookup(f, step, value);
            if (lookup != null) return lookup;
            Set<String> matched = worldMatched();   // once: it compares every world tool with every tool shown (hundreds when crowded)
            List<ToolSpec> helpers = shown.stream().filter(t -> !matched.contains(t.name()) && !t.name().equals(Protocol.ASK_USER)
                    && !Descriptions.required(t.parameters()).isEmpty()).toList();
            for (ToolSpec t : plainest(helpers)) {
                ObjectNode args = Json.object();
                Map<String, String> descriptions = Descriptions.descriptions(t.parameters());
                for (String r : Descriptions.required(t.parameters())) {
                    String v = labelFor(answer, r, descriptions.getOrDefault(r, ""));
                    if (v != null) args.put(r, v);
                }
                if (!args.isEmpty()) {
                    // The answer labels what the helper is about (a job_id); the rest it requires of every call (a token
                    // another shift asks for) from the latest labels anywhere, as any call takes it.
                    for (String r : Descriptions.required(t.parameters())) {
                        String v = args.has(r) ? null : labeled(r);
                        if (v != null) args.put(r, v);
                    }
                }
                // With all it requires; or with what the answer labels for it only, when the rest is nowhere to be read
                // (a token not asked for yet): the helper's answer then says what it needs first.
                if (!args.isEmpty()) {
                    String key = t.name() + "\u0000" + value;
                    String tried = helperCalls.get(key);
                    if (tried != null) {
                        // Asked and answered "try again": again. Answered with a tool to call first (a token): that, then
                        // again. Answered without showing the value: of no help.
                        String said = view.answers(tried).stream().map(View.Shown::text).reduce("", String::concat);
                        boolean busy = TRANSIENT.matcher(said).find();
                        boolean again = busy;
                        if (!again) {
                            Action first = helperFor(tried);
                            if (first != null) return first;
                            again = helpedFor.contains(tried) && oneToolNamed(said, t.name()) != null;
                        }
                        // "Try again" is bounded as retries are (a poll under a flapping service fails by turns).
                        if (!(again && bounded("again " + key, busy))) {
                            useless.add(t.name());
                            continue;
                        }
                    }
                    String id = nextId();
                    helperCalls.put(key, id);
                    return send(t.name(), args, id, false);
                }
            }
            return null;
        }

        /**
         * A step's arguments to send again, as the tool takes them now (a token an answer gave since filling its
         * parameter); on another path to a removed tool, as they were sent.
         */
        private ObjectNode liveArgs(Frame f, int step, Sent s, ToolSpec tool) {
            if (f.path != null || step >= f.plan.calls().size() || f.plan.calls().get(step).isCommand()) return s.args().deepCopy();
            GoldPlan.Call call = f.plan.calls().get(step);
            try {
                return translate(worldTools.get(call.tool()), tool, asSeen(call.resolve(f.results)));
            } catch (IllegalStateException noResult) {
                return s.args().deepCopy();
            }
        }

        /** Whether an answer's data is older than the instructions' freshness rule allows (never, where they give none). */
        private boolean outOfDate(String answer) {
            return staleBefore != null && Freshness.stale(answer, staleBefore, names);
        }

        /** The record of the entity whose field was not shown, fetched by its id with the tool that returns it. */
        private Action lookup(Frame f, int step, String value) {
            JsonNode result = f.results.get(step);
            if (result == null) return null;
            String pointer = pointerOf(result, value);
            // The whole result is the value (a job's answer is the bare value): no record around it to look up.
            if (pointer == null || pointer.isEmpty()) return null;
            String field = pointer.substring(pointer.lastIndexOf('/') + 1);
            JsonNode record = result.at(pointer.substring(0, pointer.lastIndexOf('/')));
            for (ToolFacts t : facts.tools()) {
                for (RecordLookup r : t.records()) {
                    JsonNode id = record.get(r.idField());
                    if (id == null || !id.isValueNode() || !(r.fields().isEmpty() || r.fields().contains(field)) || !visible(id.asText())) continue;
                    ToolSpec world = worldTools.get(r.tool());
                    Optional<ToolSpec> to = world == null ? Optional.empty() : Descriptions.tool(world, shown);
                    if (to.isEmpty()) continue;
                    String name = replaced(to.get().name());
                    // The look-up before answered "again, with a longer timeout" or "as a job (async=true)": again, so;
                    // else with a tool to call first (a renewal): that first, then the look-up again.
                    String before = lastLookup == null ? "" : textOf(lastLookup);
                    boolean settings = name.equals(calledTool.get(lastLookup)) && TRANSIENT.matcher(before).find()
                            && learnSettings(name, to.get(), sentArgs.get(lastLookup), before);
                    Action helper = settings ? null : helperFor(lastLookup);
                    if (helper != null) return helper;
                    ObjectNode worldArgs = Json.object();
                    worldArgs.set(r.param(), id);
                    ObjectNode args = withSettings(name, translate(world, to.get(), worldArgs));
                    // The look-up before, of this tool, answered out of date by the freshness rule: this one asks for live data.
                    String live = lastLookup != null && name.equals(calledTool.get(lastLookup)) && outOfDate(textOf(lastLookup)) ? Freshness.liveParam(to.get()) : null;
                    if (live != null) args.put(live, true);
                    lastLookup = nextId();
                    return send(name, args, lastLookup, false);
                }
            }
            return null;
        }

        /**
         * The helper the answer to an unawaited call names (a renewal, a token: "Call renew_session ..."), with its
         * arguments; null when it names none or it was already called for that answer. Asked only when the call did not
         * show what it was made for.
         */
        private Action helperFor(String callId) {
            if (callId == null || !helpedFor.add(callId)) return null;
            String said = textOf(callId);
            String called = calledTool.get(callId);
            ToolSpec named = oneToolNamed(said, called);
            if (named == null) return null;
            ObjectNode args = argsFor(named, said, shownTool(called), sentArgs.get(callId));
            if (args == null) return null;
            String id = nextId();
            lastHelper = id;
            return send(replaced(named.name()), args, id, false);
        }

        private Action again(Sent s, ObjectNode args) {
            String id = nextId();
            s.ids().add(id);
            // With what answers said to send that tool every time (a longer timeout), whatever the reason to call again.
            String tool = replaced(s.tool());
            return send(tool, withSettings(tool, args), id, false);
        }

        private String latestRawAnswer(Sent s) {
            for (int i = s.ids().size() - 1; i >= 0; i--) {
                List<View.Shown> a = view.answers(s.ids().get(i));
                if (!a.isEmpty()) return a.getLast().raw();
            }
            return "";
        }

        private String latestAnswer(Sent s) {
            for (int i = s.ids().size() - 1; i >= 0; i--) {
                List<View.Shown> a = view.answers(s.ids().get(i));
                if (a.isEmpty()) continue;
                String text = a.getLast().text();
                // A job started for the step: its answer is what the latest poll of that job gave.
                if (RUNNING_JOB.matcher(text).find()) {
                    for (Labels.Label l : labelsOf(text)) {
                        List<View.Shown> polled = polls.containsKey(l.value()) ? view.answers(polls.get(l.value())) : List.of();
                        if (!polled.isEmpty()) return polled.getLast().text();
                    }
                }
                return text;
            }
            return "";
        }

        /** The token of the next page an answer gives for a page parameter: the label naming it with "next", else the parameter's own name. */
        private String pageToken(String answer, String param, String description) {
            List<Labels.Label> labels = labelsOf(answer).stream()
                    .filter(l -> !l.value().isEmpty() && !l.value().equals("null") && !l.value().equals("None")).toList();
            for (Labels.Label l : labels) {
                String k = Labels.norm(l.key());
                if (k.contains("next") && k.contains("page")) return l.value();
            }
            // A field the page parameter's description names ("pass its next_page_token"), however the result renamed it.
            for (Labels.Label l : labels) if (Names.words(l.key()).size() > 1 && mentioned(description, l.key())) return l.value();
            return labels.stream().filter(l -> names.same(l.key(), param)).map(Labels.Label::value).reduce((a, b) -> b).orElse(null);
        }

        /** Whether an answer (as sent) reads as a JSON document that is broken: cut short, single-quoted, keys unquoted. */
        private static boolean broken(String text) {
            String t = text.strip();
            if (!JSON_START.matcher(t).lookingAt()) return false;
            try {
                Json.MAPPER.readTree(t);
                return false;
            } catch (Exception e) {
                return true;
            }
        }

        // ------------------------------------------------------------ text commands

        private Action command(GoldPlan.Call call, ObjectNode worldArgs) {
            String text = worldArgs.path("text").asText();
            String normalized = dev.openagent.sandbox.Commands.normalize(text);
            if (Protocol.isHelp(normalized)) return awaitCommand(call, worldArgs, Protocol.HELP);
            if (worldHelp == null) worldHelp = tap.calls().stream()
                    .filter(c -> c.tool().equals(GoldPlan.COMMAND) && Protocol.isHelp(c.args().path("text").asText()) && c.answer() != null)
                    .map(c -> HelpLines.of(View.decode(c.answer().text()))).findFirst().orElse(null);
            if (worldHelp == null || shownHelp == null) {
                if (!bounded("help")) throw new Stuck("the help text could not be read");
                return sendCommand(Protocol.HELP, false);
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
                if (visible(v)) continue;
                Action a = ask(v, "");
                if (a != null) return a;
                if (frame.refusing()) return refusal();
                throw new Stuck("the command '" + clip(text, 60) + "' needs '" + v + "', which was never shown");
            }
            return awaitCommand(call, worldArgs, shownCommand);
        }

        private Action awaitCommand(GoldPlan.Call call, ObjectNode worldArgs, String shownCommand) {
            awaiting = new Awaiting(frame, call, worldArgs, null, "command", Json.object("text", shownCommand), nextId(), tap.size(), 0);
            return sendCommand(shownCommand, true);
        }

        private Action sendCommand(String text, boolean awaited) {
            lastWasAwaited = awaited;
            lastCommand = new Action.Command(text);
            return lastCommand;
        }

        // ------------------------------------------------------------ tools and arguments

        /** The world arguments as the shown tool takes them: parameters by their descriptions, formats as instructed. */
        private ObjectNode translate(ToolSpec world, ToolSpec to, ObjectNode worldArgs) {
            Map<String, String> names = world != null ? Descriptions.params(world, to) : byNameWords(worldArgs, to);
            Map<String, String> descriptions = Descriptions.descriptions(to.parameters());
            ObjectNode out = Json.object();
            for (Iterator<Map.Entry<String, JsonNode>> it = worldArgs.fields(); it.hasNext(); ) {
                var e = it.next();
                String name = names.getOrDefault(e.getKey(), e.getKey());
                JsonNode v = e.getValue();
                if (v.isTextual() && allowed.contains(Allowance.INPUT_FORMATS)) v = TextNode.valueOf(InputFormats.as(descriptions.getOrDefault(name, ""), v.asText()));
                out.set(name, v);
            }
            for (String r : Descriptions.required(to.parameters())) {
                if (out.has(r)) continue;
                // A parameter the world's tool does not have (a session token): by what its description says gives
                // it, or the value labelled with a name it mentions; by its own name only where nothing describes it.
                String d = descriptions.getOrDefault(r, "");
                String v = d.isBlank() ? labeled(r) : fromNamedTool(d, r);
                if (v == null && !d.isBlank()) v = labeledAsDescribed(d);
                if (v != null) out.put(r, v);
            }
            return out;
        }

        /** The latest value any answer labels with a name the description mentions. */
        private String labeledAsDescribed(String description) {
            List<View.Shown> all = view.all();
            for (int i = all.size() - 1; i >= 0 && all.get(i).turn() > 0; i--) {
                String v = null;
                for (Labels.Label l : labelsOf(all.get(i).text())) {
                    if (mentioned(description, l.key()) && !l.value().isEmpty() && !l.value().equals("null")) v = l.value();
                }
                if (v != null) return v;
            }
            return null;
        }

        /**
         * The one of some shown tools that adds nothing of its own: a tool whose description holds every word of another's
         * and more is a variant of it (a dry run, a queued copy), so it goes. Tools already found useless go first.
         */
        private List<ToolSpec> plainest(List<ToolSpec> tools) {
            List<ToolSpec> out = new ArrayList<>();
            for (ToolSpec t : tools) {
                if (useless.contains(t.name())) continue;
                Set<String> w = Descriptions.words(t.description());
                boolean variant = tools.stream().anyMatch(o -> o != t && !useless.contains(o.name()) && w.containsAll(Descriptions.words(o.description()))
                        && w.size() > Descriptions.words(o.description()).size());
                if (!variant) out.add(t);
            }
            return out;
        }

        /**
         * A value for a parameter whose description says which tool gives it ("Session token from get_auth_token"):
         * of the values that tool's latest answer labels, the one whose name is closest to the parameter's.
         */
        private String fromNamedTool(String description, String param) {
            ToolSpec from = shown.stream().filter(t -> !t.name().equals(Protocol.ASK_USER) && mentions(description, t.name())).findFirst().orElse(null);
            if (from == null) return null;
            List<View.Shown> all = view.all();
            for (int i = all.size() - 1; i >= 0; i--) {
                View.Shown s = all.get(i);
                String called = s.callId() == null ? null : calledTool.get(s.callId());
                if (called == null || !(called.equals(from.name()) || called.equals(replaced(from.name())))) continue;
                // The value whose name shares the most words with the description (a "session token" is the auth_token).
                Set<String> words = Descriptions.words(description);
                Labels.Label best = null;
                long shared = -1;
                int distance = Integer.MAX_VALUE;
                for (Labels.Label l : labelsOf(s.text())) {
                    long k = Descriptions.words(l.key().replace('_', ' ')).stream().filter(words::contains).count();
                    int d = Labels.distance(Labels.norm(l.key()), Labels.norm(param));
                    if (k > shared || k == shared && d < distance) {
                        best = l;
                        shared = k;
                        distance = d;
                    }
                }
                return best == null ? null : best.value();
            }
            return null;
        }

        /**
         * For a tool the world does not have, whose parameters the plan names: each plan name to the shown parameter
         * whose name and description hold the most of its words ({@code ticket_id}: "Ticket id, e.g. T-123450.").
         */
        private static Map<String, String> byNameWords(ObjectNode worldArgs, ToolSpec to) {
            Map<String, String> out = new HashMap<>();
            Map<String, String> params = Descriptions.descriptions(to.parameters());
            worldArgs.fieldNames().forEachRemaining(n -> {
                if (params.containsKey(n)) {
                    out.put(n, n);
                    return;
                }
                String best = null;
                Descriptions.Score top = null;
                for (var p : params.entrySet()) {
                    Descriptions.Score sc = Descriptions.score(n.replace('_', ' '), p.getKey().replace('_', ' ') + " " + p.getValue());
                    if (sc.held() > 0 && (top == null || sc.compareTo(top) > 0) && !out.containsValue(p.getKey())) {
                        top = sc;
                        best = p.getKey();
                    }
                }
                if (best != null) out.put(n, best);
            });
            return out;
        }

        /** The shown tools that do what a world tool does. */
        private Set<String> worldMatched() {
            Set<String> out = new HashSet<>();
            for (ToolSpec w : worldTools.values()) Descriptions.tool(w, shown).ifPresent(t -> out.add(t.name()));
            return out;
        }

        /** The shown tool of this name, if the list shows it (a replacement only a reply named is not listed). */
        private Optional<ToolSpec> listed(String name) {
            return shown.stream().filter(t -> t.name().equals(name)).findFirst();
        }

        private ToolSpec shownTool(String name) {
            for (ToolSpec t : shown) if (t.name().equals(name)) return t;
            for (var e : replacedBy.entrySet()) {
                if (e.getValue().equals(name)) return shownTool(e.getKey());
            }
            return null;
        }

        /** The name to call a shown tool by, after every replacement an error or a notice named. */
        private String replaced(String name) {
            String n = name;
            for (int i = 0; i < 5 && replacedBy.containsKey(n); i++) n = replacedBy.get(n);
            return n;
        }

        private String nextId() { return "view_" + ids++; }

        private boolean bounded(String what) {
            return recoveries.merge(what, 1, Integer::sum) <= MAX_RECOVERIES;
        }

        /** As {@link #bounded}, or as {@link #boundedRetry} when it follows a "try again". */
        private boolean bounded(String what, boolean retrying) {
            return retrying ? boundedRetry(what) : bounded(what);
        }

        /** As {@link #bounded}, for what retry layers multiply (a poll of a job under flapping and busy servers). */
        private boolean boundedRetry(String what) {
            return recoveries.merge(what, 1, Integer::sum) <= MAX_RETRIES;
        }

        private String describe(GoldPlan.Call call, ObjectNode args) {
            return call.isCommand() ? "'" + args.path("text").asText() + "'" : call.tool() + " " + clip(Json.write(args), 120);
        }
    }

    // ---------------------------------------------------------------- helpers

    /** The texts of the scalar leaves of a value a call sends (booleans and nulls say what is meant, not what was seen). */
    static List<String> leaves(JsonNode v) {
        List<String> out = new ArrayList<>();
        if (v.isTextual()) {
            if (!v.asText().isBlank()) out.add(v.asText());
        } else if (v.isNumber()) {
            out.add(v.asText());
        } else if (v.isContainerNode()) {
            v.forEach(x -> out.addAll(leaves(x)));
        }
        return out;
    }

    /** Whether two argument objects say the same (numbers by value, whatever their JSON type; text in any letter case). */
    static boolean sameArgs(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) return a.decimalValue().compareTo(b.decimalValue()) == 0;
        if (a.isObject() && b.isObject()) {
            if (a.size() != b.size()) return false;
            for (Iterator<String> it = a.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!b.has(k) || !sameArgs(a.get(k), b.get(k))) return false;
            }
            return true;
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) return false;
            for (int i = 0; i < a.size(); i++) if (!sameArgs(a.get(i), b.get(i))) return false;
            return true;
        }
        if (a.isTextual() && b.isTextual()) return a.asText().equalsIgnoreCase(b.asText());
        return a.equals(b);
    }

    /** The JSON pointer at which a value stands in a result (the first, depth first), or null. */
    static String pointerOf(JsonNode v, String value) {
        if (v.isValueNode()) return (v.isTextual() ? v.asText() : v.toString()).equals(value) ? "" : null;
        if (v.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                var e = it.next();
                String p = pointerOf(e.getValue(), value);
                if (p != null) return "/" + e.getKey().replace("~", "~0").replace("/", "~1") + p;
            }
        } else if (v.isArray()) {
            for (int i = 0; i < v.size(); i++) {
                String p = pointerOf(v.get(i), value);
                if (p != null) return "/" + i + p;
            }
        }
        return null;
    }

    private static String clip(String s, int max) {
        String t = s.replace('\n', ' ');
        return t.length() <= max ? t : t.substring(0, max - 3) + "...";
    }

    /** Why the solver cannot go on: what was missing. */
    private static final class Stuck extends RuntimeException {
        Stuck(String why) {
            super(why, null, false, false);
        }
    }
}
