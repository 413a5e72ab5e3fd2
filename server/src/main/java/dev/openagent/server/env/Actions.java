package dev.openagent.server.env;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.sandbox.Action;
import dev.openagent.server.http.ApiError;
import dev.openagent.server.wire.OpenAiWire;

/** An action from the wire, in either transport. */
final class Actions {
    private Actions() {}

    /**
     * Our action shapes ({@link OpenAiWire#parseAction}); OpenEnv's base Action carries a
     * {@code metadata} object, which a client's pydantic action includes when dumped: accepted
     * and ignored.
     */
    static Action parse(JsonNode data) {
        if (data instanceof ObjectNode o && o.has("metadata")) {
            JsonNode metadata = o.get("metadata");
            if (!metadata.isObject() && !metadata.isNull()) throw ApiError.invalid("action.metadata must be an object");
            o = o.deepCopy();
            o.remove("metadata");
            data = o;
        }
        return OpenAiWire.parseAction(data, "call_");
    }
}
