package dev.openagent.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Action;
import dev.openagent.shift.ShiftCatalog;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** PAFT's slips: a wrong call before the oracle's right one, shown in the view and never learned. */
class SlipsTest {
    @Test
    void aSlipChangesOneTextArgumentOfTheSameTool() {
        Action.CallTools right = Action.CallTools.of("call_0", "search_places", "{\"city\":\"Elmstead\",\"name\":\"Ivory Acorn Museum\",\"min_rating\":4.5}");
        SplittableRandom rnd = new SplittableRandom(3);
        for (int i = 0; i < 50; i++) {
            Action.CallTools slip = (Action.CallTools) Demonstrations.slip(right, "What is the rating of Ivory Acorn Museum in Elmstead?", rnd).orElseThrow();
            Action.ToolCall call = slip.calls().getFirst();
            assertEquals("search_places", call.name());
            JsonNode wrong = Json.parse(call.arguments());
            JsonNode gold = Json.parse(right.calls().getFirst().arguments());
            int changed = 0;
            for (String k : List.of("city", "name", "min_rating")) if (!wrong.get(k).equals(gold.get(k))) changed++;
            assertEquals(1, changed, call.arguments());
            assertEquals(gold.get("min_rating"), wrong.get("min_rating"), "only text arguments slip");
        }
    }

    @Test
    void aCallWithoutTextArgumentsDoesNotSlip() {
        Action.CallTools call = Action.CallTools.of("call_0", "count", "{\"n\":3}");
        assertTrue(Demonstrations.slip(call, "count three things", new SplittableRandom(1)).isEmpty());
    }

    @Test
    void slipsStayInTheViewAndAreNeverDemonstrated() {
        Demonstrations demos = new Demonstrations(Environments.get("poi"), 0, ShiftSampler.of(List.of()), 5).withSlips(0.5);
        int slipped = 0;
        for (int i = 0; i < 30; i++) {
            Demonstrations.Episode e = demos.next();
            assertTrue(e.success());
            for (Demonstrations.Demo d : e.steps()) {
                if (d.action() instanceof Action.CallTools c) assertFalse(c.calls().getFirst().id().endsWith("_slip"), "a slip is never a target");
                List<View.Turn> turns = d.view().turns();
                if (!turns.isEmpty() && turns.getLast().action() instanceof Action.CallTools c && c.calls().getFirst().id().endsWith("_slip")) {
                    slipped++;
                    assertTrue(d.action() instanceof Action.CallTools, "after a slip the oracle calls again");
                }
            }
        }
        assertTrue(slipped > 10, "slips at 0.5 over 30 episodes: " + slipped);
    }

    @Test
    void refusalDemonstrationsDoNotSlip() {
        var unsolvable = ShiftCatalog.all().stream().filter(s -> s.id().equals(ShiftSampler.UNSOLVABLE)).toList();
        Demonstrations demos = new Demonstrations(Environments.get("poi"), 1, ShiftSampler.of(unsolvable), 5).withSlips(0.9);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            Demonstrations.Episode e = demos.next();
            assertTrue(e.steps().getLast().action() instanceof Action.Refuse);
            for (Demonstrations.Demo d : e.steps()) for (View.Turn t : d.view().turns()) {
                if (t.action() instanceof Action.CallTools c) ids.add(c.calls().getFirst().id());
            }
        }
        assertTrue(ids.stream().noneMatch(id -> id.endsWith("_slip")), ids.toString());
    }

    @Test
    void paftWeighsRefusalsAndSftDoesNot() {
        assertEquals(Trainer.REFUSAL_WEIGHT, Trainer.weight(new Decision.Refuse(), 0.3));
        assertEquals(1f, Trainer.weight(new Decision.Refuse(), 0));
        assertEquals(1f, Trainer.weight(new Decision.Ask(new int[0]), 0.3));
        assertNotEquals(1f, Trainer.REFUSAL_WEIGHT);
    }

    /** After a slip the policy calls again, and re-copying its own escaped arguments must not grow a value without bound. */
    @Test
    void aCopiedValueIsBounded() {
        assertEquals("Elmstead", Policy.copied("Elmstead"));
        String grown = "Brookhaven" + "\\".repeat(5000);
        assertEquals(Policy.MAX_COPIED_CHARS, Policy.copied(grown).length());
        assertTrue(grown.startsWith(Policy.copied(grown)));
    }
}
