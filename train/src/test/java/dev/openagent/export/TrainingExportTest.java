package dev.openagent.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.registry.Environments;
import dev.openagent.json.Json;
import dev.openagent.policy.ShiftSampler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TrainingExportTest {
    @TempDir
    Path dir;

    private List<JsonNode> export(TrainingExport.Format format, int n) throws Exception {
        Path out = dir.resolve(format.id() + ".jsonl");
        TrainingExport.Written w = TrainingExport.write(Environments.get("poi"), format, 0, ShiftSampler.of(List.of()), n, 3, out);
        assertEquals(n, w.examples());
        List<String> lines = Files.readAllLines(out);
        assertEquals(n, lines.size());
        return lines.stream().map(Json::parse).toList();
    }

    @Test
    void openaiLinesHaveTheFineTuningShape() throws Exception {
        for (JsonNode r : export(TrainingExport.Format.OPENAI, 40)) {
            assertEquals(List.of(), ExportFormats.problems(r, TrainingExport.Format.OPENAI));
            assertEquals("system", r.at("/messages/0/role").asText());
            assertEquals("user", r.at("/messages/1/role").asText());
            JsonNode call = r.at("/messages/2/tool_calls/0");
            assertEquals("function", call.path("type").asText());
            assertTrue(call.at("/function/arguments").isTextual(), "OpenAI arguments are JSON text");
            assertTrue(Json.parse(call.at("/function/arguments").asText()).isObject());
            assertEquals(call.path("id").asText(), r.at("/messages/3/tool_call_id").asText());
            assertEquals("tool", r.at("/messages/3/role").asText());
            assertFalse(r.at("/messages/3").has("error"), "our error field is not part of the format");
            assertEquals("function", r.at("/tools/0/type").asText());
            assertEquals("object", r.at("/tools/0/function/parameters/type").asText());
            assertTrue(r.toString().contains("\"ask_user\""), "the schemas the episode saw include ask_user");
        }
    }

    @Test
    void sharegptLinesAlternateRolesAndCarryToolsAsText() throws Exception {
        for (JsonNode r : export(TrainingExport.Format.SHAREGPT, 40)) {
            assertEquals(List.of(), ExportFormats.problems(r, TrainingExport.Format.SHAREGPT));
            assertTrue(r.path("tools").isTextual());
            assertTrue(Json.parse(r.path("tools").asText()).isArray());
            assertTrue(r.path("system").isTextual());
            JsonNode conv = r.path("conversations");
            assertEquals("human", conv.get(0).path("from").asText());
            assertEquals("function_call", conv.get(1).path("from").asText());
            assertTrue(Json.parse(conv.get(1).path("value").asText()).path("arguments").isObject());
            assertEquals("observation", conv.get(2).path("from").asText());
            assertEquals("gpt", conv.get(conv.size() - 1).path("from").asText());
        }
    }

    @Test
    void messagesLinesUseArgumentObjectsAndNamedToolResults() throws Exception {
        for (JsonNode r : export(TrainingExport.Format.MESSAGES, 40)) {
            assertEquals(List.of(), ExportFormats.problems(r, TrainingExport.Format.MESSAGES));
            assertTrue(r.at("/messages/2/tool_calls/0/function/arguments").isObject());
            assertEquals(r.at("/messages/2/tool_calls/0/function/name").asText(), r.at("/messages/3/name").asText());
        }
    }

    @Test
    void theValidatorRejectsWhatTrainersReject() {
        ObjectNode good = (ObjectNode) Json.parse("""
                {"messages":[{"role":"user","content":"hi"},
                 {"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},
                 {"role":"tool","tool_call_id":"c1","content":"ok"},
                 {"role":"assistant","content":"done"}],
                 "tools":[{"type":"function","function":{"name":"f","description":"d","parameters":{"type":"object","properties":{}}}}]}""");
        assertEquals(List.of(), ExportFormats.problems(good, TrainingExport.Format.OPENAI));

        ObjectNode extraKey = good.deepCopy().put("id", 1);
        assertFalse(ExportFormats.problems(extraKey, TrainingExport.Format.OPENAI).isEmpty());
        ObjectNode objectArgs = good.deepCopy();
        ((ObjectNode) objectArgs.at("/messages/1/tool_calls/0/function")).set("arguments", Json.object());
        assertFalse(ExportFormats.problems(objectArgs, TrainingExport.Format.OPENAI).isEmpty());
        ObjectNode orphan = good.deepCopy();
        ((ObjectNode) orphan.at("/messages/2")).put("tool_call_id", "nope");
        assertFalse(ExportFormats.problems(orphan, TrainingExport.Format.OPENAI).isEmpty());
        ObjectNode endsWithTool = good.deepCopy();
        ((ArrayNode) endsWithTool.get("messages")).remove(3);
        assertFalse(ExportFormats.problems(endsWithTool, TrainingExport.Format.OPENAI).isEmpty());

        JsonNode badOrder = Json.parse("""
                {"conversations":[{"from":"gpt","value":"x"},{"from":"human","value":"y"}],"tools":"[]"}""");
        assertFalse(ExportFormats.problems(badOrder, TrainingExport.Format.SHAREGPT).isEmpty());
        JsonNode toolsNotText = Json.parse("""
                {"conversations":[{"from":"human","value":"x"},{"from":"gpt","value":"y"}],"tools":[]}""");
        assertFalse(ExportFormats.problems(toolsNotText, TrainingExport.Format.SHAREGPT).isEmpty());
    }

    @Test
    void badRequestsGetClearErrors() {
        var poi = Environments.get("poi");
        Path out = dir.resolve("x.jsonl");
        assertThrows(IllegalArgumentException.class, () -> TrainingExport.write(poi, TrainingExport.Format.OPENAI, 0, ShiftSampler.of(List.of()), 0, 1, out));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TrainingExport.write(poi, TrainingExport.Format.OPENAI, 0.3, ShiftSampler.of(List.of()), 5, 1, out));
        assertTrue(e.getMessage().contains("shift"));
        assertThrows(IllegalArgumentException.class, () -> TrainingExport.Format.parse("alpaca"));
    }
}
