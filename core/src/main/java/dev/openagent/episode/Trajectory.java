package dev.openagent.episode;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.ShiftRecord;
import dev.openagent.sandbox.ToolSpec;

import java.util.List;

/**
 * A finished episode: which task under which shifts, the tools the agent saw, the conversation
 * as OpenAI-style chat messages, and the outcome. One JSON object per line in trajectory files.
 */
public record Trajectory(String env,
                         @JsonProperty("task_id") String taskId,
                         String split,
                         long seed,
                         int difficulty,
                         String kind,
                         boolean solvable,
                         List<ShiftRecord> shifts,
                         String agent,
                         List<ToolSpec> tools,
                         List<Message> messages,
                         Outcome outcome,
                         Stats stats) {
    public Trajectory {
        shifts = List.copyOf(shifts);
        tools = List.copyOf(tools);
        messages = List.copyOf(messages);
    }

    public boolean success() { return outcome.success(); }

    /** "none" or the shift specs joined by '+'. */
    public String shiftSpec() {
        return shifts.isEmpty() ? "none" : String.join("+", shifts.stream().map(ShiftRecord::spec).toList());
    }

    public String toJson() { return Json.write(this); }

    public static Trajectory fromJson(String line) { return Json.read(line, Trajectory.class); }
}
