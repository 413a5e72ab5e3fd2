package dev.openagent.server.env;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.server.http.ApiError;
import dev.openagent.server.http.Fields;
import dev.openagent.server.http.JsonHttp;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One OpenEnv WebSocket connection on {@code /ws}: one {@link Session} for its lifetime. Client
 * messages are {@code {"type": "reset"|"step"|"state"|"close", "data": ...}}; each reset, step or
 * state message gets exactly one answer, {@code {"type": "observation"|"state"|"error", "data":
 * ...}}, and an error never ends the connection (only {@code close}, the client going away, the
 * idle TTL or a refused connection at capacity do). Public because Jetty calls it through method
 * handles.
 */
public final class EnvSocket implements org.eclipse.jetty.websocket.api.Session.Listener.AutoDemanding {
    private static final Logger LOG = LoggerFactory.getLogger(EnvSocket.class);

    /** OpenEnv's WSErrorCode values that this server sends. */
    enum Code { INVALID_JSON, UNKNOWN_TYPE, VALIDATION_ERROR, EXECUTION_ERROR, CAPACITY_REACHED, SESSION_ERROR }

    /**
     * A client message type, declared once: whether it takes {@code data} beside {@code type}, and how it is answered
     * (null for {@code close}: the connection closes instead).
     */
    private record MessageType(String type, boolean data, BiFunction<EnvSocket, JsonNode, ObjectNode> answer) {}

    /** OpenEnv's client messages, in the order error messages list them. */
    private static final Map<String, MessageType> TYPES = Stream.of(
            new MessageType("reset", true, (s, data) -> observation(s.session.reset(ResetData.parse(data, "data")))),
            new MessageType("step", true, (s, data) -> {
                if (data == null || data.isNull()) throw ApiError.invalid("the step message needs \"data\": the action");
                return observation(s.session.step(Actions.parse(data)));
            }),
            new MessageType("state", false, (s, data) -> {
                ObjectNode o = Json.object().put("type", "state");
                o.set("data", s.session.state());
                return o;
            }),
            new MessageType("close", false, (s, data) -> {
                if (s.socket != null) s.socket.close(StatusCode.NORMAL, "closed by the client", Callback.NOOP);
                return null;
            })).collect(Collectors.toMap(MessageType::type, t -> t, (a, b) -> a, LinkedHashMap::new));
    private static final String NAMES = String.join(", ", TYPES.keySet());
    private static final Set<String> WITH_DATA = Set.of("type", "data");
    private static final Set<String> TYPE_ONLY = Set.of("type");

    private final EnvServer server;
    private org.eclipse.jetty.websocket.api.Session socket;
    private Session session;

    EnvSocket(EnvServer server) {
        this.server = server;
    }

    @Override
    public void onWebSocketOpen(org.eclipse.jetty.websocket.api.Session s) {
        socket = s;
        if (!open()) {
            // As OpenEnv's server words it: the counts beside message and code. Refused means every slot is taken.
            ObjectNode full = error(Code.CAPACITY_REACHED, server.sessions().capacityMessage());
            ((ObjectNode) full.get("data")).put("active_sessions", server.sessions().max()).put("max_sessions", server.sessions().max());
            send(full);
            s.close(StatusCode.TRY_AGAIN_LATER, "capacity reached", Callback.NOOP);
        }
    }

    /** Takes a session slot and starts the session; false at capacity. */
    boolean open() {
        if (!server.sessions().reserve()) return false;
        session = new Session("ws", server.catalog(), server.defaults(), server.oracleAllowed());
        return true;
    }

    @Override
    public void onWebSocketText(String text) {
        if (session == null) return;   // refused at capacity: closing
        ObjectNode reply = answer(text);
        if (reply != null) send(reply);
    }

    /**
     * A binary frame carries no OpenEnv message: the connection closes with 1003, RFC 6455's status for a type of
     * data the endpoint cannot accept, so the client is not left waiting for an answer.
     */
    @Override
    public void onWebSocketBinary(ByteBuffer payload, Callback callback) {
        callback.succeed();
        socket.close(StatusCode.BAD_DATA, "binary frames are not supported: send each message as JSON in a text frame", Callback.NOOP);
    }

    /** Protocol failures (invalid UTF-8: 1007, a message over the cap: 1009, the idle TTL) close the connection with their status; nothing to log. */
    @Override
    public void onWebSocketError(Throwable cause) {}

    @Override
    public void onWebSocketClose(int statusCode, String reason, Callback callback) {
        if (session != null) {
            session = null;
            server.sessions().release();
        }
        callback.succeed();
    }

    private void send(ObjectNode message) {
        socket.sendText(Json.write(message), Callback.NOOP);
    }

    /** The answer to one client message, or null for {@code close} (the connection then closes). */
    ObjectNode answer(String text) {
        ObjectNode m;
        try {
            m = JsonHttp.parseObject(text, false, "the message");
        } catch (ApiError e) {
            return error(Code.INVALID_JSON, e.getMessage());
        }
        JsonNode type = m.get("type");
        if (type == null || !type.isTextual()) {
            return error(Code.UNKNOWN_TYPE, "a message needs \"type\": one of " + NAMES);
        }
        MessageType t = TYPES.get(type.asText());
        if (t == null) return error(Code.UNKNOWN_TYPE, "unknown message type '" + type.asText() + "' (" + NAMES + ")");
        try {
            Fields f = Fields.of(m, "the " + t.type() + " message", t.data() ? WITH_DATA : TYPE_ONLY);
            return t.answer().apply(this, f.raw("data"));
        } catch (ApiError e) {
            return error(switch (e.status()) {
                case 409 -> Code.SESSION_ERROR;
                case 400 -> Code.VALIDATION_ERROR;
                default -> Code.EXECUTION_ERROR;
            }, e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("serve env: internal error on a {} message: {}", type.asText(), e.toString());
            return error(Code.EXECUTION_ERROR, "the environment failed on this " + type.asText() + " message");
        }
    }

    private static ObjectNode observation(ObjectNode result) {
        ObjectNode o = Json.object().put("type", "observation");
        o.set("data", result);
        return o;
    }

    static ObjectNode error(Code code, String message) {
        ObjectNode o = Json.object().put("type", "error");
        o.putObject("data").put("message", JsonHttp.oneLine(message)).put("code", code.name());
        return o;
    }
}
