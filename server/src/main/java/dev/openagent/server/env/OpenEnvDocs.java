package dev.openagent.server.env;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.EnvironmentInfo;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * What {@code serve env} says about itself: OpenEnv's {@code EnvironmentMetadata} (only its six
 * fields), the {@code SchemaResponse} (JSON Schemas of action, observation and state, kept in
 * {@code schema.json} beside this class) and an OpenAPI document of the HTTP routes, which
 * {@code openenv validate --url} reads. Built once per server.
 */
final class OpenEnvDocs {
    /** Component schemas the routes answer with or take: OpenEnv's model names, where OpenEnv has the model. */
    static final String HEALTH = "HealthResponse", METADATA = "EnvironmentMetadata", SCHEMA = "SchemaResponse", STATE = "State",
            RESET_REQUEST = "ResetRequest", RESET_RESPONSE = "ResetResponse", STEP_REQUEST = "StepRequest", STEP_RESPONSE = "StepResponse";

    private final EnvServer.Defaults defaults;
    private final boolean oracle;
    private final Supplier<List<Environment>> environments;
    private final ObjectNode schema;
    private final ObjectNode openApi;

    /** @param environments what resets may choose: the server's catalog, built-in and loaded environments, as it is now */
    OpenEnvDocs(EnvServer.Defaults defaults, boolean oracle, List<Route> routes, Supplier<List<Environment>> environments) {
        this.schema = loadSchema();
        this.defaults = defaults;
        this.oracle = oracle;
        this.environments = environments;
        this.openApi = openApi(schema, routes);
    }

    /** Listing the environments of the catalog as it is when asked (an environment file may be loaded after start). */
    ObjectNode metadata() { return metadata(defaults, oracle, environments.get()); }

    ObjectNode schema() { return schema; }

    ObjectNode openApi() { return openApi; }

    private static ObjectNode loadSchema() {
        try (InputStream in = OpenEnvDocs.class.getResourceAsStream("schema.json")) {
            if (in == null) throw new IllegalStateException("schema.json is missing from the server's resources");
            return (ObjectNode) Json.MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ObjectNode metadata(EnvServer.Defaults d, boolean oracle, List<Environment> environments) {
        String envs = environments.stream().map(Environment::id).collect(Collectors.joining(", "));
        ObjectNode o = Json.object();
        o.put("name", "openagent");
        o.put("description", "OpenAgent tool-use environments under open-world shift (" + envs + "). Reset data chooses "
                + "the environment, shift stack, split, difficulty and task; by default " + d.env() + " under shift "
                + d.shift() + ", " + d.split().id() + " split.");
        o.put("readme_content", readme(d, oracle, environments));
        o.put("version", EnvServer.VERSION);
        o.put("author", "OpenAgent for the JVM");
        o.put("documentation_url", "docs/serve-env.md");
        return o;
    }

    private static String readme(EnvServer.Defaults d, boolean oracle, List<Environment> environments) {
        StringBuilder sb = new StringBuilder("# OpenAgent environments\n\n| env | interface | difficulties | description |\n|---|---|---|---|\n");
        for (Environment e : environments) {
            EnvironmentInfo i = e.info();
            sb.append("| ").append(i.id()).append(" | ").append(i.iface().id()).append(" | ").append(i.difficulties())
                    .append(" | ").append(i.description()).append(" |\n");
        }
        sb.append("\nReset data (all optional): env, shift (one stack: a shift id with parameters, or several joined with '+'), ")
                .append("split (train|test), difficulty (0 mixes levels), task (an index) or seed (>= 0), run_seed, episode_id.\n")
                .append("Defaults here: env=").append(d.env()).append(", shift=").append(d.shift()).append(", split=")
                .append(d.split().id()).append(", difficulty=").append(d.difficulty()).append(", run_seed=").append(d.runSeed()).append(".\n")
                .append("Actions: {\"tool_calls\": [...]} (OpenAI shape), {\"answer\": ...}, {\"refuse\": ...}, {\"ask_user\": ...}, ")
                .append("{\"command\": ...}, or an OpenAI assistant message. Reward 1.0 on the step that ends a successful episode.\n");
        if (oracle) sb.append("This server runs with --allow-oracle: observations carry the oracle's next action as \"oracle\".\n");
        return sb.toString();
    }

    private static ObjectNode openApi(ObjectNode schema, List<Route> routes) {
        ObjectNode o = Json.object().put("openapi", "3.1.0");
        o.putObject("info").put("title", "openagent serve env").put("version", "1.0.0")
                .put("description", "The OpenEnv HTTP routes of openagent serve env; the WebSocket /ws carries the same messages.");
        ObjectNode components = o.putObject("components").putObject("schemas");
        components.set("Action", schema.get("action"));
        components.set("Observation", schema.get("observation"));
        components.set(STATE, schema.get("state"));
        components.set(HEALTH, object(Map.of("status", Json.object().put("type", "string").put("const", "healthy"))));
        ObjectNode meta = Json.object().put("type", "object");
        ObjectNode fields = meta.putObject("properties");
        for (String field : List.of("name", "description", "readme_content", "version", "author", "documentation_url")) {
            fields.putObject(field).put("type", "string");
        }
        components.set(METADATA, meta);
        components.set(SCHEMA, object(Map.of("action", Json.object().put("type", "object"), "observation", Json.object().put("type", "object"),
                "state", Json.object().put("type", "object"))));
        components.set(RESET_REQUEST, ResetData.SCHEMA);
        components.set(STEP_REQUEST, EnvServer.STEP_REQUEST);
        ObjectNode result = object(Map.of("observation", ref("Observation"),
                "reward", Json.object().set("type", Json.tree(List.of("number", "null"))), "done", Json.object().put("type", "boolean")));
        components.set(RESET_RESPONSE, result);
        components.set(STEP_RESPONSE, result.deepCopy());
        ObjectNode paths = o.putObject("paths");
        for (Route r : routes) {
            if (r.summary() == null) continue;
            ObjectNode op = paths.putObject(r.path()).putObject(r.method().toLowerCase(Locale.ROOT)).put("summary", r.summary());
            if (r.request() != null) op.putObject("requestBody").putObject("content").putObject("application/json").set("schema", ref(r.request()));
            ObjectNode ok = op.putObject("responses").putObject("200").put("description", "OK");
            if (r.response() != null) ok.putObject("content").putObject("application/json").set("schema", ref(r.response()));
        }
        return o;
    }

    private static ObjectNode ref(String component) {
        return Json.object().put("$ref", "#/components/schemas/" + component);
    }

    /** An object schema with these properties, each required, by name. */
    private static ObjectNode object(Map<String, ObjectNode> properties) {
        ObjectNode o = Json.object().put("type", "object");
        ObjectNode p = o.putObject("properties");
        properties.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> p.set(e.getKey(), e.getValue()));
        o.set("required", Json.tree(p.properties().stream().map(Map.Entry::getKey).toList()));
        return o;
    }
}
