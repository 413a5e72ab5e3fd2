package dev.openagent.server.mcp;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.registry.Catalog;
import dev.openagent.episode.AgentSession;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.server.EnvChoice;
import dev.openagent.server.EpisodeSink;
import dev.openagent.server.FinishedEpisode;
import dev.openagent.server.TaskChoice;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class McpEpisodeHostTest {
    /** Collects recorded episodes in memory. */
    static final class ListSink implements EpisodeSink {
        final List<Trajectory> episodes = new ArrayList<>();

        @Override
        public synchronized void record(FinishedEpisode e) { episodes.add(e.trajectory()); }

        @Override
        public String describe() { return "memory"; }
    }

    static final EnvChoice POI = EnvChoice.of(new Catalog(), "poi", "none");
    static final TaskChoice TASKS = new TaskChoice(Split.TEST, 0, 1);

    /** Plays the oracle's plan for the host's current task through host calls; returns the last reply. */
    static ToolReply solve(McpEpisodeHost host, int taskIndex) {
        return solve(host, POI, taskIndex);
    }

    static ToolReply solve(McpEpisodeHost host, EnvChoice choice, int taskIndex) {
        Env local = choice.create();
        AgentSession oracle = new OracleAgent().begin(local.reset(TASKS.byIndex(taskIndex)), local);
        Step last = null;
        ToolReply reply = null;
        do {
            Action a = oracle.act(last);
            last = local.step(a);
            reply = switch (a) {
                case Action.CallTools c -> host.call(c.calls().getFirst().name(), Json.MAPPER.convertValue(
                        Json.parse(c.calls().getFirst().arguments()), new com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>>() {}));
                case Action.Answer ans -> host.call(McpEpisodeHost.SUBMIT, Map.of("answer", ans.text()));
                case Action.Refuse r -> host.call(McpEpisodeHost.REFUSE, Map.of("reason", r.reason()));
                case Action.Command c -> host.call(McpEpisodeHost.COMMAND, Map.of("command", c.text()));
                case Action.AskUser q -> host.call(dev.openagent.sandbox.Protocol.ASK_USER, Map.of("question", q.question()));
            };
            assertFalse(reply.error(), reply.text());
        } while (!last.done());
        return reply;
    }

    @Test
    void episodesFollowOneAnotherAndAreRecordedWithTheirScore() {
        ListSink sink = new ListSink();
        List<List<ToolSpec>> changes = new ArrayList<>();
        McpEpisodeHost host = new McpEpisodeHost(POI, TASKS, 3, null, sink, changes::add);
        List<String> names = host.tools().stream().map(ToolSpec::name).toList();
        assertTrue(names.containsAll(List.of("get_task", "submit_answer", "refuse", "ask_user")), names.toString());
        for (int i = 0; i < 3; i++) {
            String task = host.call(McpEpisodeHost.GET_TASK, Map.of()).text();
            assertTrue(task.contains("Episode " + (i + 1)), task);
            ToolReply end = solve(host, 3 + i);
            assertTrue(end.text().contains("\"success\":true"), end.text());
        }
        assertEquals(3, sink.episodes.size());
        for (Trajectory t : sink.episodes) {
            assertTrue(t.success());
            assertEquals("mcp", t.agent());
        }
        assertEquals(TASKS.byIndex(4).seed(), sink.episodes.get(1).seed(), "the second episode is the next task index");
        assertTrue(changes.isEmpty(), "the static environment never changes its tools");
    }

    /** Text-command environments show no tools: MCP clients get command and ask_user, and the oracle still wins. */
    @Test
    void textCommandEnvironmentsArePlayedThroughTheCommandTool() {
        EnvChoice household = EnvChoice.of(new Catalog(), "household", "none");
        ListSink sink = new ListSink();
        McpEpisodeHost host = new McpEpisodeHost(household, TASKS, 0, null, sink, t -> {});
        assertTrue(host.tools().stream().map(ToolSpec::name).toList().containsAll(List.of("command", "ask_user", "submit_answer")));
        for (int i = 0; i < 3; i++) {
            ToolReply end = solve(host, household, i);
            assertTrue(end.text().contains("\"success\":true"), end.text());
        }
        assertEquals(3, sink.episodes.size());
        ToolReply help = host.call("command", Map.of("command", "help"));
        assertFalse(help.error());
        assertTrue(host.call("command", Map.of("cmd", "help")).error(), "wrong argument names are refused");
    }

    @Test
    void aNewEpisodeWithOtherToolNamesTellsTheTransport() {
        EnvChoice erased = EnvChoice.of(new Catalog(), "poi", "tool.identity-erasure");
        List<List<ToolSpec>> changes = new ArrayList<>();
        McpEpisodeHost host = new McpEpisodeHost(erased, TASKS, 0, null, new ListSink(), changes::add);
        List<ToolSpec> first = host.tools();
        host.call(McpEpisodeHost.SUBMIT, Map.of("answer", "no idea"));
        assertEquals(1, changes.size());
        assertEquals(host.tools(), changes.getFirst());
        assertFalse(first.equals(host.tools()));
        Env local = erased.create();
        List<ToolSpec> expected = new ArrayList<>(local.reset(TASKS.byIndex(1)).tools());
        assertEquals(expected, host.tools().subList(0, expected.size()), "the second task's tools exactly as an agent sees them");
    }

    @Test
    void badControlArgumentsAreErrorsAndAWrongAnswerScoresZero() {
        ListSink sink = new ListSink();
        McpEpisodeHost host = new McpEpisodeHost(POI, TASKS, 0, 99L, sink, t -> {});
        ToolReply bad = host.call(McpEpisodeHost.SUBMIT, Map.of("text", "x"));
        assertTrue(bad.error());
        assertTrue(bad.text().startsWith("Error [INVALID_ARGUMENTS]"), bad.text());
        assertTrue(sink.episodes.isEmpty(), "a rejected submit does not end the episode");
        ToolReply unknown = host.call("no_such_tool", Map.of());
        assertTrue(unknown.error());
        assertTrue(unknown.text().contains("UNKNOWN_TOOL"), unknown.text());
        ToolReply wrong = host.call(McpEpisodeHost.SUBMIT, Map.of("answer", "I made it up"));
        assertFalse(wrong.error());
        assertTrue(wrong.text().contains("\"success\":false"), wrong.text());
        assertEquals(1, sink.episodes.size());
        assertEquals(99L, sink.episodes.getFirst().seed());
        assertEquals(Outcome.End.ANSWERED, sink.episodes.getFirst().outcome().end());
        assertEquals(1, sink.episodes.getFirst().stats().toolErrors());
    }
}
