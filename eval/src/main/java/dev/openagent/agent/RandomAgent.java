package dev.openagent.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.ToolSpec;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A baseline that acts plausibly at random: calls listed tools with arguments drawn from the
 * query, earlier observations and the schema (enums, ranges), sometimes malformed on purpose
 * (bad JSON, wrong types, unknown tools, missing parameters), and ends with a random answer or
 * refusal. Seeded per episode from the query, so runs are reproducible.
 */
public final class RandomAgent implements Agent {
    private static final Pattern WORDS = Pattern.compile("[A-Z][\\w-]*(?: [A-Z][\\w-]*)*|\\d{4}-\\d{2}-\\d{2}|\\d{1,2}:\\d{2}|[A-Z]+-?\\d+|\\d+(?:\\.\\d+)?");

    private final long seed;

    public RandomAgent(long seed) {
        this.seed = seed;
    }

    @Override
    public String name() { return "random"; }

    @Override
    public AgentSession begin(Start start, Env env) {
        return new Session(start, new SplittableRandom(seed ^ start.query().hashCode()));
    }

    private static final class Session implements AgentSession {
        private final Start start;
        private final SplittableRandom rnd;
        private final List<String> values = new ArrayList<>();
        private int turn;
        private int calls;

        Session(Start start, SplittableRandom rnd) {
            this.start = start;
            this.rnd = rnd;
            harvest(start.query());
        }

        @Override
        public Action act(Step last) {
            if (last != null) {
                for (Observation o : last.observations()) {
                    if (o.payload() != null) harvest(o.payload());
                    else harvest(o.text());
                }
            }
            turn++;
            double r = rnd.nextDouble();
            if (turn > 2 && r < 0.12) {
                return rnd.nextDouble() < 0.2 ? new Action.Refuse("I cannot do this.")
                        : new Action.Answer("The answer is " + pickValue() + ".");
            }
            if (start.tools().isEmpty()) {
                return new Action.Command(rnd.nextDouble() < 0.3 ? "help" : "look " + pickValue());
            }
            if (r < 0.16) return new Action.AskUser("Could you tell me more about " + pickValue() + "?");
            return Action.CallTools.of("call_" + (calls++), chooseTool(), arguments());
        }

        private String chosen;

        private String chooseTool() {
            if (rnd.nextDouble() < 0.07) {
                chosen = null;
                return "tool_" + rnd.nextInt(100);
            }
            List<ToolSpec> tools = start.tools().stream().filter(t -> !t.name().equals(Protocol.ASK_USER)).toList();
            ToolSpec t = tools.isEmpty() ? start.tools().getFirst() : tools.get(rnd.nextInt(tools.size()));
            chosen = t.name();
            return chosen;
        }

        private String arguments() {
            double r = rnd.nextDouble();
            if (r < 0.06) return "{\"" + pickValue() + "\": ";            // truncated JSON
            if (r < 0.09) return "not json at all";
            ToolSpec spec = start.tools().stream().filter(t -> t.name().equals(chosen)).findFirst().orElse(null);
            ObjectNode args = Json.object();
            if (spec == null) return args.toString();
            JsonNode props = spec.parameters().path("properties");
            List<String> required = new ArrayList<>();
            spec.parameters().path("required").forEach(n -> required.add(n.asText()));
            for (Iterator<Map.Entry<String, JsonNode>> it = props.fields(); it.hasNext(); ) {
                var e = it.next();
                boolean req = required.contains(e.getKey());
                if (!req && rnd.nextDouble() < 0.6) continue;
                if (req && rnd.nextDouble() < 0.05) continue;                // missing parameter
                args.set(e.getKey(), value(e.getValue()));
            }
            if (rnd.nextDouble() < 0.05) args.put("extra_" + rnd.nextInt(10), pickValue());
            return args.toString();
        }

        private JsonNode value(JsonNode schema) {
            if (rnd.nextDouble() < 0.05) return Json.NODES.textNode(pickValue());  // possibly wrong type
            if (schema.has("enum")) return schema.get("enum").get(rnd.nextInt(schema.get("enum").size()));
            return switch (schema.path("type").asText()) {
                case "integer" -> Json.NODES.numberNode(rnd.nextInt(1, 9));
                case "number" -> Json.NODES.numberNode(Math.round(rnd.nextDouble() * 50) / 10.0);
                case "boolean" -> Json.NODES.booleanNode(rnd.nextBoolean());
                default -> Json.NODES.textNode(pickValue());
            };
        }

        private String pickValue() {
            return values.isEmpty() ? "x" : values.get(rnd.nextInt(values.size()));
        }

        private void harvest(String text) {
            Matcher m = WORDS.matcher(text);
            while (m.find() && values.size() < 400) values.add(m.group());
        }

        private void harvest(JsonNode node) {
            if (node.isValueNode()) {
                if (values.size() < 400) values.add(node.asText());
            } else {
                node.forEach(this::harvest);
            }
        }
    }
}
