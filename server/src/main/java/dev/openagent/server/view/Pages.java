package dev.openagent.server.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.episode.Message;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.metrics.Failure;
import dev.openagent.report.HtmlReport;
import dev.openagent.run.EpisodeResult;
import dev.openagent.sandbox.ShiftRecord;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.store.EpisodeFilter;
import dev.openagent.store.RunFacets;
import dev.openagent.store.RunInfo;
import dev.openagent.store.RunProgress;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/** The viewer's pages as HTML, rendered on the server from what the store holds. */
final class Pages {
    private Pages() {}

    /** The kind of a run that recorded `openagent proxy mcp` sessions. */
    static final String PROXY_SESSIONS = "proxy sessions";

    /** A run's results: the report's data (ReportData) and the watch events its sessions carry. */
    record Computed(ObjectNode data, List<WatchEvent> watch) {}

    /** A run as the runs page lists it. */
    record RunRow(RunInfo run, RunProgress progress, Duration eta) {}

    /**
     * An episode in a listing (a summary: {@link dev.openagent.store.EpisodeSummaries}), with its failure category as
     * stored (null when its trajectory could not be read).
     */
    record Listed(EpisodeResult episode, Failure failure) {}

    static String runs(String store, List<RunRow> runs) {
        Html h = Html.page("Runs");
        h.raw("<p class=\"note\">").text(store + " · " + runs.size() + " run(s)").raw("</p><section><table id=\"runs\"><tr><th>run</th><th>name</th>"
                + "<th>kind</th><th>status</th><th class=\"n\">finished</th><th class=\"n\">scored</th><th class=\"n\">planned</th><th>started</th>"
                + "<th>updated</th><th>ETA</th></tr>");
        for (RunRow r : runs) {
            RunInfo i = r.run();
            h.raw("<tr><td>").link("/runs/" + enc(i.id()), i.id()).raw("</td>").el("td", i.name()).el("td", kind(i))
                    .raw("<td>").raw(status(i.status())).raw("</td>")
                    .el("td class=\"n\"", String.valueOf(r.progress().finished())).el("td class=\"n\"", String.valueOf(r.progress().scored()))
                    .el("td class=\"n\"", String.valueOf(i.planned())).el("td", i.createdAt()).el("td", i.updatedAt())
                    .el("td", i.status().equals("running") ? Eta.text(r.eta()) : "").raw("</tr>");
        }
        if (runs.isEmpty()) h.raw("<tr><td colspan=\"10\" class=\"note\">No runs in this store yet.</td></tr>");
        return h.raw("</table></section>").end();
    }

    /** What recorded a run, from its stored experiment: eval (or study, frontier), a server's or the proxy's sessions. */
    static String kind(RunInfo run) {
        JsonNode cfg = parse(run.config());
        String server = cfg.path("server").asText("");
        if (!server.isEmpty()) return server.equals("proxy") ? PROXY_SESSIONS : "serve " + server;
        return cfg.has("kind") ? cfg.path("kind").asText() : "eval";
    }

    private static JsonNode parse(String json) {
        try {
            JsonNode n = Json.parse(json);
            return n == null ? Json.object() : n;
        } catch (RuntimeException e) {
            return Json.object();
        }
    }

    private static String status(String status) {
        String cls = switch (status) {
            case "complete" -> "ok";
            case "running" -> "warn";
            default -> "bad";
        };
        return "<span class=\"badge " + cls + "\" id=\"status\">" + Html.esc(status) + "</span>";
    }

    /** The progress line of a run page; {@code live} adds the script that keeps it current (server-sent events). */
    private static void progress(Html h, RunInfo run, RunProgress p, boolean live) {
        int pctDone = run.planned() == 0 ? 0 : (int) Math.min(100, 100L * p.finished() / run.planned());
        h.raw("<section><h2>Progress</h2><p>").raw(status(run.status())).raw(" <span class=\"bar\"><span id=\"bar\" style=\"width:")
                .raw(String.valueOf(pctDone)).raw("%\"></span></span> <b id=\"finished\">").text(String.valueOf(p.finished())).raw("</b> of <b id=\"planned\">")
                .text(String.valueOf(run.planned())).raw("</b> finished, <span id=\"scored\">").text(String.valueOf(p.scored()))
                .raw("</span> scored · ETA <span id=\"eta\">–</span> · <span class=\"note\" id=\"live\">")
                .text(live ? "live" : "").raw("</span></p></section>");
        if (!live) return;
        h.raw("<script>(function(){'use strict';const es=new EventSource('/runs/").raw(enc(run.id())).raw("""
                /events');
                const set=(id,v)=>{document.getElementById(id).textContent=v;};
                es.onmessage=function(m){const p=JSON.parse(m.data);set('finished',p.finished);set('scored',p.scored);set('planned',p.planned);
                set('status',p.status);set('eta',p.eta);document.getElementById('bar').style.width=(p.planned?Math.min(100,100*p.finished/p.planned):0)+'%';
                set('live',p.status==='running'?'live · updated '+new Date().toLocaleTimeString():'');};
                es.addEventListener('failure',function(m){es.close();set('live','stopped: '+JSON.parse(m.data).error);});
                es.onerror=function(){set('live','reconnecting');};})();</script>""");
    }

    /**
     * A run's page; {@code data} is null while its results are being computed (in the background: ViewServer), and the
     * page then says so and loads itself again a little later.
     */
    static String run(RunInfo run, RunProgress p, Computed results) {
        ObjectNode data = results == null ? null : results.data();
        Html h = Html.page(run.name() == null || run.name().isEmpty() ? run.id() : run.name());
        if (data == null) h.raw("<meta http-equiv=\"refresh\" content=\"2\">");
        h.raw("<p class=\"note\">").text("run " + run.id() + " · " + kind(run) + " · started " + run.createdAt()
                + (run.note() == null ? "" : " · " + run.note())).raw(" · ").link("/runs/" + enc(run.id()) + "/episodes", "episodes")
                .raw(" · ").link("/runs/" + enc(run.id()) + "/episodes?outcome=failure", "failures").raw("</p>");
        progress(h, run, p, run.status().equals("running"));
        if (data == null) {
            return h.raw("<section id=\"computing\"><h2>Results</h2><p class=\"note\">").text("The results of " + p.stored()
                    + " episodes are being computed; this page loads again in a moment.").raw("</p></section>").end();
        }
        JsonNode byShift = data.path("summary").path("by_shift");
        h.raw("<section><h2>Tier × shift</h2><div class=\"note\">Success per shift with its 95% Wilson interval; Δ against the static episodes "
                + "of the same tasks and trials, p the exact McNemar test. Read " + "from the scored episodes so far.</div>"
                + "<div class=\"chart\" id=\"heatmap\"></div><table id=\"by-shift\"><tr><th>tier</th><th>shift</th><th class=\"n\">n</th>"
                + "<th class=\"n\">success</th><th>95% interval</th><th class=\"n\">Δ</th><th class=\"n\">p</th><th class=\"n\">tool errors</th></tr>");
        for (JsonNode s : data.path("shifts")) {
            JsonNode m = byShift.path(s.path("label").asText());
            JsonNode d = m.path("delta");
            String filter = "/runs/" + enc(run.id()) + "/episodes?shift=" + enc(s.path("label").asText());
            h.raw("<tr>").el("td", s.path("tier").asText()).raw("<td>").link(filter, s.path("label").asText()).raw("</td>")
                    .el("td class=\"n\"", m.path("scored").asText()).el("td class=\"n\"", pct(m.path("success_rate")))
                    .el("td", m.path("success_ci").isArray() ? "[" + pct(m.path("success_ci").get(0)) + ", " + pct(m.path("success_ci").get(1)) + "]" : "–")
                    .el("td class=\"n\"", d.isObject() ? signedPp(d.path("absolute")) : "baseline")
                    .el("td class=\"n\"", d.isObject() && d.path("p_value").isNumber() ? String.format("%.4f", d.path("p_value").asDouble()) : "–")
                    .el("td class=\"n\"", pct(m.path("tool_error_rate"))).raw("</tr>");
        }
        h.raw("</table></section><section><h2>Agents by tier</h2><div class=\"chart\" id=\"bars\"></div></section>");
        if (kind(run).equals("frontier")) {
            h.raw("<section id=\"frontier\"><h2>Frontier</h2><p class=\"note\">").text("Each severity the search ran is a shift above. "
                    + "The frontier's verdicts (the drop per shift and severity with its confidence interval, breaks or holds) are written to "
                    + "frontier.json and report.html in the search's --out directory (runs/" + run.id() + " by default), not to the store.")
                    .raw("</p></section>");
        }
        if (!results.watch().isEmpty()) watch(h, results.watch());
        // the charts of report.html, from the same script (HtmlReport.chartsScript)
        ObjectNode charts = Json.object();
        charts.set("shifts", data.path("shifts"));
        charts.set("tiers", data.path("tiers"));
        charts.set("agents", data.path("agents"));
        charts.set("cells", data.path("cells"));
        charts.set("by_shift", byShift);
        h.raw("<script type=\"application/json\" id=\"chart-data\">").raw(HtmlReport.jsonInScript(charts)).raw("</script>")
                .raw(HtmlReport.echartsScript()).raw(HtmlReport.chartsScript()).raw("""
                <script>(function(){'use strict';const D=JSON.parse(document.getElementById('chart-data').textContent);
                const cell=(a,shift,tier)=>D.cells.find(c=>c.agent===a&&c.env==='*'&&c.shift===shift&&(tier==null||c.tier===tier))||null;
                OpenAgentCharts.heatmap(echarts.init(document.getElementById('heatmap')),D.shifts,D.tiers,l=>D.by_shift[l]||null,'success');
                OpenAgentCharts.bars(echarts.init(document.getElementById('bars')),D.agents,D.tiers,true,(a,t)=>cell(a,'*',t));})();</script>""");
        return h.end();
    }

    /** The watch events recorded proxy sessions carry, each once, with the first session that carries it. */
    private static void watch(Html h, List<WatchEvent> events) {
        h.raw("<section><h2>Watch events</h2><div class=\"note\">What the proxy's watch saw change in the upstream (docs/watch.md), "
                + "as its sessions recorded it.</div><table id=\"watch\"><tr><th>first seen</th><th>kind</th><th>tier</th><th>shift</th><th>tool</th>"
                + "<th>detail</th><th>confidence</th><th>session</th></tr>");
        for (WatchEvent w : events) {
            JsonNode e = w.event();
            h.raw("<tr>").el("td", e.path("first_seen").asText()).el("td", e.path("kind").asText()).el("td", e.path("tier").asText())
                    .el("td", e.path("shift").asText()).el("td", e.path("tool").asText()).el("td", e.path("detail").asText())
                    .el("td", e.path("confidence").asText()).raw("<td>").link("/episodes/" + enc(w.episodeId()), w.episodeId()).raw("</td></tr>");
        }
        h.raw("</table></section>");
    }

    /** The filter and page of an episode listing, as its query string says. */
    record Listing(EpisodeFilter filter, String failure, int page) {
        String query(int page) {
            StringBuilder q = new StringBuilder();
            add(q, "agent", filter.agent());
            add(q, "env", filter.env());
            add(q, "tier", filter.tier());
            add(q, "shift", filter.shift());
            add(q, "outcome", filter.outcome() == null ? null : filter.outcome().id());
            add(q, "failure", failure);
            if (page > 0) add(q, "page", String.valueOf(page));
            return q.isEmpty() ? "" : "?" + q.substring(1);
        }

        private static void add(StringBuilder q, String key, String value) {
            if (value != null && !value.isEmpty()) q.append('&').append(key).append('=').append(enc(value));
        }
    }

    static String episodes(RunInfo run, RunFacets facets, Listing l, List<Listed> rows, int total, int pageSize) {
        Html h = Html.page("Episodes of " + (run.name() == null || run.name().isEmpty() ? run.id() : run.name()));
        String base = "/runs/" + enc(run.id()) + "/episodes";
        h.raw("<p class=\"note\">").link("/runs/" + enc(run.id()), "results of run " + run.id()).raw("</p>");
        h.raw("<section><form class=\"filters\" method=\"get\" action=\"").text(base).raw("\">");
        select(h, "agent", facets.agents(), l.filter().agent());
        select(h, "env", facets.envs(), l.filter().env());
        select(h, "tier", facets.tiers(), l.filter().tier());
        select(h, "shift", facets.shifts(), l.filter().shift());
        select(h, "outcome", List.of("success", "failure", "infra_error"), l.filter().outcome() == null ? null : l.filter().outcome().id());
        select(h, "failure", java.util.Arrays.stream(Failure.values()).map(Failure::id).toList(), l.failure());
        h.raw("<button type=\"submit\" id=\"apply\">filter</button></form></section>");
        int pages = Math.max(1, (total + pageSize - 1) / pageSize);
        h.raw("<section><p class=\"note\" id=\"count\">").text(total + " episode(s) · page " + (l.page() + 1) + " of " + pages).raw("</p>");
        h.raw("<table id=\"episodes\"><tr><th>task</th><th>agent</th><th>env</th><th>shift</th><th>tier</th><th class=\"n\">trial</th>"
                + "<th>result</th><th class=\"n\">turns</th><th></th></tr>");
        for (Listed r : rows) {
            EpisodeResult e = r.episode();
            Trajectory t = e.trajectory();
            h.raw("<tr><td>").link("/episodes/" + enc(e.id()), t == null ? "#" + e.taskIndex() : t.taskId() + " · " + t.kind()).raw("</td>")
                    .el("td", e.agent()).el("td", e.env()).el("td", e.shift()).el("td", e.tier()).el("td class=\"n\"", String.valueOf(e.key().trial()))
                    .raw("<td>").raw(badge(r.failure())).raw("</td>").el("td class=\"n\"", t == null ? "–" : String.valueOf(t.stats().turns())).raw("<td>");
            if (!e.shift().equals("none")) h.link("/episodes/" + enc(e.id()) + "/diff", "diff vs static");
            h.raw("</td></tr>");
        }
        if (rows.isEmpty()) h.raw("<tr><td colspan=\"9\" class=\"note\">No episodes match.</td></tr>");
        h.raw("</table><p>");
        if (l.page() > 0) h.link(base + l.query(l.page() - 1), "← previous").raw(" ");
        if (l.page() + 1 < pages) h.raw("<a id=\"next\" href=\"").text(base + l.query(l.page() + 1)).raw("\">next →</a>");
        return h.raw("</p></section>").end();
    }

    private static void select(Html h, String name, List<String> values, String chosen) {
        h.raw("<label>").text(name).raw("<select name=\"").text(name).raw("\" id=\"f-").text(name).raw("\"><option value=\"\">all</option>");
        for (String v : values) {
            h.raw("<option value=\"").text(v).raw(v.equals(chosen) ? "\" selected>" : "\">").text(v).raw("</option>");
        }
        h.raw("</select></label>");
    }

    private static String badge(Failure f) {
        if (f == null) return "<span class=\"badge\">unknown</span>";
        String cls = switch (f) {
            case SUCCESS -> "ok";
            case INFRA_ERROR, UNSCORED -> "warn";
            default -> "bad";
        };
        return "<span class=\"badge " + cls + "\">" + Html.esc(f.id()) + "</span>";
    }

    static String episode(EpisodeResult e, Failure failure, String twin) {
        Trajectory t = e.trajectory();
        Html h = Html.page("Episode " + (t == null ? e.id() : t.taskId()));
        h.raw("<p class=\"note\">").text("agent " + e.agent() + " · env " + e.env() + " · shift " + e.shift() + " (" + e.tier() + ") · trial "
                + e.key().trial() + " · task seed " + e.key().taskSeed() + " · ").raw(badge(failure));
        if (twin != null) h.raw(" · ").link("/episodes/" + enc(e.id()) + "/diff", "diff against the static episode");
        h.raw("</p>");
        if (t == null) return h.raw("<section class=\"note\">This episode could not start: ").text(e.outcome().detail()).raw("</section>").end();
        h.raw("<section><h2>Shifts</h2>");
        if (t.shifts().isEmpty()) h.raw("<p class=\"note\">none: the static condition</p>");
        for (ShiftRecord s : t.shifts()) h.raw("<div>").el("b", s.id()).text(" " + s.params() + " · seed " + s.seed()).raw("</div>");
        h.raw("</section><section><h2>Tools shown</h2><table>");
        for (ToolSpec tool : t.tools()) h.raw("<tr>").el("td", tool.name()).el("td", tool.description()).raw("<td><pre>").text(Json.write(tool.parameters())).raw("</pre></td></tr>");
        h.raw("</table></section><section><h2>Transcript</h2>");
        for (Message m : t.messages()) message(h, m, "");
        h.raw("<div class=\"msg\"><b>").text(t.outcome().end() + ": ").raw("</b>").text(t.outcome().detail()).raw("</div></section>");
        return h.end();
    }

    private static void message(Html h, Message m, String extra) {
        if (m.role().equals("assistant") && m.toolCalls() != null) {
            h.raw("<div class=\"msg assistant" + extra + "\"><div class=\"who\">assistant → tool call(s)</div>");
            for (Message.ToolCall c : m.toolCalls()) h.raw("<div class=\"call\">").el("b", c.function().name()).text(" " + c.function().arguments()).raw("</div>");
            h.raw("</div>");
        } else if (m.role().equals("system")) {
            h.raw("<details class=\"msg\"><summary>system prompt</summary><pre>").text(m.content()).raw("</pre></details>");
        } else {
            String who = m.role() + (m.name() == null ? "" : " · " + m.name()) + (m.error() == null ? "" : " · " + m.error());
            h.raw("<div class=\"msg " + Html.esc(m.role()) + (m.error() != null ? " err" : "") + extra + "\"><div class=\"who\">").text(who)
                    .raw("</div><pre>").text(m.content()).raw("</pre></div>");
        }
    }

    static String diff(EpisodeResult fixed, EpisodeResult shifted, EpisodeDiff d) {
        Trajectory t = shifted.trajectory();
        Html h = Html.page("Static vs " + shifted.shift());
        h.raw("<p class=\"note\">").text("task " + t.taskId() + " · agent " + shifted.agent() + " · env " + shifted.env() + " · seed "
                + shifted.key().taskSeed() + " · trial " + shifted.key().trial() + " · ").link("/episodes/" + enc(fixed.id()), "static episode")
                .raw(" · ").link("/episodes/" + enc(shifted.id()), "shifted episode").raw("</p>");
        h.raw("<section><h2>Outcome</h2><div class=\"diff\"><div>static: ").text(fixed.outcome().end() + " " + fixed.outcome().detail())
                .raw("</div><div>shifted: ").text(shifted.outcome().end() + " " + shifted.outcome().detail()).raw("</div></div><p id=\"divergence\">")
                .text(d.divergence() < 0 ? "The agent did the same at every step." : "The actions diverged at step " + (d.divergence() + 1) + ".")
                .raw("</p></section>");
        h.raw("<section><h2>The request</h2><div class=\"diff").raw(d.request().differs() ? " changed" : "").raw("\" id=\"request\"><pre>")
                .text(d.request().fixed()).raw("</pre><pre>").text(d.request().shifted()).raw("</pre></div></section>");
        h.raw("<section><h2>Tools shown</h2><table id=\"tools\"><tr><th>static</th><th>shifted</th><th>what differs</th></tr>");
        for (EpisodeDiff.ToolPair p : d.tools()) {
            boolean same = p.changes().equals(List.of(EpisodeDiff.ToolChange.SAME));
            h.raw(same ? "<tr>" : "<tr class=\"changed\"" + (p.renamed() ? " data-renamed=\"true\"" : "") + ">")
                    .el("td", p.fixed() == null ? "–" : p.fixed().name()).el("td", p.shifted() == null ? "–" : p.shifted().name())
                    .el("td", same ? "" : String.join(", ", p.changes().stream().map(c -> c.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')).toList()))
                    .raw("</tr>");
        }
        h.raw("</table></section><section><h2>Step by step</h2>");
        for (int i = 0; i < d.steps().size(); i++) {
            EpisodeDiff.StepPair s = d.steps().get(i);
            boolean diverged = i == d.divergence();
            h.raw("<div class=\"step").raw(diverged ? " diverged\" id=\"diverged" : "").raw("\"><div class=\"head\">")
                    .text("step " + (i + 1) + (diverged ? " · the actions diverge here" : s.sameAction() ? "" : " · different actions")
                            + (s.answersDiffer() ? " · shown differently" : "")).raw("</div><div class=\"diff\">");
            for (EpisodeDiff.Step side : java.util.Arrays.asList(s.fixed(), s.shifted())) {
                h.raw("<div>");
                if (side == null) h.raw("<p class=\"note\">(no such step: the episode had ended)</p>");
                else {
                    message(h, side.action(), "");
                    for (Message m : side.answers()) message(h, m, s.answersDiffer() ? " changed" : "");
                }
                h.raw("</div>");
            }
            h.raw("</div></div>");
        }
        return h.raw("</section>").end();
    }

    static String error(int status, String title, String message) {
        return Html.page(title).raw("<section><p id=\"error\">").text(message).raw("</p><p class=\"note\">HTTP ").text(String.valueOf(status))
                .raw(" · ").link("/", "all runs").raw("</p></section>").end();
    }

    private static String pct(JsonNode v) {
        return v.isNumber() ? String.format("%.1f%%", 100 * v.asDouble()) : "–";
    }

    private static String signedPp(JsonNode v) {
        return v.isNumber() ? String.format("%+.1f pp", 100 * v.asDouble()) : "–";
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

}
