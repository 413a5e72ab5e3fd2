package dev.openagent.shift.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Sign;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * tool.bare: tools arrive without descriptions, as from a server that declares none (ToolSandbox's
 * "no description" condition); names and schemas stay, so a tool is known by what its name says.
 * Severity 1 removes the tools' descriptions; 2 also the parameters' descriptions; 3 every description and
 * title anywhere in the schemas (nested objects, array items, enum values). {@code ask_user} keeps its own.
 * Calls pass through unchanged.
 */
public final class Bare extends ShiftEnv<Void> {
    public static final Shift SHIFT = new Shift("tool.bare", Tier.PERCEPTION, Dimension.A,
            "Tool descriptions removed (from severity 2 parameter descriptions too, at 3 every description in the schemas); names kept.",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "a command is known by its verb and help's one line of syntax; there is no description to remove"),
            Bare::new).seenAs(Sign.DESCRIPTION_REMOVED, Sign.PARAMETERS_CHANGED);

    private Bare(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params);
    }

    @Override
    protected Start begin(Start in) {
        List<ToolSpec> tools = new ArrayList<>();
        for (ToolSpec t : in.tools()) {
            if (Protocol.ASK_USER.equals(t.name())) {
                tools.add(t);
                continue;
            }
            ObjectNode schema = t.parameters();
            if (severity() == 2) schema.path("properties").forEach(p -> { if (p instanceof ObjectNode o) o.remove("description"); });
            if (severity() >= 3) strip(schema);
            tools.add(new ToolSpec(t.name(), "", schema));
        }
        return in.withTools(tools);
    }

    /** Removes every description and title from a schema, at any depth (a parameter that is named so stays). */
    private static void strip(JsonNode node) {
        if (node instanceof ObjectNode o) {
            o.remove(List.of("description", "title", "enumDescriptions", "markdownDescription"));
            o.properties().forEach(e -> {
                if (e.getKey().equals("properties") || e.getKey().equals("$defs") || e.getKey().equals("definitions")) e.getValue().forEach(Bare::strip);
                else strip(e.getValue());
            });
        } else if (node != null && node.isArray()) {
            node.forEach(Bare::strip);
        }
    }
}
