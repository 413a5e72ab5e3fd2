package dev.openagent.episode;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.ShiftRecord;
import dev.openagent.sandbox.ToolSpec;

import java.util.List;

/**
 * A finished episode: which task under which shifts, the tools the agent saw, the conversation
 * as OpenAI-style chat messages, and the outcome. One JSON object per line in trajectory files.
 *
 * @param dbChanges the records of the environment's database the episode changed ({@link dev.openagent.sandbox.Env#dbChanges}),
 *                  absent for environments without a database
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
                         Stats stats,
                         @JsonProperty("db_changes") @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode dbChanges) {
    public Trajectory {
        shifts = List.copyOf(shifts);
        tools = List.copyOf(tools);
        messages = List.copyOf(messages);
    }

    /** An episode of an environment without a database. */
    public Trajectory(String env, String taskId, String split, long seed, int difficulty, String kind, boolean solvable,
                      List<ShiftRecord> shifts, String agent, List<ToolSpec> tools, List<Message> messages, Outcome outcome, Stats stats) {
        this(env, taskId, split, seed, difficulty, kind, solvable, shifts, agent, tools, messages, outcome, stats, null);
    }

    public boolean success() { return outcome.success(); }

    /** "none" or the shift specs joined by '+'. */
    public String shiftSpec() {
        return shifts.isEmpty() ? "none" : String.join("+", shifts.stream().map(ShiftRecord::spec).toList());
    }

    public String toJson() { return Json.write(this); }

    public static Trajectory fromJson(String line) { return Json.read(line, Trajectory.class); }
}
