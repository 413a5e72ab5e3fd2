package dev.openagent.watch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.byo.McpConnection;
import dev.openagent.json.Json;
import dev.openagent.proxy.Upstream;
import dev.openagent.sandbox.ToolSpec;
import io.modelcontextprotocol.spec.McpSchema;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A server's surface at one moment, as the watch keeps it (docs/watch.md): its tools (name, description, input and
 * output schemas, annotations), resources, resource templates and prompts, in a versioned JSON file. Immutable.
 *
 * @param upstream   what the server is (its command line or URL), for messages
 * @param recordedAt when it was taken
 * @param tools      the tools in the order the server lists them
 * @param resources  {@code resources/list}'s resources as the server gave them (empty: it offers none)
 * @param templates  {@code resources/templates/list}'s templates
 * @param prompts    {@code prompts/list}'s prompts
 * @param traffic    what the watch learnt of the server's answers over a window of calls (null: no traffic was seen)
 */
public record Snapshot(String upstream, Instant recordedAt, List<Tool> tools, List<JsonNode> resources, List<JsonNode> templates,
                       List<JsonNode> prompts, JsonNode traffic) {
    /** What a snapshot file says it is, and the version of its layout this build reads and writes. */
    public static final String FORMAT = "openagent-watch-snapshot";
    public static final int VERSION = 1;

    /** One tool as the server lists it; {@code outputSchema} and {@code annotations} are null where it declares none. */
    public record Tool(String name, String description, JsonNode inputSchema, JsonNode outputSchema, JsonNode annotations) {
        public Tool {
            description = description == null ? "" : description;
            inputSchema = inputSchema == null ? Json.object() : inputSchema.deepCopy();
            outputSchema = outputSchema == null || outputSchema.isNull() ? null : outputSchema.deepCopy();
            annotations = annotations == null || annotations.isNull() || annotations.isEmpty() ? null : annotations.deepCopy();
        }

        /** The tool as an MCP server lists it. */
        public static Tool of(McpSchema.Tool t) {
            return new Tool(t.name(), t.description(), Json.tree(t.inputSchema()), t.outputSchema() == null ? null : Json.tree(t.outputSchema()),
                    t.annotations() == null ? null : Json.tree(t.annotations()));
        }

        /** The tool as a session shows it (a shifted list: no output schema or annotations). */
        public static Tool of(ToolSpec t) { return new Tool(t.name(), t.description(), t.parameters(), null, null); }

        /** The input schema's properties, in their order. */
        public Map<String, JsonNode> parameters() {
            Map<String, JsonNode> out = new LinkedHashMap<>();
            inputSchema.path("properties").properties().forEach(e -> out.put(e.getKey(), e.getValue()));
            return out;
        }
    }

    /** A snapshot file that is not one: unreadable, not JSON, another format, or a version this build does not read. */
    public static final class BadSnapshot extends UserInputException {
        BadSnapshot(String message) { super(message); }
    }

    public Snapshot {
        tools = List.copyOf(tools);
        resources = List.copyOf(resources);
        templates = List.copyOf(templates);
        prompts = List.copyOf(prompts);
    }

    /** The same surface with what was learnt of its traffic. */
    public Snapshot withTraffic(JsonNode learnt) { return new Snapshot(upstream, recordedAt, tools, resources, templates, prompts, learnt); }

    public Tool tool(String name) {
        return tools.stream().filter(t -> t.name().equals(name)).findFirst().orElse(null);
    }

    /** Lists the upstream's tools, and its resources, templates and prompts where it declares them: no tool is called. */
    public static Snapshot of(Upstream upstream) {
        List<Tool> tools = upstream.tools().stream().map(Tool::of).toList();
        JsonNode caps = upstream.capabilities();
        List<JsonNode> resources = caps.hasNonNull("resources") ? listed(upstream, "resources/list", "resources") : List.of();
        List<JsonNode> templates = caps.hasNonNull("resources") ? listed(upstream, "resources/templates/list", "resourceTemplates") : List.of();
        List<JsonNode> prompts = caps.hasNonNull("prompts") ? listed(upstream, "prompts/list", "prompts") : List.of();
        return new Snapshot(upstream.describe(), Instant.now(), tools, resources, templates, prompts, null);
    }

    /** Every page of a list request; a server that declares the capability but refuses the request lists nothing. */
    private static List<JsonNode> listed(Upstream upstream, String method, String field) {
        List<JsonNode> out = new ArrayList<>();
        String cursor = null;
        try {
            do {
                JsonNode page = upstream.request(method, cursor == null ? Json.object() : Json.object("cursor", cursor));
                page.path(field).forEach(out::add);
                cursor = page.path("nextCursor").asText(null);
            } while (cursor != null && !cursor.isEmpty() && out.size() < 10_000);
        } catch (McpConnection.RemoteError e) {
            return List.of();
        }
        return out;
    }

    public ObjectNode toJson() {
        ObjectNode out = Json.object("format", FORMAT, "version", VERSION, "upstream", upstream, "recorded_at", recordedAt.toString());
        ArrayNode ts = out.putArray("tools");
        for (Tool t : tools) {
            ObjectNode o = ts.addObject();
            o.put("name", t.name());
            o.put("description", t.description());
            o.set("inputSchema", t.inputSchema());
            if (t.outputSchema() != null) o.set("outputSchema", t.outputSchema());
            if (t.annotations() != null) o.set("annotations", t.annotations());
        }
        out.putArray("resources").addAll(resources);
        out.putArray("resourceTemplates").addAll(templates);
        out.putArray("prompts").addAll(prompts);
        if (traffic != null) out.set("traffic", traffic);
        return out;
    }

    public void write(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) Files.createDirectories(parent);
            Files.writeString(file, Json.pretty(toJson()) + "\n");
        } catch (IOException e) {
            throw new UserInputException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** @throws BadSnapshot naming the file and what is wrong with it, in one line */
    public static Snapshot read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new BadSnapshot(file + ": cannot read it (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
        }
        JsonNode json;
        try {
            json = Json.MAPPER.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new BadSnapshot(file + ": not a watch snapshot: it is not JSON (" + e.getOriginalMessage() + ")");
        } catch (IOException e) {
            throw new BadSnapshot(file + ": cannot read it (" + e.getMessage() + ")");
        }
        if (json == null || !json.isObject() || !FORMAT.equals(json.path("format").asText(null))) {
            throw new BadSnapshot(file + ": not a watch snapshot (no \"format\": \"" + FORMAT + "\"; make one with `openagent watch record`)");
        }
        if (json.path("version").asInt(-1) != VERSION) {
            throw new BadSnapshot(file + ": a watch snapshot of version " + json.path("version") + "; this build reads version " + VERSION);
        }
        if (!json.path("tools").isArray()) throw new BadSnapshot(file + ": a watch snapshot without a \"tools\" list");
        List<Tool> tools = new ArrayList<>();
        for (JsonNode t : json.path("tools")) {
            if (!t.path("name").isTextual() || t.path("name").asText().isEmpty()) throw new BadSnapshot(file + ": a tool without a name: " + t);
            if (!t.path("inputSchema").isObject()) throw new BadSnapshot(file + ": tool '" + t.path("name").asText() + "' has no inputSchema object");
            tools.add(new Tool(t.path("name").asText(), t.path("description").asText(""), t.path("inputSchema"),
                    t.get("outputSchema"), t.get("annotations")));
        }
        Instant at;
        try {
            at = Instant.parse(json.path("recorded_at").asText(""));
        } catch (java.time.format.DateTimeParseException e) {
            throw new BadSnapshot(file + ": \"recorded_at\" is not an instant: " + json.path("recorded_at"));
        }
        JsonNode traffic = json.get("traffic");
        if (traffic != null && !traffic.isNull()) {
            try {
                Traffic.of(traffic);
            } catch (IllegalArgumentException e) {
                throw new BadSnapshot(file + ": its \"traffic\" is not what `proxy mcp --watch-record` writes (" + e.getMessage() + ")");
            }
        }
        return new Snapshot(json.path("upstream").asText(""), at, tools, list(json, "resources"), list(json, "resourceTemplates"),
                list(json, "prompts"), traffic == null || traffic.isNull() ? null : traffic);
    }

    private static List<JsonNode> list(JsonNode json, String field) {
        List<JsonNode> out = new ArrayList<>();
        json.path(field).forEach(out::add);
        return out;
    }
}
