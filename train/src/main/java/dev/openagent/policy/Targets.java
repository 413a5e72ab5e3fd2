package dev.openagent.policy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.SimulatedUser;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.sandbox.Commands;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a demonstrated action (the oracle's) into pointer targets over a context:
 * <ul>
 *   <li>a tool call points at the tool in the list shown, and each gold argument at every
 *       occurrence of its value in the context (or at its enum value);</li>
 *   <li>a text command points at its command form (read in the help text) and each slot's words
 *       at every occurrence of them in the context;</li>
 *   <li>a question points at the topics whose question gets the same reply from the simulated
 *       user as the demonstrated question did;</li>
 *   <li>an answer points at what it must say: the words of the demonstrated answer that a tool
 *       issued (in an observation, not in the request), and the checker's required values; a
 *       required word no context holds is one of the config's answer words.</li>
 * </ul>
 * Reading the task (user facts, required values) is privileged: only demonstrations do it.
 */
final class Targets {
    private Targets() {}

    /** Empty when the action cannot be expressed by the policy (several calls at once, an unknown tool, a command of no form read in help). */
    static Optional<Decision> of(Context ctx, Action action, Task task, PolicyConfig c) {
        return switch (action) {
            case Action.CallTools calls -> {
                if (calls.calls().size() != 1) yield Optional.empty();
                Action.ToolCall call = calls.calls().getFirst();
                if (call.name().equals(Protocol.ASK_USER)) {
                    JsonNode args = parse(call.arguments());
                    yield Optional.of(ask(ctx, args == null ? call.arguments() : args.path("question").asText(""), task, c));
                }
                yield call(ctx, call, c);
            }
            case Action.AskUser q -> Optional.of(ask(ctx, q.question(), task, c));
            case Action.Answer a -> Optional.of(answer(ctx, a.text(), task, c));
            case Action.Refuse r -> Optional.of(new Decision.Refuse());
            case Action.Command cmd -> {
                String question = Commands.after(Commands.normalize(cmd.text()), Protocol.ASK_COMMAND);
                yield question != null && !ctx.commands.isEmpty() ? Optional.of(ask(ctx, cmd.text(), task, c)) : command(ctx, cmd, c);
            }
        };
    }

    /**
     * A text command points at the most specific command form it is written in (the most literal
     * words) and copies each slot's words from the context, like a tool call's arguments.
     */
    private static Optional<Decision> command(Context ctx, Action.Command cmd, PolicyConfig c) {
        String text = Commands.normalize(cmd.text());
        int form = -1;
        List<String> values = null;
        for (int i = 0; i < ctx.commands.size(); i++) {
            List<String> v = ctx.commands.get(i).match(text);
            if (v != null && (form < 0 || ctx.commands.get(i).literals() > ctx.commands.get(form).literals())) {
                form = i;
                values = v;
            }
        }
        if (form < 0) return Optional.empty();
        ObjectNode args = Json.object();
        List<String> slots = ctx.commands.get(form).slots();
        for (int k = 0; k < slots.size(); k++) args.put(slots.get(k), values.get(k));
        return call(ctx, form, args, c);
    }

    private static Optional<Decision> call(Context ctx, Action.ToolCall call, PolicyConfig c) {
        if (!ctx.commands.isEmpty()) return Optional.empty();
        int tool = -1;
        for (int i = 0; i < ctx.tools.size(); i++) if (ctx.tools.get(i).name().equals(call.name())) tool = i;
        JsonNode args = parse(call.arguments());
        if (tool < 0 || args == null || !args.isObject()) return Optional.empty();
        return call(ctx, tool, args, c);
    }

    private static Optional<Decision> call(Context ctx, int tool, JsonNode args, PolicyConfig c) {
        ToolSpec spec = ctx.tools.get(tool);
        List<Decision.Arg> out = new ArrayList<>();
        List<ParamSpec> params = ParamSpec.of(spec, c.maxParams());
        for (int j = 0; j < params.size(); j++) {
            ParamSpec p = params.get(j);
            JsonNode v = args.get(p.name());
            boolean present = v != null && !v.isNull();
            int[] enumIdx = new int[0];
            int[] starts = new int[0];
            int[] ends = new int[0];
            if (present && p.isEnum()) {
                int k = p.values().subList(0, Math.min(p.values().size(), c.maxEnumValues())).indexOf(v.asText());
                if (k >= 0) enumIdx = new int[]{k};
            } else if (present) {
                List<int[]> occ = ctx.occurrences(v.isTextual() ? v.asText() : v.toString()).stream()
                        .filter(o -> o[1] - o[0] < c.maxSpanTokens()).toList();
                starts = occ.stream().mapToInt(o -> o[0]).toArray();
                ends = occ.stream().mapToInt(o -> o[1]).toArray();
            }
            out.add(new Decision.Arg(j, present, enumIdx, starts, ends));
        }
        return Optional.of(new Decision.Call(tool, out));
    }

    private static Decision.Ask ask(Context ctx, String question, Task task, PolicyConfig c) {
        String reply = SimulatedUser.reply(task.userFacts(), question);
        if (reply.equals(SimulatedUser.DONT_KNOW)) return new Decision.Ask(new int[0]);
        List<Integer> topics = new ArrayList<>();
        for (int i = 0; i < ctx.topics.size(); i++) {
            if (SimulatedUser.reply(task.userFacts(), Context.question(ctx.topics.get(i))).equals(reply)) topics.add(i);
        }
        return new Decision.Ask(topics.stream().mapToInt(Integer::intValue).toArray());
    }

    private static Decision.Answer answer(Context ctx, String text, Task task, PolicyConfig c) {
        Set<String> inRequest = ctx.lowersWhere(s -> s == Context.SEG_REQUEST);
        Set<String> inObs = ctx.lowersWhere(Context::isObservationSegment);
        Set<String> wanted = new LinkedHashSet<>();
        for (Tokenizer.Token t : Tokenizer.tokenize(text)) {
            if (inObs.contains(t.lower()) && !inRequest.contains(t.lower())) wanted.add(t.lower());
        }
        for (String need : task.mustContain()) for (Tokenizer.Token t : Tokenizer.tokenize(need)) wanted.add(t.lower());
        List<Decision.Group> groups = new ArrayList<>();
        wanted.removeAll(phrases(ctx, task, groups));
        for (String w : wanted) {
            List<Integer> at = new ArrayList<>();
            for (int i = 1; i < ctx.n; i++) if (ctx.lower[i].equals(w)) at.add(i);
            int word = c.answerWords().indexOf(w);
            if (at.isEmpty() && word < 0) continue; // nothing the policy could say: the answer will miss it
            groups.add(new Decision.Group(at.stream().mapToInt(Integer::intValue).toArray(), word < 0 ? new int[0] : new int[]{word}));
        }
        return new Decision.Answer(groups);
    }

    /**
     * A required value of several tokens ("dining room", "Level 4, East Wing", flight "MA 427")
     * points at the places where the context says it whole, token by token, so the answer (said in
     * runs of adjacent tokens, see {@link Policy}) keeps it together and in order, and the same words
     * elsewhere ("West Wing" of another department) are what it must not say. Adds those groups;
     * returns the words covered.
     */
    private static Set<String> phrases(Context ctx, Task task, List<Decision.Group> groups) {
        Set<String> covered = new java.util.HashSet<>();
        for (String need : task.mustContain()) {
            List<Tokenizer.Token> words = Tokenizer.tokenize(need);
            List<int[]> occ = ctx.occurrences(need);
            if (words.size() < 2 || occ.isEmpty()) continue;
            for (int j = 0; j < words.size(); j++) {
                if (!covered.add(words.get(j).lower())) continue;
                int k = j;
                groups.add(new Decision.Group(occ.stream().mapToInt(o -> o[0] + k).toArray(), new int[0]));
            }
        }
        return covered;
    }

    /** Words a demonstrated answer had to contain that no context position holds (answer-word candidates). */
    static List<String> missingWords(Context ctx, Task task) {
        Set<String> all = ctx.lowersWhere(s -> true);
        List<String> out = new ArrayList<>();
        for (String need : task.mustContain()) {
            for (Tokenizer.Token t : Tokenizer.tokenize(need)) {
                String w = t.lower().toLowerCase(Locale.ROOT);
                if (!all.contains(w)) out.add(w);
            }
        }
        return out;
    }

    private static JsonNode parse(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (JsonProcessingException | RuntimeException e) {
            return null;
        }
    }
}
