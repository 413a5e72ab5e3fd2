package dev.openagent.policy;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.training.optimizer.Optimizer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * The built-in neural policy: a {@link PolicyConfig} and its network. It reads {@link View}s and
 * acts by pointing (see {@link PolicyNet}); {@link #act} decodes greedily or samples (RL).
 * Inference only reads the weights, so forward passes from several threads run at once (each
 * on its own core); a training step excludes them (a read-write lock).
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
    /** Read: a forward pass for acting. Write: anything that changes weights, gradients or dropout. */
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

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

    /**
     * The same network reading more words: the union of its vocabulary and answer words with these
     * (for continuing on another environment; answer words are hashed, so no weight changes shape).
     * This policy must not be used afterwards: the two share the network.
     */
    public Policy withWords(Vocabulary more, List<String> answerWords) {
        Set<String> words = new LinkedHashSet<>(vocabulary.words());
        words.addAll(more.words());
        Set<String> answers = new LinkedHashSet<>(config.answerWords());
        answers.addAll(answerWords);
        Vocabulary read = vocabulary.isOpen() ? vocabulary : new Vocabulary(words); // an open vocabulary already reads every word
        return new Policy(config.withAnswerWords(List.copyOf(answers)), read, net);
    }

    public PolicyConfig config() { return config; }

    public Vocabulary vocabulary() { return vocabulary; }

    /** Reads each distinct word of a training example as unknown with this probability (0 turns it off). */
    public void wordDropout(double rate, long seed) {
        writing(() -> {
            this.dropoutRate = rate;
            this.dropout = rate > 0 ? new SplittableRandom(seed) : null;
            return null;
        });
    }

    private <T> T reading(Supplier<T> work) { return holding(lock.readLock(), work); }

    private <T> T writing(Supplier<T> work) { return holding(lock.writeLock(), work); }

    private static <T> T holding(java.util.concurrent.locks.Lock held, Supplier<T> work) {
        held.lock();
        try {
            return work.get();
        } finally {
            held.unlock();
        }
    }

    /** How many tokens the policy reads for this view (the context length, without encoding it). */
    int length(View view) {
        int n = 1 + Tokenizer.tokenize(view.rules(), config.maxRulesTokens()).size()
                + Tokenizer.tokenize(view.request(), config.maxRequestTokens()).size();
        List<View.Turn> turns = view.turns();
        int read = Context.turnsRead(view, config);
        for (int k = 0; k < read; k++) {
            View.Turn t = turns.get(turns.size() - 1 - k);
            n += Tokenizer.tokenize(t.actionText(), config.maxActionTokens()).size();
            if (Context.readsObservation(view, config, k)) {
                n += Tokenizer.tokenize(Context.observationRead(view, t), Context.observationBudget(view, config)).size();
            }
        }
        return n;
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
     * Chooses an action for each view: the views are split into groups of similar context length
     * ({@link LengthGroups}), one batched forward pass per group. Sampling draws from
     * {@code sampler} in the order of {@code views}, whatever the grouping.
     *
     * @param sampler null for greedy decoding, else the random source to sample from
     */
    public List<Acted> act(List<View> views, SplittableRandom sampler) {
        return reading(() -> actLocked(views, sampler));
    }

    private List<Acted> actLocked(List<View> views, SplittableRandom sampler) {
        List<Context> contexts = views.stream().map(this::encode).toList();
        List<int[]> groups = LengthGroups.of(contexts.stream().mapToInt(x -> x.n).toArray());
        int[] groupOf = new int[views.size()];
        int[] row = new int[views.size()];
        for (int g = 0; g < groups.size(); g++) {
            for (int r = 0; r < groups.get(g).length; r++) {
                groupOf[groups.get(g)[r]] = g;
                row[groups.get(g)[r]] = r;
            }
        }
        try (NDManager m = net.manager.newSubManager()) {
            List<Batch> batches = new ArrayList<>();
            List<PolicyNet.Forward> forwards = new ArrayList<>();
            List<float[]> actions = new ArrayList<>();
            for (int[] group : groups) {
                Batch batch = new Batch(Arrays.stream(group).mapToObj(contexts::get).toList(), config, vocabulary);
                PolicyNet.Forward f = Djl.inference(() -> net.new Forward(m, batch));
                batches.add(batch);
                forwards.add(f);
                actions.add(PolicyNet.floats(f.action));
            }
            int[] kinds = new int[views.size()];
            int[][] chosen = groups.stream().map(group -> new int[group.length]).toArray(int[][]::new);
            for (int e = 0; e < views.size(); e++) {
                Batch batch = batches.get(groupOf[e]);
                int width = batch.tMax + 3;
                kinds[e] = choose(actions.get(groupOf[e]), row[e] * width, width, sampler);
                chosen[groupOf[e]][row[e]] = kinds[e] < batch.tMax ? kinds[e] : -1;
            }
            List<Logits> logits = new ArrayList<>();
            for (int g = 0; g < groups.size(); g++) {
                PolicyNet.Forward f = forwards.get(g);
                batches.get(g).withParams(chosen[g]);
                if (Arrays.stream(chosen[g]).anyMatch(t -> t >= 0)) {
                    Djl.inference(f::params);
                    logits.add(new Logits(actions.get(g), PolicyNet.floats(f.present), PolicyNet.floats(f.span),
                            PolicyNet.floats(f.enumLogits), PolicyNet.floats(f.answer), PolicyNet.floats(f.ask)));
                } else {
                    logits.add(new Logits(actions.get(g), null, null, null, PolicyNet.floats(f.answer), PolicyNet.floats(f.ask)));
                }
            }
            List<Acted> out = new ArrayList<>(views.size());
            for (int e = 0; e < views.size(); e++) {
                out.add(decode(contexts.get(e), batches.get(groupOf[e]), row[e], kinds[e], logits.get(groupOf[e]), sampler));
            }
            return out;
        }
    }

    /** The network's outputs for a batch, flattened as the decoder reads them. */
    record Logits(float[] action, float[] present, float[] span, float[] enums, float[] answer, float[] ask) {}

    /** Turns example e's pointer outputs into an action (greedy, or sampled with {@code sampler}). */
    Acted decode(Context x, Batch batch, int e, int kind, Logits logits, SplittableRandom sampler) {
        String callId = "call_" + x.view.turns().size();
        if (kind < batch.tMax) {
            return call(x, batch, e, kind, callId, logits.present(), logits.span(), logits.enums(), sampler);
        }
        if (kind == batch.tMax) return answer(x, batch, e, logits.answer(), sampler);
        if (kind == batch.tMax + 1) {
            int z = x.topics.isEmpty() ? -1 : choose(logits.ask(), e * batch.zMax, x.topics.size(), sampler);
            String question = z < 0 ? "Could you tell me more about your request?" : Context.question(x.topics.get(z));
            return new Acted(new Action.AskUser(question), new Decision.Ask(z < 0 ? new int[0] : new int[]{z}));
        }
        return new Acted(new Action.Refuse(REFUSAL), new Decision.Refuse());
    }

    private Acted call(Context x, Batch batch, int e, int tool, String callId, float[] present, float[] spans,
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
                String chosen = p.values().get(v);
                if (p.type() == ParamSpec.Type.BOOLEAN) args.set(p.name(), value(p, chosen));
                else args.put(p.name(), chosen);
                decided.add(new Decision.Arg(j, true, new int[]{v}, new int[0], new int[0]));
            } else {
                int[] span = span(x, spans, row * batch.l * config.maxSpanTokens(), sampler, p);
                args.set(p.name(), value(p, copied(x.spanText(span[0], span[1]))));
                decided.add(new Decision.Arg(j, true, new int[0], new int[]{span[0]}, new int[]{span[1]}));
            }
        }
        Action action = x.commands.isEmpty() ? Action.CallTools.of(callId, x.tools.get(tool).name(), Json.write(args))
                : new Action.Command(x.commands.get(tool).fill(params.stream().map(p -> args.path(p.name()).asText("")).toList()));
        return new Acted(action, new Decision.Call(tool, decided));
    }

    /** The longest value a copied span gives (see {@link #copied}). */
    static final int MAX_COPIED_CHARS = 500;

    /**
     * A copied value, cut to {@link #MAX_COPIED_CHARS}. A span copied out of the policy's own earlier
     * arguments ({@code Brookhaven\",\"name\":...}) is escaped again when written, so an episode that
     * keeps re-copying it doubled the value's backslashes every step: 2^30 characters by the step limit,
     * and a PAFT evaluation ran out of heap.
     */
    static String copied(String text) {
        return text.length() <= MAX_COPIED_CHARS ? text : text.substring(0, MAX_COPIED_CHARS);
    }

    /**
     * The copied span {start, end}: the best-scoring copyable span, or one sampled from their softmax.
     * Acting greedily, a number parameter copies only text that reads as its type when the context
     * holds any: a time copied as a party size ({@code "party_size":"22:00"}) can only be refused by the
     * tool. Sampling (RL's rollouts) keeps the policy's own distribution: RL's gradient is that of the
     * full softmax, and sampling from a restricted one stopped RlLearnsTest's run from learning.
     */
    private int[] span(Context x, float[] spans, int base, SplittableRandom sampler, ParamSpec p) {
        boolean typed = sampler == null && (p.type() == ParamSpec.Type.INTEGER || p.type() == ParamSpec.Type.NUMBER) && anyTyped(x, p);
        int k = config.maxSpanTokens();
        int best = -1;
        double max = Double.NEGATIVE_INFINITY;
        for (int s = 1; s < x.n; s++) {
            for (int len = 0; len < k && x.spanAllowed(s, s + len, k); len++) {
                if (typed && !reads(x, s, s + len, p)) continue;
                float v = spans[base + s * k + len];
                if (v > max) {
                    max = v;
                    best = s * k + len;
                }
            }
        }
        if (best < 0) return new int[]{Math.min(1, x.n - 1), Math.min(1, x.n - 1)};
        if (sampler != null) {
            double sum = 0;
            for (int s = 1; s < x.n; s++) {
                for (int len = 0; len < k && x.spanAllowed(s, s + len, k); len++) sum += Math.exp(spans[base + s * k + len] - max);
            }
            double u = sampler.nextDouble() * sum;
            outer:
            for (int s = 1; s < x.n; s++) {
                for (int len = 0; len < k && x.spanAllowed(s, s + len, k); len++) {
                    u -= Math.exp(spans[base + s * k + len] - max);
                    if (u <= 0) {
                        best = s * k + len;
                        break outer;
                    }
                }
            }
        }
        return new int[]{best / k, best / k + best % k};
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
        // Runs of adjacent chosen tokens of one text are said together, exactly as read ("Level 4, East Wing").
        for (int r = 0; r < tokens.size(); ) {
            int end = r;
            while (end + 1 < tokens.size() && tokens.get(end + 1) == tokens.get(end) + 1 && x.source[tokens.get(end + 1)] == x.source[tokens.get(r)]) end++;
            String run = x.spanText(tokens.get(r), tokens.get(end));
            if (said.add(run.toLowerCase(Locale.ROOT))) parts.add(run);
            r = end + 1;
        }
        for (int k : words) if (said.add(config.answerWords().get(k))) parts.add(config.answerWords().get(k));
        List<Decision.Group> groups = new ArrayList<>();
        for (int i : tokens) groups.add(new Decision.Group(new int[]{i}, new int[0]));
        for (int k : words) groups.add(new Decision.Group(new int[0], new int[]{k}));
        return new Acted(new Action.Answer(String.join(" ", parts)), new Decision.Answer(groups));
    }

    /** Whether tokens from..to read as a value of the (number) parameter's type: a number first, then the whole span. */
    static boolean reads(Context x, int from, int to, ParamSpec p) {
        if (Double.isNaN(Tokenizer.number(x.spanText(from, from)))) return false;
        return value(p, x.spanText(from, to)).isNumber();
    }

    /** Whether any single token of the context reads as a value of the parameter's type. */
    private static boolean anyTyped(Context x, ParamSpec p) {
        for (int s = 1; s < x.n; s++) if (reads(x, s, s, p)) return true;
        return false;
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
    public float train(List<Example> examples, Optimizer optimizer) {
        return writing(() -> {
            float loss = accumulate(examples, examples.size());
            step(optimizer);
            return loss;
        });
    }

    /**
     * One optimiser step on the examples, run as a few forward passes over groups of similar context
     * length ({@link LengthGroups}: one pass would pad every example to the longest) whose gradients
     * add up before the step; returns the batch's loss.
     */
    public float trainGrouped(List<Example> examples, Optimizer optimizer) {
        return writing(() -> {
            int[] lengths = examples.stream().mapToInt(x -> length(x.view())).toArray();
            float loss = 0;
            for (int[] group : LengthGroups.of(lengths)) {
                List<Example> part = java.util.Arrays.stream(group).mapToObj(examples::get).toList();
                loss += accumulateLocked(part, examples.size());
            }
            step(optimizer);
            return loss;
        });
    }

    /**
     * As {@link #trainGrouped(List, Optimizer)}, the length groups' passes shared among the workers' threads
     * (null workers: this thread alone). The same step bit for bit whatever the threads: the groups' batches
     * are built in order on this thread (word dropout draws as one thread would), each group's gradient is
     * taken apart, and they are added in group order as libtorch would have accumulated them.
     */
    public float trainGrouped(List<Example> examples, Optimizer optimizer, GradientWorkers workers) {
        if (workers == null) return trainGrouped(examples, optimizer);
        return writing(() -> {
            // Encoding is the step's largest piece of Java work and draws nothing at random: on every thread.
            List<Context> contexts = workers.map(examples.size(), (n, i) -> encode(examples.get(i).view()));
            List<Prepared> groups = new ArrayList<>();
            List<int[]> split = LengthGroups.of(contexts.stream().mapToInt(x -> x.n).toArray());
            for (int[] group : split) {
                groups.add(prepare(Arrays.stream(group).mapToObj(contexts::get).toList(), Arrays.stream(group).mapToObj(examples::get).toList()));
            }
            int[] costliestFirst = java.util.stream.IntStream.range(0, split.size()).boxed()
                    .sorted(java.util.Comparator.comparingDouble((Integer g) -> -LengthGroups.cost(split.get(g), contexts)))
                    .mapToInt(Integer::intValue).toArray();
            List<GradientWorkers.Gradient> grads = workers.map(costliestFirst, (n, g) -> {
                float groupLoss = backward(n, groups.get(g), examples.size());
                return new GradientWorkers.Gradient(groupLoss, GradientWorkers.takeGradients(n));
            });
            float loss = 0;
            for (GradientWorkers.Gradient g : grads) loss += g.loss();
            // Every network's gradients were taken (and cleared): the optimiser applies their sum.
            int param = 0;
            for (var e : net.params.entrySet()) {
                float[] sum = grads.getFirst().byParam()[param];
                for (GradientWorkers.Gradient g : grads.subList(1, grads.size())) {
                    float[] add = g.byParam()[param];
                    for (int k = 0; k < sum.length; k++) sum[k] += add[k];
                }
                try (NDArray grad = net.manager.create(sum, e.getValue().getShape())) {
                    optimizer.update(e.getKey(), e.getValue(), grad);
                }
                param++;
            }
            workers.synchronize();
            return loss;
        });
    }

    /**
     * Adds the gradient of {@code -sum(weight * log P(decision)) / divisor} over the examples to
     * the parameters' gradients (call {@link #step} once the whole batch is in); returns that loss.
     */
    public float accumulate(List<Example> examples, float divisor) {
        return writing(() -> accumulateLocked(examples, divisor));
    }

    private float accumulateLocked(List<Example> examples, float divisor) {
        return backward(net, prepare(examples.stream().map(x -> encode(x.view())).toList(), examples), divisor);
    }

    /** A group of examples as the network reads them, with what it should learn. */
    private record Prepared(Batch batch, Labels labels) {}

    /** The examples' batch (drawing word dropout) and labels, from their encoded contexts. */
    private Prepared prepare(List<Context> contexts, List<Example> examples) {
        Batch batch = new Batch(contexts, config, vocabulary, dropout, dropoutRate);
        int[] chosen = examples.stream().mapToInt(x -> x.decision() instanceof Decision.Call call ? call.tool() : -1).toArray();
        batch.withParams(chosen);
        float[] weights = new float[examples.size()];
        for (int i = 0; i < weights.length; i++) weights[i] = examples.get(i).weight();
        return new Prepared(batch, new Labels(batch, examples.stream().map(Example::decision).toList(), weights));
    }

    /** Forward and backward pass of a group on one network (this policy's, or a worker's view of it); returns its loss. */
    private static float backward(PolicyNet on, Prepared x, float divisor) {
        try (NDManager m = on.manager.newSubManager()) {
            return Djl.backward(() -> on.new Forward(m, x.batch()).params().loss(x.labels(), divisor));
        }
    }

    /** Applies the accumulated gradients and clears them. */
    public void step(Optimizer optimizer) {
        writing(() -> {
            for (var e : net.params.entrySet()) {
                NDArray grad = e.getValue().getGradient();
                optimizer.update(e.getKey(), e.getValue(), grad);
                grad.subi(grad);
                grad.close();
            }
            return null;
        });
    }
}
