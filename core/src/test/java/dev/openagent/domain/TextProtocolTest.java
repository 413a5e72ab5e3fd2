package dev.openagent.domain;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.registry.Environments;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Message;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a text-command episode ends and asks, as the system prompt says and every agent, trajectory and
 * exporter writes it: one protocol for the environment, the recorded conversation and agents.
 */
class TextProtocolTest {
    @Test
    void finalAnswersAndRefusalsWrittenAsMessagesEndTheEpisode() {
        Env env = Environments.get("household").create();
        TaskRequest r = new TaskRequest(Split.TEST, 6, 1);
        Trajectory oracle = Episodes.run(env, new OracleAgent(), r);
        String answer = oracle.messages().getLast().content();
        assertTrue(answer.startsWith(Protocol.FINAL_ANSWER + " "), "the recorded ending is what a text agent writes: " + answer);

        // Replay the oracle's commands as plain messages, then its final message as written.
        env.reset(r);
        Step last = null;
        for (Message m : oracle.messages()) {
            if (!m.role().equals("assistant")) continue;
            last = env.step(new Action.Command(m.content()));
        }
        assertTrue(last.done() && last.outcome().success(), String.valueOf(last.outcome()));

        env.reset(r);
        Step refused = env.step(new Action.Command("CANNOT COMPLETE: no such thing"));
        assertEquals(Outcome.End.REFUSED, refused.outcome().end());
    }

    @Test
    void aQuestionIsTheAskCommandAndIsAnsweredFromWhatTheUserKnowsUnderAnyShift() {
        Env env = ShiftSpec.parseStack("query.underspecified").apply(Environments.get("household").create());
        int asked = 0;
        for (long seed = 0; seed < 20; seed++) {
            Trajectory t = Episodes.run(env, new OracleAgent(), new TaskRequest(Split.TEST, seed, 0));
            assertTrue(t.success(), t.taskId());
            List<Message> asks = t.messages().stream().filter(m -> m.role().equals("assistant") && m.content() != null
                    && m.content().startsWith(Protocol.ASK_COMMAND + " ")).toList();
            if (asks.isEmpty()) continue;
            asked++;
            // The same question written as a command gets the same reply.
            env.reset(new TaskRequest(Split.TEST, seed, 0));
            String reply = env.step(new Action.Command(asks.getFirst().content())).observations().getFirst().text();
            int i = t.messages().indexOf(asks.getFirst());
            assertEquals(t.messages().get(i + 1).content(), reply);
            assertTrue(t.messages().stream().noneMatch(m -> m.toolCalls() != null && !m.toolCalls().isEmpty()), "no tool calls in a text episode");
        }
        assertTrue(asked > 10, "questions were asked: " + asked);
    }
}
