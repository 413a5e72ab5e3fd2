package dev.openagent.server.env;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.registry.Environments;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.EnvironmentInfo;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.stream.Collectors;

/**
 * What {@code serve env} says about itself: OpenEnv's {@code EnvironmentMetadata} (only its six
 * fields), the {@code SchemaResponse} (JSON Schemas of action, observation and state, kept in
 * {@code schema.json} beside this class) and an OpenAPI document of the HTTP routes, which
 * {@code openenv validate --url} reads. Built once per server.
 */
final class OpenEnvDocs {
    private final ObjectNode metadata;
    private final ObjectNode schema;
    private final ObjectNode openApi;

    OpenEnvDocs(EnvServer.Defaults defaults, boolean oracle) {
        this.schema = loadSchema();
        this.metadata = metadata(defaults, oracle);
        this.openApi = openApi(schema);
    }

    ObjectNode metadata() { return metadata; }

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

    private static ObjectNode metadata(EnvServer.Defaults d, boolean oracle) {
        String envs = Environments.all().stream().map(Environment::id).collect(Collectors.joining(", "));
        ObjectNode o = Json.object();
        o.put("name", "openagent");
        o.put("description", "OpenAgent tool-use environments under open-world shift (" + envs + "). Reset data chooses "
                + "the environment, shift stack, split, difficulty and task; by default " + d.env() + " under shift "
                + d.shift() + ", " + d.split().id() + " split.");
        o.put("readme_content", readme(d, oracle));
        o.put("version", EnvServer.VERSION);
        o.put("author", "OpenAgent for the JVM");
        o.put("documentation_url", "docs/serve-env.md");
        return o;
    }

    private static String readme(EnvServer.Defaults d, boolean oracle) {
        StringBuilder sb = new StringBuilder("# OpenAgent environments\n\n| env | interface | difficulties | description |\n|---|---|---|---|\n");
        for (Environment e : Environments.all()) {
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

    private static ObjectNode openApi(ObjectNode schema) {
        ObjectNode o = Json.object().put("openapi", "3.1.0");
        o.putObject("info").put("title", "openagent serve env").put("version", "1.0.0")
                .put("description", "The OpenEnv HTTP routes of openagent serve env; the WebSocket /ws carries the same messages.");
        ObjectNode components = o.putObject("components").putObject("schemas");
        components.set("Action", schema.get("action"));
        components.set("Observation", schema.get("observation"));
        components.set("State", schema.get("state"));
        ObjectNode paths = o.putObject("paths");
        get(paths, "/health", "Health: {\"status\": \"healthy\"}");
        get(paths, "/metadata", "EnvironmentMetadata");
        get(paths, "/schema", "SchemaResponse: JSON Schemas of action, observation and state");
        get(paths, "/state", "State of the session named by the Session-Id header");
        post(paths, "/reset", "Starts an episode; creates a session unless the Session-Id header names one. Answers {observation, reward, done} and the Session-Id header.");
        post(paths, "/step", "Applies {\"action\": ..., \"timeout_s\"?, \"request_id\"?} in the session named by the Session-Id header. Answers {observation, reward, done}.");
        post(paths, "/close", "Closes the session named by the Session-Id header.");
        return o;
    }

    private static void get(ObjectNode paths, String path, String summary) {
        paths.putObject(path).putObject("get").put("summary", summary).putObject("responses").putObject("200").put("description", "OK");
    }

    private static void post(ObjectNode paths, String path, String summary) {
        paths.putObject(path).putObject("post").put("summary", summary).putObject("responses").putObject("200").put("description", "OK");
    }
}
