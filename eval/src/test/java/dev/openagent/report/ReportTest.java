package dev.openagent.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.episode.Message;
import dev.openagent.episode.Stats;
import dev.openagent.episode.Trajectory;
import dev.openagent.fake.Results;
import dev.openagent.json.Json;
import dev.openagent.results.EpisodeResult;
import dev.openagent.sandbox.Outcome;
import dev.openagent.store.RunInfo;
import dev.openagent.store.RunStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportTest {
    @TempDir
    Path dir;

    static final RunInfo RUN = new RunInfo("run-abc", "demo", "{\"agents\":[{\"label\":\"a\"}],\"envs\":[\"poi\"],\"shifts\":[\"all\"],"
            + "\"tasks\":6,\"trials\":1,\"seed\":1,\"split\":\"test\"}", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z", 36, RunStatus.COMPLETE, null);

    /** Two agents, a static and three shifted conditions in two tiers, one transcript with hostile text. */
    static List<EpisodeResult> episodes() {
        List<EpisodeResult> rs = new ArrayList<>();
        String[][] shifts = {{"none", "static"}, {"tool.semantic-rename", "perception"}, {"query.noise", "perception"}, {"obs.format", "interaction"}};
        for (String agent : List.of("model-a", "model-b")) {
            for (String[] s : shifts) {
                for (int task = 0; task < 6; task++) {
                    boolean ok = agent.equals("model-a") ? task < 5 - (s[0].equals("none") ? 0 : 2) : task % 2 == 0;
                    rs.add(Results.answered(agent, s[0], s[1], task, ok));
                }
            }
        }
        rs.add(hostile());
        return rs;
    }

    static EpisodeResult hostile() {
        EpisodeResult base = Results.answered("model-a", "obs.format", "interaction", 99, false);
        Trajectory t = base.trajectory();
        List<Message> messages = List.of(Message.system("sys"), Message.user("Book a table"),
                Message.assistant("</script><script>alert('pwned')</script> <b>bold</b> UNIQUE-TRANSCRIPT-TEXT @@ECHARTS@@"));
        Trajectory h = new Trajectory(t.env(), t.taskId(), t.split(), t.seed(), t.difficulty(), t.kind(), t.solvable(), t.shifts(), t.agent(),
                t.tools(), messages, t.outcome(), new Stats(1, 0, 0, Map.of(), 1, 1));
        return new EpisodeResult(base.key(), base.tier(), 99, base.outcome(), h, base.gold(), 1);
    }

    @Test
    void htmlIsSelfContainedAndCarriesTheChartsDataAndTranscripts() throws Exception {
        Reports.Written w = Reports.write(dir, RUN, episodes(), 1000);
        String html = Files.readString(w.html());
        // ECharts itself is inlined: no script or stylesheet is fetched from anywhere.
        assertTrue(html.contains("echarts") && html.length() > 500_000, "echarts is inlined");
        assertFalse(Pattern.compile("<script[^>]*\\bsrc=", Pattern.CASE_INSENSITIVE).matcher(html).find(), "no external scripts");
        assertFalse(Pattern.compile("<link[^>]*\\bhref=", Pattern.CASE_INSENSITIVE).matcher(html).find(), "no external stylesheets");
        assertTrue(html.contains("type: 'heatmap'") && html.contains("type: 'bar'"), "heatmap and bar charts are configured");
        // The embedded data parses and holds what the charts and the browser show.
        JsonNode data = embedded(html);
        assertEquals(List.of("none", "query.noise", "tool.semantic-rename", "obs.format"), labels(data.path("shifts")));
        assertEquals(List.of("static", "perception", "interaction"), texts(data.path("tiers")));
        assertEquals(List.of("model-a", "model-b"), texts(data.path("agents")));
        JsonNode cell = find(data.path("cells"), "model-a", "*", "tool.semantic-rename");
        assertEquals(0.5, cell.path("success_rate").asDouble());
        assertEquals(-0.3333, cell.path("delta").path("absolute").asDouble(), 1e-4);
        JsonNode tier = find(data.path("cells"), "model-b", "*", "*", "perception");
        assertEquals(12, tier.path("scored").asInt());
        assertEquals(49, data.path("episodes").size());
        assertTrue(data.toString().contains("UNIQUE-TRANSCRIPT-TEXT"), "transcripts are embedded");
        assertTrue(data.toString().contains("UNIQUE-TRANSCRIPT-TEXT @@ECHARTS@@"), "template markers inside the data stay text");
        // Model output is data, never markup: it cannot close the script element or inject one.
        assertFalse(html.contains("<script>alert('pwned')"));
        assertFalse(html.contains("</script><script>alert"));
        assertTrue(html.contains("textContent"), "the page inserts text as text");
    }

    @Test
    void transcriptsAreCappedButEveryConditionKeepsSome() throws Exception {
        Reports.Written w = Reports.write(dir, RUN, episodes(), 16);
        JsonNode data = embedded(Files.readString(w.html()));
        assertEquals(16, data.path("episodes").size());
        assertEquals(49 - 16, data.path("transcripts_omitted").asInt());
        java.util.Set<String> cells = new java.util.HashSet<>();
        data.path("episodes").forEach(e -> cells.add(e.path("agent").asText() + e.path("shift").asText()));
        assertEquals(8, cells.size(), "every agent x shift condition has a transcript");
    }

    @Test
    void markdownAndSummaryCarryTheSameNumbers() throws Exception {
        Reports.Written w = Reports.write(dir, RUN, episodes(), 10);
        String md = Files.readString(w.markdown());
        assertTrue(md.startsWith("# OpenAgent evaluation: demo"), md);
        assertTrue(md.contains("| model-a | `tool.semantic-rename` | perception | 6 | 0 | 50.0% |"), md);
        assertTrue(md.contains("| model-b | perception | 12 |"), md);
        assertTrue(md.contains("| hallucinated_tool |"), "every taxonomy rule is listed");
        JsonNode summary = Json.parse(Files.readString(w.summary()));
        assertEquals(49, summary.path("episodes").asInt());
        assertTrue(summary.path("by_shift").has("obs.format"));
    }

    @Test
    void infrastructureErrorsWithoutTrajectoriesStillRender() throws Exception {
        List<EpisodeResult> rs = new ArrayList<>(episodes());
        rs.add(Results.episode("model-a", "none", "static", 50, 0, false, true, Outcome.End.INFRA_ERROR));
        Reports.Written w = Reports.write(dir, RUN, rs, 1000);
        JsonNode data = embedded(Files.readString(w.html()));
        assertEquals(1, data.path("summary").path("errors").asInt());
    }

    static JsonNode embedded(String html) {
        Matcher m = Pattern.compile("<script type=\"application/json\" id=\"report-data\">(.*?)</script>", Pattern.DOTALL).matcher(html);
        assertTrue(m.find(), "the page embeds its data");
        return Json.parse(m.group(1));
    }

    private static JsonNode find(JsonNode cells, String agent, String env, String shift, String... tier) {
        for (JsonNode c : cells) {
            if (c.path("agent").asText().equals(agent) && c.path("env").asText().equals(env) && c.path("shift").asText().equals(shift)
                    && (tier.length == 0 || c.path("tier").asText().equals(tier[0]))) return c;
        }
        throw new AssertionError("no cell " + agent + "/" + env + "/" + shift + " in " + cells);
    }

    private static List<String> labels(JsonNode a) {
        List<String> out = new ArrayList<>();
        a.forEach(n -> out.add(n.path("label").asText()));
        return out;
    }

    private static List<String> texts(JsonNode a) {
        List<String> out = new ArrayList<>();
        a.forEach(n -> out.add(n.asText()));
        return out;
    }

}
