package dev.openagent.server.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.episode.Message;
import dev.openagent.frontier.FrontierReport;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.metrics.Failure;
import dev.openagent.report.HtmlReport;
import dev.openagent.results.EpisodeResult;
import dev.openagent.sandbox.ShiftRecord;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.store.CurvePoint;
import dev.openagent.store.EpisodeFilter;
import dev.openagent.store.FrontierVerdicts;
import dev.openagent.store.RunFacets;
import dev.openagent.store.RunInfo;
import dev.openagent.store.RunProgress;
import dev.openagent.store.RunStatus;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

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
                    .el("td", i.status() == RunStatus.RUNNING ? Eta.text(r.eta()) : "").raw("</tr>");
        }
        if (runs.isEmpty()) h.raw("<tr><td colspan=\"10\" class=\"note\">No runs in this store yet.</td></tr>");
        return h.raw("</table></section>").end();
    }

    /** What recorded a run, from its stored experiment: eval (or study, frontier), a server's or the proxy's sessions. */
    static String kind(RunInfo run) {
        String server = run.server();
        if (!server.isEmpty()) return server.equals("proxy") ? PROXY_SESSIONS : "serve " + server;
        JsonNode cfg = parse(run.config());
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

    private static String status(RunStatus status) {
        String cls = switch (status) {
            case COMPLETE -> "ok";
            case RUNNING -> "warn";
            case INCOMPLETE, STOPPED, PARTIAL -> "bad";
        };
        return "<span class=\"badge " + cls + "\" id=\"status\">" + Html.esc(status.id()) + "</span>";
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
     * A run's page; {@code results} is null while its results are being computed (in the background: ViewServer), and
     * the page then says so and loads itself again a little later; a run without episodes (a training) has none.
     * {@code frontier}: a frontier search's verdicts, when stored; {@code curve}: the run's learning-curve points.
     */
    static String run(RunInfo run, RunProgress p, Computed results, Optional<FrontierVerdicts> frontier, List<CurvePoint> curve) {
        ObjectNode data = results == null ? null : results.data();
        boolean episodes = p.stored() > 0;
        Html h = Html.page(run.name() == null || run.name().isEmpty() ? run.id() : run.name());
        if (episodes && data == null) h.raw("<meta http-equiv=\"refresh\" content=\"2\">");
        // a running run without episodes (a training) shows its curve as it grows
        else if (!episodes && run.status() == RunStatus.RUNNING) h.raw("<meta http-equiv=\"refresh\" content=\"5\">");
        h.raw("<p class=\"note\">").text("run " + run.id() + " · " + kind(run) + " · started " + run.createdAt()
                + (run.note() == null ? "" : " · " + run.note()));
        if (episodes) {
            h.raw(" · ").link("/runs/" + enc(run.id()) + "/episodes", "episodes")
                    .raw(" · ").link("/runs/" + enc(run.id()) + "/episodes?outcome=failure", "failures");
        }
        h.raw("</p>");
        if (episodes || run.planned() > 0) progress(h, run, p, run.status() == RunStatus.RUNNING);
        else h.raw("<section><h2>Status</h2><p>").raw(status(run.status())).raw(" ").text("updated " + run.updatedAt()).raw("</p></section>");
        StringBuilder charts = new StringBuilder();
        if (frontier.isPresent()) frontier(h, run, frontier.get(), charts);
        else if (kind(run).equals("frontier")) {
            h.raw("<section id=\"frontier\"><h2>Frontier</h2><p class=\"note\">").text(run.status() == RunStatus.RUNNING
                    ? "The search's verdicts reach the store when it ends; meanwhile each severity it has run is a shift below."
                    : "This search stored no verdicts (an older openagent ran it, or it stopped before it ended): they are in frontier.json "
                    + "and report.html in its --out directory (runs/" + run.id() + " by default). Each severity it ran is a shift below.")
                    .raw("</p></section>");
        }
        if (!curve.isEmpty()) curves(h, run, curve, charts);
        if (!episodes) {
            if (frontier.isEmpty() && curve.isEmpty()) h.raw("<section><p class=\"note\">No episodes and no learning curve in this run yet.</p></section>");
            return scripts(h, charts).end();
        }
        if (data == null) {
            h.raw("<section id=\"computing\"><h2>Results</h2><p class=\"note\">").text("The results of " + p.stored()
                    + " episodes are being computed; this page loads again in a moment.").raw("</p></section>");
            return scripts(h, charts).end();
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
        if (!results.watch().isEmpty()) watch(h, results.watch());
        // the charts of report.html, from the same script (HtmlReport.chartsScript)
        ObjectNode d = Json.object();
        d.set("shifts", data.path("shifts"));
        d.set("tiers", data.path("tiers"));
        d.set("agents", data.path("agents"));
        d.set("cells", data.path("cells"));
        d.set("by_shift", byShift);
        h.raw("<script type=\"application/json\" id=\"chart-data\">").raw(HtmlReport.jsonInScript(d)).raw("</script>");
        charts.append("""
                {const D=JSON.parse(document.getElementById('chart-data').textContent);
                const cell=(a,shift,tier)=>D.cells.find(c=>c.agent===a&&c.env==='*'&&c.shift===shift&&(tier==null||c.tier===tier))||null;
                OpenAgentCharts.heatmap(echarts.init(document.getElementById('heatmap')),D.shifts,D.tiers,l=>D.by_shift[l]||null,'success');
                OpenAgentCharts.bars(echarts.init(document.getElementById('bars')),D.agents,D.tiers,true,(a,t)=>cell(a,'*',t));}
                """);
        return scripts(h, charts).end();
    }

    /** ECharts, the shared chart code (HtmlReport.chartsScript: report.html's) and the calls that draw this page's charts, if any. */
    private static Html scripts(Html h, StringBuilder charts) {
        if (charts.isEmpty()) return h;
        return h.raw(HtmlReport.echartsScript()).raw(HtmlReport.chartsScript()).raw("<script>(function(){'use strict';\n").raw(charts.toString())
                .raw("})();</script>");
    }

    /**
     * A frontier search's verdicts: the chart of the drop per shift and severity (the breaking severity outlined), the
     * table of each shift's frontier and every severity it ran, and the compositions tried.
     */
    private static void frontier(Html h, RunInfo run, FrontierVerdicts v, StringBuilder charts) {
        JsonNode cfg = parse(run.config());
        double drop = cfg.path("drop").asDouble(0);
        h.raw("<section id=\"frontier\"><h2>Frontier</h2><div class=\"note\">").text("A shift breaks the agent at a severity when its success falls "
                + (drop > 0 ? String.format(Locale.ROOT, "at least %.2f ", drop) : "")
                + "below its static success on the same tasks" + (cfg.has("confidence") ? String.format(Locale.ROOT, ", at %.0f%% confidence",
                100 * cfg.path("confidence").asDouble()) : "") + " (docs/frontier.md). The drop is static minus shifted success, with its "
                + "confidence-sequence interval; the outlined cell is the weakest severity that breaks the agent. * decided by the estimate "
                + "(the task cap or the budget came first).").raw("</div><div class=\"chart\" id=\"frontier-chart\"></div>");
        h.raw("<table id=\"verdicts\"><tr><th>env</th><th>tier</th><th>shift</th><th>frontier</th><th>severity</th><th>verdict</th>"
                + "<th class=\"n\">drop</th><th>interval</th><th class=\"n\">tasks</th><th class=\"n\">static</th><th class=\"n\">shifted</th></tr>");
        for (FrontierVerdicts.Shift x : v.shifts()) {
            String frontier = switch (x.status()) {
                case "breaks" -> x.breakingSeverity() == null ? "breaks" : "breaks at " + x.breakingSeverity();
                case "holds" -> x.severities().isEmpty() || v.rungs(x).isEmpty() ? "holds" : "holds at " + v.rungs(x).getLast().severity();
                default -> "budget ran out";
            };
            List<FrontierVerdicts.Test> rungs = v.rungs(x);
            if (rungs.isEmpty()) {
                h.raw("<tr>").el("td", x.env()).el("td", x.tier()).el("td", x.shift()).raw("<td>").raw(verdict(x.status(), frontier)).raw("</td>")
                        .raw("<td colspan=\"7\" class=\"note\">not tested</td></tr>");
            }
            for (FrontierVerdicts.Test t : rungs) {
                boolean breaking = x.breakingSeverity() != null && x.breakingSeverity() == t.severity();
                h.raw(breaking ? "<tr class=\"changed\" data-frontier=\"true\">" : "<tr>").el("td", x.env()).el("td", x.tier()).el("td", x.shift())
                        .raw("<td>").raw(verdict(x.status(), frontier)).raw("</td>");
                test(h, t);
            }
        }
        h.raw("</table>");
        if (!v.compositions().isEmpty()) {
            h.raw("<h2>Compositions of shifts it survived</h2><table id=\"compositions\"><tr><th>env</th><th>shifts</th><th>severity</th><th>verdict</th>"
                    + "<th class=\"n\">drop</th><th>interval</th><th class=\"n\">tasks</th><th class=\"n\">static</th><th class=\"n\">shifted</th></tr>");
            for (FrontierVerdicts.Test t : v.compositions()) {
                h.raw(t.breaks() ? "<tr class=\"changed\">" : "<tr>").el("td", t.env()).el("td", t.condition());
                test(h, t);
            }
            h.raw("</table>");
        }
        h.raw("</section><script type=\"application/json\" id=\"frontier-data\">")
                .raw(HtmlReport.jsonInScript(FrontierReport.chartData(v, drop))).raw("</script>");
        charts.append("""
                {const F=JSON.parse(document.getElementById('frontier-data').textContent);const el=document.getElementById('frontier-chart');
                el.style.height=Math.max(300,26*F.rows.length+120)+'px';OpenAgentCharts.frontier(echarts.init(el),F);}
                """);
    }

    /** A test's cells after its condition: severity, verdict, drop, interval, tasks, static and shifted successes. */
    private static void test(Html h, FrontierVerdicts.Test t) {
        h.el("td", String.valueOf(t.severity())).raw("<td>").raw(verdict(t.verdict(), t.verdict() + (t.decided() ? "" : " *"))).raw("</td>")
                .el("td class=\"n\"", String.format(Locale.ROOT, "%.3f", t.drop()))
                .el("td", String.format(Locale.ROOT, "[%.3f, %.3f]", t.low(), t.high()))
                .el("td class=\"n\"", String.valueOf(t.episodes())).el("td class=\"n\"", String.valueOf(t.staticSuccesses()))
                .el("td class=\"n\"", String.valueOf(t.shiftedSuccesses())).raw("</tr>");
    }

    private static String verdict(String status, String text) {
        String cls = switch (status) {
            case "breaks" -> "bad";
            case "holds" -> "ok";
            default -> "warn";
        };
        return "<span class=\"" + cls + "\">" + Html.esc(text) + "</span>";
    }

    /**
     * A run's learning curve: a line chart per metric (the training loss, success...), a line per series, each point's
     * interval as a bar; and the last point of each line in a table.
     */
    private static void curves(Html h, RunInfo run, List<CurvePoint> points, StringBuilder charts) {
        // a run says what its curve's x counts (curve_x in its stored experiment: online adaptation's groups); train and
        // adapt count optimiser steps; any other producer's series, episodes
        String xName = parse(run.config()).path("curve_x").asText(switch (kind(run)) {
            case "train", "adapt" -> "step";
            default -> "episodes";
        });
        Map<String, Map<String, List<CurvePoint>>> byMetric = new LinkedHashMap<>();
        // the trainer's own series first (its loss or reward), then the rest as the store orders them
        List<CurvePoint> ordered = Stream.concat(points.stream().filter(c -> c.series().equals("train")),
                points.stream().filter(c -> !c.series().equals("train"))).toList();
        for (CurvePoint c : ordered) byMetric.computeIfAbsent(c.metric(), k -> new LinkedHashMap<>()).computeIfAbsent(c.series(), k -> new ArrayList<>()).add(c);
        h.raw("<section id=\"curves\"><h2>Learning curves</h2><div class=\"note\">").text("Per " + xName + ": "
                + String.join(", ", byMetric.keySet()) + "; a bar is a point's interval (success: 95% Wilson).").raw("</div>");
        ArrayNode all = Json.array();
        int i = 0;
        for (var metric : byMetric.entrySet()) {
            List<CurvePoint> values = metric.getValue().values().stream().flatMap(List::stream).toList();
            // a loss spans orders of magnitude (log axis, where every value is above 0); a rate lies in [0, 1]
            String scale = metric.getKey().equals("loss") ? (values.stream().allMatch(c -> c.value() > 0) ? "log" : "linear")
                    : values.stream().allMatch(c -> c.value() >= 0 && c.value() <= 1 && (c.lo() == null || c.lo() >= 0 && c.hi() <= 1)) ? "rate" : "linear";
            ObjectNode m = all.addObject().put("metric", metric.getKey()).put("scale", scale).put("id", "curve-" + i++);
            ArrayNode series = m.putArray("series");
            for (var s : metric.getValue().entrySet()) {
                ArrayNode pts = series.addObject().put("name", s.getKey()).putArray("points");
                for (CurvePoint c : s.getValue()) {
                    ArrayNode pt = pts.addArray().add(c.x()).add(c.value());
                    if (c.lo() != null) pt.add(c.lo()).add(c.hi());
                }
            }
            h.raw("<h3>").text(metric.getKey()).raw("</h3><div class=\"chart curve\" id=\"").text(m.path("id").asText()).raw("\"></div>");
        }
        h.raw("<table id=\"curve-last\"><tr><th>metric</th><th>series</th><th class=\"n\">").text(xName).raw("</th><th class=\"n\">value</th><th>interval</th>"
                + "<th class=\"n\">points</th></tr>");
        for (var metric : byMetric.entrySet()) {
            for (var s : metric.getValue().entrySet()) {
                CurvePoint last = s.getValue().getLast();
                h.raw("<tr>").el("td", metric.getKey()).el("td", s.getKey()).el("td class=\"n\"", String.valueOf(last.x()))
                        .el("td class=\"n\"", String.format(Locale.ROOT, "%.4f", last.value()))
                        .el("td", last.lo() == null ? "–" : String.format(Locale.ROOT, "[%.4f, %.4f]", last.lo(), last.hi()))
                        .el("td class=\"n\"", String.valueOf(s.getValue().size())).raw("</tr>");
            }
        }
        ObjectNode d = Json.object().put("x", xName);
        d.set("metrics", all);
        h.raw("</table></section><script type=\"application/json\" id=\"curve-data\">").raw(HtmlReport.jsonInScript(d)).raw("</script>");
        charts.append("""
                {const C=JSON.parse(document.getElementById('curve-data').textContent);
                C.metrics.forEach(m=>OpenAgentCharts.lines(echarts.init(document.getElementById(m.id)),m.series,C.x,m.scale));}
                """);
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
