package dev.openagent.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The self-contained HTML report: one file with the report data, the page's own script and
 * Apache ECharts (from its WebJar) inlined, so it opens offline. Charts: a tier × shift heatmap,
 * per-agent bars by tier, failure categories by shift; plus tables and a trajectory browser.
 * Everything the model wrote is inserted as text, never as markup.
 */
public final class HtmlReport {
    private static final String TEMPLATE = "dev/openagent/report/report.html";
    /** The charts (heatmap, bars, the frontier, learning curves), shared with the frontier's report and {@code openagent view}: {@link #chartsScript()}. */
    private static final String CHARTS = "dev/openagent/report/charts.js";
    private static final String ECHARTS_POM = "META-INF/maven/org.webjars/echarts/pom.properties";

    private HtmlReport() {}

    public static String render(ObjectNode data) {
        String title = data.path("run").path("name").asText("OpenAgent report");
        return fill(resource(TEMPLATE), Map.of(
                "@@TITLE@@", escapeHtml(title),
                "@@ECHARTS_VERSION@@", echartsVersion(),
                "@@ECHARTS@@", scriptSafe(echarts()),
                "@@CHARTS@@", scriptSafe(resource(CHARTS)),
                "@@DATA@@", jsonInScript(data)));
    }

    private static final Pattern MARKER = Pattern.compile("@@[A-Z_]+@@");

    /**
     * Replaces the template's markers in one pass, so text inserted for one marker (model output in
     * the data, say) is never searched for another.
     */
    static String fill(String template, Map<String, String> values) {
        StringBuilder sb = new StringBuilder(template.length() + values.values().stream().mapToInt(String::length).sum());
        Matcher m = MARKER.matcher(template);
        int at = 0;
        while (m.find()) {
            String v = values.get(m.group());
            if (v == null) throw new IllegalStateException("report template has an unknown marker " + m.group());
            sb.append(template, at, m.start()).append(v);
            at = m.end();
        }
        return sb.append(template, at, template.length()).toString();
    }

    /** Apache ECharts inlined as a script element (with its licence note), for other self-contained pages. */
    public static String echartsScript() {
        return "<!-- Apache ECharts " + echartsVersion() + " (Apache License 2.0), inlined from its WebJar so the page works offline. -->\n<script>"
                + scriptSafe(echarts()) + "</script>\n";
    }

    /**
     * The chart functions ({@code OpenAgentCharts.heatmap}, {@code .bars}, {@code .frontier}, {@code .lines}) as a script
     * element; needs {@link #echartsScript()} first.
     */
    public static String chartsScript() {
        return "<script>" + scriptSafe(resource(CHARTS)) + "</script>\n";
    }

    /** JSON that cannot end its script element: '<' only occurs inside strings, where \u003c means the same. */
    public static String jsonInScript(ObjectNode data) {
        return Json.write(data).replace("<", "\\u003c");
    }

    private static String scriptSafe(String js) {
        return js.replace("</script", "<\\/script");
    }

    /** Text as HTML text: the markup characters escaped. */
    public static String escapeHtml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    static String echartsVersion() {
        Properties p = new Properties();
        try (InputStream in = HtmlReport.class.getClassLoader().getResourceAsStream(ECHARTS_POM)) {
            if (in == null) throw new IllegalStateException("the ECharts WebJar (org.webjars:echarts) is not on the classpath");
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p.getProperty("version");
    }

    static String echarts() {
        return resource("META-INF/resources/webjars/echarts/" + echartsVersion() + "/echarts.min.js");
    }

    private static String resource(String path) {
        try (InputStream in = HtmlReport.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) throw new IllegalStateException("missing resource " + path);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
