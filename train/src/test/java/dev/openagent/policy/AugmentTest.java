package dev.openagent.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Action;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AugmentTest {

    /** The first step of a poi demonstration: a search_places call copying the request's city. */
    private static Demonstrations.Demo firstCall() {
        Demonstrations demos = new Demonstrations(Environments.get("poi"), 0, ShiftSampler.of(List.of()), 7);
        for (int i = 0; i < 50; i++) {
            Demonstrations.Demo d = demos.next().steps().getFirst();
            if (d.action() instanceof Action.CallTools c && c.calls().getFirst().arguments().contains("\"city\"")) return d;
        }
        throw new AssertionError("no demonstration copies a city");
    }

    private static String city(Demonstrations.Demo d) {
        JsonNode args = Json.parse(((Action.CallTools) d.action()).calls().getFirst().arguments());
        return args.path("city").asText();
    }

    @Test
    void substitutedNamesIncludeMultiWordNamesEndingInWordsTheAgentReads() throws Exception {
        Demonstrations.Demo d = firstCall();
        String original = city(d);
        Set<String> ordinary = new HashSet<>(Augment.ordinaryWords(d.view()));
        assertTrue(ordinary.contains("city"), "the search tool's description says 'city': " + ordinary);
        SplittableRandom rnd = new SplittableRandom(3);
        int known = 0;
        int substituted = 0;
        for (int i = 0; i < 200; i++) {
            Demonstrations.Demo a = Augment.names(d, rnd);
            if (a == d) continue;
            String name = ((Action.CallTools) a.action()).calls().getFirst().arguments();
            String copied = null;
            // Whichever name was replaced, the request says the new one exactly as the call copies it.
            for (JsonNode v : Json.parse(name)) if (v.isTextual() && !d.view().query().contains(v.asText())) copied = v.asText();
            if (copied == null) continue;
            substituted++;
            assertTrue(a.view().query().contains(copied), a.view().query() + " / " + copied);
            String[] words = copied.split(" ");
            for (int w = 1; w < words.length; w++) {
                if (ordinary.contains(words[w].toLowerCase(java.util.Locale.ROOT))) known++;
            }
            assertFalse(words[0].isEmpty());
        }
        assertTrue(substituted > 50, "names were substituted: " + substituted);
        assertTrue(known > 10, "later words of invented names are sometimes words the agent reads: " + known);
        assertNotEquals("", original);
    }
}
