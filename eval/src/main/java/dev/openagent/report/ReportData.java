package dev.openagent.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.agent.framework.AgentTranscript;
import dev.openagent.episode.Message;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.metrics.Failure;
import dev.openagent.metrics.Scorecard;
import dev.openagent.results.EpisodeResult;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.store.EpisodeSummaries;
import dev.openagent.store.RunInfo;
import dev.openagent.store.RunStatus;

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
        return build(run, new Scorecard(episodes), maxTranscripts, agentTranscripts);
    }

    /** The results without transcripts, from episodes read without their trajectories ({@link EpisodeSummaries}). */
    public static ObjectNode build(RunInfo run, EpisodeSummaries summaries) {
        return build(run, new Scorecard(summaries.episodes(), summaries.failures()), 0, Map.of());
    }

    private static ObjectNode build(RunInfo run, Scorecard card, int maxTranscripts, Map<String, AgentTranscript> agentTranscripts) {
        List<EpisodeResult> episodes = card.episodes();
        ObjectNode root = Json.object();
        int scored = (int) episodes.stream().filter(e -> !e.infraError()).count();
        // Partial while shards are still running (or some stopped): the numbers cover only what is scored so far.
        boolean partial = scored < run.planned();
        JsonNode config = Json.parse(run.config());
        root.set("run", Json.tree(new RunRow(run.id(), run.name(), run.status(), run.planned(), scored, partial, run.createdAt(),
                run.updatedAt(), run.note(), config, setup(config))));
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
        ObjectNode summary = card.toJson();
        summary.put("planned", run.planned());
        summary.put("partial", partial);
        root.set("summary", summary);

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
        for (EpisodeResult e : chosen) eps.add(episode(card, e, systems, systemIndex, agentTranscripts.get(e.id())));
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

    /**
     * The run as the page shows it.
     *
     * @param scored episodes that finished (not infrastructure errors), against {@code planned}
     * @param setup  what the run ran, in short phrases for the report's header
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record RunRow(String id, String name, RunStatus status, int planned, int scored, boolean partial, String createdAt, String updatedAt,
                  @JsonInclude(JsonInclude.Include.NON_NULL) String note, JsonNode config, List<String> setup) {}

    /**
     * What a run ran, from its stored config: an evaluation's environments, shifts, tasks, trials, seed and split; a
     * server's recording (serve mcp, proxy mcp) names the server and what it served, having no planned tasks or trials.
     */
    static List<String> setup(JsonNode cfg) {
        String server = cfg.path("server").asText("");
        return switch (server) {
            case "" -> List.of(cfg.path("tasks").asInt() + " tasks × " + cfg.path("trials").asInt() + " trial(s), seed " + cfg.path("seed").asLong()
                            + ", " + cfg.path("split").asText() + " split", "envs " + String.join(", ", texts(cfg.path("envs"))),
                    "shifts `" + String.join("; ", texts(cfg.path("shifts"))) + "`");
            case "proxy" -> List.of("recorded by `openagent proxy mcp`", "upstream `" + cfg.path("upstream").asText() + "`",
                    "shift `" + cfg.path("shift").asText() + "`", "one episode per session");
            default -> List.of("recorded by `openagent serve " + server + "`", "env " + cfg.path("env").asText(),
                    "shift `" + cfg.path("shift").asText() + "`", cfg.path("split").asText() + " split");
        };
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /**
     * One episode in the trajectory browser; the transcript part is absent when the episode could not start.
     *
     * @param agentTranscript what a framework agent sent to its model and got back, absent for other agents
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record EpisodeRow(String id, String agent, String env, String shift, String tier, int taskIndex, long taskSeed, int trial,
                      boolean success, String end, String detail, String failure, @JsonUnwrapped TranscriptPart transcript,
                      @JsonInclude(JsonInclude.Include.NON_NULL) AgentTranscript agentTranscript) {}

    /**
     * @param tools  the names of the tools shown (left out when there were none: text-command environments)
     * @param system the index of the episode's system prompt in {@code system_prompts} (each is stored once)
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record TranscriptPart(String taskId, String kind, int difficulty, boolean solvable, int turns, int toolErrors, long tokens,
                          @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> tools, List<Message> messages,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Integer system) {}

    private static JsonNode episode(Scorecard card, EpisodeResult e, ArrayNode systems, Map<String, Integer> systemIndex, AgentTranscript own) {
        Trajectory t = e.trajectory();
        TranscriptPart transcript = null;
        if (t != null) {
            Integer system = null;
            List<Message> messages = new ArrayList<>();
            for (Message m : t.messages()) {
                if (!m.role().equals("system")) {
                    messages.add(m);
                    continue;
                }
                system = systemIndex.get(m.content());
                if (system == null) {
                    system = systems.size();
                    systems.add(m.content());
                    systemIndex.put(m.content(), system);
                }
            }
            transcript = new TranscriptPart(t.taskId(), t.kind(), t.difficulty(), t.solvable(), t.stats().turns(), t.stats().toolErrors(),
                    t.stats().promptTokens() + t.stats().completionTokens(), t.tools().stream().map(ToolSpec::name).toList(), messages, system);
        }
        return Json.tree(new EpisodeRow(e.id(), e.agent(), e.env(), e.shift(), e.tier(), e.taskIndex(), e.key().taskSeed(), e.key().trial(),
                e.success(), e.outcome().end().name(), e.outcome().detail(), card.failure(e).id(), transcript,
                own == null || own.isEmpty() ? null : own));
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
