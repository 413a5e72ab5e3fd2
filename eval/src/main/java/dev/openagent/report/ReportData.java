package dev.openagent.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.agent.framework.AgentTranscript;
import dev.openagent.episode.Message;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.metrics.Failure;
import dev.openagent.metrics.Scorecard;
import dev.openagent.run.EpisodeResult;
import dev.openagent.store.RunInfo;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything a report shows, as one JSON object: the run, the scorecard, one cell per agent ×
 * environment × shift (and per agent × shift over all environments, with env "*"), the taxonomy
 * rules, and the transcripts. The HTML page embeds it; the Markdown is written from it.
 */
public final class ReportData {
    private ReportData() {}

    /**
     * @param maxTranscripts at most this many episodes carry their transcript, drawn round-robin
     *                       over the cells so every condition is represented
     */
    public static ObjectNode build(RunInfo run, List<EpisodeResult> episodes, int maxTranscripts) {
        return build(run, episodes, maxTranscripts, Map.of());
    }

    /**
     * As {@link #build(RunInfo, List, int)}, with the agents' own transcripts (what an agent's framework
     * sent to its model and got back) by episode id, shown beside the trajectories that carry one.
     */
    public static ObjectNode build(RunInfo run, List<EpisodeResult> episodes, int maxTranscripts, Map<String, AgentTranscript> agentTranscripts) {
        Scorecard card = new Scorecard(episodes);
        ObjectNode root = Json.object();
        ObjectNode r = root.putObject("run");
        r.put("id", run.id());
        r.put("name", run.name());
        r.put("status", run.status());
        r.put("planned", run.planned());
        r.put("created_at", run.createdAt());
        r.put("updated_at", run.updatedAt());
        if (run.note() != null) r.put("note", run.note());
        r.set("config", Json.parse(run.config()));
        root.put("generated_at", Instant.now().toString());

        Map<String, String> tierOf = card.tiers();
        List<String> shifts = new ArrayList<>(tierOf.keySet());
        shifts.sort(Scorecard.shiftOrder(episodes));
        ArrayNode sh = root.putArray("shifts");
        for (String s : shifts) sh.addObject().put("label", s).put("tier", tierOf.get(s));
        ArrayNode tiers = root.putArray("tiers");
        Scorecard.TIER_ORDER.stream().filter(tierOf::containsValue).forEach(tiers::add);
        tierOf.values().stream().distinct().filter(t -> !Scorecard.TIER_ORDER.contains(t)).forEach(tiers::add);
        card.byAgent().keySet().forEach(root.putArray("agents")::add);
        card.byEnv().keySet().forEach(root.putArray("envs")::add);
        root.set("summary", card.toJson());

        ArrayNode cells = root.putArray("cells");
        card.byAgent().forEach((agent, rs) -> {
            addCells(cells, card, agent, "*", rs, tierOf);
            Map<String, List<EpisodeResult>> byEnv = new LinkedHashMap<>();
            for (EpisodeResult e : rs) byEnv.computeIfAbsent(e.env(), k -> new ArrayList<>()).add(e);
            if (byEnv.size() > 1) byEnv.forEach((env, es) -> addCells(cells, card, agent, env, es, tierOf));
        });

        ArrayNode tax = root.putArray("taxonomy");
        for (Failure f : Failure.values()) tax.addObject().put("id", f.id()).put("rule", f.rule());

        List<EpisodeResult> chosen = sample(episodes, maxTranscripts);
        root.put("transcripts_omitted", episodes.size() - chosen.size());
        ArrayNode systems = root.putArray("system_prompts");
        Map<String, Integer> systemIndex = new HashMap<>();
        ArrayNode eps = root.putArray("episodes");
        for (EpisodeResult e : chosen) {
            ObjectNode o = episode(card, e, systems, systemIndex);
            AgentTranscript own = agentTranscripts.get(e.id());
            if (own != null && !own.isEmpty()) o.set("agent_transcript", own.toJson());
            eps.add(o);
        }
        return root;
    }

    private static void addCells(ArrayNode cells, Scorecard card, String agent, String env, List<EpisodeResult> rs, Map<String, String> tierOf) {
        card.byShift(rs).forEach((shift, m) -> {
            ObjectNode c = cells.addObject();
            c.put("agent", agent).put("env", env).put("shift", shift).put("tier", tierOf.get(shift));
            c.setAll((ObjectNode) Json.MAPPER.valueToTree(m));
        });
        card.byTier(rs).forEach((tier, m) -> {
            ObjectNode c = cells.addObject();
            c.put("agent", agent).put("env", env).put("shift", "*").put("tier", tier);
            c.setAll((ObjectNode) Json.MAPPER.valueToTree(m));
        });
    }

    private static ObjectNode episode(Scorecard card, EpisodeResult e, ArrayNode systems, Map<String, Integer> systemIndex) {
        ObjectNode o = Json.object();
        o.put("id", e.id());
        o.put("agent", e.agent());
        o.put("env", e.env());
        o.put("shift", e.shift());
        o.put("tier", e.tier());
        o.put("task_index", e.taskIndex());
        o.put("task_seed", e.key().taskSeed());
        o.put("trial", e.key().trial());
        o.put("success", e.success());
        o.put("end", e.outcome().end().name());
        o.put("detail", e.outcome().detail());
        o.put("failure", card.failure(e).id());
        Trajectory t = e.trajectory();
        if (t == null) return o;
        o.put("task_id", t.taskId());
        o.put("kind", t.kind());
        o.put("difficulty", t.difficulty());
        o.put("solvable", t.solvable());
        o.put("turns", t.stats().turns());
        o.put("tool_errors", t.stats().toolErrors());
        o.put("tokens", t.stats().promptTokens() + t.stats().completionTokens());
        t.tools().forEach(x -> o.withArray("tools").add(x.name()));
        ArrayNode ms = o.putArray("messages");
        for (Message m : t.messages()) {
            if (m.role().equals("system")) {
                Integer i = systemIndex.get(m.content());
                if (i == null) {
                    i = systems.size();
                    systems.add(m.content());
                    systemIndex.put(m.content(), i);
                }
                o.put("system", i);
                continue;
            }
            ms.add(Json.MAPPER.valueToTree(m));
        }
        return o;
    }

    /** Up to {@code max} episodes, taken round-robin over (agent, env, shift) so every cell shows up. */
    static List<EpisodeResult> sample(List<EpisodeResult> episodes, int max) {
        if (episodes.size() <= max) return episodes;
        Map<String, List<EpisodeResult>> cells = new LinkedHashMap<>();
        for (EpisodeResult e : episodes) cells.computeIfAbsent(e.agent() + "\u0000" + e.env() + "\u0000" + e.shift(), k -> new ArrayList<>()).add(e);
        List<EpisodeResult> out = new ArrayList<>(max);
        for (int round = 0; out.size() < max; round++) {
            boolean any = false;
            for (List<EpisodeResult> c : cells.values()) {
                if (round < c.size() && out.size() < max) {
                    out.add(c.get(round));
                    any = true;
                }
            }
            if (!any) break;
        }
        return out;
    }
}
