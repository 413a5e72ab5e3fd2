package dev.openagent.policy;

import dev.openagent.sandbox.ToolSpec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A {@link View} encoded as the policy reads it: one token sequence (CLS, rules, request, then
 * the most recent turns' actions and observations), per-token ids and features, and the pointer
 * targets of the view (the callable tools, the question topics). Positions in this sequence are
 * what argument and answer pointers index.
 */
final class Context {
    /** Segment ids; history turn k (0 = most recent) has action segment 3+2k and observation segment 4+2k (older turns of a text environment share the last pair). */
    static final int SEG_CLS = 0;
    static final int SEG_RULES = 1;
    static final int SEG_REQUEST = 2;

    /** Hash buckets of the separator text (punctuation) after and before a token. */
    static final int GAP_BUCKETS = 64;
    /** Per-tool features: called before, called last turn, its last call failed, calls so far / 3. */
    static final int TOOL_FEATURES = 4;

    final View view;
    final int n;
    /** Each token's embedding ids (word, shape, trigram bag). */
    final Pieces.Piece[] piece;
    final int[] seg;
    final int[] pos;
    /** The separators around each token ({@code "?"}, {@code "\",\""}, the end of a text): ids into 2 x GAP_BUCKETS. */
    final int[] gapAfter;
    final int[] gapBefore;
    /**
     * 1 where a capitalised word is followed, across spaces only, by another (the next word continues
     * a name: "Port Elliot"), and where a capitalised word ends such a run. Only the parameter-blind
     * extent scores read these: a parameter's pointer must find where its value starts by context,
     * not by how many words long values of that parameter happened to be in training.
     */
    final float[] capitalJoin;
    final float[] capitalEnd;
    /** The key a token is the value of ({@code "city":"Lakeside"}, {@code city: Lakeside}, {@code city=Lakeside}), or null. */
    final String[] keyBefore;
    final float[][] feat;
    /** Sources (texts) below this index are compared for numeric extremes: the request and the most recent turns. */
    private final int comparedSources;
    /** Per token, the fields whose smallest or largest value its record holds among a list's records (at most max_relations). */
    final Records.Extreme[][] extremes;
    final String[] lower;
    /** Where each token's text came from, so a span maps back to the exact characters read. */
    final int[] source;
    final int[] start;
    final int[] end;
    final List<String> sources;
    /** The tools the action pointer ranges over (the tool list without ask_user, or the command forms of a text environment). */
    final List<ToolSpec> tools;
    /** In a text-command environment, the command form behind each entry of {@link #tools}; else empty. */
    final List<CommandTemplate> commands;
    final float[][] toolFeat;
    /** Question topics: each distinct parameter of the callable tools. */
    final List<ParamSpec> topics;

    private Context(View view, List<Tokenizer.Token> tokens, List<Integer> tokenSource, List<Integer> segs, List<Integer> poss,
                    List<String> sources, int comparedSources, PolicyConfig c, Vocabulary vocabulary) {
        this.view = view;
        this.comparedSources = comparedSources;
        this.n = tokens.size();
        this.piece = new Pieces.Piece[n];
        this.seg = new int[n];
        this.pos = new int[n];
        this.lower = new String[n];
        this.source = new int[n];
        this.start = new int[n];
        this.end = new int[n];
        this.gapAfter = new int[n];
        this.gapBefore = new int[n];
        this.keyBefore = new String[n];
        this.capitalJoin = new float[n];
        this.capitalEnd = new float[n];
        this.sources = List.copyOf(sources);
        for (int i = 0; i < n; i++) {
            Tokenizer.Token t = tokens.get(i);
            piece[i] = Pieces.of(t.text(), c, vocabulary);
            seg[i] = segs.get(i);
            pos[i] = poss.get(i);
            lower[i] = t.lower();
            source[i] = tokenSource.get(i);
            start[i] = t.start();
            end[i] = t.end();
        }
        for (int i = 0; i < n; i++) {
            String text = this.sources.get(source[i]);
            String after = i + 1 < n && source[i + 1] == source[i] ? text.substring(end[i], start[i + 1]) : "$end";
            String before = i > 0 && source[i - 1] == source[i] ? text.substring(end[i - 1], start[i]) : "$start";
            gapAfter[i] = gapId(after, c);
            gapBefore[i] = GAP_BUCKETS + gapId(before, c);
            if (i > 1 && source[i - 1] == source[i] && (before.indexOf(':') >= 0 || before.indexOf('=') >= 0 || before.indexOf('>') >= 0)) {
                keyBefore[i] = tokens.get(i - 1).lower();
            }
        }
        for (int i = 1; i < n; i++) {
            if (!capitalised(i)) continue;
            boolean joins = joinedCapital(i, i + 1);
            capitalJoin[i] = joins ? 1 : 0;
            capitalEnd[i] = joins ? 0 : 1;
        }
        this.tools = view.callableTools();
        this.commands = view.commandForms();
        this.topics = topicsOf(tools, c);
        Records.Span[] records = c.maxRelations() > 0 || c.recordMatch() || c.requestBounds() ? records() : null;
        this.feat = features(c, records);
        this.extremes = extremes(c, records);
        this.toolFeat = toolFeatures();
    }

    /** A separator as an id: its characters without spaces, at most three ("_" when it is only space). */
    private static int gapId(String gap, PolicyConfig c) {
        StringBuilder g = new StringBuilder(3);
        for (int i = 0; i < gap.length() && g.length() < 3; i++) {
            char ch = gap.charAt(i);
            if (!Character.isWhitespace(ch)) g.append(ch);
        }
        return Pieces.bucket(g.isEmpty() ? "_" : g.toString(), c.hashSalt() + 7, GAP_BUCKETS);
    }

    static boolean isActionSegment(int s) { return s >= 3 && (s - 3) % 2 == 0; }

    static boolean isObservationSegment(int s) { return s >= 4 && (s - 4) % 2 == 0; }

    static Context encode(View view, PolicyConfig c, Vocabulary vocabulary) {
        List<Tokenizer.Token> tokens = new ArrayList<>();
        List<Integer> src = new ArrayList<>();
        List<Integer> segs = new ArrayList<>();
        List<Integer> poss = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        // CLS: its position slot carries the turn number.
        sources.add("[cls]");
        tokens.add(new Tokenizer.Token("[cls]", 0, 5));
        src.add(0);
        segs.add(SEG_CLS);
        poss.add(Math.min(view.turns().size(), c.maxPositions() - 1));
        add(view.rules(), c.maxRulesTokens(), SEG_RULES, tokens, src, segs, poss, sources, c);
        add(view.request(), c.maxRequestTokens(), SEG_REQUEST, tokens, src, segs, poss, sources, c);
        List<View.Turn> turns = view.turns();
        int observationTokens = observationBudget(view, c);
        int read = turnsRead(view, c);
        int compared = -1;
        for (int k = 0; k < read; k++) {
            if (k == c.historyTurns() && !view.textCommands()) compared = sources.size();
            View.Turn t = turns.get(turns.size() - 1 - k);
            // Older turns of a text environment share the last segment; a function-call environment's have their own.
            int segment = 3 + 2 * (k >= c.historyTurns() && c.olderTurnsSegment() && !view.textCommands() ? c.historyTurns() : Math.min(k, c.historyTurns() - 1));
            add(t.actionText(), c.maxActionTokens(), segment, tokens, src, segs, poss, sources, c);
            if (readsObservation(view, c, k)) add(observationRead(view, t), observationTokens, segment + 1, tokens, src, segs, poss, sources, c);
        }
        return new Context(view, tokens, src, segs, poss, sources, compared < 0 ? sources.size() : compared, c, vocabulary);
    }

    /** Whether the k-th most recent turn read contributes its observation (see {@link PolicyConfig#olderTurnsActionsOnly}). */
    static boolean readsObservation(View view, PolicyConfig c, int k) {
        return k < c.historyTurns() || view.textCommands() || !c.olderTurnsActionsOnly();
    }

    /**
     * How many of the most recent turns the policy reads: at least {@code historyTurns}, then as
     * many older ones as fit, with those, in {@link #historyTokens}. An id a tool returned four calls
     * ago is still what the agent must pass on (a patient found first, booked last), and a room
     * described four commands ago is still what the agent knows of the room.
     */
    static int turnsRead(View view, PolicyConfig c) {
        List<View.Turn> turns = view.turns();
        int k = Math.min(c.historyTurns(), turns.size());
        int budget = historyTokens(view, c);
        if (budget <= 0 || k == turns.size()) return k;
        int used = 0;
        for (int i = 0; i < k; i++) used += turnTokens(view, turns.get(turns.size() - 1 - i), c);
        while (k < turns.size()) {
            used += turnTokens(view, turns.get(turns.size() - 1 - k), c);
            if (used > budget) break;
            k++;
        }
        return k;
    }

    /**
     * The token budget of the turns read: {@code max_history_tokens} in a function-call environment;
     * in a text-command one two long observations (its short replies, such as "You open cabinet 1.",
     * cost little).
     */
    static int historyTokens(View view, PolicyConfig c) {
        return view.textCommands() ? 2 * c.maxProseTokens() : c.maxHistoryTokens();
    }

    private static int turnTokens(View view, View.Turn t, PolicyConfig c) {
        return Tokenizer.tokenize(t.actionText(), c.maxActionTokens()).size()
                + Tokenizer.tokenize(observationRead(view, t), observationBudget(view, c)).size();
    }

    /**
     * The observation text of a turn as the context holds it. The reply to {@code help} in a
     * text-command environment is read into the command forms (the action pointer's entries, as a
     * tool list is), so the context does not hold it a second time.
     */
    static String observationRead(View view, View.Turn t) {
        return view.textCommands() && View.isHelp(t) ? "" : t.observationText();
    }

    /** Tokens read of one observation: prose of a text-command environment gets its own budget. */
    static int observationBudget(View view, PolicyConfig c) {
        return view.textCommands() ? c.maxProseTokens() : c.maxObservationTokens();
    }

    private static void add(String text, int max, int segment, List<Tokenizer.Token> tokens, List<Integer> src, List<Integer> segs,
                            List<Integer> poss, List<String> sources, PolicyConfig c) {
        if (max <= 0 || text == null || text.isEmpty()) return;
        int id = sources.size();
        sources.add(text);
        List<Tokenizer.Token> ts = Tokenizer.tokenize(text, max);
        for (int i = 0; i < ts.size(); i++) {
            tokens.add(ts.get(i));
            src.add(id);
            segs.add(segment);
            poss.add(Math.min(i, c.maxPositions() - 1));
        }
    }

    /** The exact text of tokens {@code [s, e]} (one source), or the tokens joined by spaces. */
    String spanText(int s, int e) {
        if (source[s] == source[e] && e >= s) return sources.get(source[s]).substring(start[s], end[e]);
        StringBuilder sb = new StringBuilder();
        for (int i = s; i <= e; i++) {
            if (!sb.isEmpty()) sb.append(' ');
            sb.append(sources.get(source[i]), start[i], end[i]);
        }
        return sb.toString();
    }

    String tokenText(int i) { return sources.get(source[i]).substring(start[i], end[i]); }

    /** Whether tokens s..e may form one copied value: same source, in order, not too long. */
    boolean spanAllowed(int s, int e, int maxSpan) {
        return s > 0 && e >= s && e - s < maxSpan && e < n && source[s] == source[e];
    }

    /** Start positions of every occurrence of the value's tokens (case-insensitive) in one source. */
    List<int[]> occurrences(String value) {
        List<Tokenizer.Token> vt = Tokenizer.tokenize(value);
        List<int[]> out = new ArrayList<>();
        if (vt.isEmpty()) return out;
        int m = vt.size();
        for (int i = 1; i + m <= n; i++) {
            boolean ok = true;
            for (int j = 0; j < m && ok; j++) {
                ok = lower[i + j].equals(vt.get(j).lower()) && source[i + j] == source[i];
            }
            if (ok) out.add(new int[]{i, i + m - 1});
        }
        return out;
    }

    Set<String> lowersWhere(java.util.function.IntPredicate segment) {
        Set<String> out = new HashSet<>();
        for (int i = 0; i < n; i++) if (segment.test(seg[i])) out.add(lower[i]);
        return out;
    }

    /**
     * Per-token features: 0 is a number; 1 its magnitude; 2/3 smallest/largest of the numbers that
     * follow the same key (so "which distance is shorter" is visible); 4 also in the request; 5 also
     * in an observation; 6 also in an earlier action's arguments; 7 how often it occurs; 8 in the
     * latest observation; 9 matches an enum value of a callable tool; 10/11 its text holds the
     * smallest/largest of such a group of numbers (so an id can be chosen by the value beside it);
     * with {@code word_extremes}, 12/13 the same word (not a number) occurs in such a text, so the
     * closer place's id in its search result is marked by the distance another tool reported beside it;
     * with {@code record_match}, the next two how well its record matches the request ({@link #recordMatch});
     * with {@code request_bounds}, the next three whether it stands within a bound the request states ({@link #requestBounds}).
     * How far a copied value extends is read apart, from {@link #capitalJoin} and {@link #capitalEnd}.
     */
    private float[][] features(PolicyConfig c, Records.Span[] records) {
        float[][] f = new float[n][c.features()];
        Set<String> inRequest = lowersWhere(s -> s == SEG_REQUEST);
        Set<String> inObs = lowersWhere(Context::isObservationSegment);
        Set<String> inActions = lowersWhere(Context::isActionSegment);
        Set<String> inLast = lowersWhere(s -> s == 4);
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 1; i < n; i++) counts.merge(lower[i], 1, Integer::sum);
        Set<String> enumValues = new HashSet<>();
        for (ToolSpec t : tools) for (ParamSpec p : ParamSpec.of(t, c.maxParams())) for (String v : p.values()) enumValues.add(v.toLowerCase(Locale.ROOT));
        // Numbers grouped by the nearest preceding word of the same source (their key).
        Map<String, double[]> range = new HashMap<>();
        String[] keyOf = new String[n];
        double[] value = new double[n];
        String key = "";
        int lastSource = -1;
        for (int i = 1; i < n; i++) {
            if (source[i] != lastSource) {
                key = "";
                lastSource = source[i];
            }
            double v = Tokenizer.number(lower[i]);
            value[i] = v;
            if (Double.isNaN(v)) {
                key = lower[i];
            } else {
                keyOf[i] = key;
                if (source[i] >= comparedSources) continue; // older turns are read, not compared
                double[] r = range.computeIfAbsent(key, k -> new double[]{Double.MAX_VALUE, -Double.MAX_VALUE, 0});
                r[0] = Math.min(r[0], v);
                r[1] = Math.max(r[1], v);
                r[2]++;
            }
        }
        Set<Integer> holdsMin = new HashSet<>();
        Set<Integer> holdsMax = new HashSet<>();
        for (int i = 1; i < n; i++) {
            if (keyOf[i] == null || source[i] >= comparedSources) continue;
            double[] r = range.get(keyOf[i]);
            if (r[2] < 2 || r[0] >= r[1]) continue;
            if (value[i] == r[0]) holdsMin.add(source[i]);
            if (value[i] == r[1]) holdsMax.add(source[i]);
        }
        // Ids are passed from tool to tool in function-call environments; prose observations are left as they were.
        boolean byWord = c.wordExtremes() && !view.textCommands();
        Set<String> nearMin = new HashSet<>();
        Set<String> nearMax = new HashSet<>();
        if (byWord) {
            for (int i = 1; i < n; i++) {
                if (keyOf[i] != null) continue;
                if (holdsMin.contains(source[i])) nearMin.add(lower[i]);
                if (holdsMax.contains(source[i])) nearMax.add(lower[i]);
            }
        }
        if (c.recordMatch()) recordMatch(f, c.recordMatchAt(), inRequest, records);
        if (c.requestBounds()) requestBounds(f, c.requestBoundsAt(), keyOf, value, inRequest, records);
        for (int i = 1; i < n; i++) {
            String w = lower[i];
            float[] x = f[i];
            x[10] = holdsMin.contains(source[i]) ? 1 : 0;
            x[11] = holdsMax.contains(source[i]) ? 1 : 0;
            if (byWord && keyOf[i] == null) {
                x[12] = nearMin.contains(w) ? 1 : 0;
                x[13] = nearMax.contains(w) ? 1 : 0;
            }
            if (keyOf[i] != null) {
                double v = value[i];
                x[0] = 1;
                x[1] = (float) Math.min(2.0, Math.log10(1 + Math.abs(v)) / 2);
                double[] r = range.get(keyOf[i]);
                if (r != null && source[i] < comparedSources && r[2] >= 2 && r[0] < r[1]) {
                    x[2] = v == r[0] ? 1 : 0;
                    x[3] = v == r[1] ? 1 : 0;
                }
            }
            x[4] = inRequest.contains(w) ? 1 : 0;
            x[5] = inObs.contains(w) ? 1 : 0;
            x[6] = inActions.contains(w) ? 1 : 0;
            x[7] = (float) Math.min(1.0, Math.log1p(counts.getOrDefault(w, 0)) / 3);
            x[8] = inLast.contains(w) ? 1 : 0;
            for (String ev : enumValues) {
                if (Lexical.matches(w, ev)) {
                    x[9] = 1;
                    break;
                }
            }
        }
        return f;
    }

    /**
     * Features {@code at} and {@code at + 1} of every observation token inside a record of a JSON list
     * ({@link Records}): how many distinct request words the record holds (a quarter each, at most 1), and
     * 1 when no other record of its list holds more and some holds fewer. The request names the item by
     * its words ("the red Ridge Backpack"); the ids to copy sit in the record that holds them.
     */
    private void recordMatch(float[][] f, int at, Set<String> inRequest, Records.Span[] spanOf) {
        // Keyed by source too: two texts of the same shape have equal spans.
        Map<List<Object>, Set<String>> shared = new HashMap<>();
        for (int i = 1; i < n; i++) {
            if (spanOf[i] == null) continue;
            Set<String> words = shared.computeIfAbsent(List.of(source[i], spanOf[i]), k -> new HashSet<>());
            if (inRequest.contains(lower[i]) && isWord(lower[i])) words.add(lower[i]);
        }
        // Per list of one source: the most and the fewest request words any of its records holds.
        int[] count = new int[n];
        int[][] listRange = new int[n][];
        Map<List<Integer>, int[]> best = new HashMap<>();
        for (int i = 1; i < n; i++) {
            if (spanOf[i] == null) continue;
            count[i] = shared.get(List.of(source[i], spanOf[i])).size();
            int[] mm = best.computeIfAbsent(List.of(source[i], spanOf[i].list()), k -> new int[]{Integer.MAX_VALUE, 0});
            mm[0] = Math.min(mm[0], count[i]);
            mm[1] = Math.max(mm[1], count[i]);
            listRange[i] = mm;
        }
        for (int i = 1; i < n; i++) {
            if (spanOf[i] == null) continue;
            int[] mm = listRange[i];
            f[i][at] = Math.min(1f, count[i] / 4f);
            f[i][at + 1] = count[i] == mm[1] && mm[0] < mm[1] ? 1 : 0;
        }
    }

    /**
     * Features {@code at} to {@code at + 2} ({@code request_bounds}). A number of the request bounds a field of the
     * observations when some of the field's values are at most it and some above it ("a total of at most $190"
     * against totals of 174-206). A record, or a whole text outside records, is within the bound when its values of
     * bounded fields are all at most the bound. Feature {@code at}: the token's word occurs in such a unit and in none
     * beyond a bound, so the hotel id beside a total within budget marks that hotel in the search result too. Features
     * {@code at + 1} / {@code at + 2}: its record is one of its list's records holding such a word, and among those
     * it holds the largest / smallest value of a field the request names ("the most stars").
     */
    private void requestBounds(float[][] f, int at, String[] keyOf, double[] value, Set<String> inRequest, Records.Span[] spanOf) {
        List<Double> asked = new ArrayList<>();
        for (int i = 1; i < n; i++) if (seg[i] == SEG_REQUEST && !Double.isNaN(value[i])) asked.add(value[i]);
        if (asked.isEmpty()) return;
        Map<String, double[]> range = new HashMap<>();
        for (int i = 1; i < n; i++) {
            if (isObservationSegment(seg[i]) && keyOf[i] != null) widen(range, keyOf[i], value[i]);
        }
        Map<String, Double> bound = new HashMap<>();
        range.forEach((key, r) -> {
            for (double b : asked) {
                if (r[0] <= b && b < r[1]) {
                    bound.put(key, b);
                    return;
                }
            }
        });
        if (bound.isEmpty()) return;
        Set<List<Object>> within = new HashSet<>();
        Set<List<Object>> beyond = new HashSet<>();
        for (int i = 1; i < n; i++) {
            if (!isObservationSegment(seg[i]) || keyOf[i] == null || !bound.containsKey(keyOf[i])) continue;
            (value[i] <= bound.get(keyOf[i]) ? within : beyond).add(unitOf(i, spanOf));
        }
        Set<String> inside = new HashSet<>();
        Set<String> outside = new HashSet<>();
        for (int i = 1; i < n; i++) {
            if (!isObservationSegment(seg[i]) || keyOf[i] != null || !isWord(lower[i])) continue;
            List<Object> u = unitOf(i, spanOf);
            if (beyond.contains(u)) outside.add(lower[i]);
            else if (within.contains(u)) inside.add(lower[i]);
        }
        inside.removeAll(outside);
        if (inside.isEmpty()) return;
        // Records of a list holding an inside word, and among them each request-named field's extremes per list.
        Set<List<Object>> chosen = new HashSet<>();
        for (int i = 1; i < n; i++) {
            if (inside.contains(lower[i])) f[i][at] = 1;
            if (spanOf[i] != null && inside.contains(lower[i])) chosen.add(List.of(source[i], spanOf[i]));
        }
        Map<List<Object>, double[]> fieldRange = new HashMap<>();
        for (int i = 1; i < n; i++) {
            if (spanOf[i] == null || keyOf[i] == null || !inRequest.contains(keyOf[i]) || !chosen.contains(unitOf(i, spanOf))) continue;
            widen(fieldRange, List.of(source[i], spanOf[i].list(), keyOf[i]), value[i]);
        }
        Set<List<Object>> most = new HashSet<>();
        Set<List<Object>> fewest = new HashSet<>();
        for (int i = 1; i < n; i++) {
            if (spanOf[i] == null || keyOf[i] == null || !inRequest.contains(keyOf[i])) continue;
            double[] r = fieldRange.get(List.of(source[i], spanOf[i].list(), keyOf[i]));
            if (r == null || !chosen.contains(unitOf(i, spanOf))) continue;
            if (value[i] == r[1]) most.add(unitOf(i, spanOf));
            if (value[i] == r[0]) fewest.add(unitOf(i, spanOf));
        }
        for (int i = 1; i < n; i++) {
            if (spanOf[i] == null) continue;
            List<Object> rec = List.of(source[i], spanOf[i]);
            f[i][at + 1] = most.contains(rec) ? 1 : 0;
            f[i][at + 2] = fewest.contains(rec) ? 1 : 0;
        }
    }

    /** Widens {@code key}'s [smallest, largest] in {@code ranges} to take in {@code v}. */
    private static <K> void widen(Map<K, double[]> ranges, K key, double v) {
        double[] r = ranges.computeIfAbsent(key, k -> new double[]{Double.MAX_VALUE, -Double.MAX_VALUE});
        r[0] = Math.min(r[0], v);
        r[1] = Math.max(r[1], v);
    }

    /** A token's record of a list, or its whole text when it is in none. */
    private List<Object> unitOf(int i, Records.Span[] spanOf) {
        return spanOf[i] != null ? List.of(source[i], spanOf[i]) : List.of(source[i]);
    }

    /** A token with a letter or digit (not JSON punctuation). */
    private static boolean isWord(String token) {
        for (int k = 0; k < token.length(); k++) if (Character.isLetterOrDigit(token.charAt(k))) return true;
        return false;
    }

    private static final Records.Extreme[] NONE = new Records.Extreme[0];

    /** Each observation token's innermost record of a JSON list ({@link Records}), or null. */
    private Records.Span[] records() {
        return spansOf(Records::of, Integer.MAX_VALUE, new HashMap<>());
    }

    /**
     * Each observation token's innermost record among {@code parse}'s records of its text, or null, for tokens of
     * sources below {@code sourcesBelow}; {@code bySource} receives every parsed text's records.
     */
    private Records.Span[] spansOf(java.util.function.Function<String, List<Records.Span>> parse, int sourcesBelow,
                                   Map<Integer, List<Records.Span>> bySource) {
        Records.Span[] out = new Records.Span[n];
        for (int i = 1; i < n; i++) {
            if (!isObservationSegment(seg[i]) || source[i] >= sourcesBelow) continue;
            List<Records.Span> spans = bySource.computeIfAbsent(source[i], k -> parse.apply(sources.get(k)));
            if (!spans.isEmpty()) out[i] = Records.at(spans, start[i]);
        }
        return out;
    }

    /**
     * Each observation token's record extremes ({@link Records}), at most {@code max_relations} per token: with
     * {@code across_lists} first those its record holds among every compared list ({@link #acrossLists}), then those
     * it holds among its own list's records.
     */
    private Records.Extreme[][] extremes(PolicyConfig c, Records.Span[] records) {
        Records.Extreme[][] out = new Records.Extreme[n][];
        java.util.Arrays.fill(out, NONE);
        if (c.maxRelations() == 0) return out;
        Map<Integer, List<Records.Extreme>> across = c.acrossLists() ? acrossLists() : Map.of();
        for (int i = 1; i < n; i++) {
            List<Records.Extreme> own = records[i] == null ? List.of() : records[i].extremes();
            List<Records.Extreme> e = own;
            if (across.containsKey(i)) {
                e = new ArrayList<>(across.get(i));
                e.addAll(own);
            }
            if (e.isEmpty()) continue;
            out[i] = e.subList(0, Math.min(e.size(), c.maxRelations())).toArray(NONE);
        }
        return out;
    }

    /**
     * Per observation token of a compared text (the recent turns), the fields whose smallest or largest value its
     * record holds among the records of every list with that field, when two or more lists have it, a list of one
     * record included: the nonstop search's one flight against the connection search's itineraries, both "arrives".
     * A field whose values are all equal marks nothing.
     */
    private Map<Integer, List<Records.Extreme>> acrossLists() {
        Map<Integer, List<Records.Span>> bySource = new HashMap<>();
        Records.Span[] spanOf = spansOf(Records::all, comparedSources, bySource);
        Map<String, double[]> range = new HashMap<>();
        Map<String, Set<List<Integer>>> listsWith = new HashMap<>();
        for (var e : bySource.entrySet()) {
            for (Records.Span span : e.getValue()) {
                span.fields().forEach((key, v) -> {
                    widen(range, key, v);
                    listsWith.computeIfAbsent(key, k -> new HashSet<>()).add(List.of(e.getKey(), span.list()));
                });
            }
        }
        // Per record (keyed by its text too: two texts of the same shape have equal spans), once for all its tokens.
        Map<List<Object>, List<Records.Extreme>> heldBy = new HashMap<>();
        Map<Integer, List<Records.Extreme>> out = new HashMap<>();
        for (int i = 1; i < n; i++) {
            if (spanOf[i] == null) continue;
            Records.Span span = spanOf[i];
            List<Records.Extreme> held = heldBy.computeIfAbsent(List.of(source[i], span), k -> {
                List<Records.Extreme> h = new ArrayList<>();
                // Sorted by field so a record's relations come in one order whatever its text's order.
                for (String key : new java.util.TreeSet<>(span.fields().keySet())) {
                    double[] r = range.get(key);
                    if (listsWith.get(key).size() < 2 || r[0] >= r[1]) continue;
                    double v = span.fields().get(key);
                    if (v == r[0]) h.add(new Records.Extreme(key, true, true));
                    if (v == r[1]) h.add(new Records.Extreme(key, false, true));
                }
                return List.copyOf(h);
            });
            if (!held.isEmpty()) out.put(i, held);
        }
        return out;
    }

    private boolean capitalised(int i) {
        String t = sources.get(source[i]);
        return i > 0 && Character.isUpperCase(t.charAt(start[i]));
    }

    /** Whether tokens a and b are capitalised words of one text separated only by spaces. */
    private boolean joinedCapital(int a, int b) {
        if (a < 1 || b >= n || source[a] != source[b] || !capitalised(a) || !capitalised(b)) return false;
        return sources.get(source[a]).substring(end[a], start[b]).isBlank();
    }

    private float[][] toolFeatures() {
        float[][] f = new float[tools.size()][TOOL_FEATURES];
        List<View.Turn> turns = view.turns();
        for (int i = 0; i < tools.size(); i++) {
            int count = 0;
            Boolean lastFailed = null;
            for (View.Turn t : turns) {
                if (used(i, t)) {
                    count++;
                    lastFailed = t.failed();
                }
            }
            f[i][0] = count > 0 ? 1 : 0;
            f[i][1] = !turns.isEmpty() && used(i, turns.getLast()) ? 1 : 0;
            f[i][2] = Boolean.TRUE.equals(lastFailed) ? 1 : 0;
            f[i][3] = Math.min(1f, count / 3f);
        }
        return f;
    }

    /** Whether turn t used entry i of the tools: called the tool, or sent a command of that form. */
    private boolean used(int i, View.Turn t) {
        if (commands.isEmpty()) return t.calledTools().contains(tools.get(i).name());
        return t.action() instanceof dev.openagent.sandbox.Action.Command c
                && commands.get(i).match(dev.openagent.sandbox.Commands.normalize(c.text())) != null;
    }

    private static List<ParamSpec> topicsOf(List<ToolSpec> tools, PolicyConfig c) {
        Map<String, ParamSpec> byName = new java.util.LinkedHashMap<>();
        for (ToolSpec t : tools) for (ParamSpec p : ParamSpec.of(t, c.maxParams())) byName.putIfAbsent(p.name(), p);
        return List.copyOf(byName.values());
    }

    /** The question the policy asks about a topic: its name and its description, in words. */
    static String question(ParamSpec topic) {
        String words = String.join(" ", Tokenizer.subwords(topic.name()));
        return "Could you tell me the " + words + "? (" + topic.description() + ")";
    }
}
