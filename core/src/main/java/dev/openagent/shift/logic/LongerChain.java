package dev.openagent.shift.logic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.LayerGuide;
import dev.openagent.shift.Schemas;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.TextVerbs;
import dev.openagent.shift.Texts;
import dev.openagent.sandbox.Commands;
import dev.openagent.shift.Tier;
import dev.openagent.sandbox.Chain;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * logic.longer-chain: more dependent hops than the static tasks have (severity = extra hops, 1-3).
 * Where the environment can (as its task kinds declare, {@code EnvFacts.longerChain}; poi: "the cafe nearest to X" instead
 * of the place's name, nested at higher severity), the entity is reached through extra lookups.
 * Otherwise the request itself is behind a chain of support tickets: the user names a ticket, and
 * each ticket either holds the request or points to the next ticket ({@code get_ticket}; in a
 * text-command environment the command {@code read ticket <id>}, which help then lists).
 */
public final class LongerChain extends ShiftEnv<LongerChain.Episode> {
    public static final Shift SHIFT = new Shift("logic.longer-chain", Tier.REASONING, Dimension.Q,
            "More dependent hops than training had: the entity (or the request itself) is only reachable through extra lookups.",
            List.of(Shift.SEVERITY), LongerChain::new);

    private List<GoldPlan.Call> hops = List.of();
    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        Chain chain;
        final Map<String, String> tickets = new HashMap<>();
        String ticketTool;
    }

    private LongerChain(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    @Override
    protected Start begin(Start in) {
        Task t = inner.task();
        if (!t.solvable()) {
            shiftedTask = t;
            hops = List.of();
            return in;
        }
        Optional<Chain> c = facts().longerChain(t, seed(), severity());
        if (c.isPresent()) {
            ep.chain = c.get();
            hops = ep.chain.hops();
            shiftedTask = t.withQuery(ep.chain.query()).withDetails(ep.chain.details()).withPlan(prepend(hops, t.plan()));
            return in.withQuery(ep.chain.query());
        }
        ep.ticketTool = "get_ticket";
        for (ToolSpec s : in.tools()) if (s.name().equals(ep.ticketTool)) ep.ticketTool = "get_support_ticket";
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < severity(); i++) ids.add("T-" + (10000 + rnd.nextInt(90000)) + i);
        List<GoldPlan.Call> ticketCalls = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            ep.tickets.put(ids.get(i), i + 1 < ids.size() ? "This ticket was merged into ticket " + ids.get(i + 1) + "; the request is there." : t.query());
            ObjectNode args = Json.object();
            if (textCommand()) {
                args.put("text", READ_TICKET + " " + ids.get(i));
                ticketCalls.add(new GoldPlan.Call(GoldPlan.COMMAND, args));
            } else {
                args.put("ticket_id", ids.get(i));
                ticketCalls.add(new GoldPlan.Call(ep.ticketTool, args));
            }
        }
        hops = ticketCalls;
        String query = "Please handle my support ticket " + ids.getFirst() + ".";
        shiftedTask = t.withQuery(query).withDetails(List.of()).withPlan(prepend(hops, t.plan()));
        if (textCommand()) return in.withQuery(query);
        List<ToolSpec> tools = new ArrayList<>(in.tools());
        tools.add(new ToolSpec(ep.ticketTool, "A support ticket by id: the user's request as they wrote it, or a note pointing to another ticket.",
                Schemas.withParam(Schemas.empty(), "ticket_id", "string", "Ticket id, e.g. T-123450.", true)));
        return new Start(in.systemPrompt(), query, tools);
    }

    /** The hops followed by the plan, its references shifted past the hops. */
    private static GoldPlan prepend(List<GoldPlan.Call> hops, GoldPlan plan) {
        List<GoldPlan.Call> calls = new ArrayList<>(hops);
        int k = hops.size();
        for (GoldPlan.Call c : plan.calls()) calls.add(c.after(k));
        return new GoldPlan(calls, GoldPlan.movePlaceholders(plan.answerTemplate(), k), plan.refuse());
    }


    /** Text-command environments: the ticket fallback's command, listed by help. */
    static final String READ_TICKET = "read ticket";

    @Override
    protected Step act(Action action) {
        if (ep.tickets.isEmpty() || !textCommand() || !(action instanceof Action.Command c)) return super.act(action);
        String text = Commands.normalize(c.text());
        if (Protocol.isHelp(text)) {
            Step s = forward(action);
            return s.withObservations(s.observations().stream().map(o -> o.isError() ? o
                    : o.withText(TextVerbs.withLine(o.text(), READ_TICKET + " <ticket id>", "read a support ticket"))).toList());
        }
        String id = Commands.after(text, READ_TICKET);
        if (id == null) return super.act(action);
        String found = ep.tickets.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(id.strip())).map(Map.Entry::getValue).findFirst().orElse(null);
        if (found == null) {
            String msg = id.isBlank() ? "Read which ticket? Say 'read ticket <ticket id>'." : "There is no ticket '" + Texts.abbreviate(id, 40) + "'.";
            return local(List.of(new Observation(Observation.Source.ENV, null, null, msg, null, ToolError.of(ToolError.Code.DOMAIN, msg))));
        }
        return local(List.of(Observation.env("Ticket " + id.toUpperCase(java.util.Locale.ROOT) + " (open): " + found, null)));
    }

    @Override
    protected Route route(Action.ToolCall call) {
        if (ep.tickets.isEmpty() || !call.name().equals(ep.ticketTool)) return new Forward(call);
        ObjectNode args = Texts.argsObject(call.arguments());
        String id = args == null ? "" : args.path("ticket_id").asText("").strip();
        String text = ep.tickets.get(id);
        if (text == null) return new Reply(error(call, ToolError.Code.DOMAIN, "no ticket '" + Texts.abbreviate(id, 40) + "'"));
        ObjectNode out = Json.object();
        out.put("ticket_id", id);
        out.put("status", "open");
        out.put("text", text);
        return new Reply(Observation.tool(call.id(), call.name(), Json.write(out), out));
    }

    @Override
    public Guide guide() {
        return new LayerGuide(inner.guide(), this) {
            private final List<JsonNode> results = new ArrayList<>();
            private boolean waiting;
            private boolean checked;

            @Override
            public Action next(Step last) {
                if (waiting) {
                    waiting = false;
                    String id = "hop_" + results.size();
                    // Ticket replies come from this layer (no references between them); lookups from the inner environment.
                    Step s = ep.tickets.isEmpty() ? innerStep : last;
                    Observation o = s == null || s.observations().isEmpty() ? null : textCommand() ? s.observations().getFirst()
                            : s.observations().stream().filter(x -> id.equals(x.callId())).findFirst().orElse(null);
                    if (o == null || o.isError()) return new Action.Answer("oracle: hop " + results.size() + " failed: " + (o == null ? "no result" : o.text()));
                    results.add(ep.tickets.isEmpty() && o.payload() != null ? o.payload() : Json.object());
                }
                if (results.size() < hops.size()) {
                    GoldPlan.Call c = hops.get(results.size());
                    waiting = true;
                    ObjectNode args = c.resolve(results);
                    if (c.tool().equals(GoldPlan.COMMAND)) return new Action.Command(args.path("text").asText());
                    return Action.CallTools.of("hop_" + results.size(), c.tool(), Json.write(args));
                }
                if (!checked) {
                    checked = true;
                    if (ep.chain != null) {
                        JsonNode got = results.getLast().at(ep.chain.pointer());
                        if (!got.asText().equals(ep.chain.expected())) {
                            return new Action.Answer("oracle: the chain leads to " + got + ", not " + ep.chain.expected());
                        }
                    }
                }
                return innerNext();
            }
        };
    }
}
