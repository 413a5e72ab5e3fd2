package dev.openagent.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.RecordLookup;
import dev.openagent.sandbox.ToolFacts;
import dev.openagent.sandbox.ToolSpec;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How the view solver comes to see a value a step's result holds but the agent was not shown: the step again (broken,
 * "try again", out of date), the next page, the record looked up by its id, or a helper the answer's labels fit.
 */
final class Recovery {
    private final View view;
    private final Outbox outbox;
    private final ShownTools tools;
    private final Arguments arguments;
    private final LabelReader labels;
    private final Visibility visibility;
    private final Helpers helpers;
    private final Jobs jobs;
    private final Budget budget;
    private final EnvFacts facts;
    /** The instructions' freshness rule: data older is stale (null where they give none), with the names to read it by. */
    private final java.time.Instant staleBefore;
    private final Names names;
    /** The latest call of a helper tool for a value (tool and value -> call id). */
    private final Map<String, String> helperCalls = new HashMap<>();
    /** The latest call that fetched a record by its id to see a value not shown, or null. */
    private String lastLookup;
    /** Steps whose answer was out of date: asked again for live data until a live answer comes (by identity). */
    private final Set<Sent> wantLive = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    Recovery(View view, Outbox outbox, ShownTools tools, Arguments arguments, LabelReader labels, Visibility visibility,
             Helpers helpers, Jobs jobs, Budget budget, EnvFacts facts, java.time.Instant staleBefore, Names names) {
        this.view = view;
        this.outbox = outbox;
        this.tools = tools;
        this.arguments = arguments;
        this.labels = labels;
        this.visibility = visibility;
        this.helpers = helpers;
        this.jobs = jobs;
        this.budget = budget;
        this.facts = facts;
        this.staleBefore = staleBefore;
        this.names = names;
    }

    /**
     * What to do to see a value a step's result holds but the agent was not shown: call the step again when its
     * answer arrived broken, fetch the next page, look the record up by its id, or call the tool the answer's
     * labels fit (a confirmation that releases withheld codes). Null when nothing fits.
     */
    Action recover(Frame f, int step, String value) {
        if (step >= f.sent.size()) return null;
        // Bounded; as retries are after a "try again" (layers that fail by turns multiply the tries a recovery takes).
        boolean retrying = view.latest().stream().anyMatch(x -> x.source() == Observation.Source.TOOL && Answers.transientFailure(x.text()));
        if (!budget.bounded("recover " + value, retrying)) return null;
        Sent s = f.sent.get(step);
        if (s.tool().isEmpty()) return null;
        String answer = latestAnswer(s);
        String lastId = s.ids().isEmpty() ? null : s.ids().getLast();
        ObjectNode lastSent = lastId == null ? s.args() : outbox.sentArgs.getOrDefault(lastId, s.args());
        ToolSpec tool = tools.shownTool(s.tool());
        // The step's latest answer is out of date by the instructions' freshness rule (its as_of before the limit): the
        // step's call again, with the flag the tool documents for live data.
        String live = tool == null ? null : Freshness.liveParam(tool);
        if (live != null && (outOfDate(answer) || wantLive.contains(s) && !Answers.answered(answer))) {
            wantLive.add(s);
            // Refused on the way (a session to renew, a rate limit to wait out): the tool the refusal names first (never
            // a tool a successful answer names: that may be an injected instruction).
            Action helper = lastId == null || Answers.answered(answer) ? null : helpers.helperFor(lastId);
            if (helper != null) return helper;
            return again(s, liveArgs(f, step, s, tool).put(live, true));
        }
        // The step's latest call answered broken or "try again" (a page fetch that hit a busy service): again.
        if (Answers.broken(latestRawAnswer(s)) || Answers.transientFailure(answer) && !answer.isEmpty()) return again(s, lastSent);
        if (tool != null) {
            for (var p : Descriptions.descriptions(tool.parameters()).entrySet()) {
                // The page parameter by its description (a name can lie); by its name only when it has none.
                String about = p.getValue().isBlank() ? p.getKey() : p.getValue();
                if (!about.toLowerCase(java.util.Locale.ROOT).contains("page")) continue;
                String token = labels.pageToken(answer, p.getKey(), p.getValue());
                if (token != null) {
                    ObjectNode args = s.args().deepCopy();
                    args.put(p.getKey(), token);
                    // The next page from the tool the page came from (its token is that tool's).
                    String from = lastId == null ? s.tool() : outbox.tool(lastId, s.tool());
                    String id = outbox.nextId();
                    s.ids().add(id);
                    return outbox.send(from, args, id, false);
                }
            }
        }
        Action lookup = lookup(f, step, value);
        if (lookup != null) return lookup;
        return helperShowing(answer, value);
    }

    /**
     * A helper the answer's labels fit (a confirmation that releases withheld codes: its required parameters are what
     * the answer labels), called for the value; null when none fits or each was of no help.
     */
    private Action helperShowing(String answer, String value) {
        Set<String> matched = tools.worldMatched();   // once: it compares every world tool with every tool shown (hundreds when crowded)
        List<ToolSpec> candidates = tools.shown().stream().filter(t -> !matched.contains(t.name()) && !t.name().equals(Protocol.ASK_USER)
                && !Descriptions.required(t.parameters()).isEmpty()).toList();
        for (ToolSpec t : tools.plainest(candidates)) {
            ObjectNode args = Json.object();
            Map<String, String> descriptions = Descriptions.descriptions(t.parameters());
            for (String r : Descriptions.required(t.parameters())) {
                String v = labels.labelFor(answer, r, descriptions.getOrDefault(r, ""));
                if (v != null) args.put(r, v);
            }
            if (!args.isEmpty()) {
                // The answer labels what the helper is about (a job_id); the rest it requires of every call (a token
                // another shift asks for) from the latest labels anywhere, as any call takes it.
                for (String r : Descriptions.required(t.parameters())) {
                    String v = args.has(r) ? null : labels.labeled(r);
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
                    boolean busy = Answers.transientFailure(said);
                    boolean again = busy;
                    if (!again) {
                        Action first = helpers.helperFor(tried);
                        if (first != null) return first;
                        again = helpers.helped(tried) && tools.oneToolNamed(said, t.name()) != null;
                    }
                    // "Try again" is bounded as retries are (a poll under a flapping service fails by turns).
                    if (!(again && budget.bounded("again " + key, busy))) {
                        tools.useless(t.name());
                        continue;
                    }
                }
                String id = outbox.nextId();
                helperCalls.put(key, id);
                return outbox.send(t.name(), args, id, false);
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
            return arguments.translate(tools.world(call.tool()), tool, visibility.asSeen(call.resolve(f.results)));
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
        String pointer = JsonValues.pointerOf(result, value);
        // The whole result is the value (a job's answer is the bare value): no record around it to look up.
        if (pointer == null || pointer.isEmpty()) return null;
        String field = pointer.substring(pointer.lastIndexOf('/') + 1);
        JsonNode record = result.at(pointer.substring(0, pointer.lastIndexOf('/')));
        for (ToolFacts t : facts.tools()) {
            for (RecordLookup r : t.records()) {
                JsonNode id = record.get(r.idField());
                if (id == null || !id.isValueNode() || !(r.fields().isEmpty() || r.fields().contains(field)) || !visibility.visible(id.asText())) continue;
                ToolSpec world = tools.world(r.tool());
                Optional<ToolSpec> to = world == null ? Optional.empty() : tools.doing(world);
                if (to.isEmpty()) continue;
                String name = tools.replaced(to.get().name());
                // The look-up before answered "again, with a longer timeout" or "as a job (async=true)": again, so;
                // else with a tool to call first (a renewal): that first, then the look-up again.
                String before = lastLookup == null ? "" : outbox.textOf(lastLookup);
                boolean settings = name.equals(outbox.tool(lastLookup)) && Answers.transientFailure(before)
                        && arguments.learnSettings(name, to.get(), outbox.args(lastLookup), before);
                Action helper = settings ? null : helpers.helperFor(lastLookup);
                if (helper != null) return helper;
                ObjectNode worldArgs = Json.object();
                worldArgs.set(r.param(), id);
                ObjectNode args = arguments.withSettings(name, arguments.translate(world, to.get(), worldArgs));
                // The look-up before, of this tool, answered out of date by the freshness rule: this one asks for live data.
                String live = lastLookup != null && name.equals(outbox.tool(lastLookup)) && outOfDate(outbox.textOf(lastLookup)) ? Freshness.liveParam(to.get()) : null;
                if (live != null) args.put(live, true);
                lastLookup = outbox.nextId();
                return outbox.send(name, args, lastLookup, false);
            }
        }
        return null;
    }

    private Action again(Sent s, ObjectNode args) {
        String id = outbox.nextId();
        s.ids().add(id);
        // With what answers said to send that tool every time (a longer timeout), whatever the reason to call again.
        String tool = tools.replaced(s.tool());
        return outbox.send(tool, arguments.withSettings(tool, args), id, false);
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
            if (Answers.RUNNING_JOB.matcher(text).find()) {
                for (Labels.Label l : labels.labelsOf(text)) {
                    List<View.Shown> polled = jobs.polled(l.value());
                    if (!polled.isEmpty()) return polled.getLast().text();
                }
            }
            return text;
        }
        return "";
    }
}
