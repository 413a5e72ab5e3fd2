package dev.openagent.server.model;

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
import java.util.List;
import java.util.Map;

/**
 * A deterministic test agent that, like a model, reads only text: the query, the tools' names, and
 * each observation's text and source. Each action depends on what it read, so a served copy that
 * was shown anything else would act differently.
 */
final class TextReaderAgent implements Agent {
    @Override
    public String name() { return "text-reader"; }

    @Override
    public AgentSession begin(Start start, Env env) {
        List<String> read = new ArrayList<>(List.of(start.query()));
        List<ToolSpec> tools = start.tools().stream().filter(t -> !t.name().equals(Protocol.ASK_USER)).toList();
        return new AgentSession() {
            int turn;

            @Override
            public Action act(Step last) {
                if (last != null) for (Observation o : last.observations()) read.add(o.source() + ":" + o.text());
                int t = turn++;
                String word = lastWord(read.getLast());
                if (tools.isEmpty()) {   // a text-command environment
                    return switch (t) {
                        case 0 -> new Action.Command("help");
                        case 1 -> new Action.Command("look");
                        case 2 -> new Action.AskUser("where should " + word + " go?");
                        case 3 -> new Action.Command("examine " + word);
                        case 4 -> new Action.Command("take " + word);
                        default -> new Action.Answer("done with " + word + " after " + read.size() + " observations");
                    };
                }
                if (t >= 4) return new Action.Answer("the answer is " + word + " (" + read.size() + ")");
                if (t == 2) return new Action.AskUser("what about " + word + "?");
                ToolSpec tool = tools.get(Math.floorMod(word.hashCode(), tools.size()));
                String param = tool.parameters().path("properties").fieldNames().hasNext()
                        ? tool.parameters().path("properties").fieldNames().next() : "x";
                return Action.CallTools.of("call_" + t, tool.name(), Json.write(Map.of(param, word)));
            }
        };
    }

    private static String lastWord(String text) {
        String[] words = text.replaceAll("[^A-Za-z0-9 ]", " ").strip().split("\\s+");
        return words.length == 0 || words[words.length - 1].isEmpty() ? "thing" : words[words.length - 1];
    }
}
