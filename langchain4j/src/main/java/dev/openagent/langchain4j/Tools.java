package dev.openagent.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.openagent.json.Json;
import dev.openagent.sandbox.ToolSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The sandbox's tools as LangChain4j tool specifications. */
final class Tools {
    private Tools() {}

    /**
     * A tool as LangChain4j describes it. Each parameter's schema travels verbatim (a
     * {@link JsonRawSchema}), so a shift's reworded descriptions, renamed parameters and extra keywords
     * reach the model as the sandbox wrote them; of the object schema itself, the description, the
     * required list and {@code additionalProperties} are kept, which is all {@link JsonObjectSchema} holds.
     */
    static ToolSpecification specification(ToolSpec tool) {
        ObjectNode schema = tool.parameters();
        JsonObjectSchema.Builder params = JsonObjectSchema.builder();
        if (schema.path("description").isTextual()) params.description(schema.get("description").asText());
        for (Map.Entry<String, JsonNode> p : schema.path("properties").properties()) {
            params.addProperty(p.getKey(), JsonRawSchema.from(Json.write(p.getValue())));
        }
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        if (!required.isEmpty()) params.required(required);
        if (schema.path("additionalProperties").isBoolean()) params.additionalProperties(schema.get("additionalProperties").asBoolean());
        return ToolSpecification.builder().name(tool.name()).description(tool.description()).parameters(params.build()).build();
    }

    static List<ToolSpecification> specifications(List<ToolSpec> tools) {
        return tools.stream().map(Tools::specification).toList();
    }
}
