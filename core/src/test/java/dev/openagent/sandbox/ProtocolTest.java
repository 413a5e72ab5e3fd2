package dev.openagent.sandbox;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProtocolTest {
    @Test
    void aFinalMessageStartingWithTheMarkerIsARefusal() {
        assertEquals(new Action.Refuse("no such place"), Protocol.finalText("CANNOT COMPLETE: no such place"));
        assertEquals(new Action.Refuse("no such place"), Protocol.finalText("**cannot complete:** no such place"));
        assertInstanceOf(Action.Answer.class, Protocol.finalText("I cannot complete this without more detail"));
        assertInstanceOf(Action.Answer.class, Protocol.finalText("Booked. Code V123456"));
        Action refuse = new Action.Refuse("gone");
        assertEquals(refuse, Protocol.finalText(Protocol.finalText(refuse)));
    }

    @Test
    void aTextCommandMessageIsACommandUnlessItIsMarkedAsAnEnding() {
        assertEquals(new Action.Command("go to kitchen"), Protocol.command("go to kitchen"));
        assertEquals(new Action.Command("ask which mug?"), Protocol.command("ask which mug?"));
        assertEquals(new Action.Answer("It is in the fridge."), Protocol.command("FINAL ANSWER: It is in the fridge."));
        assertEquals(new Action.Answer("DONE-AB12CD"), Protocol.command("**Final answer:** DONE-AB12CD"));
        assertEquals(new Action.Refuse("no attic"), Protocol.command("CANNOT COMPLETE: no attic"));
        for (Action ending : List.of(new Action.Answer("Done. Code DONE-1"), new Action.Refuse("gone"))) {
            assertEquals(ending, Protocol.command(Protocol.finalText(ending, Interface.TEXT_COMMAND)), "endings round-trip");
            assertEquals(ending, Protocol.finalText(Protocol.finalText(ending, Interface.FUNCTION_CALL)));
        }
    }

    @Test
    void theTextCommandPromptSaysHowToAskAnswerAndRefuse() {
        String p = Protocol.systemPrompt("- rule", Interface.TEXT_COMMAND);
        assertTrue(p.contains("'help'") && p.contains("'" + Protocol.ASK_COMMAND + " <your question>'"), p);
        assertTrue(p.contains("'" + Protocol.FINAL_ANSWER + "'") && p.contains("'" + Protocol.REFUSAL_MARKER + "'"), p);
        assertFalse(p.contains(Protocol.ASK_USER), "no tool in a text-command prompt");
        assertFalse(Protocol.systemPrompt("- rule", Interface.FUNCTION_CALL).contains(Protocol.FINAL_ANSWER));
    }

    @Test
    void theSystemPromptStatesTheProtocolAndTheRules() {
        String p = Protocol.systemPrompt("- rule one", Interface.FUNCTION_CALL);
        assertTrue(p.contains(Protocol.REFUSAL_MARKER));
        assertTrue(p.contains(Protocol.ASK_USER));
        assertTrue(p.contains("rule one"));
    }

    @Test
    void answersAreCheckedOnWholeWordsIgnoringCaseAndPunctuation() {
        assertNull(Checks.answerProblem("Code: vx-12ab. Rated 4.5!", List.of("VX-12AB", "4.5"), List.of()));
        assertTrue(Checks.answerProblem("Rated 14.5", List.of("4.5"), List.of()).contains("lacks"));
        assertTrue(Checks.answerProblem("There are 12", List.of("2"), List.of()).contains("lacks"));
        assertTrue(Checks.answerProblem("It's +1-555-1234 or +1-555-9999", List.of("+1-555-1234"), List.of("+1-555-9999")).contains("wrong"));
        assertTrue(Checks.mentions("opens at 09:00", "09:00"));
        assertFalse(Checks.mentions("opens at 19:00", "9:00"));
    }

    @Test
    void theSimulatedUserAnswersOnlyWhatItKnows() {
        Map<String, String> facts = Map.of("party|people|guests", "We are 4.", "date|day", "On 2026-12-11.");
        assertEquals("We are 4.", SimulatedUser.reply(facts, "How many people will come?"));
        assertEquals("On 2026-12-11. We are 4.", SimulatedUser.reply(facts, "Which day, and how many guests?"));
        assertEquals(SimulatedUser.DONT_KNOW, SimulatedUser.reply(facts, "What is your favourite colour?"));
    }

    @Test
    void goldPlansCountDependentHopsAndRenderAnswers() {
        var o = dev.openagent.json.Json.object();
        GoldPlan plan = GoldPlan.answer(List.of(
                new GoldPlan.Call("a", o),
                new GoldPlan.Call("b", o),
                new GoldPlan.Call("c", o, Map.of("x", new GoldPlan.Ref(0, "/id"), "y", new GoldPlan.Ref(1, "/id"))),
                new GoldPlan.Call("d", o, Map.of("x", new GoldPlan.Ref(2, "/code")))), "Code {3:/code}, from {0:/id}.");
        assertEquals(3, plan.hops());
        var results = List.<com.fasterxml.jackson.databind.JsonNode>of(
                dev.openagent.json.Json.parse("{\"id\":\"A\"}"), dev.openagent.json.Json.parse("{\"id\":\"B\"}"),
                dev.openagent.json.Json.parse("{\"code\":\"C\"}"), dev.openagent.json.Json.parse("{\"code\":\"D\"}"));
        assertEquals("Code D, from A.", plan.renderAnswer(results));
        assertEquals("A", plan.calls().get(2).resolve(results).get("x").asText());
    }
}
