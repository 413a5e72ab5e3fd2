package dev.openagent.shift.obs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.LayerGuide;
import dev.openagent.shift.Schemas;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Sign;
import dev.openagent.shift.Texts;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * obs.latency: some tools are slow, and a call to one times out with the default timeout (10 s) and keeps timing out
 * when sent again as it was. Every tool takes a documented {@code timeout_seconds} (at most 120); a call given a timeout
 * at least as long as the tool takes gets its result. Severity 1: the first tool the episode calls takes 40 s; 2: every
 * tool does; 3: every tool takes 300 s, longer than the longest timeout, and must run as a job: every tool also takes
 * {@code async} (true: the call answers at once with a {@code job_id}), and a listed {@code get_job_result(job_id)}
 * answers "still running" the first time and the call's own result after. Nothing waits: the time is simulated.
 * <p>
 * A call that times out never reaches the service; a job's call does, when it is started (a job that commits, commits
 * then). The turns the protocol costs are the layer's: the first time-out of each tool (until it answers), a job's
 * "still running" and the poll that delivers its result are granted back to the episode, never more than that, so a
 * looping agent still meets the step limit. Text commands take no parameters, so the shift needs a tool list.
 * The oracle learns as an agent does: it passes a timeout (or runs a job) for a tool only once that tool has timed out.
 */
public final class Latency extends ShiftEnv<Latency.Episode> {
    public static final Shift SHIFT = new Shift("obs.latency", Tier.INTERACTION, Dimension.O,
            "Slow tools time out with the default timeout, also when retried at once; a longer documented timeout_seconds gets the result, and at severity 3 only the documented asynchronous pattern does (async=true, then poll get_job_result).",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "a command takes no timeout parameter; its answer is its result"),
            Latency::new).seenAs(Sign.TIMEOUT_PARAMETER_ADDED, Sign.TIMEOUTS, Sign.JOB_TOOL_ADDED);

    /** The timeout a call gets when it gives none, and the longest one it may ask for, in seconds. */
    static final int DEFAULT_TIMEOUT = 10;
    static final int MAX_TIMEOUT = 120;
    /** The timeout parameter, the job parameter and the poll tool (other names when a tool already has them). */
    static final String TIMEOUT = "timeout_seconds";
    static final String ASYNC = "async";
    static final String POLL = "get_job_result";
    /** How many polls answer "still running" before a job's result. */
    static final int RUNNING_POLLS = 1;

    private record Job(String tool, Observation result) {}

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        String timeoutParam = TIMEOUT;
        String asyncParam = ASYNC;
        String pollTool = POLL;
        /** The one slow tool at severity 1 (the first the episode calls), or null before the first call. */
        String slowTool;
        /** Tools whose time-out was granted back and that have not answered since. */
        final Set<String> timedOut = new HashSet<>();
        /** Tools that have timed out in this episode (the oracle passes what their error named from then on). */
        final Set<String> told = new HashSet<>();
        /** Ids of the latest turn's calls that timed out. */
        final Set<String> timedOutNow = new HashSet<>();
        final Map<String, Job> jobs = new LinkedHashMap<>();
        final Map<String, Integer> polls = new HashMap<>();
        /** Jobs started and not yet delivered, in order (what the guide polls). */
        final List<String> undelivered = new ArrayList<>();
        int jobIds;
    }

    private Latency(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    /** How long a slow tool takes, in seconds. */
    private int takes() {
        return severity() >= 3 ? 300 : 40;
    }

    @Override
    protected Start begin(Start in) {
        Set<String> names = new HashSet<>();
        Set<String> params = new HashSet<>();
        for (ToolSpec t : in.tools()) {
            names.add(t.name());
            t.parameters().path("properties").fieldNames().forEachRemaining(params::add);
        }
        while (params.contains(ep.timeoutParam)) ep.timeoutParam = "request_" + ep.timeoutParam;
        while (params.contains(ep.asyncParam)) ep.asyncParam = "run_" + ep.asyncParam;
        while (names.contains(ep.pollTool)) ep.pollTool = ep.pollTool + "_";
        String timeoutDoc = "How long to wait for the answer, in seconds (default " + DEFAULT_TIMEOUT + ", at most " + MAX_TIMEOUT
                + "). A call that takes longer fails with 504 Gateway Timeout, and again if sent with the same timeout; pass the "
                + ep.timeoutParam + " the error names.";
        String asyncDoc = "Run the call as a job (" + ep.asyncParam + "=true): it answers at once with a job_id, and " + ep.pollTool
                + " with that job_id returns the call's result when the job is done. For calls slower than the longest timeout.";
        List<ToolSpec> tools = new ArrayList<>();
        for (ToolSpec t : in.tools()) {
            if (Protocol.ASK_USER.equals(t.name())) {
                tools.add(t);
                continue;
            }
            ObjectNode schema = Schemas.withParam(t.parameters(), ep.timeoutParam, "integer", timeoutDoc, false);
            ((ObjectNode) schema.path("properties").path(ep.timeoutParam)).put("minimum", 1).put("maximum", MAX_TIMEOUT);
            if (severity() >= 3) schema = Schemas.withParam(schema, ep.asyncParam, "boolean", asyncDoc, false);
            tools.add(new ToolSpec(t.name(), t.description(), schema));
        }
        if (severity() >= 3) {
            ObjectNode schema = Schemas.withParam(Schemas.empty(), "job_id", "string", "The job_id a call made with " + ep.asyncParam + "=true answered with.", true);
            tools.add(new ToolSpec(ep.pollTool, "Returns the result of a job (a call made with " + ep.asyncParam + "=true) once it is done; "
                    + "while it still runs, answers status running: call it again.", schema));
        }
        return in.withTools(tools);
    }

    /** Whether calls of this tool are slow (at severity 1: the first tool the episode called). */
    private boolean slow(String tool) {
        if (ep.slowTool == null) ep.slowTool = tool;
        return severity() >= 2 || ep.slowTool.equals(tool);
    }

    @Override
    protected Route route(Action.ToolCall call) {
        if (Protocol.ASK_USER.equals(call.name()) || call.name().isEmpty()) return new Forward(call);
        if (severity() >= 3 && call.name().equals(ep.pollTool)) return new Reply(poll(call));
        ObjectNode args = Texts.argsObject(call.arguments());
        if (args == null) return new Forward(call);
        JsonNode t = args.remove(ep.timeoutParam);
        JsonNode a = severity() >= 3 ? args.remove(ep.asyncParam) : null;
        int timeout = t == null || t.isNull() ? DEFAULT_TIMEOUT : whole(t);
        if (timeout < 1 || timeout > MAX_TIMEOUT) {
            return new Reply(error(call, ToolError.Code.INVALID_ARGUMENTS, ep.timeoutParam + " must be a whole number of seconds from 1 to " + MAX_TIMEOUT));
        }
        boolean async = a != null && (a.isBoolean() ? a.asBoolean() : a.asText("").strip().equalsIgnoreCase("true"));
        Action.ToolCall plain = t == null && a == null ? call : new Action.ToolCall(call.id(), call.name(), Json.write(args));
        if (!slow(call.name())) return new Forward(plain);
        if (async) return new Forward(plain, o -> started(call, o));
        if (timeout >= takes()) {
            return new Forward(plain, o -> {
                ep.timedOut.remove(call.name());
                return o;
            });
        }
        // Timed out: the call never reached the service. The first time-out of a tool is the layer's turn to give back.
        if (ep.timedOut.add(call.name())) inner.grantTurns(1);
        ep.told.add(call.name());
        ep.timedOutNow.add(call.id());
        String how = severity() >= 3
                ? "it takes about " + takes() + " s, longer than the longest timeout (" + MAX_TIMEOUT + " s), so no timeout will do. Run it as a job: call "
                        + call.name() + " again with\n" + ep.asyncParam + "=true\n(it answers a job_id at once), then call " + ep.pollTool + " with that job_id until it gives the result."
                : "it takes about " + takes() + " s. Call " + call.name() + " again with a longer timeout:\n" + ep.timeoutParam + "=" + (takes() + 20);
        return new Reply(error(call, ToolError.Code.TRANSIENT, "504 Gateway Timeout: " + call.name() + " did not answer within its timeout ("
                + timeout + " s" + (t == null ? ", the default" : "") + "), and the call did not reach the service; sent again with the same timeout it times out the same way: " + how));
    }

    /** The answer to a job's call: its ticket (the call ran, its result waits), or the call's own error. */
    private Observation started(Action.ToolCall call, Observation o) {
        if (o.isError()) return o;
        String id = "JOB-" + (1000 + ep.jobIds++) + "-" + (100 + rnd.nextInt(900));
        ep.jobs.put(id, new Job(call.name(), o));
        ep.undelivered.add(id);
        ObjectNode out = Json.object("job_id", id, "status", "running");
        out.put("note", "the job runs; call " + ep.pollTool + " with this job_id for its result");
        return Observation.tool(call.id(), call.name(), Json.write(out), out);
    }

    private Observation poll(Action.ToolCall call) {
        ObjectNode args = Texts.argsObject(call.arguments());
        String id = args == null ? "" : args.path("job_id").asText("").strip();
        Job job = ep.jobs.get(id);
        if (job == null) return error(call, ToolError.Code.DOMAIN, "no job with job_id '" + Texts.abbreviate(id, 40) + "'");
        int n = ep.polls.merge(id, 1, Integer::sum);
        if (n <= RUNNING_POLLS + 1) inner.grantTurns(1);   // the polls a job takes are the layer's
        if (n <= RUNNING_POLLS) {
            ObjectNode out = Json.object("job_id", id, "status", "running");
            out.put("note", "still running; try again: call " + ep.pollTool + " with this job_id again");
            return Observation.tool(call.id(), call.name(), Json.write(out), out);
        }
        ep.undelivered.remove(id);
        Observation r = job.result();
        return new Observation(r.source(), call.id(), call.name(), r.text(), r.payload(), r.error());
    }

    private static int whole(JsonNode n) {
        if (n.isIntegralNumber()) return n.canConvertToInt() ? n.asInt() : -1;
        String s = n.asText("").strip();
        return s.matches("\\d{1,4}") ? Integer.parseInt(s) : -1;
    }

    @Override
    protected void newTurn() { ep.timedOutNow.clear(); }

    /**
     * The oracle calls as an agent learns to: a tool with the default timeout until it has timed out, then the call
     * again and every later call of that tool with what the error named (a longer timeout; at severity 3 as a job);
     * it polls each job it started until it gives the result before the inner guide's next action.
     */
    @Override
    public Guide guide() {
        return new LayerGuide(inner.guide(), this) {
            private int polls;
            private Action.CallTools lastInner;
            /** The calls that timed out and are not sent again yet (kept while jobs are polled first). */
            private final Set<String> timedOut = new HashSet<>();

            @Override
            public Action next(Step last) {
                // A layer outside may have sent a call in the same turn as another that started a job (a hold
                // completed: the prerequisite as a job, the held call timing out): the job is polled first.
                timedOut.addAll(ep.timedOutNow);
                if (!ep.undelivered.isEmpty()) {
                    return Action.CallTools.of("poll_" + (polls++), ep.pollTool, Json.write(Json.object("job_id", ep.undelivered.getFirst())));
                }
                if (!timedOut.isEmpty() && lastInner != null) {
                    // The calls that timed out, again, as the error said.
                    Action.CallTools again = new Action.CallTools(lastInner.calls().stream().filter(x -> timedOut.contains(x.id())).toList());
                    timedOut.clear();
                    if (!again.calls().isEmpty()) return outward(again);
                }
                Action a = innerNext();
                lastInner = a instanceof Action.CallTools c ? c : null;
                return outward(a);
            }

            @Override
            protected Action outward(Action a) {
                if (!(a instanceof Action.CallTools c)) return a;
                return new Action.CallTools(c.calls().stream().map(x -> {
                    ObjectNode args = Texts.argsObject(x.arguments());
                    if (!ep.told.contains(x.name()) || args == null) return x;
                    if (severity() >= 3) args.put(ep.asyncParam, true);
                    else args.put(ep.timeoutParam, takes() + 20);
                    return new Action.ToolCall(x.id(), x.name(), Json.write(args));
                }).toList());
            }
        };
    }
}
