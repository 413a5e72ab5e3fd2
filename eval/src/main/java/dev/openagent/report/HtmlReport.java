package dev.openagent.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * The self-contained HTML report: one file with the report data, the page's own script and
 * Apache ECharts (from its WebJar) inlined, so it opens offline. Charts: a tier × shift heatmap,
 * per-agent bars by tier, failure categories by shift; plus tables and a trajectory browser.
 * Everything the model wrote is inserted as text, never as markup.
 */
public final class HtmlReport {
    private static final String TEMPLATE = "dev/openagent/report/report.html";
    private static final String ECHARTS_POM = "META-INF/maven/org.webjars/echarts/pom.properties";

    private HtmlReport() {}

    public static String render(ObjectNode data) {
        String page = resource(TEMPLATE);
        String title = data.path("run").path("name").asText("OpenAgent report");
        return fill(page, "@@ECHARTS@@", scriptSafe(echarts()))
                .replace("@@TITLE@@", escapeHtml(title))
                .replace("@@ECHARTS_VERSION@@", echartsVersion())
                .replace("@@DATA@@", jsonInScript(data));
    }

    /** Replaces the one occurrence of a marker without reading the replacement as a pattern. */
    private static String fill(String page, String marker, String value) {
        int i = page.indexOf(marker);
        if (i < 0) throw new IllegalStateException("report template lacks " + marker);
        return page.substring(0, i) + value + page.substring(i + marker.length());
    }

    /** JSON that cannot end its script element: '<' only occurs inside strings, where \u003c means the same. */
    static String jsonInScript(ObjectNode data) {
        return Json.write(data).replace("<", "\\u003c");
    }

    private static String scriptSafe(String js) {
        return js.replace("</script", "<\\/script");
    }

    static String escapeHtml(String s) {
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
