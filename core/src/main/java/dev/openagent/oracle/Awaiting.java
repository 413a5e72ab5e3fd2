package dev.openagent.oracle;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.ToolSpec;

/** A plan step sent and not yet confirmed by the world. */
record Awaiting(Frame frame, GoldPlan.Call call, ObjectNode worldArgs, ToolSpec target, String tool, ObjectNode args, String id,
                int mark, int tries) {
    Awaiting again(String newId, String newTool, ObjectNode newArgs, int newMark) {
        return new Awaiting(frame, call, worldArgs, target, newTool, newArgs, newId, newMark, tries + 1);
    }
}
