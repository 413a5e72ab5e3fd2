package dev.openagent.oracle;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.ToolSpec;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Calls that run on as jobs: each job polled for its result with the tool that takes a job's id, as long as it runs. */
final class Jobs {
    private final View view;
    private final Outbox outbox;
    private final ShownTools tools;
    private final Arguments arguments;
    private final LabelReader labels;
    private final Helpers helpers;
    private final Budget budget;
    /** The latest poll of a running job (its call id) and the job's id. */
    private String lastPoll;
    private String lastPollJob;
    /** The helper a refused poll called first (a token), after whose answer the poll goes again. */
    private String pollAfter;
    /** Each job's id -> the latest poll of it (its call id). */
    private final Map<String, String> polls = new HashMap<>();

    Jobs(View view, Outbox outbox, ShownTools tools, Arguments arguments, LabelReader labels, Helpers helpers, Budget budget) {
        this.view = view;
        this.outbox = outbox;
        this.tools = tools;
        this.arguments = arguments;
        this.labels = labels;
        this.helpers = helpers;
        this.budget = budget;
    }

    /**
     * A job the latest answers say is still running, asked for its result with the listed tool that takes a job's
     * id (by its parameter's name or description) and otherwise only what answers labelled (a token another shift
     * asks for), as long as it runs (bounded); null when none runs. A poll answered "try again" (a flapping service) or broken
     * goes again; one refused for want of something a tool it names gives (a token) goes again after that tool.
     */
    Action pendingJob() {
        if (lastPoll != null) {
            boolean answeredNow = view.latest().stream().anyMatch(s -> lastPoll.equals(s.callId()));
            String said = outbox.textOf(lastPoll);
            boolean brokenAnswer = view.answers(lastPoll).stream().anyMatch(x -> Answers.broken(x.raw()));
            if (answeredNow && (Answers.transientFailure(said) || Answers.RUNNING_JOB.matcher(said).find() || brokenAnswer)) {
                // "Call wait with seconds=60, then repeat the call" (a rate limit): that tool first, then the poll.
                ToolSpec first = tools.oneToolNamed(said, outbox.tool(lastPoll));
                ObjectNode firstArgs = first == null ? null : arguments.argsFor(first, said, null, Json.object());
                if (firstArgs != null && budget.boundedRetry("poll " + lastPollJob)) {
                    pollAfter = outbox.nextId();
                    return outbox.send(tools.replaced(first.name()), firstArgs, pollAfter, false);
                }
                if (budget.boundedRetry("poll " + lastPollJob)) return poll(outbox.tool(lastPoll), outbox.args(lastPoll).deepCopy(), lastPollJob);
            } else if (answeredNow && Answers.looksLikeError(said)) {
                // The job's start is to be redone (a cascading failure invalidated the job's id): that call again,
                // as the error quotes it; its new job is polled when its answer says it runs.
                Action redone = helpers.redo(said);
                if (redone != null && budget.boundedRetry("poll " + lastPollJob)) return redone;
                Action first = helpers.helperFor(lastPoll);
                if (first != null) {
                    pollAfter = helpers.lastHelper;
                    return first;
                }
            } else if (pollAfter != null && view.latest().stream().anyMatch(s -> pollAfter.equals(s.callId()))) {
                pollAfter = null;
                ToolSpec t = tools.shownTool(outbox.tool(lastPoll));
                ObjectNode args = t == null ? null : pollArgs(t, lastPollJob);
                if (args != null && budget.boundedRetry("poll " + lastPollJob)) return poll(t.name(), args, lastPollJob);
            }
        }
        for (View.Shown s : view.latest()) {
            if (s.source() != Observation.Source.TOOL || !Answers.RUNNING_JOB.matcher(s.text()).find()) continue;
            // Of the tools that take a job's id, those that add nothing of their own (not a queued copy).
            for (ToolSpec t : tools.plainest(tools.shown().stream().filter(t -> jobParam(t) != null).toList())) {
                String param = jobParam(t);
                String job = labels.labelFor(s.text(), param, Descriptions.descriptions(t.parameters()).getOrDefault(param, ""));
                ObjectNode args = job == null ? null : pollArgs(t, job);
                if (args == null || !budget.boundedRetry("poll " + job)) continue;
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
            String v = args.has(r) ? null : labels.labeled(r);
            if (v != null) args.put(r, v);
        }
        return args;
    }

    private Action poll(String tool, ObjectNode args, String job) {
        lastPoll = outbox.nextId();
        lastPollJob = job;
        polls.put(job, lastPoll);
        return outbox.send(tool, args, lastPoll, false);
    }

    /** What the latest poll of a job answered (nothing when it was not polled). */
    List<View.Shown> polled(String job) {
        return polls.containsKey(job) ? view.answers(polls.get(job)) : List.of();
    }
}
