package dev.openagent.metrics;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.registry.Environments;
import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Message;
import dev.openagent.episode.Stats;
import dev.openagent.episode.Trajectory;
import dev.openagent.results.EpisodeKey;
import dev.openagent.results.EpisodeResult;
import dev.openagent.results.GoldFacts;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Each taxonomy rule on real poi episodes played by scripted agents (and a few hand-made trajectories). */
class TaxonomyTest {
    private static final TaskRequest TASK = new TaskRequest(Split.TEST, 11, 2); // gold plan: two dependent calls

    /** An agent whose move at each turn is a function of the turn, the last step and the oracle's guide. */
    interface Script {
        Action next(int turn, Step last, Guide guide);
    }

    private static Agent scripted(Script script) {
        return new Agent() {
            @Override
            public String name() { return "scripted"; }

            @Override
            public AgentSession begin(Start start, Env env) {
                Guide guide = env.guide();
                int[] turn = {0};
                return last -> script.next(turn[0]++, last, guide);
            }
        };
    }

    private static EpisodeResult play(Agent agent) {
        Env env = Environments.get("poi").create();
        Trajectory t = Episodes.run(env, agent, TASK);
        return new EpisodeResult(new EpisodeKey("h", agent.name(), "poi", "none", TASK.seed(), 0), "static", 0, t.outcome(), t,
                GoldFacts.of(env.task()), 0);
    }

    /** One call of {@code tool} with these arguments, then an answer. */
    private static Script callThenAnswer(String tool, String arguments) {
        return (i, last, g) -> i == 0 ? Action.CallTools.of("x", tool, arguments) : new Action.Answer("It is 42.");
    }

    private static Failure classify(Script s) {
        return Taxonomy.classify(play(scripted(s)));
    }

    @Test
    void theOracleSucceeds() {
        assertEquals(Failure.SUCCESS, Taxonomy.classify(play(new OracleAgent())));
    }

    @Test
    void refusingASolvableTaskIsAFalseRefusal() {
        assertEquals(Failure.FALSE_REFUSAL, classify((i, last, g) -> new Action.Refuse("no")));
    }

    @Test
    void answeringWithoutTheNeededCallsIsPremature() {
        assertEquals(Failure.PREMATURE_ANSWER, classify((i, last, g) -> new Action.Answer("It is 42.")));
    }

    @Test
    void callingAToolThatDoesNotExistIsAHallucinatedTool() {
        assertEquals(Failure.HALLUCINATED_TOOL, classify(callThenAnswer("get_everything", "{}")));
    }

    @Test
    void unrepairedBadArgumentsAreInvalidArgumentsButRepairedOnesAreNot() {
        assertEquals(Failure.INVALID_ARGUMENTS, classify(callThenAnswer("get_place_details", "{\"place_id\": ")));
        // Malformed first, then the oracle's calls (the first one is to the same tool): repaired, so the wrong answer is the failure.
        Failure repaired = classify((i, last, g) -> {
            if (i == 0) return Action.CallTools.of("x", "search_places", "{\"min_rating\": \"high\"}");
            Action a = g.next(i == 1 ? null : last);
            return a instanceof Action.Answer ? new Action.Answer("I could not tell.") : a;
        });
        assertEquals(Failure.WRONG_ANSWER, repaired);
    }

    @Test
    void answeringRightAfterAnErrorIgnoresIt() {
        assertEquals(Failure.IGNORED_ERROR, classify(callThenAnswer("get_place_details", "{\"place_id\": \"P-missing\"}")));
    }

    @Test
    void repeatingOneCallUntilTheStepLimitIsALoop() {
        assertEquals(Failure.LOOP, classify((i, last, g) -> Action.CallTools.of("c" + i, "list_districts", "{\"city\": \"Nowhere\"}")));
        assertEquals(Failure.STEP_LIMIT, classify((i, last, g) -> Action.CallTools.of("c" + i, "list_districts", "{\"city\": \"N" + i + "\"}")));
    }

    @Test
    void followingThePlanButAnsweringWronglyIsAWrongAnswer() {
        assertEquals(Failure.WRONG_ANSWER, classify((i, last, g) -> {
            Action a = g.next(last);
            return a instanceof Action.Answer ? new Action.Answer("No idea.") : a;
        }));
    }

    @Test
    void answeringAnUnsolvableTaskIsForcedCompletion() {
        EpisodeResult r = play(scripted((i, last, g) -> new Action.Answer("It is 42.")));
        Trajectory t = r.trajectory();
        Trajectory unsolvable = new Trajectory(t.env(), t.taskId(), t.split(), t.seed(), t.difficulty(), t.kind(), false, t.shifts(),
                t.agent(), t.tools(), t.messages(), new Outcome(false, Outcome.End.ANSWERED, "answered an unsolvable task"), t.stats());
        assertEquals(Failure.FORCED_COMPLETION, Taxonomy.classify(unsolvable.outcome(), unsolvable, GoldFacts.NONE));
    }

    @Test
    void skippingAVisibleGoldToolIsAWrongToolUnlessTheToolIsRenamed() {
        List<Message> messages = List.of(Message.system("s"), Message.user("q"),
                Message.assistantCalls(List.of(Message.ToolCall.of("a", "list_districts", "{\"city\":\"A\"}"))),
                Message.tool("a", "list_districts", "[]", null),
                Message.assistantCalls(List.of(Message.ToolCall.of("b", "list_districts", "{\"city\":\"B\"}"))),
                Message.tool("b", "list_districts", "[]", null),
                Message.assistant("There are two."));
        Outcome wrong = new Outcome(false, Outcome.End.ANSWERED, "answer lacks 'x'");
        GoldFacts gold = new GoldFacts(2, List.of("search_places", "get_place_details"));
        var schema = dev.openagent.json.Json.object();
        List<ToolSpec> visible = List.of(new ToolSpec("search_places", "", schema), new ToolSpec("list_districts", "", schema));
        List<ToolSpec> renamed = List.of(new ToolSpec("find_venues", "", schema), new ToolSpec("list_districts", "", schema));
        assertEquals(Failure.WRONG_TOOL, Taxonomy.classify(wrong, trajectory(visible, messages, wrong), gold));
        assertEquals(Failure.WRONG_ANSWER, Taxonomy.classify(wrong, trajectory(renamed, messages, wrong), gold));
    }

    @Test
    void infrastructureErrorsAreTheirOwnCategory() {
        Outcome infra = new Outcome(false, Outcome.End.INFRA_ERROR, "model request failed");
        assertEquals(Failure.INFRA_ERROR, Taxonomy.classify(infra, null, GoldFacts.NONE));
    }

    private static Trajectory trajectory(List<ToolSpec> tools, List<Message> messages, Outcome outcome) {
        return new Trajectory("poi", "t", "test", 1, 2, "k", true, List.of(), "a", tools, messages, outcome,
                new Stats(3, 2, 0, Map.of(), 0, 0));
    }
}
