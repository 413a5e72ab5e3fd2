package dev.openagent.policy;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.norm.LayerNorm;
import dev.openagent.UserInputException;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The network: token embeddings (word + shape + trigram bag + segment + position + features),
 * a small pre-LayerNorm transformer over the context, and pointer heads scored against it.
 * <ul>
 *   <li>action: the current tools (name and description encoded as separate channels, plus
 *       what the agent did with each) and three fixed entries (answer, ask, refuse) scored
 *       against the CLS state;</li>
 *   <li>arguments, per parameter of the chosen tool: presence (optional ones), a span (start
 *       and end over context tokens) or an enum value;</li>
 *   <li>answer: a sigmoid per context token and answer word ("say this");</li>
 *   <li>ask: the question topic.</li>
 * </ul>
 * Parameters live in the net's own manager; every per-step array is created in the step's
 * manager (DJL 0.35 attaches results of ops whose receiver is a parameter to the parameter's
 * manager, and Java scalars passed to ops can be freed before backward: both are avoided here).
 */
final class PolicyNet implements AutoCloseable {
    private static final float SOFT_CAP = 10f;

    final PolicyConfig c;
    final NDManager manager;
    /** Parameters in a fixed order (checkpoints follow it). */
    final Map<String, NDArray> params = new LinkedHashMap<>();

    private PolicyNet(PolicyConfig c, NDManager manager) {
        this.c = c;
        this.manager = manager;
    }

    /** A freshly initialised net; the same seed gives the same weights. */
    static PolicyNet create(PolicyConfig c, long seed) {
        PolicyNet net = new PolicyNet(c, NDManager.newBaseManager());
        SplittableRandom rnd = new SplittableRandom(seed);
        for (var e : net.shapes().entrySet()) {
            long[] dims = e.getValue();
            int size = 1;
            for (long x : dims) size *= (int) x;
            float[] v = new float[size];
            String name = e.getKey();
            if (name.endsWith(".g") || name.equals("span.key.w") || name.endsWith(".capital.w")) {
                java.util.Arrays.fill(v, 1f);
            } else if (name.endsWith(".b")) {
                // biases start at zero
            } else {
                double std = name.startsWith("emb.") ? (name.equals("emb.bag") ? 0.1 / Math.sqrt(c.bagSize()) : 0.1)
                        : (name.endsWith("out.w") || name.endsWith("ff2.w") ? 0.5 : 1.0) / Math.sqrt(dims[0]);
                for (int i = 0; i < size; i++) v[i] = (float) (rnd.nextGaussian() * std);
            }
            net.add(name, v, dims);
        }
        return net;
    }

    /** A net with the given weights; every parameter must be present with its shape. */
    static PolicyNet of(PolicyConfig c, Map<String, float[]> weights) {
        PolicyNet net = new PolicyNet(c, NDManager.newBaseManager());
        for (var e : net.shapes().entrySet()) {
            float[] v = weights.get(e.getKey());
            long size = 1;
            for (long x : e.getValue()) size *= x;
            if (v == null || v.length != size) {
                net.close();
                throw new UserInputException("checkpoint lacks parameter " + e.getKey() + " of shape " + java.util.Arrays.toString(e.getValue()));
            }
            net.add(e.getKey(), v, e.getValue());
        }
        return net;
    }

    /** A net with a copy of this one's weights (and gradients of its own). */
    PolicyNet copy() {
        Map<String, float[]> weights = new LinkedHashMap<>();
        for (var e : params.entrySet()) weights.put(e.getKey(), e.getValue().toFloatArray());
        return of(c, weights);
    }

    /**
     * Overwrites this net's weights with {@code from}'s (same config), in place: zero, then add (exact).
     * Not {@code NDArray.set}: it points the tensor at a Java buffer, which libtorch's backward later crashed on.
     */
    void copyWeights(PolicyNet from) {
        Djl.inference(() -> {
            try (NDManager m = manager.newSubManager()) {
                for (var e : params.entrySet()) {
                    NDArray p = e.getValue();
                    NDArray src = m.create(from.params.get(e.getKey()).toFloatArray(), p.getShape());
                    p.subi(p).addi(src);
                }
            }
            return null;
        });
    }

    private void add(String name, float[] values, long[] dims) {
        NDArray p = manager.create(values, new Shape(dims));
        p.setRequiresGradient(true);
        params.put(name, p);
    }

    /** Every parameter's shape, in checkpoint order. */
    Map<String, long[]> shapes() {
        int d = c.dim();
        Map<String, long[]> s = new LinkedHashMap<>();
        s.put("emb.word", new long[]{c.wordBuckets(), d});
        s.put("emb.shape", new long[]{c.shapeBuckets(), d});
        s.put("emb.bag", new long[]{c.bagBuckets(), d});
        s.put("emb.seg", new long[]{c.segments(), d});
        s.put("emb.pos", new long[]{c.maxPositions(), d});
        s.put("emb.gap", new long[]{2L * Context.GAP_BUCKETS, d});
        s.put("emb.feat", new long[]{c.features(), d});
        if (c.maxRelations() > 0) {
            s.put("emb.rel.min.w", new long[]{d, d});
            s.put("emb.rel.max.w", new long[]{d, d});
        }
        for (int i = 0; i < c.layers(); i++) {
            String p = "layer" + i + ".";
            s.put(p + "ln1.g", new long[]{d});
            s.put(p + "ln1.b", new long[]{d});
            s.put(p + "qkv.w", new long[]{d, 3L * d});
            s.put(p + "qkv.b", new long[]{3L * d});
            s.put(p + "out.w", new long[]{d, d});
            s.put(p + "out.b", new long[]{d});
            s.put(p + "ln2.g", new long[]{d});
            s.put(p + "ln2.b", new long[]{d});
            s.put(p + "ff1.w", new long[]{d, c.ffn()});
            s.put(p + "ff1.b", new long[]{c.ffn()});
            s.put(p + "ff2.w", new long[]{c.ffn(), d});
            s.put(p + "ff2.b", new long[]{d});
        }
        s.put("final.ln.g", new long[]{d});
        s.put("final.ln.b", new long[]{d});
        s.put("tool.name.w", new long[]{d, d});
        s.put("tool.desc.w", new long[]{d, d});
        s.put("tool.b", new long[]{d});
        s.put("tool.feat.w", new long[]{Context.TOOL_FEATURES, d});
        s.put("act.keys.w", new long[]{3, d});
        s.put("act.query.w", new long[]{d, d});
        s.put("answer.query.w", new long[]{d, d});
        s.put("answer.bias.w", new long[]{d, 1});
        s.put("answer.word.w", new long[]{d, d});
        s.put("answer.word.b", new long[]{1});
        s.put("ask.name.w", new long[]{d, d});
        s.put("ask.desc.w", new long[]{d, d});
        s.put("ask.b", new long[]{d});
        s.put("ask.query.w", new long[]{d, d});
        s.put("param.tool.w", new long[]{d, d});
        s.put("param.name.w", new long[]{d, d});
        s.put("param.desc.w", new long[]{d, d});
        s.put("param.type.w", new long[]{Batch.TYPE_FEATURES, d});
        s.put("param.b", new long[]{d});
        s.put("param.q.p.w", new long[]{d, d});
        s.put("param.q.h.w", new long[]{d, d});
        s.put("param.q.flags.w", new long[]{2, d});
        s.put("param.q.b", new long[]{d});
        s.put("param.present.w", new long[]{d, 1});
        s.put("param.present.look.w", new long[]{d, d});
        s.put("param.present.b", new long[]{1});
        s.put("span.start.w", new long[]{d, d});
        s.put("span.end.w", new long[]{d, 1});
        s.put("span.end.capital.w", new long[]{1});
        s.put("span.join.w", new long[]{d, 1});
        s.put("span.join.capital.w", new long[]{1});
        s.put("span.key.w", new long[]{1});
        s.put("span.key.q.w", new long[]{d, 1});
        s.put("enum.value.w", new long[]{d, d});
        s.put("enum.match.w", new long[]{d, d});
        s.put("enum.flags.w", new long[]{2, d});
        s.put("enum.query.w", new long[]{d, d});
        // Last, so a policy without them starts from the same weights as before they existed.
        if (c.acrossLists()) {
            s.put("emb.rel.across.min.w", new long[]{d, d});
            s.put("emb.rel.across.max.w", new long[]{d, d});
        }
        return s;
    }

    long parameterCount() {
        return params.values().stream().mapToLong(p -> p.getShape().size()).sum();
    }

    private NDArray p(String name) { return params.get(name); }

    @Override
    public void close() { manager.close(); }

    // ---------------------------------------------------------------- forward

    /** Phase one: the context, the action pointer, the answer and ask heads. */
    final class Forward {
        final NDManager m;
        final Batch x;
        NDArray hidden;      // [b, l, d]
        NDArray cls;         // [b, d]
        NDArray pooled;      // [texts, d]
        NDArray toolVectors; // [b, tMax, d]
        NDArray action;      // [b, tMax + 3]
        NDArray answer;      // [b, l + a]
        NDArray ask;         // [b, zMax]
        // phase two
        NDArray present;     // [b, pMax]
        NDArray span;        // [b, pMax, l * maxSpan]: score of copying tokens s..s+len
        NDArray enumLogits;  // [b, pMax, kMax]

        Forward(NDManager m, Batch x) {
            this.m = m;
            this.x = x;
            int d = c.dim();
            int b = x.b;
            int l = x.l;
            // Every distinct piece of the batch is embedded once (row 0, padding, included), then gathered.
            NDArray table = embed(x.pieces);
            NDArray tokens = rows(table, x.token)
                    .add(lookup("emb.seg", x.seg))
                    .add(lookup("emb.pos", x.pos))
                    .add(lookup("emb.gap", x.gapAfter))
                    .add(lookup("emb.gap", x.gapBefore))
                    .add(m.create(x.feat, new Shape((long) b * l, c.features())).matMul(p("emb.feat")))
                    .add(relations(table, b * l))
                    .reshape(b, l, d);
            NDArray mask = m.create(x.attnMask, new Shape(b, 1, 1, l));
            NDArray h = tokens;
            for (int i = 0; i < c.layers(); i++) h = layer(h, mask, "layer" + i + ".", b, l);
            hidden = norm(h, "final.ln");
            cls = hidden.get(new NDIndex(":, 0, :"));
            pooled = pool(table, x.texts);

            NDArray toolVec = gelu(rows(pooled, x.toolName).matMul(p("tool.name.w"))
                    .add(rows(pooled, x.toolDesc).matMul(p("tool.desc.w"))).add(p("tool.b")));
            toolVectors = rows(toolVec, x.toolIndex).reshape(b, x.tMax, d)
                    .add(m.create(x.toolFeat, new Shape(b, x.tMax, Context.TOOL_FEATURES)).matMul(p("tool.feat.w")));
            NDArray fixed = p("act.keys.w").get(m, new NDIndex(":")).expandDims(0).broadcast(b, 3, d);
            NDArray keys = toolVectors.concat(fixed, 1);
            action = pointer(keys, cls.matMul(p("act.query.w")), x.actionMask, b, x.tMax + 3);

            NDArray q = cls.matMul(p("answer.query.w"));
            NDArray tokenLogits = hidden.matMul(q.expandDims(2)).reshape(b, l).mul(scalar(1 / Math.sqrt(d)))
                    .add(hidden.matMul(p("answer.bias.w")).reshape(b, l));
            if (x.a > 0) {
                NDArray words = rows(pooled, x.answerWord).matMul(p("answer.word.w"));
                NDArray wordLogits = q.matMul(words.transpose()).mul(scalar(1 / Math.sqrt(d))).add(p("answer.word.b"));
                tokenLogits = tokenLogits.concat(wordLogits, 1);
            }
            answer = cap(tokenLogits).add(m.create(x.answerMask, new Shape(b, l + x.a)));

            NDArray topics = gelu(rows(pooled, x.topicName).matMul(p("ask.name.w"))
                    .add(rows(pooled, x.topicDesc).matMul(p("ask.desc.w"))).add(p("ask.b"))).reshape(b, x.zMax, d);
            ask = pointer(topics, cls.matMul(p("ask.query.w")), x.topicMask, b, x.zMax);
        }

        /** Phase two: argument heads for the batch's chosen tools ({@link Batch#withParams}). */
        Forward params() {
            int d = c.dim();
            int b = x.b;
            int pm = x.pMax;
            int km = x.kMax;
            long rowsCount = (long) b * pm;
            NDArray tool = toolVectors.reshape((long) b * x.tMax, d).get(m, new NDIndex("{}", m.create(x.chosenFlat)));
            NDArray toolRows = tool.expandDims(1).broadcast(b, pm, d).reshape(rowsCount, d);
            NDArray clsRows = cls.expandDims(1).broadcast(b, pm, d).reshape(rowsCount, d);
            NDArray param = gelu(toolRows.matMul(p("param.tool.w"))
                    .add(rows(pooled, x.paramName).matMul(p("param.name.w")))
                    .add(rows(pooled, x.paramDesc).matMul(p("param.desc.w")))
                    .add(m.create(x.paramType, new Shape(rowsCount, Batch.TYPE_FEATURES)).matMul(p("param.type.w")))
                    .add(p("param.b")));
            NDArray q = gelu(param.matMul(p("param.q.p.w"))
                    .add(clsRows.matMul(p("param.q.h.w")))
                    .add(m.create(x.paramFlags, new Shape(rowsCount, 2)).matMul(p("param.q.flags.w")))
                    .add(p("param.q.b")));

            NDArray keysT = hidden.transpose(0, 2, 1);
            NDArray scale = scalar(1 / Math.sqrt(d));
            NDArray start = starts(q, keysT, scale, b, pm);
            span = spans(start, b, pm);
            // Whether an optional parameter is given depends on whether the context says a value for
            // it: presence reads the context where the parameter's start pointer looks.
            NDArray looked = start.add(m.create(x.pointerMask, new Shape(b, 1, x.l))).softmax(2).matMul(hidden)
                    .reshape(rowsCount, d);
            present = cap(q.add(looked.matMul(p("param.present.look.w"))).matMul(p("param.present.w"))
                    .add(p("param.present.b")).reshape(b, pm));

            long cells = rowsCount * km;
            NDArray values = rows(pooled, x.enumText);
            NDArray flat = hidden.reshape((long) b * x.l, d);
            NDArray matchMask = m.create(x.enumMatchMask, new Shape(cells, Batch.MATCHES, 1));
            NDArray matched = flat.get(m, new NDIndex("{}", m.create(x.enumMatch))).reshape(cells, Batch.MATCHES, d)
                    .mul(matchMask).sum(new int[]{1})
                    .div(matchMask.sum(new int[]{1}).maximum(scalar(1)));
            NDArray enumKeys = values.matMul(p("enum.value.w"))
                    .add(matched.matMul(p("enum.match.w")))
                    .add(m.create(x.enumFlags, new Shape(cells, 2)).matMul(p("enum.flags.w")))
                    .reshape(rowsCount, km, d);
            NDArray enumQuery = q.matMul(p("enum.query.w")).reshape(rowsCount, d, 1);
            enumLogits = cap(enumKeys.matMul(enumQuery).reshape(b, pm, km).mul(scale))
                    .add(m.create(x.enumMask, new Shape(b, pm, km)));
            return this;
        }

        /** Where each parameter's value starts: its pointer plus its trust in values labelled with its name, [b, pm, l]. */
        private NDArray starts(NDArray q, NDArray keysT, NDArray scale, int b, int pm) {
            int d = c.dim();
            int l = x.l;
            // How far to trust "this value is labelled with my name" is each parameter's own call:
            // from_place_id copies the from_place_id of the last call, to_place_id must not.
            NDArray trust = q.matMul(p("span.key.q.w")).add(p("span.key.w")).reshape(b, pm, 1);
            return cap(q.matMul(p("span.start.w")).reshape(b, pm, d).matMul(keysT).mul(scale)
                    .add(m.create(x.keyMatch, new Shape(b, pm, l)).mul(trust)));
        }

        /**
         * Span scores: start(s) + end(s + len) + the continuation scores of the tokens in between,
         * normalised over every copyable span. Where a value starts is the parameter's question
         * (its pointer, plus a bonus for values labelled with its name); how far it extends is
         * answered the same way for every parameter, from the tokens alone, so the extent of a
         * name is learned from all names (a two-word city is one span even if training cities were
         * one word).
         */
        private NDArray spans(NDArray start, int b, int pm) {
            int l = x.l;
            int k = c.maxSpanTokens();
            NDArray end = cap(hidden.matMul(p("span.end.w")).reshape(b, 1, l)
                    .add(m.create(x.capitalEnd, new Shape(b, 1, l)).mul(p("span.end.capital.w")))).broadcast(b, pm, l);
            NDArray join = cap(hidden.matMul(p("span.join.w")).reshape(b, 1, l)
                    .add(m.create(x.capitalJoin, new Shape(b, 1, l)).mul(p("span.join.capital.w")))).broadcast(b, pm, l);
            NDList scores = new NDList();
            NDArray inner = null;
            for (int len = 0; len < k; len++) {
                NDArray score = start.add(shift(end, len, b, pm, l));
                if (len > 0) {
                    NDArray step = shift(join, len - 1, b, pm, l);
                    inner = inner == null ? step : inner.add(step);
                    score = score.add(inner);
                }
                scores.add(score);
            }
            return NDArrays.stack(scores, 3)
                    .add(m.create(x.spanMask, new Shape(b, 1, l, k)))
                    .reshape(b, pm, (long) l * k);
        }

        /** x[..., i + by] at position i (the last positions read zeros; their spans are masked anyway). */
        private NDArray shift(NDArray a, int by, int b, int pm, int l) {
            if (by == 0) return a;
            if (by >= l) return m.zeros(new Shape(b, pm, l));
            return a.get(new NDIndex(":, :, " + by + ":")).concat(m.zeros(new Shape(b, pm, by)), 2);
        }

        /** log P(decision) per example (sets: probability of any member), shape [b]. */
        NDArray logProb(Labels y) {
            int b = x.b;
            NDArray total = setLogProb(action, y.action, b, x.tMax + 3).mul(vec(y.actionOn));
            if (present != null) {
                NDArray on = m.create(y.presentOn, new Shape(b, x.pMax));
                NDArray label = m.create(y.present, new Shape(b, x.pMax));
                NDArray one = scalar(1);
                NDArray lp = logSigmoid(present).mul(label).add(logSigmoid(present.neg()).mul(one.sub(label)));
                total = total.add(lp.mul(on).sum(new int[]{1}));
                total = total.add(setLogProb(enumLogits, y.enumTarget, b, x.pMax, x.kMax)
                        .mul(m.create(y.enumOn, new Shape(b, x.pMax))).sum(new int[]{1}));
                NDArray spanOn = m.create(y.spanOn, new Shape(b, x.pMax));
                total = total.add(setLogProb(span, y.span, b, x.pMax, (long) x.l * c.maxSpanTokens()).mul(spanOn).sum(new int[]{1}));
            }
            int la = x.l + x.a;
            NDArray notSaid = logSigmoid(answer.neg());                                      // log(1 - p) [b, la]
            NDArray groups = m.create(y.answerGroups, new Shape(b, y.groups, la));
            NDArray s = groups.matMul(notSaid.expandDims(2)).reshape(b, y.groups);            // log P(none of the group said)
            NDArray small = s.gt(scalar(-1e-3));
            NDArray anySaid = NDArrays.where(small, s.neg(), scalar(1).sub(s.exp())).add(scalar(1e-12)).log();
            NDArray answerLp = anySaid.mul(m.create(y.groupOn, new Shape(b, y.groups))).sum(new int[]{1})
                    .add(notSaid.mul(m.create(y.answerNeg, new Shape(b, la))).sum(new int[]{1}));
            total = total.add(answerLp.mul(vec(y.answerOn)));
            total = total.add(setLogProb(ask, y.ask, b, x.zMax).mul(vec(y.askOn)));
            return total;
        }

        /** The training loss: minus the weighted log-probabilities, summed and divided by {@code divisor}. */
        NDArray loss(Labels y, float divisor) {
            return logProb(y).mul(vec(y.weight)).sum().neg().div(scalar(divisor));
        }

        private NDArray setLogProb(NDArray logits, float[] target, long... shape) {
            NDArray t = m.create(target, new Shape(shape));
            int axis = shape.length - 1;
            return logSumExp(logits.add(t), axis).sub(logSumExp(logits, axis));
        }

        private NDArray layer(NDArray h, NDArray mask, String p, int b, int l) {
            int d = c.dim();
            int heads = c.heads();
            int dh = d / heads;
            NDArray y = norm(h, p + "ln1");
            NDList qkv = y.matMul(p(p + "qkv.w")).add(p(p + "qkv.b")).split(3, 2);
            // The [b, heads, l, l] scores are the biggest arrays of the pass, so nothing extra touches them:
            // queries are scaled before the product, and the padding mask rides in it (each query gains
            // a constant 1, each key its mask value), so q.k / sqrt(dh) + mask is one matmul.
            NDArray q = qkv.get(0).mul(scalar(1 / Math.sqrt(dh))).reshape(b, l, heads, dh).transpose(0, 2, 1, 3)
                    .concat(m.ones(new Shape(b, heads, l, 1)), 3);
            NDArray k = qkv.get(1).reshape(b, l, heads, dh).transpose(0, 2, 3, 1)
                    .concat(mask.broadcast(b, heads, 1, l), 2);
            NDArray v = qkv.get(2).reshape(b, l, heads, dh).transpose(0, 2, 1, 3);
            NDArray att = q.matMul(k).softmax(3);
            NDArray o = att.matMul(v).transpose(0, 2, 1, 3).reshape(b, l, d);
            h = h.add(o.matMul(p(p + "out.w")).add(p(p + "out.b")));
            NDArray f = gelu(norm(h, p + "ln2").matMul(p(p + "ff1.w")).add(p(p + "ff1.b")));
            return h.add(f.matMul(p(p + "ff2.w")).add(p(p + "ff2.b")));
        }

        private NDArray norm(NDArray h, String p) {
            return LayerNorm.layerNorm(h, new Shape(c.dim()), p(p + ".g"), p(p + ".b"), 1e-5f).singletonOrThrow();
        }

        /**
         * What each token's record holds among its list's records, [b * l, d]: the embeddings of the
         * fields whose smallest value it holds through one matrix, of those whose largest through another.
         */
        private NDArray relations(NDArray table, int tokens) {
            int r = c.maxRelations();
            if (r == 0) return m.zeros(new Shape(tokens, c.dim()));
            NDArray keys = rows(table, x.relPiece).reshape(tokens, r, c.dim());
            NDArray min = keys.mul(m.create(x.relMin, new Shape(tokens, r, 1))).sum(new int[]{1});
            NDArray max = keys.mul(m.create(x.relMax, new Shape(tokens, r, 1))).sum(new int[]{1});
            NDArray out = min.matMul(p("emb.rel.min.w")).add(max.matMul(p("emb.rel.max.w")));
            if (!c.acrossLists()) return out;
            NDArray acrossMin = keys.mul(m.create(x.relAcrossMin, new Shape(tokens, r, 1))).sum(new int[]{1});
            NDArray acrossMax = keys.mul(m.create(x.relAcrossMax, new Shape(tokens, r, 1))).sum(new int[]{1});
            return out.add(acrossMin.matMul(p("emb.rel.across.min.w"))).add(acrossMax.matMul(p("emb.rel.across.max.w")));
        }

        /** Sum of word, shape and bag embeddings of every piece of the table, [pieces, d]. */
        private NDArray embed(Batch.PieceTable pieces) {
            int g = c.bagSize();
            int count = pieces.size();
            NDArray bags = lookup("emb.bag", pieces.bags(g)).reshape(count, g, c.dim())
                    .mul(m.create(pieces.bagMask(g), new Shape(count, g, 1))).sum(new int[]{1});
            return lookup("emb.word", pieces.words()).add(lookup("emb.shape", pieces.shapes())).add(bags);
        }

        /**
         * Mean token embedding of every distinct text, [texts, d]; the empty text is zeros. A text is
         * a weighted sum of piece-table rows, so all of them are one product with an averaging matrix.
         */
        private NDArray pool(NDArray table, Batch.Texts texts) {
            int n = texts.size();
            int u = x.pieces.size();
            float[] mean = new float[n * u];
            for (int t = 0; t < n; t++) {
                int[] ps = texts.pieces.get(t);
                for (int piece : ps) mean[t * u + piece] += 1f / ps.length;
            }
            return m.create(mean, new Shape(n, u)).matMul(table);
        }

        private NDArray pointer(NDArray keys, NDArray query, float[] mask, int b, int n) {
            NDArray logits = keys.matMul(query.expandDims(2)).reshape(b, n).mul(scalar(1 / Math.sqrt(c.dim())));
            return cap(logits).add(m.create(mask, new Shape(b, n)));
        }

        private NDArray lookup(String table, long[] ids) {
            return p(table).get(m, new NDIndex("{}", m.create(ids)));
        }

        private NDArray rows(NDArray table, long[] ids) {
            return table.get(m, new NDIndex("{}", m.create(ids)));
        }

        /** Soft cap {@code 10 tanh(x / 10)}: keeps logits off the denormal range late in training. */
        private NDArray cap(NDArray logits) {
            return logits.mul(scalar(1 / SOFT_CAP)).tanh().mul(scalar(SOFT_CAP));
        }

        private NDArray scalar(double v) {
            return m.create((float) v);
        }

        private NDArray vec(float[] v) {
            return m.create(v);
        }
    }

    static NDArray gelu(NDArray x) {
        return Activation.gelu(x);
    }

    /** log sigmoid(x) = -softplus(-x). */
    static NDArray logSigmoid(NDArray x) {
        return Activation.softPlus(x.neg()).neg();
    }

    static NDArray logSumExp(NDArray x, int axis) {
        NDArray max = x.max(new int[]{axis}, true).stopGradient();
        return x.sub(max).exp().sum(new int[]{axis}, true).log().add(max).squeeze(axis);
    }

    /** Reads a float NDArray into Java. */
    static float[] floats(NDArray a) {
        return a.toType(DataType.FLOAT32, false).toFloatArray();
    }
}
