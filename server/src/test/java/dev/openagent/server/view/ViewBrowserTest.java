package dev.openagent.server.view;

import dev.openagent.results.EpisodeKey;
import dev.openagent.results.EpisodeResult;
import dev.openagent.store.FrontierVerdicts;
import dev.openagent.store.ResultStore;
import dev.openagent.store.StoreLocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The viewer in headless Chromium (Debian's chromium and chromedriver, both named explicitly so Selenium Manager
 * never downloads anything): every page loads without a console error, a run written during the test advances on
 * its page without a reload, and filtering to failures and opening the diff of a tool.semantic-rename episode shows
 * the renamed tools highlighted and the divergence marked. With -Dview.screenshots=DIR it saves the pages as PNGs
 * (docs/img holds the ones docs/view.md shows). Skipped where there is no chromium or chromedriver, except under CI.
 */
@Timeout(300)
class ViewBrowserTest {
    @TempDir
    Path dir;

    static Path executable(String... names) {
        for (String name : names) {
            for (String p : (System.getenv().getOrDefault("PATH", "") + File.pathSeparator + "/usr/bin").split(File.pathSeparator)) {
                Path c = Path.of(p, name);
                if (Files.isExecutable(c)) return c;
            }
        }
        return null;
    }

    /** Headless Chromium through its chromedriver; the test is skipped without them (but fails under CI=true). */
    WebDriver chromium() {
        Path browser = executable("chromium", "chromium-browser");
        Path driverBinary = executable("chromedriver");
        // CI installs Debian's chromium and chromium-driver (.ci/run), so there the check is mandatory.
        if (System.getenv("CI") != null) {
            assertTrue(browser != null && driverBinary != null, "CI=true but chromium or chromedriver is missing: .ci/run installs chromium and chromium-driver");
        }
        assumeTrue(browser != null && driverBinary != null, "no chromium and chromedriver on PATH");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(driverBinary.toFile()).usingAnyFreePort().build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(browser.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,800",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + dir.resolve("profile"));
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        return new ChromeDriver(service, options);
    }

    @Test
    void pagesLoadCleanlyARunningRunAdvancesLiveAndTheDiffMarksTheRenameAndTheDivergence() throws Exception {
        WebDriver driver = chromium();
        Path file = dir.resolve("runs.db");
        String runId = ViewFixtures.evalInto(file, 6);
        try (ResultStore writer = ResultStore.open(file);
             ResultStore reader = ResultStore.openReadOnly(new StoreLocation.SqliteFile(file));
             ViewServer view = ViewServer.start(reader, "127.0.0.1", 0, null)) {
            try {
                WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(60));
                String base = view.baseUrl();

                driver.get(base + "/");
                assertTrue(driver.findElement(By.id("runs")).getText().contains(runId));
                clean(driver, "runs page");
                shot(driver, "view-runs.png");

                driver.get(base + "/runs/" + runId);
                // the report's heatmap and bars, drawn into canvases by the shared chart code
                wait.until(d -> d.findElements(By.cssSelector("#heatmap canvas")).size() == 1 && d.findElements(By.cssSelector("#bars canvas")).size() == 1);
                assertTrue(driver.findElement(By.id("by-shift")).getText().contains(ViewFixtures.SHIFT));
                clean(driver, "results page");
                shot(driver, "view-results.png");

                // a run started now, written as an eval writes it, advances on its page without a reload
                List<EpisodeResult> episodes = writer.episodes(runId);
                writer.beginRun("live-run", "a run in progress", "{\"envs\":[\"poi\"],\"shifts\":[\"" + ViewFixtures.SHIFT + "\"]}", episodes.size());
                writer.saveEpisode("live-run", episodes.get(0));
                writer.flush();
                driver.get(base + "/runs/live-run");
                wait.until(d -> d.findElement(By.id("live")).getText().startsWith("live"));
                String before = driver.findElement(By.id("finished")).getText();
                ((JavascriptExecutor) driver).executeScript("window.notReloaded = true;");
                for (int i = 1; i < 5; i++) writer.saveEpisode("live-run", episodes.get(i));
                writer.flush();
                wait.until(d -> d.findElement(By.id("finished")).getText().equals("5"));
                assertEquals("1", before);
                assertEquals(Boolean.TRUE, ((JavascriptExecutor) driver).executeScript("return window.notReloaded === true;"), "no reload");
                assertNotEquals("–", driver.findElement(By.id("eta")).getText(), "an ETA once episodes finish");
                clean(driver, "a running run's page");
                shot(driver, "view-live.png");

                // failures of the shifted condition, through the filter form
                driver.get(base + "/runs/" + runId + "/episodes");
                new Select(driver.findElement(By.id("f-outcome"))).selectByValue("failure");
                new Select(driver.findElement(By.id("f-shift"))).selectByValue(ViewFixtures.SHIFT);
                driver.findElement(By.id("apply")).click();
                wait.until(d -> d.getCurrentUrl().contains("outcome=failure"));
                List<WebElement> rows = driver.findElements(By.cssSelector("#episodes tr"));
                assertTrue(rows.size() > 1, "failures are listed");
                assertFalse(driver.findElement(By.id("episodes")).getText().contains(" success "), "only failures");
                clean(driver, "episodes page");
                shot(driver, "view-episodes.png");

                driver.findElement(By.linkText("diff vs static")).click();
                wait.until(d -> d.findElements(By.id("tools")).size() == 1);
                List<WebElement> renamed = driver.findElements(By.cssSelector("#tools tr[data-renamed='true']"));
                assertFalse(renamed.isEmpty(), "renamed tools are marked");
                String highlight = renamed.getFirst().findElement(By.tagName("td")).getCssValue("background-color");
                assertEquals("rgba(255, 242, 168, 1)", highlight, "and highlighted");
                WebElement diverged = driver.findElement(By.id("diverged"));
                assertTrue(diverged.getText().contains("the actions diverge here"));
                assertTrue(driver.findElement(By.id("divergence")).getText().startsWith("The actions diverged at step"));
                clean(driver, "diff page");
                shot(driver, "view-diff.png");
            } finally {
                driver.quit();
            }
        }
    }

    /** What a hostile name would run if a page or a chart inserted it as markup: it sets window.ran. */
    static final String HOSTILE = "<img src=x onerror=\"window.ran=1\">";

    @Test
    void namesFromTheStoreAreTextInTheChartsAndTheirTooltipsAndRunNoScript() throws Exception {
        WebDriver driver = chromium();
        Path templates = dir.resolve("templates.db");
        String templateRun = ViewFixtures.evalInto(templates, 2);
        Path file = dir.resolve("hostile.db");
        try (ResultStore source = ResultStore.open(templates); ResultStore store = ResultStore.open(file)) {
            // the same episodes, their agent and shift renamed to markup (names a user or a plug-in chose)
            List<EpisodeResult> episodes = source.episodes(templateRun);
            store.beginRun("hostile", HOSTILE, "{\"envs\":[\"poi\"]}", episodes.size());
            for (EpisodeResult e : episodes) {
                EpisodeKey k = e.key();
                EpisodeKey renamed = new EpisodeKey(k.configHash(), k.agent() + HOSTILE, k.env(), k.shift().equals("none") ? "none" : k.shift() + HOSTILE,
                        k.taskSeed(), k.trial());
                store.saveEpisode("hostile", new EpisodeResult(renamed, e.tier(), e.taskIndex(), e.outcome(), e.trajectory(), e.gold(), e.durationMs()));
            }
            // a frontier whose shift, and a training whose series, are named with markup
            store.beginRun("hostile-frontier", "frontier", "{\"kind\":\"frontier\",\"drop\":0.2}", 0);
            store.saveFrontier("hostile-frontier", new FrontierVerdicts(
                    List.of(new FrontierVerdicts.Shift("poi", "obs.injection" + HOSTILE, "security", "breaks", 2, List.of(1, 2, 3))),
                    List.of(new FrontierVerdicts.Test("poi", "obs.injection" + HOSTILE, "obs.injection:severity=1", 1, "holds", true, 20, 19, 20, 0.05, -0.2, 0.15),
                            new FrontierVerdicts.Test("poi", "obs.injection" + HOSTILE, "obs.injection:severity=2", 2, "breaks", true, 12, 2, 12, 0.83, 0.41, 1.0))));
            store.beginRun("hostile-train", "train", "{\"kind\":\"train\"}", 0);
            for (int step = 1; step <= 3; step++) store.curvePoint("hostile-train", "train" + HOSTILE, step, "loss", 2.0 / step, null, null);
            store.curvePoint("hostile-train", "static" + HOSTILE, 3, "success", 0.75, 0.6, 0.86);
        }
        try (ResultStore reader = ResultStore.openReadOnly(new StoreLocation.SqliteFile(file));
             ViewServer view = ViewServer.start(reader, "127.0.0.1", 0, null)) {
            try {
                WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(60));
                JavascriptExecutor js = (JavascriptExecutor) driver;
                driver.get(view.baseUrl() + "/runs/hostile");
                wait.until(d -> d.findElements(By.cssSelector("#heatmap canvas")).size() == 1 && d.findElements(By.cssSelector("#bars canvas")).size() == 1);
                assertTrue(driver.findElement(By.id("by-shift")).getText().contains(ViewFixtures.SHIFT + HOSTILE), "the shift's name, as text");
                // each chart's tooltip on each of its items: a shift's name on the heatmap, an agent's on the bars
                for (String chart : List.of("heatmap", "bars")) {
                    Object shown = js.executeScript("""
                            const c = echarts.getInstanceByDom(document.getElementById(arguments[0]));
                            const texts = [];
                            c.getOption().series.forEach((s, si) => s.data.forEach((d, di) => {
                              if (d == null || d.value == null) return;
                              c.dispatchAction({type: 'showTip', seriesIndex: si, dataIndex: di});
                              texts.push(document.getElementById(arguments[0]).innerText);
                            }));
                            return texts.join('\\n');""", chart);
                    assertTrue(String.valueOf(shown).contains(HOSTILE), chart + "'s tooltip shows the name as text: " + shown);
                }
                assertEquals(0L, js.executeScript("return document.querySelectorAll('main img').length;"), "no element from a name");
                // the frontier's chart and the learning curves (charts.js's frontier and lines), each item's tooltip
                driver.get(view.baseUrl() + "/runs/hostile-frontier");
                wait.until(d -> d.findElements(By.cssSelector("#frontier-chart canvas")).size() == 1);
                assertTrue(String.valueOf(tips(js, "frontier-chart")).contains("obs.injection" + HOSTILE), "the frontier's tooltip shows the name as text");
                assertTrue(driver.findElement(By.id("verdicts")).getText().contains("obs.injection" + HOSTILE));
                assertEquals(0L, js.executeScript("return document.querySelectorAll('main img').length;"), "no element from a name");
                clean(driver, "a frontier's page");
                driver.get(view.baseUrl() + "/runs/hostile-train");
                wait.until(d -> d.findElements(By.cssSelector("#curve-0 canvas")).size() == 1 && d.findElements(By.cssSelector("#curve-1 canvas")).size() == 1);
                String curveTips = String.valueOf(tips(js, "curve-0")) + tips(js, "curve-1");
                assertTrue(curveTips.contains("train" + HOSTILE) && curveTips.contains("static" + HOSTILE), "the curves' tooltips show the names as text: " + curveTips);
                assertTrue(curveTips.contains("75.0% [60.0%, 86.0%]"), "success with its interval: " + curveTips);
                assertEquals(0L, js.executeScript("return document.querySelectorAll('main img').length;"), "no element from a name");
                clean(driver, "a training's page");
                driver.get(view.baseUrl() + "/runs/hostile/episodes?agent=" + Pages.enc(episodesAgent(reader)));
                assertTrue(driver.findElement(By.id("episodes")).getText().contains(HOSTILE), "the listing shows the agent's name as text");
                driver.get(view.baseUrl() + "/");
                assertTrue(driver.findElement(By.id("runs")).getText().contains(HOSTILE), "the run's name, as text");
                assertEquals(Boolean.FALSE, js.executeScript("return window.ran === 1;"), "no script ran");
                clean(driver, "pages with hostile names");
            } finally {
                driver.quit();
            }
        }
    }

    /** The text of the chart's tooltip shown on each of its items in turn (ECharts' showTip), joined. */
    static Object tips(JavascriptExecutor js, String chart) {
        return js.executeScript("""
                const c = echarts.getInstanceByDom(document.getElementById(arguments[0]));
                const texts = [];
                c.getOption().series.forEach((s, si) => s.data.forEach((d, di) => {
                  if (d == null || d.value == null && !Array.isArray(d)) return;
                  c.dispatchAction({type: 'showTip', seriesIndex: si, dataIndex: di});
                  texts.push(document.getElementById(arguments[0]).innerText);
                }));
                return texts.join('\\n');""", chart);
    }

    private static String episodesAgent(ResultStore store) {
        return store.facets("hostile").agents().getFirst();
    }

    /** No console error (a script error, a failed load) on the page. */
    static void clean(WebDriver driver, String page) {
        List<String> errors = new ArrayList<>();
        for (LogEntry e : driver.manage().logs().get(LogType.BROWSER)) if (e.getLevel().intValue() >= Level.SEVERE.intValue()) errors.add(e.getMessage());
        assertTrue(errors.isEmpty(), page + ": console errors " + errors);
    }

    static void shot(WebDriver driver, String name) throws Exception {
        String to = System.getProperty("view.screenshots");
        if (to == null) return;
        Files.createDirectories(Path.of(to));
        Files.write(Path.of(to, name), ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
    }
}
