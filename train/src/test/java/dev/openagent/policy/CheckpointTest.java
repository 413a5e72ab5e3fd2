package dev.openagent.policy;

import dev.openagent.registry.Environments;
import dev.openagent.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CheckpointTest {
    @TempDir
    Path dir;

    static List<View> views(int episodes) {
        Demonstrations demos = new Demonstrations(Environments.get("poi"), 0, ShiftSampler.of(List.of()), 3);
        List<View> out = new ArrayList<>();
        for (int i = 0; i < episodes; i++) demos.next().steps().forEach(d -> out.add(d.view()));
        return out;
    }

    @Test
    void saveThenLoadGivesTheSamePolicy() throws Exception {
        PolicyConfig c = PolicyConfig.tiny().withAnswerWords(List.of("closed"));
        Vocabulary v = new Vocabulary(List.of("search_places", "city", "rating"));
        List<View> views = views(6);
        try (Policy p = Policy.create(c, v, 42)) {
            Checkpoint.save(p, dir, Json.object().put("method", "test"));
            try (Policy q = Checkpoint.load(dir)) {
                assertEquals(p.config(), q.config());
                assertEquals(p.vocabulary().words(), q.vocabulary().words());
                for (var e : p.net().params.entrySet()) {
                    assertArrayEquals(e.getValue().toFloatArray(), q.net().params.get(e.getKey()).toFloatArray(), e.getKey());
                }
                assertEquals(p.act(views, null).stream().map(Policy.Acted::action).toList(),
                        q.act(views, null).stream().map(Policy.Acted::action).toList());
            }
        }
        assertTrue(Files.readString(dir.resolve("config.json")).contains("\"hash_salt\""));
        assertEquals("test", Checkpoint.training(dir).path("method").asText());
    }

    @Test
    void badCheckpointsGiveClearErrors() throws Exception {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Checkpoint.load(dir.resolve("missing")));
        assertTrue(e.getMessage().contains("not a policy checkpoint"), e.getMessage());
        try (Policy p = Policy.create(PolicyConfig.tiny(), Vocabulary.open(), 1)) {
            Checkpoint.save(p, dir, null);
        }
        byte[] w = Files.readAllBytes(dir.resolve("weights.bin"));
        Files.write(dir.resolve("weights.bin"), java.util.Arrays.copyOf(w, w.length / 2));
        e = assertThrows(IllegalArgumentException.class, () -> Checkpoint.load(dir));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        Files.writeString(dir.resolve("config.json"), "{not json");
        e = assertThrows(IllegalArgumentException.class, () -> Checkpoint.load(dir));
        assertTrue(e.getMessage().contains("config.json"), e.getMessage());
    }
}
