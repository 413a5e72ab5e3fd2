package dev.openagent.policy;

import dev.openagent.sandbox.ToolSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Several contexts padded into flat arrays for one forward pass. Every distinct text (tool name,
 * tool description, parameter name or description, enum value, answer word) is embedded once
 * per batch and referenced by index, so a tool list shared by all examples costs one encoding.
 * Phase two ({@link #withParams}) adds the parameters of one chosen tool per example.
 */
final class Batch {
    static final float MASKED = -1e4f;
    /** Parameter type features: string, integer, number, boolean, enum, required. */
    static final int TYPE_FEATURES = 6;
    /** Context positions averaged into an enum value's "where it is mentioned" vector. */
    static final int MATCHES = 4;

    final PolicyConfig c;
    final List<Context> contexts;
    final int b;
    final int l;

    /** Every distinct token piece of the batch (contexts and texts), embedded once per forward pass. */
    final PieceTable pieces;
    // Context tokens, [b * l]: each a row of the piece table (padding is the empty piece, row 0).
    final long[] token;
    final long[] seg;
    final long[] pos;
    final long[] gapAfter;
    final long[] gapBefore;
    final float[] capitalJoin;
    final float[] capitalEnd;
    final float[] feat;
    /**
     * Record extremes per token slot [b * l * maxRelations]: the field name's piece, and 1 where smallest / largest
     * among its list's records ({@code relMin}, {@code relMax}) or among every compared list's ({@code relAcrossMin},
     * {@code relAcrossMax}, with {@code across_lists}).
     */
    final long[] relPiece;
    final float[] relMin;
    final float[] relMax;
    final float[] relAcrossMin;
    final float[] relAcrossMax;
    /** Additive attention mask over keys: 0 for tokens, MASKED for padding. */
    final float[] attnMask;
    /** Additive mask of positions a pointer may choose (not CLS, not padding). */
    final float[] pointerMask;
    /** Additive mask of copyable spans [b * l * maxSpan]: (start, length - 1) within one source text. */
    final float[] spanMask;

    // Distinct texts: [texts * textLen] token ids.
    final Texts texts;

    // Tools: distinct tool name/description texts, and each example's list [b * tMax].
    final int tMax;
    final long[] toolName;
    final long[] toolDesc;
    final long[] toolIndex;
    final float[] toolFeat;
    /** Additive mask over the action pointer [b * (tMax + 3)]: tools then answer, ask, refuse. */
    final float[] actionMask;

    // Question topics [b * zMax].
    final int zMax;
    final long[] topicName;
    final long[] topicDesc;
    final float[] topicMask;

    // Answer words [a].
    final int a;
    final long[] answerWord;
    /** Additive mask over answer positions [b * (l + a)]. */
    final float[] answerMask;

    // Phase two: the chosen tool's parameters [b * pMax] (null until withParams).
    int pMax;
    int[] chosen;
    long[] chosenFlat;
    long[] paramName;
    long[] paramDesc;
    float[] paramType;
    float[] paramFlags;
    float[] paramMask;
    /** [b * pMax * l]: 1 where a token is the value of a key named like the parameter (a value labelled for it). */
    float[] keyMatch;
    int kMax;
    long[] enumText;
    float[] enumMask;
    float[] enumFlags;
    long[] enumMatch;
    float[] enumMatchMask;

    /**
     * The distinct pieces of a batch, flattened for one embedding pass: tokens repeat across
     * examples and texts (JSON keys, punctuation, tool words), and each distinct one is embedded
     * once, then gathered. Row 0 is the empty piece (padding).
     */
    static final class PieceTable {
        private final Map<Pieces.Piece, Integer> index = new HashMap<>();
        private final List<Pieces.Piece> rows = new ArrayList<>();

        PieceTable() {
            id(Pieces.Piece.EMPTY);
        }

        int id(Pieces.Piece piece) {
            Integer i = index.get(piece);
            if (i != null) return i;
            rows.add(piece);
            index.put(piece, rows.size() - 1);
            return rows.size() - 1;
        }

        int size() { return rows.size(); }

        long[] words() { return rows.stream().mapToLong(Pieces.Piece::word).toArray(); }

        long[] shapes() { return rows.stream().mapToLong(Pieces.Piece::shape).toArray(); }

        /** Bag ids [size * g] and their mask (1 where a row has that many bag entries). */
        long[] bags(int g) {
            long[] bag = new long[rows.size() * g];
            for (int r = 0; r < rows.size(); r++) {
                int[] ids = rows.get(r).bag();
                for (int k = 0; k < ids.length; k++) bag[r * g + k] = ids[k];
            }
            return bag;
        }

        float[] bagMask(int g) {
            float[] mask = new float[rows.size() * g];
            for (int r = 0; r < rows.size(); r++) Arrays.fill(mask, r * g, r * g + rows.get(r).bag().length, 1f);
            return mask;
        }
    }

    /** Distinct texts, each as up to {@code len} rows of the piece table. */
    static final class Texts {
        final PolicyConfig c;
        final Vocabulary vocabulary;
        final PieceTable table;
        final int len;
        final Map<String, Integer> index = new HashMap<>();
        final List<int[]> pieces = new ArrayList<>();

        Texts(PolicyConfig c, Vocabulary vocabulary, PieceTable table, int len) {
            this.c = c;
            this.vocabulary = vocabulary;
            this.table = table;
            this.len = len;
            id(""); // index 0: the empty text, embedded as zeros
        }

        int id(String text) {
            Integer i = index.get(text);
            if (i != null) return i;
            List<Tokenizer.Token> ts = Tokenizer.tokenize(text, len);
            int[] rows = new int[ts.size()];
            for (int k = 0; k < rows.length; k++) rows[k] = table.id(Pieces.of(ts.get(k).text(), c, vocabulary));
            pieces.add(rows);
            index.put(text, pieces.size() - 1);
            return pieces.size() - 1;
        }

        int size() { return pieces.size(); }
    }

    Batch(List<Context> contexts, PolicyConfig c, Vocabulary vocabulary) {
        this(contexts, c, vocabulary, null, 0);
    }

    /**
     * @param dropout     in training, the source of word dropout (null for none): each example draws a
     *                    rate uniformly from [0, 2 x dropoutRate] and reads each distinct word as unknown
     *                    with that probability, so the policy learns to recognise values by context and
     *                    shape, and sees contexts where most names are unknown, as at test time
     */
    Batch(List<Context> contexts, PolicyConfig c, Vocabulary vocabulary, SplittableRandom dropout, double dropoutRate) {
        this.c = c;
        this.contexts = List.copyOf(contexts);
        this.b = contexts.size();
        this.l = contexts.stream().mapToInt(x -> x.n).max().orElse(1);
        pieces = new PieceTable();
        token = new long[b * l];
        seg = new long[b * l];
        pos = new long[b * l];
        gapAfter = new long[b * l];
        gapBefore = new long[b * l];
        capitalJoin = new float[b * l];
        capitalEnd = new float[b * l];
        int nf = c.features();
        feat = new float[b * l * nf];
        int rm = c.maxRelations();
        relPiece = new long[b * l * rm];
        relMin = new float[b * l * rm];
        relMax = new float[b * l * rm];
        relAcrossMin = new float[b * l * rm];
        relAcrossMax = new float[b * l * rm];
        attnMask = new float[b * l];
        pointerMask = new float[b * l];
        Arrays.fill(attnMask, MASKED);
        Arrays.fill(pointerMask, MASKED);
        int ks = c.maxSpanTokens();
        spanMask = new float[b * l * ks];
        Arrays.fill(spanMask, MASKED);
        for (int e = 0; e < b; e++) {
            Context x = contexts.get(e);
            Map<String, Boolean> dropped = dropout == null ? null : new HashMap<>();
            double rate = dropout == null ? 0 : dropout.nextDouble() * 2 * dropoutRate;
            for (int i = 0; i < x.n; i++) {
                int at = e * l + i;
                boolean drop = dropped != null && i > 0 && dropped.computeIfAbsent(x.lower[i], w -> dropout.nextDouble() < rate);
                token[at] = pieces.id(drop ? x.piece[i].dropped() : x.piece[i]);
                seg[at] = x.seg[i];
                pos[at] = x.pos[i];
                gapAfter[at] = x.gapAfter[i];
                gapBefore[at] = x.gapBefore[i];
                capitalJoin[at] = x.capitalJoin[i];
                capitalEnd[at] = x.capitalEnd[i];
                System.arraycopy(x.feat[i], 0, feat, at * nf, nf);
                Records.Extreme[] ex = x.extremes[i];
                for (int r = 0; r < ex.length; r++) {
                    relPiece[at * rm + r] = pieces.id(Pieces.of(ex[r].key(), c, vocabulary));
                    float[] flag = ex[r].across() ? (ex[r].min() ? relAcrossMin : relAcrossMax) : (ex[r].min() ? relMin : relMax);
                    flag[at * rm + r] = 1;
                }
                attnMask[at] = 0;
                if (i > 0) pointerMask[at] = 0;
                for (int len = 0; len < ks && i > 0 && x.spanAllowed(i, i + len, ks); len++) spanMask[at * ks + len] = 0;
            }
        }
        texts = new Texts(c, vocabulary, pieces, c.maxDescriptionTokens());

        Map<ToolReading.Key, Integer> distinct = new java.util.LinkedHashMap<>();
        List<long[]> toolTexts = new ArrayList<>();
        tMax = Math.max(1, contexts.stream().mapToInt(x -> x.tools.size()).max().orElse(1));
        toolIndex = new long[b * tMax];
        toolFeat = new float[b * tMax * Context.TOOL_FEATURES];
        actionMask = new float[b * (tMax + 3)];
        Arrays.fill(actionMask, MASKED);
        for (int e = 0; e < b; e++) {
            Context x = contexts.get(e);
            for (int i = 0; i < x.tools.size(); i++) {
                ToolSpec t = x.tools.get(i);
                int id = distinct.computeIfAbsent(ToolReading.Key.of(t), k -> {
                    toolTexts.add(new long[]{texts.id(t.name()), texts.id(ToolReading.of(t).description())});
                    return toolTexts.size() - 1;
                });
                toolIndex[e * tMax + i] = id;
                System.arraycopy(x.toolFeat[i], 0, toolFeat, (e * tMax + i) * Context.TOOL_FEATURES, Context.TOOL_FEATURES);
                actionMask[e * (tMax + 3) + i] = 0;
            }
            for (int k = 0; k < 3; k++) actionMask[e * (tMax + 3) + tMax + k] = 0;
        }
        if (toolTexts.isEmpty()) toolTexts.add(new long[]{0, 0});
        // Register every parameter text now, so phase two finds them in the texts phase one embedded.
        for (ToolReading.Key t : distinct.keySet()) {
            for (ParamSpec s : ParamSpec.of(t.spec(), c.maxParams())) {
                texts.id(s.name());
                texts.id(s.description());
                for (int v = 0; v < Math.min(s.values().size(), c.maxEnumValues()); v++) texts.id(s.values().get(v));
            }
        }
        toolName = toolTexts.stream().mapToLong(x -> x[0]).toArray();
        toolDesc = toolTexts.stream().mapToLong(x -> x[1]).toArray();

        zMax = Math.max(1, contexts.stream().mapToInt(x -> x.topics.size()).max().orElse(1));
        topicName = new long[b * zMax];
        topicDesc = new long[b * zMax];
        topicMask = new float[b * zMax];
        Arrays.fill(topicMask, MASKED);
        for (int e = 0; e < b; e++) {
            List<ParamSpec> topics = contexts.get(e).topics;
            for (int i = 0; i < topics.size(); i++) {
                topicName[e * zMax + i] = texts.id(topics.get(i).name());
                topicDesc[e * zMax + i] = texts.id(topics.get(i).description());
                topicMask[e * zMax + i] = 0;
            }
        }

        a = c.answerWords().size();
        answerWord = new long[a];
        for (int k = 0; k < a; k++) answerWord[k] = texts.id(c.answerWords().get(k));
        answerMask = new float[b * (l + a)];
        Arrays.fill(answerMask, MASKED);
        for (int e = 0; e < b; e++) {
            for (int i = 1; i < contexts.get(e).n; i++) answerMask[e * (l + a) + i] = 0;
            for (int k = 0; k < a; k++) answerMask[e * (l + a) + l + k] = 0;
        }
    }

    /** A tool's description channel: its description and its parameter names. */
    static String descriptionText(ToolSpec t) {
        StringBuilder sb = new StringBuilder(t.description());
        t.parameters().path("properties").fieldNames().forEachRemaining(n -> sb.append(' ').append(n));
        return sb.toString();
    }

    /** Adds the parameters of {@code chosen[e]} (an index into example e's tools, or -1 for none). */
    Batch withParams(int[] chosenTools) {
        this.chosen = chosenTools.clone();
        List<List<ParamSpec>> params = new ArrayList<>();
        int p = 1;
        int k = 1;
        for (int e = 0; e < b; e++) {
            int t = chosen[e];
            List<ParamSpec> ps = t < 0 ? List.of() : ParamSpec.of(contexts.get(e).tools.get(t), c.maxParams());
            params.add(ps);
            p = Math.max(p, ps.size());
            for (ParamSpec s : ps) k = Math.max(k, Math.min(s.values().size(), c.maxEnumValues()));
        }
        pMax = p;
        kMax = k;
        chosenFlat = new long[b];
        paramName = new long[b * p];
        paramDesc = new long[b * p];
        paramType = new float[b * p * TYPE_FEATURES];
        paramFlags = new float[b * p * 2];
        paramMask = new float[b * p];
        keyMatch = new float[b * p * l];
        enumText = new long[b * p * k];
        enumMask = new float[b * p * k];
        enumFlags = new float[b * p * k * 2];
        enumMatch = new long[b * p * k * MATCHES];
        enumMatchMask = new float[b * p * k * MATCHES];
        Arrays.fill(enumMask, MASKED);
        for (int e = 0; e < b; e++) {
            chosenFlat[e] = (long) e * tMax + Math.max(0, chosen[e]);
            Context x = contexts.get(e);
            List<ParamSpec> ps = params.get(e);
            for (int j = 0; j < ps.size(); j++) {
                ParamSpec s = ps.get(j);
                int row = e * p + j;
                paramName[row] = texts.id(s.name());
                paramDesc[row] = texts.id(s.description());
                paramMask[row] = 1;
                String key = s.name().toLowerCase(Locale.ROOT);
                for (int i = 1; i < x.n; i++) if (key.equals(x.keyBefore[i])) keyMatch[row * l + i] = 1;
                int type = s.isEnum() ? 4 : s.type().ordinal();
                paramType[row * TYPE_FEATURES + type] = 1;
                if (s.required()) paramType[row * TYPE_FEATURES + 5] = 1;
                for (int v = 0; v < Math.min(s.values().size(), c.maxEnumValues()); v++) {
                    int cell = row * k + v;
                    String value = s.values().get(v).toLowerCase(Locale.ROOT);
                    enumText[cell] = texts.id(s.values().get(v));
                    enumMask[cell] = 0;
                    int m = 0;
                    for (int i = 1; i < x.n; i++) {
                        if (!Lexical.matches(x.lower[i], value)) continue;
                        boolean request = x.seg[i] == Context.SEG_REQUEST;
                        if (request) {
                            enumFlags[cell * 2] = 1;
                            paramFlags[row * 2] = 1;
                        } else if (Context.isObservationSegment(x.seg[i])) {
                            enumFlags[cell * 2 + 1] = 1;
                            paramFlags[row * 2 + 1] = 1;
                        }
                        if (m < MATCHES) {
                            enumMatch[cell * MATCHES + m] = (long) e * l + i;
                            enumMatchMask[cell * MATCHES + m] = 1;
                            m++;
                        }
                    }
                }
            }
        }
        return this;
    }
}
