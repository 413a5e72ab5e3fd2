package dev.openagent.server.env;

import dev.openagent.registry.Catalog;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Split;
import dev.openagent.server.EnvChoice;
import dev.openagent.server.http.ApiError;
import dev.openagent.server.http.BearerAuth;
import dev.openagent.server.http.Fields;
import dev.openagent.server.http.HttpCall;
import dev.openagent.server.http.HttpService;
import dev.openagent.server.http.JsonHttp;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.function.UnaryOperator;

/**
 * {@code openagent serve env}: environments over the OpenEnv protocol, for RL trainers. A
 * WebSocket on {@code /ws} is one session per connection (what OpenEnv clients use); the same
 * reset / step / state over HTTP keep a session by the {@value #SESSION_HEADER} header. Plus
 * OpenEnv's {@code /health}, {@code /metadata} and {@code /schema}. See docs/serve-env.md.
 */
public final class EnvServer implements AutoCloseable {
    /** The HTTP session: returned by {@code POST /reset}, sent back on every later request of the session. */
    public static final String SESSION_HEADER = "Session-Id";
    public static final String VERSION = "0.1.0";

    /**
     * What a reset chooses when its data does not say (the server's flags).
     *
     * @param difficulty 0 lets each task choose
     */
    public record Defaults(String env, String shift, Split split, int difficulty, long runSeed) {
        public static final Defaults STANDARD = new Defaults("poi", "none", Split.TRAIN, 0, 1);

        /** @throws dev.openagent.UserInputException when the environment, shift or difficulty is not one the server can run */
        public void check(Catalog catalog) {
            EnvChoice choice = EnvChoice.of(catalog, env, shift);
            if (difficulty != 0 && !choice.environment().info().difficulties().contains(difficulty)) {
                throw new UserInputException(env + " has no difficulty " + difficulty + " (levels: "
                        + choice.environment().info().difficulties() + "; 0 mixes them)");
            }
        }
    }

    /**
     * @param allowOracle whether observations carry the oracle's next action (privileged: it solves the task)
     * @param catalog     the environments resets may choose by id (the caller's: built-in and loaded ones)
     */
    public record Config(String host, int port, BearerAuth auth, int maxSessions, Duration idleTtl, long maxBodyBytes,
                         boolean allowOracle, Defaults defaults, Catalog catalog) {
        public static final String DEFAULT_HOST = "127.0.0.1";
        public static final int DEFAULT_MAX_SESSIONS = 1024;
        public static final Duration DEFAULT_IDLE_TTL = Duration.ofMinutes(10);
        public static final long DEFAULT_MAX_BODY = 1 << 20;

        public Config {
            if (port < 0 || port > 65535) throw new UserInputException("--port must be between 0 and 65535");
            if (maxBodyBytes < 256) throw new UserInputException("--max-body must be at least 256 bytes");
        }

        /** Loopback, any free port, the built-in environments, defaults elsewhere: what tests and the bench use. */
        public static Config loopback(boolean allowOracle) {
            return new Config(DEFAULT_HOST, 0, BearerAuth.NONE, DEFAULT_MAX_SESSIONS, DEFAULT_IDLE_TTL, DEFAULT_MAX_BODY,
                    allowOracle, Defaults.STANDARD, new Catalog());
        }

        /** The same configuration over another catalog's environments. */
        public Config withCatalog(Catalog environments) {
            return new Config(host, port, auth, maxSessions, idleTtl, maxBodyBytes, allowOracle, defaults, environments);
        }

        public Config withLimits(int sessions, Duration ttl, long body) {
            return new Config(host, port, auth, sessions, ttl, body, allowOracle, defaults, catalog);
        }
    }

    /** The body of {@code POST /step}, as the OpenAPI document declares it (OpenEnv's StepRequest). */
    static final ObjectNode STEP_REQUEST = stepRequest();
    private static final Set<String> STEP_FIELDS = STEP_REQUEST.get("properties").properties().stream().map(Map.Entry::getKey).collect(Collectors.toUnmodifiableSet());
    private static final String WEB_SOCKET = "/ws";

    private final Config config;
    private final Sessions sessions;
    private final OpenEnvDocs docs;
    /** The HTTP routes by path, in the order the OpenAPI document and the not-found answer list them. */
    private final Map<String, Route> routes = new LinkedHashMap<>();
    private final HttpService http;

    private EnvServer(Config config) throws IOException {
        config.defaults().check(config.catalog());
        this.config = config;
        this.sessions = new Sessions(config.maxSessions(), config.idleTtl());
        this.docs = new OpenEnvDocs(config.defaults(), config.allowOracle(), declareRoutes(), config.catalog()::all);
        try {
            Set<String> open = routes.values().stream().filter(Route::open).map(Route::path).collect(Collectors.toUnmodifiableSet());
            this.http = HttpService.start(config.host(), config.port(), config.auth(), open, "serve-env", this::route,
                    new HttpService.WebSocketRoute(WEB_SOCKET, (request, response, callback) -> new EnvSocket(this),
                            config.maxBodyBytes(), config.idleTtl()));
        } catch (IOException | RuntimeException e) {
            sessions.close();
            throw e;
        }
    }

    public static EnvServer start(Config config) throws IOException {
        return new EnvServer(config);
    }

    public int port() { return http.port(); }

    public String baseUrl() { return http.baseUrl(); }

    /** {@code ws://host:port/ws}, where OpenEnv clients connect. */
    public String webSocketUrl() { return "ws" + baseUrl().substring("http".length()) + "/ws"; }

    /** Sessions open now: WebSocket connections and HTTP sessions. */
    public int sessionCount() { return sessions.size(); }

    Sessions sessions() { return sessions; }

    /**
     * A {@code /ws} session without a connection, for the load bench's floor: each call answers one
     * client message (a reset, step or state message's text) exactly as the WebSocket would, on the
     * calling thread, with no socket, framing or thread hand-off. Holds a session slot until the
     * server closes.
     *
     * @throws IllegalStateException when every session slot is taken
     */
    public UnaryOperator<String> inProcessSession() {
        EnvSocket socket = new EnvSocket(this);
        if (!socket.open()) throw new IllegalStateException(sessions.capacityMessage());
        return text -> {
            ObjectNode answer = socket.answer(text);
            if (answer == null) throw new IllegalArgumentException("an in-process session has no connection to close");
            return Json.write(answer);
        };
    }

    Defaults defaults() { return config.defaults(); }

    Catalog catalog() { return config.catalog(); }

    boolean oracleAllowed() { return config.allowOracle(); }

    @Override
    public void close() {
        http.close();
        sessions.close();
    }

    /** Every HTTP route, declared once (OpenEnv's, ours, and the WebSocket's upgrade path); returns them for the documents. */
    private List<Route> declareRoutes() {
        List<Route> all = List.of(
                // Without the token: Kubernetes' probes cannot send one, and it tells nothing but "healthy".
                Route.get("/health", "Health: {\"status\": \"healthy\"}", OpenEnvDocs.HEALTH,
                        c -> JsonHttp.sendJson(c, 200, Json.object().put("status", "healthy"))).opened(),
                Route.get("/metadata", "EnvironmentMetadata", OpenEnvDocs.METADATA, c -> JsonHttp.sendJson(c, 200, docs.metadata())),
                Route.get("/schema", "SchemaResponse: JSON Schemas of action, observation and state", OpenEnvDocs.SCHEMA,
                        c -> JsonHttp.sendJson(c, 200, docs.schema())),
                Route.get("/openapi.json", null, null, c -> JsonHttp.sendJson(c, 200, docs.openApi())),
                Route.get("/state", "State of the session named by the " + SESSION_HEADER + " header", OpenEnvDocs.STATE, this::state),
                Route.post("/reset", "Starts an episode; creates a session unless the " + SESSION_HEADER + " header names one. Answers "
                        + "{observation, reward, done} and the " + SESSION_HEADER + " header.", OpenEnvDocs.RESET_REQUEST, OpenEnvDocs.RESET_RESPONSE, this::reset),
                Route.post("/step", "Applies {\"action\": ..., \"timeout_s\"?, \"request_id\"?} in the session named by the " + SESSION_HEADER
                        + " header. Answers {observation, reward, done}.", OpenEnvDocs.STEP_REQUEST, OpenEnvDocs.STEP_RESPONSE, this::step),
                Route.post("/close", "Closes the session named by the " + SESSION_HEADER + " header.", null, null, this::closeSession),
                Route.upgrade(WEB_SOCKET, c -> {
                    c.setHeader("Upgrade", "websocket");
                    throw new ApiError(426, "upgrade_required", WEB_SOCKET + " is a WebSocket: connect with a WebSocket client (Upgrade: websocket)");
                }));
        for (Route r : all) routes.put(r.path(), r);
        return all;
    }

    private void route(HttpCall c) throws IOException {
        Route r = routes.get(c.path());
        if (r == null) {
            throw ApiError.notFound("not_found", "no route " + c.method() + " " + c.path() + " (routes: "
                    + routes.values().stream().map(Route::listed).collect(Collectors.joining(", "))
                    + "; HTTP sessions by the " + SESSION_HEADER + " header)");
        }
        if (r.method() != null) JsonHttp.requireMethod(c, r.method());
        r.handler().handle(c);
    }

    private void reset(HttpCall c) throws IOException {
        ResetData data = ResetData.parse(JsonHttp.readObject(c, config.maxBodyBytes(), true), "");
        String id = c.header(SESSION_HEADER);
        Session s = id == null ? sessions.createHttp(config.catalog(), config.defaults(), config.allowOracle()) : sessions.get(id);
        ObjectNode answer;
        try {
            answer = s.reset(data);
        } catch (RuntimeException e) {
            if (id == null) sessions.remove(s.id);   // a new session whose first reset fails is of no use to anyone
            throw e;
        }
        c.setHeader(SESSION_HEADER, s.id);
        JsonHttp.sendJson(c, 200, answer);
    }

    private void step(HttpCall c) throws IOException {
        Session s = session(c);
        Fields f = Fields.of(JsonHttp.readObject(c, config.maxBodyBytes(), false), "", STEP_FIELDS);
        JsonNode action = f.raw("action");
        if (action == null || action.isNull()) throw ApiError.invalid("the request body needs \"action\" (an object)");
        stepOptions(f);
        c.setHeader(SESSION_HEADER, s.id);
        JsonHttp.sendJson(c, 200, s.step(Actions.parse(action)));
    }

    private void state(HttpCall c) throws IOException {
        Session s = session(c);
        c.setHeader(SESSION_HEADER, s.id);
        JsonHttp.sendJson(c, 200, s.state());
    }

    private void closeSession(HttpCall c) throws IOException {
        Session s = session(c);
        sessions.remove(s.id);
        JsonHttp.sendJson(c, 200, Json.object().put("session_id", s.id).put("closed", true));
    }

    private static ObjectNode stepRequest() {
        ObjectNode o = Json.object().put("type", "object").put("additionalProperties", false);
        ObjectNode p = o.putObject("properties");
        p.set("action", Json.object().put("$ref", "#/components/schemas/Action"));
        p.putObject("timeout_s").put("type", "number").put("exclusiveMinimum", 0);
        p.putObject("request_id").put("type", "string").put("maxLength", 255);
        o.set("required", Json.tree(List.of("action")));
        return o;
    }

    /** OpenEnv's StepRequest options: validated; a step here takes microseconds, so timeout_s never applies. */
    private static void stepOptions(Fields f) {
        if (f.has("timeout_s")) {
            JsonNode t = f.raw("timeout_s");
            if (!t.isNumber() || t.asDouble() <= 0) throw ApiError.invalid("timeout_s must be a number > 0");
        }
        String requestId = f.optString("request_id", null);
        if (requestId != null && requestId.length() > 255) throw ApiError.invalid("request_id must have at most 255 characters");
    }

    private Session session(HttpCall c) {
        String id = c.header(SESSION_HEADER);
        if (id == null || id.isBlank()) {
            throw ApiError.invalid(c.method() + " " + c.path() + " needs the " + SESSION_HEADER
                    + " header that POST /reset returned (or use the WebSocket /ws, one session per connection)");
        }
        return sessions.get(id.strip());
    }
}
