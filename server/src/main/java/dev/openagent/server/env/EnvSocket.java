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
import java.util.Set;

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
            return error(Code.UNKNOWN_TYPE, "a message needs \"type\": one of reset, step, state, close");
        }
        try {
            return switch (type.asText()) {
                case "reset" -> {
                    Fields f = Fields.of(m, "the reset message", WITH_DATA);
                    yield observation(session.reset(ResetData.parse(f.raw("data"), "data")));
                }
                case "step" -> {
                    Fields f = Fields.of(m, "the step message", WITH_DATA);
                    JsonNode data = f.raw("data");
                    if (data == null || data.isNull()) throw ApiError.invalid("the step message needs \"data\": the action");
                    yield observation(session.step(Actions.parse(data)));
                }
                case "state" -> {
                    Fields.of(m, "the state message", TYPE_ONLY);
                    ObjectNode o = Json.object().put("type", "state");
                    o.set("data", session.state());
                    yield o;
                }
                case "close" -> {
                    Fields.of(m, "the close message", TYPE_ONLY);
                    if (socket != null) socket.close(StatusCode.NORMAL, "closed by the client", Callback.NOOP);
                    yield null;
                }
                default -> error(Code.UNKNOWN_TYPE, "unknown message type '" + type.asText() + "' (reset, step, state, close)");
            };
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
