package dev.openagent.policy;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.training.GradientCollector;
import ai.djl.training.optimizer.Optimizer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The built-in neural policy: a {@link PolicyConfig} and its network. It reads {@link View}s and
 * acts by pointing (see {@link PolicyNet}); {@link #act} decodes greedily or samples (RL).
 * Inference is serialised: one forward pass at a time per policy.
 */
public final class Policy implements AutoCloseable {
    /** The reason the policy gives when it refuses. */
    public static final String REFUSAL = "the request cannot be fulfilled with the available tools and information.";

    private final PolicyConfig config;
    private final Vocabulary vocabulary;
    private final PolicyNet net;
    /** Word dropout in training (see {@link Batch}); seeded, so training stays reproducible. */
    private SplittableRandom dropout;
    private double dropoutRate;

    Policy(PolicyConfig config, Vocabulary vocabulary, PolicyNet net) {
        this.config = config;
        this.vocabulary = vocabulary;
        this.net = net;
    }

    /** A new policy with random weights (the same seed gives the same weights). */
    public static Policy create(PolicyConfig config, Vocabulary vocabulary, long seed) {
        Djl.init();
        return new Policy(config, vocabulary, PolicyNet.create(config, seed));
    }

    public PolicyConfig config() { return config; }

    public Vocabulary vocabulary() { return vocabulary; }

    /** Reads each distinct word of a training example as unknown with this probability (0 turns it off). */
    public synchronized void wordDropout(double rate, long seed) {
        this.dropoutRate = rate;
        this.dropout = rate > 0 ? new SplittableRandom(seed) : null;
    }

    Context encode(View view) {
        return Context.encode(view, config, vocabulary);
    }

    public long parameterCount() { return net.parameterCount(); }

    PolicyNet net() { return net; }

    @Override
    public void close() { net.close(); }

    /** An action and the decision behind it (for policy-gradient updates). */
    public record Acted(Action action, Decision decision) {}

    /**
     * Chooses an action for each view in one batched forward pass.
     *
     * @param sampler null for greedy decoding, else the random source to sample from
     */
    public synchronized List<Acted> act(List<View> views, SplittableRandom sampler) {
        List<Context> contexts = views.stream().map(this::encode).toList();
        Batch batch = new Batch(contexts, config, vocabulary);
        List<Acted> out = new ArrayList<>(views.size());
        try (NDManager m = net.manager.newSubManager()) {
            PolicyNet.Forward f = Djl.inference(() -> net.new Forward(m, batch));
            float[] action = PolicyNet.floats(f.action);
            int width = batch.tMax + 3;
            int[] kinds = new int[batch.b];
            int[] chosen = new int[batch.b];
            boolean anyCall = false;
            for (int e = 0; e < batch.b; e++) {
                kinds[e] = choose(action, e * width, width, sampler);
                chosen[e] = kinds[e] < batch.tMax ? kinds[e] : -1;
                anyCall |= chosen[e] >= 0;
            }
            float[] present = null;
            float[] start = null;
            float[] end = null;
            float[] enums = null;
            if (anyCall) {
                batch.withParams(chosen);
                Djl.inference(f::params);
                present = PolicyNet.floats(f.present);
                start = PolicyNet.floats(f.start);
                end = PolicyNet.floats(f.end);
                enums = PolicyNet.floats(f.enumLogits);
            }
            float[] answer = PolicyNet.floats(f.answer);
            float[] ask = PolicyNet.floats(f.ask);
            for (int e = 0; e < batch.b; e++) {
                Context x = contexts.get(e);
                String callId = "call_" + x.view.turns().size();
                int k = kinds[e];
                if (k < batch.tMax) {
                    out.add(call(x, batch, e, k, callId, present, start, end, enums, sampler));
                } else if (k == batch.tMax) {
                    out.add(answer(x, batch, e, answer, sampler));
                } else if (k == batch.tMax + 1) {
                    int z = x.topics.isEmpty() ? -1 : choose(ask, e * batch.zMax, batch.zMax, sampler);
                    String question = z < 0 ? "Could you tell me more about your request?" : Context.question(x.topics.get(z));
                    out.add(new Acted(new Action.AskUser(question), new Decision.Ask(z < 0 ? new int[0] : new int[]{z})));
                } else {
                    out.add(new Acted(new Action.Refuse(REFUSAL), new Decision.Refuse()));
                }
            }
        }
        return out;
    }

    private Acted call(Context x, Batch batch, int e, int tool, String callId, float[] present, float[] start, float[] end,
                       float[] enums, SplittableRandom sampler) {
        List<ParamSpec> params = ParamSpec.of(x.tools.get(tool), config.maxParams());
        ObjectNode args = Json.object();
        List<Decision.Arg> decided = new ArrayList<>();
        for (int j = 0; j < params.size(); j++) {
            ParamSpec p = params.get(j);
            int row = e * batch.pMax + j;
            boolean on = p.required() || (sampler == null ? present[row] > 0 : sampler.nextDouble() < sigmoid(present[row]));
            if (!on) {
                decided.add(new Decision.Arg(j, false, new int[0], new int[0], new int[0]));
                continue;
            }
            if (p.isEnum()) {
                int v = choose(enums, row * batch.kMax, Math.min(p.values().size(), config.maxEnumValues()), sampler);
                args.put(p.name(), p.values().get(v));
                decided.add(new Decision.Arg(j, true, new int[]{v}, new int[0], new int[0]));
            } else {
                int[] span = span(x, start, end, row * batch.l, sampler);
                args.set(p.name(), value(p, x.spanText(span[0], span[1])));
                decided.add(new Decision.Arg(j, true, new int[0], new int[]{span[0]}, new int[]{span[1]}));
            }
        }
        Action action = Action.CallTools.of(callId, x.tools.get(tool).name(), Json.write(args));
        return new Acted(action, new Decision.Call(tool, decided));
    }

    /** The copied span {start, end}: the best-scoring allowed pair, or a sampled one. */
    private int[] span(Context x, float[] start, float[] end, int base, SplittableRandom sampler) {
        int maxSpan = config.maxSpanTokens();
        if (sampler == null) {
            int bs = 1;
            int be = 1;
            float best = Float.NEGATIVE_INFINITY;
            for (int s = 1; s < x.n; s++) {
                for (int t = s; t < x.n && t - s < maxSpan && x.source[t] == x.source[s]; t++) {
                    float score = start[base + s] + end[base + t];
                    if (score > best) {
                        best = score;
                        bs = s;
                        be = t;
                    }
                }
            }
            return new int[]{bs, be};
        }
        int s = choose(start, base, x.n, sampler);
        if (s == 0) s = 1;
        int last = s;
        while (last + 1 < x.n && last + 1 - s < maxSpan && x.source[last + 1] == x.source[s]) last++;
        int t = s + choose(end, base + s, last - s + 1, sampler);
        return new int[]{s, t};
    }

    private Acted answer(Context x, Batch batch, int e, float[] logits, SplittableRandom sampler) {
        int la = batch.l + batch.a;
        int base = e * la;
        List<Integer> tokens = new ArrayList<>();
        List<Integer> words = new ArrayList<>();
        for (int i = 1; i < x.n; i++) {
            if (sampler == null ? logits[base + i] > 0 : sampler.nextDouble() < sigmoid(logits[base + i])) tokens.add(i);
        }
        for (int k = 0; k < batch.a; k++) {
            float z = logits[base + batch.l + k];
            if (sampler == null ? z > 0 : sampler.nextDouble() < sigmoid(z)) words.add(k);
        }
        if (sampler == null && tokens.isEmpty() && words.isEmpty() && x.n > 1) {
            int best = 1;
            for (int i = 2; i < x.n; i++) if (logits[base + i] > logits[base + best]) best = i;
            tokens.add(best);
        }
        Set<String> said = new LinkedHashSet<>();
        List<String> parts = new ArrayList<>();
        for (int i : tokens) if (said.add(x.lower[i])) parts.add(x.tokenText(i));
        for (int k : words) if (said.add(config.answerWords().get(k))) parts.add(config.answerWords().get(k));
        List<Decision.Group> groups = new ArrayList<>();
        for (int i : tokens) groups.add(new Decision.Group(new int[]{i}, new int[0]));
        for (int k : words) groups.add(new Decision.Group(new int[0], new int[]{k}));
        return new Acted(new Action.Answer(String.join(" ", parts)), new Decision.Answer(groups));
    }

    /** A copied value in the parameter's JSON type; text that does not parse stays text (the tool will say so). */
    static JsonNode value(ParamSpec p, String text) {
        String t = text.strip();
        try {
            return switch (p.type()) {
                case INTEGER -> {
                    double v = Double.parseDouble(t);
                    yield v == Math.rint(v) && Math.abs(v) < 1e15 ? Json.NODES.numberNode((long) v) : Json.NODES.textNode(t);
                }
                case NUMBER -> Json.NODES.numberNode(Double.parseDouble(t));
                case BOOLEAN -> t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")
                        ? Json.NODES.booleanNode(Boolean.parseBoolean(t.toLowerCase(Locale.ROOT))) : Json.NODES.textNode(t);
                case STRING -> Json.NODES.textNode(t);
            };
        } catch (NumberFormatException e) {
            return Json.NODES.textNode(t);
        }
    }

    /** Argmax, or a sample from the softmax, over {@code n} logits at {@code base}. */
    static int choose(float[] logits, int base, int n, SplittableRandom sampler) {
        int best = 0;
        for (int i = 1; i < n; i++) if (logits[base + i] > logits[base + best]) best = i;
        if (sampler == null) return best;
        double max = logits[base + best];
        double sum = 0;
        for (int i = 0; i < n; i++) sum += Math.exp(logits[base + i] - max);
        double u = sampler.nextDouble() * sum;
        for (int i = 0; i < n; i++) {
            u -= Math.exp(logits[base + i] - max);
            if (u <= 0) return i;
        }
        return best;
    }

    static double sigmoid(double z) { return 1 / (1 + Math.exp(-z)); }

    // ---------------------------------------------------------------- training

    /** A training example: what the agent saw and the decision to learn (weight 1 for cloning, the advantage for RL). */
    public record Example(View view, Decision decision, float weight) {}

    /** Encodes a demonstrated action as a target, or empty when the policy cannot express it. */
    public Optional<Decision> target(View view, Action action, Task task) {
        return Targets.of(encode(view), action, task, config);
    }

    /** Answer words a demonstrated answer needed that its context (as this config reads it) did not hold. */
    static List<String> missingAnswerWords(PolicyConfig config, View view, Task task) {
        return Targets.missingWords(Context.encode(view, config, Vocabulary.open()), task);
    }

    /** One optimiser step on the examples (cloning: every weight 1); returns the loss. */
    public synchronized float train(List<Example> examples, Optimizer optimizer) {
        float loss = accumulate(examples, examples.size());
        step(optimizer);
        return loss;
    }

    /**
     * Adds the gradient of {@code -sum(weight * log P(decision)) / divisor} over the examples to
     * the parameters' gradients (call {@link #step} once the whole batch is in); returns that loss.
     */
    public synchronized float accumulate(List<Example> examples, float divisor) {
        List<Context> contexts = examples.stream().map(x -> encode(x.view())).toList();
        Batch batch = new Batch(contexts, config, vocabulary, dropout, dropoutRate);
        int[] chosen = examples.stream().mapToInt(x -> x.decision() instanceof Decision.Call call ? call.tool() : -1).toArray();
        batch.withParams(chosen);
        float[] weights = new float[examples.size()];
        for (int i = 0; i < weights.length; i++) weights[i] = examples.get(i).weight();
        Labels labels = new Labels(batch, examples.stream().map(Example::decision).toList(), weights);
        try (NDManager m = net.manager.newSubManager();
             GradientCollector gc = Engine.getInstance().newGradientCollector()) {
            NDArray loss = net.new Forward(m, batch).params().loss(labels, divisor);
            gc.backward(loss);
            return loss.getFloat();
        }
    }

    /** Applies the accumulated gradients and clears them. */
    public synchronized void step(Optimizer optimizer) {
        for (var e : net.params.entrySet()) {
            NDArray grad = e.getValue().getGradient();
            optimizer.update(e.getKey(), e.getValue(), grad);
            grad.subi(grad);
            grad.close();
        }
    }
}
