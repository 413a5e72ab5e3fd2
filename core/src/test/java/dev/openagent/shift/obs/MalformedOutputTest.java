package dev.openagent.shift.obs;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Every hit of obs.malformed-output is an answer the agent can see is broken, whatever form the draw picks. */
class MalformedOutputTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"[]", "{}", "[1,2,3]", "[true]", "{\"a\":1}", "[\"x\",\"y\"]", "{\"places\":[{\"id\":\"p1\",\"rating\":4.5}]}"})
    void aBrokenResultNeverReadsAsTheOriginal(String json) {
        for (long s = 0; s < 400; s++) {
            long seed = s;
            String broken = MalformedOutput.corrupt(json, new SplittableRandom(seed));
            assertNotEquals(json, broken, "seed " + seed);
            assertThrows(Exception.class, () -> JSON.readTree(broken), () -> "seed " + seed + " left valid JSON: " + broken);
        }
    }
}
