package dev.openagent.tau2;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.SimulatedUser;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolError;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The environment's episodes: tau2's tasks and splits, its scoring, its user, its transfer, the final database on record. */
class Tau2RetailTest {
    private static final Tau2Retail ENV = Checkouts.retail();

    /** A fresh instance reset to tau2's task {@code id}. */
    static Env at(String id, Start[] start) {
        Tau2Retail.Gold g = ENV.gold(id);
        Split split = Split.parse(g.task().split());
        Env e = ENV.create();
        Start s = e.reset(new TaskRequest(split, ENV.split(split).indexOf(g), 0));
        if (start != null) start[0] = s;
        return e;
    }

    private static Step call(Env e, String tool, String args) {
        return e.step(Action.CallTools.of("c1", tool, args));
    }

    @Test
    void tau2sSplitsAndTaskIds() {
        assertEquals(74, ENV.tasks(Split.TRAIN));
        assertEquals(40, ENV.tasks(Split.TEST));
        assertEquals("tau2-retail", ENV.id());
        Env e = at("36", null);
        assertEquals("tau2-retail/test/36", e.task().id());
        assertEquals("modify_items", e.task().kind());
        assertTrue(ENV.info().tools().contains("transfer_to_human_agents"));
        assertEquals(16, ENV.info().tools().size());
    }

    @Test
    void theRequestIsTheScenarioInTheUsersWordsAndThePolicyIsTheRules() {
        Start[] s = new Start[1];
        at("0", s);
        assertTrue(s[0].query().startsWith("I am Yusuf Rossi in zip code 19122. I received my order #W2378156 and wish to exchange the mechanical keyboard"), s[0].query());
        assertTrue(s[0].systemPrompt().contains("# Retail agent policy"), "tau2's policy.md is the rules");
    }

    @Test
    void theDatabaseMustEndAsTheGoldActionsLeaveIt() {
        Env e = at("0", null);
        Step s = e.step(new Action.Answer("Done."));
        assertFalse(s.outcome().success());
        assertTrue(s.outcome().detail().startsWith("the database differs from the one tau2's gold actions leave: /orders: absent (expected: {\"#W2378156\""),
                s.outcome().detail());
    }

    @Test
    void communicateInfoMustBeSaidInAnAnswerOrAQuestionAndAssertionsAreNotScored() {
        Env e = at("24", null);
        Step wrong = e.step(new Action.Answer("They are t-shirts."));
        assertEquals("did not tell the user 'polyester'; not scored: 1 natural-language assertion (tau2 needs a model judge)", wrong.outcome().detail());
        e = at("24", null);
        e.step(new Action.AskUser("One is polyester, is that the one you mean?"));
        Step right = e.step(new Action.Answer("The other is COTTON."));
        assertTrue(right.outcome().success(), right.outcome().detail());
        assertEquals("correct; not scored: 1 natural-language assertion (tau2 needs a model judge)", right.outcome().detail());
    }

    @Test
    void aTransferToAHumanAgentEndsTheEpisode() {
        Env e = at("50", null);
        Step s = call(e, "transfer_to_human_agents", "{\"summary\":\"wants a cancellation undone\"}");
        assertTrue(s.done());
        assertEquals("Transfer successful", s.observations().getFirst().text());
        assertTrue(s.outcome().success(), s.outcome().detail());
        assertEquals(Outcome.End.ANSWERED, s.outcome().end());
        assertEquals("transferred to a human agent; correct", s.outcome().detail());
        assertEquals("The episode is over.", e.step(new Action.Answer("x")).observations().getFirst().text());
    }

    @Test
    void refusalsReadAsTau2ShowsThem() {
        Env e = at("0", null);
        Observation o = call(e, "get_order_details", "{\"order_id\":\"#W0000000\"}").observations().getFirst();
        assertEquals("Error: Order not found", o.text());
        assertEquals(ToolError.Code.DOMAIN, o.error().code());
        o = call(e, "get_order_details", "{\"order_id\":\"#W2378156\",\"verbose\":true}").observations().getFirst();
        assertEquals("Error [INVALID_ARGUMENTS]: RetailTools.get_order_details() got an unexpected keyword argument 'verbose'", o.text());
        o = call(e, "return_delivered_order_items", "{\"order_id\":\"#W2378156\",\"item_ids\":\"1151293680\",\"payment_method_id\":\"x\"}").observations().getFirst();
        assertEquals(ToolError.Code.INVALID_ARGUMENTS, o.error().code());
        assertEquals("'item_ids' must be a list of strings", o.error().message());
        o = call(e, "calculate", "{\"expression\":\"1/0\"}").observations().getFirst();
        assertEquals("Error: division by zero", o.text());
    }

    @Test
    void everyEpisodeStartsFromDbJsonAndReportsWhatItChanged() {
        Env first = at("0", null);
        assertEquals("{}", Json.write(first.dbChanges()));
        Step s = call(first, "cancel_pending_order", "{\"order_id\":\"#W6779827\",\"reason\":\"no longer needed\"}");
        assertEquals("cancelled", s.observations().getFirst().payload().path("status").asText());
        JsonNode changes = first.dbChanges();
        assertEquals("cancelled", changes.path("orders").path("#W6779827").path("status").asText());
        // The order was paid with a gift card: refunded to it at once, so its user changed too.
        assertEquals(4079.45 + ENV.db().users().get("ethan_lopez_6291").paymentMethods().values().stream()
                        .filter(m -> m instanceof Retail.GiftCard).mapToDouble(m -> ((Retail.GiftCard) m).balance()).findFirst().orElseThrow(),
                changes.path("users").path("ethan_lopez_6291").path("payment_methods").path("gift_card_7219486").path("balance").asDouble(), 0.005);
        Env second = at("0", null);
        assertEquals("pending", call(second, "get_order_details", "{\"order_id\":\"#W6779827\"}").observations().getFirst().payload().path("status").asText());
        assertEquals("pending", ENV.db().orders().get("#W6779827").status());
    }

    @Test
    void trajectoriesKeepTheFinalDatabaseAndTau2sTaskId() {
        Tau2Retail.Gold g = ENV.gold("0");
        Trajectory t = Episodes.run(ENV.create(), new OracleAgent(), new TaskRequest(Split.TRAIN, ENV.split(Split.TRAIN).indexOf(g), 0));
        assertTrue(t.taskId().endsWith("/0"));
        Trajectory back = Trajectory.fromJson(t.toJson());
        assertEquals("exchange requested", back.dbChanges().path("orders").path("#W2378156").path("status").asText());
        assertTrue(t.toJson().contains("\"db_changes\":{\"orders\":{\"#W2378156\":{\"order_id\":\"#W2378156\""));
        Trajectory poi = Episodes.run(Environments.get("poi").create(), new OracleAgent(), TaskRequest.of(Split.TEST, 1));
        assertNull(poi.dbChanges());
        assertFalse(poi.toJson().contains("db_changes"), "environments without a database write no db_changes");
    }

    @Test
    void theUserAnswersFromWhatTheScenarioSaysTheyKnow() {
        Env e = at("0", null);
        assertEquals("I do not remember my email address. I am Yusuf Rossi in zip code 19122.",
                e.step(new Action.AskUser("Could you give me your email address?")).observations().getFirst().text());
        assertEquals(Scenario.CONFIRM, e.step(new Action.AskUser("Shall I proceed? (yes/no)")).observations().getFirst().text());
        assertEquals(SimulatedUser.DONT_KNOW, e.step(new Action.AskUser("Do you like the weather today?")).observations().getFirst().text());
    }

    @Test
    void theSameRequestIsTheSameEpisode() {
        Start a = ENV.create().reset(TaskRequest.of(Split.TEST, 12345));
        Start b = ENV.create().reset(TaskRequest.of(Split.TEST, 12345));
        assertEquals(a, b);
    }
}
