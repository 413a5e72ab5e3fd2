package dev.openagent.policy;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenizerTest {
    private static List<String> texts(String s) {
        return Tokenizer.tokenize(s).stream().map(Tokenizer.Token::text).toList();
    }

    @Test
    void valuesTheToolsIssueAreSingleTokens() {
        assertEquals(List.of("place_id", "P1234", "phone", "+1-555-3984", "date", "2026-12-07", "time", "17:00", "rating", "4.5"),
                texts("{\"place_id\":\"P1234\",\"phone\":\"+1-555-3984\",\"date\":\"2026-12-07\",\"time\":\"17:00\",\"rating\":4.5}"));
        assertEquals(List.of("Reservation", "R-89125", "code", "V24T6WY"), texts("Reservation R-89125, code V24T6WY."));
    }

    @Test
    void namesAreOneTokenPerWordAndSentencePunctuationIsDropped() {
        assertEquals(List.of("Book", "a", "table", "at", "Jade", "Pearl", "Brasserie", "in", "Juniper", "Falls"),
                texts("Book a table at Jade Pearl Brasserie, in Juniper Falls."));
    }

    @Test
    void offsetsMapBackToTheExactSourceText() {
        String s = "Book under the name Farid Petrov.";
        List<Tokenizer.Token> ts = Tokenizer.tokenize(s);
        assertEquals("Farid Petrov", s.substring(ts.get(4).start(), ts.get(5).end()));
    }

    @Test
    void numbersShapesAndSubwords() {
        assertEquals(4.5, Tokenizer.number("4.5"));
        assertTrue(Double.isNaN(Tokenizer.number("2026-12-07")));
        assertTrue(Double.isNaN(Tokenizer.number("P1234")));
        assertEquals(List.of("place", "id"), Tokenizer.subwords("place_id"));
        assertEquals(List.of("find", "nearby"), Tokenizer.subwords("findNearby"));
        assertEquals(Tokenizer.shape("P1234"), Tokenizer.shape("P9876"));
        assertTrue(!Tokenizer.shape("P1234").equals(Tokenizer.shape("R-12345")));
    }
}
