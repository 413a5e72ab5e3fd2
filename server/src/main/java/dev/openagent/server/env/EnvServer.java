package dev.openagent.server.env;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.openagent.registry.Environments;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.sandbox.Split;
import dev.openagent.server.EnvChoice;
import dev.openagent.server.TaskChoice;
import dev.openagent.server.http.ApiError;
import dev.openagent.server.http.BearerAuth;
import dev.openagent.server.http.Fields;
import dev.openagent.server.http.HttpService;
import dev.openagent.server.http.JsonHttp;
import dev.openagent.server.wire.OpenAiWire;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;

/**
 * {@code openagent serve env}: the environment over HTTP + JSON for external RL trainers.
 * Gym-style sessions (create, reset, step, close), one environment instance per session; see
 * docs/serve-env.md for the wire format.
 */
public final class EnvServer implements AutoCloseable {
    /**
     * @param allowOracle whether {@code GET /v1/sessions/{id}/oracle} answers (privileged: it solves the task)
     */
    public record Config(String host, int port, BearerAuth auth, int maxSessions, Duration idleTtl, long maxBodyBytes,
                         boolean allowOracle) {
        public static final String DEFAULT_HOST = "127.0.0.1";
        public static final int DEFAULT_MAX_SESSIONS = 1024;
        public static final Duration DEFAULT_IDLE_TTL = Duration.ofMinutes(10);
        public static final long DEFAULT_MAX_BODY = 1 << 20;

        public Config {
            if (port < 0 || port > 65535) throw new IllegalArgumentException("--port must be between 0 and 65535");
            if (maxBodyBytes < 256) throw new IllegalArgumentException("--max-body must be at least 256 bytes");
        }

        /** Loopback, any free port, defaults elsewhere: what tests and the bench use. */
        public static Config loopback(boolean allowOracle) {
            return new Config(DEFAULT_HOST, 0, BearerAuth.NONE, DEFAULT_MAX_SESSIONS, DEFAULT_IDLE_TTL, DEFAULT_MAX_BODY, allowOracle);
        }
    }

    private static final Set<String> CREATE_FIELDS = Set.of("env", "shift", "split", "difficulty", "run_seed", "task", "seed");
    private static final Set<String> RESET_FIELDS = Set.of("split", "difficulty", "task", "seed");

    private final Config config;
    private final Sessions sessions;
    private final HttpService http;

    private EnvServer(Config config) throws IOException {
        this.config = config;
        this.sessions = new Sessions(config.maxSessions(), config.idleTtl());
        try {
            this.http = HttpService.start(config.host(), config.port(), config.auth(), "serve-env", this::route);
        } catch (IOException | RuntimeException e) {
            sessions.close();
            throw e;
        }
    }

    public static EnvServer start(Config config) throws IOException {
        return new EnvServer(config);
    }

    public int port() { return http.port(); }

    public String baseUrl() {
        String host = http.host().contains(":") ? "[" + http.host() + "]" : http.host();
        return "http://" + host + ":" + port();
    }

    public int sessionCount() { return sessions.size(); }

    @Override
    public void close() {
        http.close();
        sessions.close();
    }

    private void route(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getRawPath();
        String method = ex.getRequestMethod();
        String[] p = path.length() > 1 && path.endsWith("/") ? path.substring(1, path.length() - 1).split("/") : path.substring(1).split("/");
        if (p.length < 2 || !p[0].equals("v1")) throw notFound(method, path);
        switch (p[1]) {
            case "health" -> {
                if (p.length != 2) throw notFound(method, path);
                JsonHttp.requireMethod(ex, "GET");
                ObjectNode o = Json.object().put("status", "ok").put("sessions", sessions.size()).put("max_sessions", sessions.max());
                JsonHttp.sendJson(ex, 200, o);
            }
            case "envs" -> {
                if (p.length != 2) throw notFound(method, path);
                JsonHttp.requireMethod(ex, "GET");
                JsonHttp.sendJson(ex, 200, envs());
            }
            case "sessions" -> sessions(ex, p, method, path);
            default -> throw notFound(method, path);
        }
    }

    private void sessions(HttpExchange ex, String[] p, String method, String path) throws IOException {
        if (p.length == 2) {
            JsonHttp.requireMethod(ex, "POST");
            JsonHttp.sendJson(ex, 200, create(JsonHttp.readObject(ex, config.maxBodyBytes(), false)));
            return;
        }
        String id = p[2];
        if (p.length == 3) {
            JsonHttp.requireMethod(ex, "GET", "DELETE");
            if (method.equals("DELETE")) {
                if (!sessions.remove(id)) sessions.get(id);   // 404 with the usual message
                JsonHttp.sendJson(ex, 200, Json.object().put("session_id", id).put("closed", true));
            } else {
                JsonHttp.sendJson(ex, 200, sessions.get(id).describe());
            }
            return;
        }
        if (p.length != 4) throw notFound(method, path);
        switch (p[3]) {
            case "reset" -> {
                JsonHttp.requireMethod(ex, "POST");
                Session s = sessions.get(id);
                Fields f = Fields.of(JsonHttp.readObject(ex, config.maxBodyBytes(), true), "", RESET_FIELDS);
                JsonHttp.sendJson(ex, 200, reset(s, f));
            }
            case "step" -> {
                JsonHttp.requireMethod(ex, "POST");
                Session s = sessions.get(id);
                Action action = OpenAiWire.parseAction(JsonHttp.readObject(ex, config.maxBodyBytes(), false), "call_");
                JsonHttp.sendJson(ex, 200, s.step(action));
            }
            case "oracle" -> {
                JsonHttp.requireMethod(ex, "GET");
                if (!config.allowOracle()) {
                    throw new ApiError(403, "oracle_disabled", "the oracle endpoint is off; start the server with --allow-oracle");
                }
                JsonHttp.sendJson(ex, 200, sessions.get(id).oracle());
            }
            case "trajectory" -> {
                JsonHttp.requireMethod(ex, "GET");
                JsonHttp.sendJson(ex, 200, sessions.get(id).trajectory());
            }
            default -> throw notFound(method, path);
        }
    }

    private ObjectNode create(ObjectNode body) {
        Fields f = Fields.of(body, "", CREATE_FIELDS);
        String envId = f.string("env");
        String shift = f.optString("shift", "none");
        EnvChoice choice;
        try {
            choice = EnvChoice.of(envId, shift);
        } catch (IllegalArgumentException e) {
            String code = Environments.ids().contains(envId) ? "invalid_shift" : "unknown_env";
            throw new ApiError(400, code, e.getMessage());
        }
        TaskChoice tasks = new TaskChoice(Split.TRAIN, 0, f.optLong("run_seed", 1));
        int first = f.has("seed") ? 0 : f.optInt("task", 0, 0, Integer.MAX_VALUE);
        Session s = sessions.create(id -> new Session(id, choice, tasks, first, config.allowOracle()));
        try {
            return reset(s, f);
        } catch (RuntimeException e) {
            sessions.remove(s.id);   // a session whose first reset fails is of no use to anyone
            throw e;
        }
    }

    private static ObjectNode reset(Session s, Fields f) {
        if (f.has("task") && f.has("seed")) throw ApiError.invalid("give task (an index) or seed, not both");
        Split split = null;
        if (f.has("split")) {
            try {
                split = Split.parse(f.optString("split", null));
            } catch (IllegalArgumentException e) {
                throw ApiError.invalid(e.getMessage());
            }
        }
        Integer difficulty = f.has("difficulty") ? f.optInt("difficulty", 0, 0, 1000) : null;
        Integer index = f.has("task") ? f.optInt("task", 0, 0, Integer.MAX_VALUE) : null;
        Long seed = f.has("seed") ? f.optLong("seed", 0) : null;
        return s.reset(index, seed, split, difficulty);
    }

    private static ArrayNode envs() {
        ArrayNode out = Json.array();
        for (Environment e : Environments.all()) {
            EnvironmentInfo i = e.info();
            ObjectNode o = out.addObject();
            o.put("id", i.id());
            o.put("description", i.description());
            o.put("interface", i.iface().id());
            i.difficulties().forEach(o.putArray("difficulties")::add);
        }
        return out;
    }

    private static ApiError notFound(String method, String path) {
        return ApiError.notFound("not_found", "no route " + method + " " + path
                + " (routes: GET /v1/health, GET /v1/envs, POST /v1/sessions, GET|DELETE /v1/sessions/{id}, "
                + "POST /v1/sessions/{id}/reset, POST /v1/sessions/{id}/step, GET /v1/sessions/{id}/oracle, "
                + "GET /v1/sessions/{id}/trajectory)");
    }
}
