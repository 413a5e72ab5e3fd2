package dev.openagent.report;

import dev.openagent.agent.framework.AgentTranscript;
import dev.openagent.episode.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Opens the HTML report in headless Chromium, offline, and checks what the scripts drew: the three
 * charts, the transcript of the selected episode, and no script error. Skipped where no Chromium is
 * installed (Debian: apt-get install chromium).
 */
@Timeout(180)
class ReportBrowserTest {
    @TempDir
    Path dir;

    static Path chromium() {
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String p : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                Path c = Path.of(p, name);
                if (Files.isExecutable(c)) return c;
            }
        }
        return null;
    }

    @Test
    void thePageRendersItsChartsAndTranscriptsOffline() throws Exception {
        Path browser = chromium();
        // CI installs Debian's chromium (.ci/run), so there the check is mandatory; elsewhere it needs a browser.
        if (System.getenv("CI") != null) assertTrue(browser != null, "CI=true but no chromium on PATH: .ci/run installs it");
        assumeTrue(browser != null, "no chromium on PATH");
        // every episode carries an agent's own transcript, as an in-process framework agent's does
        AgentTranscript own = new AgentTranscript(List.of(new AgentTranscript.Exchange(false, List.of("search_places"),
                List.of(Message.system("my agent's own prompt"), Message.user("hello")), Message.assistant("done"))), null);
        Map<String, AgentTranscript> transcripts = new HashMap<>();
        ReportTest.episodes().forEach(e -> transcripts.put(e.id(), own));
        Reports.Written w = Reports.write(dir.resolve("report"), ReportTest.RUN, ReportTest.episodes(), 1000, transcripts);
        Path dom = dir.resolve("dom.html");
        Path log = dir.resolve("console.log");
        Process p = new ProcessBuilder(browser.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + dir.resolve("profile"),
                "--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000", "--dump-dom", w.html().toUri().toString())
                .redirectOutput(dom.toFile()).redirectError(log.toFile()).start();
        assertTrue(p.waitFor(150, TimeUnit.SECONDS), "chromium finished");
        String html = Files.readString(dom);
        String console = Files.readString(log);
        Matcher canvases = Pattern.compile("<canvas[^>]*width=\"(\\d+)\"[^>]*height=\"(\\d+)\"").matcher(html);
        int drawn = 0;
        while (canvases.find()) if (Integer.parseInt(canvases.group(1)) > 100 && Integer.parseInt(canvases.group(2)) > 100) drawn++;
        assertEquals(3, drawn, "heatmap, agent bars and failure chart are drawn");
        assertTrue(html.contains("class=\"msg user\""), "the first episode's transcript is shown");
        assertTrue(html.contains("tool.semantic-rename"), "the shift table is filled");
        assertTrue(html.contains("the agent's own transcript (1 model call)") && html.contains("my agent's own prompt"), "the agent's transcript is shown");
        assertFalse(console.contains("Uncaught"), "no script error:\n" + console);
    }
}
