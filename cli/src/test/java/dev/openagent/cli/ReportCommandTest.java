package dev.openagent.cli;

import dev.openagent.fake.Results;
import dev.openagent.results.EpisodeResult;
import dev.openagent.sandbox.Outcome;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `report` on a run the shift proxy recorded: sessions without a task are recorded, not scored, and said to be. */
class ReportCommandTest {
    @TempDir
    Path dir;

    @Test
    void aProxyRunSaysWhatItRecordedAndCountsTheCallsOfUnscoredSessions() throws Exception {
        Path file = dir.resolve("proxy.db");
        // As SessionRecorder writes it: one run per proxy process, one episode per session, config naming the upstream.
        String config = "{\"env\":\"proxy\",\"server\":\"proxy\",\"shift\":\"tool.semantic-rename\",\"upstream\":\"npx server-filesystem /srv\"}";
        String name = "proxy mcp npx server-filesystem /srv --shift tool.semantic-rename";
        try (ResultStore store = ResultStore.open(file)) {
            store.saveRun("proxy-1", name, config, 0, RunStatus.RUNNING, null);
            for (int i = 0; i < 8; i++) {
                EpisodeResult session = Results.episode("claude-code", "tool.semantic-rename", "perception", i, 0, false, true, Outcome.End.UNSCORED);
                store.saveEpisode("proxy-1", session);
            }
            store.saveRun("proxy-1", name, config, 8, RunStatus.COMPLETE, null);
        }
        CliTest.Result list = CliTest.run("report", "--store", file.toString(), "--list");
        assertEquals(0, list.code(), list.err());
        assertTrue(list.out().contains("0 of      8 scored (8 without a task)"), list.out());

        CliTest.Result report = CliTest.run("report", "--store", file.toString(), "--out", dir.resolve("out").toString());
        assertEquals(0, report.code(), report.err());
        String md = Files.readString(dir.resolve("out/report.md"));
        assertTrue(md.contains("status **complete** · recorded by `openagent proxy mcp` · upstream `npx server-filesystem /srv` · "
                + "shift `tool.semantic-rename` · one episode per session"), md);
        assertFalse(md.contains("tasks ×"), "no evaluation header with zero tasks and trials: " + md);
        assertTrue(md.contains("| episodes | 8 (0 infrastructure errors, not scored; 8 proxy sessions without a task, not scored) |"), md);
        assertTrue(md.contains("(0 of 8 calls)"), "the sessions' calls are counted: " + md);
        assertFalse(md.contains("Partial results"), md);
        String html = Files.readString(dir.resolve("out/report.html"));
        assertTrue(html.contains("\"setup\":[\"recorded by `openagent proxy mcp`\""), "the page's header reads the same phrases");
    }
}
