package dev.openagent.watch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.json.Json;
import dev.openagent.shift.Shift;
import dev.openagent.shift.Sign;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Compares live traffic with a baseline ({@link Snapshot} with its learnt {@link Traffic}): a tool list is diffed
 * exactly ({@link SurfaceDiff}); each call's result is read ({@link Reading}) into indicators (a format this tool
 * never answered in, keys it never held, an error of a kind, a page token, ...), each tested against its rate in
 * the baseline by a one-sided CUSUM of the Bernoulli log-likelihood ratio, which alarms when the sum reaches
 * ln(1/alpha): between alarms at most one false one is expected every 1/alpha calls per indicator. Each change is
 * one {@link Event}, once. Thread-safe.
 */
public final class Watcher {
    /** The default false-alarm bound per indicator and call. */
    public static final double ALPHA = 1e-6;

    /**
     * One change the watch saw, with when it was first seen, how many calls it took, and how strong the evidence was.
     *
     * @param llr the log-likelihood ratio when it alarmed (>= ln(1/alpha)); for a surface change, infinity: it is exact
     */
    public record Event(Instant firstSeen, Change change, int calls, double llr, double alpha) {
        public ObjectNode toJson() {
            ObjectNode o = change.toJson();
            o.put("first_seen", firstSeen.toString());
            o.put("calls_seen", calls);
            if (Double.isInfinite(llr)) o.put("confidence", "exact");   // a surface diff, or wording the server states outright
            else {
                o.put("confidence", "sequential");
                o.put("log_likelihood_ratio", Math.round(llr * 100) / 100.0);
                o.put("false_alarm_bound", alpha);
            }
            return o;
        }
    }

    /** One tested property of calls: its baseline rate, the rate it alarms for, and its running sum. */
    private static final class Indicator {
        final Sign sign;
        final Map<String, String> params;
        final String detail;
        final double p0, p1;
        double sum;
        int hits;
        boolean fired;
        final Set<String> tools = new LinkedHashSet<>();
        String example;

        Indicator(Sign sign, Map<String, String> params, String detail, int baseCount, int baseCalls) {
            this.sign = sign;
            this.params = params;
            this.detail = detail;
            this.p0 = Math.min(0.9, (baseCount + 0.5) / (baseCalls + 1.0));
            // The rate the test is tuned to catch: a few in a hundred calls where the baseline had next to none, or three
            // times the baseline's rate. The false-alarm bound holds for any choice (Lorden): it only trades speed.
            this.p1 = Math.min(0.95, Math.max(p0 + 0.05, 3 * p0));
        }

        /** Adds one call; true when the test alarms now. */
        boolean add(boolean hit, double threshold) {
            if (hit) hits++;
            sum = Math.max(0, sum + (hit ? Math.log(p1 / p0) : Math.log((1 - p1) / (1 - p0))));
            return !fired && sum >= threshold;
        }
    }

    private final Snapshot baseline;
    private final Traffic learnt;
    private final double alpha;
    private final Consumer<Event> sink;
    private final Map<String, Indicator> indicators = new LinkedHashMap<>();
    private final Set<String> surfaceSeen = new HashSet<>();
    private final List<Event> events = new ArrayList<>();
    private int calls;

    /** @param sink told each event as it is raised (on the calling thread) */
    public Watcher(Snapshot baseline, double alpha, Consumer<Event> sink) {
        if (!(alpha > 0 && alpha < 1)) throw new UserInputException("alpha must be in (0, 1)");
        this.baseline = baseline;
        this.learnt = baseline.traffic() == null ? null : Traffic.of(baseline.traffic());
        this.alpha = alpha;
        this.sink = sink;
    }

    /** The tools as the server lists them now: each exact difference from the baseline is an event, once. */
    public synchronized void listed(List<Snapshot.Tool> tools) {
        Snapshot now = new Snapshot(baseline.upstream(), Instant.now(), tools, baseline.resources(), baseline.templates(), baseline.prompts(), null);
        for (Change c : SurfaceDiff.between(baseline, now)) {
            if (surfaceSeen.add(c.kind() + " " + c.tool() + " " + c.detail())) raise(new Event(Instant.now(), c, calls, Double.POSITIVE_INFINITY, alpha));
        }
    }

    /** One call's result as the server gave it. */
    public synchronized void called(String tool, String text, boolean error, double millis) {
        calls++;
        if (learnt == null || learnt.calls() == 0) return;   // a surface-only baseline: nothing to test traffic against
        Reading r = Reading.of(text, error);
        Traffic.Tool known = learnt.tool(tool);
        int n = learnt.calls();
        // A result's format is its data's: an error's text is prose on any server.
        for (Reading.Format f : Reading.Format.values()) {
            if (f == Reading.Format.EMPTY || f == Reading.Format.JSON) continue;
            Sign sign = f == Reading.Format.PROSE ? Sign.RESULTS_AS_PROSE : Sign.RESULT_FORMAT_CHANGED;
            Map<String, String> params = f == Reading.Format.PROSE ? Map.of() : Map.of("format", f.name().toLowerCase(Locale.ROOT));
            test("format-" + f, sign, params, "results in " + f.name().toLowerCase(Locale.ROOT) + " where this tool never answered so", 0, n,
                    known != null && known.calls() > 0 && !error && r.format() == f && !known.sawFormat(f), tool, text);
        }
        // Keys that came with a failure wrapper or an instruction are those signs', not a drift of the data's keys.
        boolean newKeys = known != null && known.calls() > 0 && r.format() == Reading.Format.JSON && !r.malformed() && !r.instructs()
                && r.kind() != Reading.Kind.FAILURE_AS_SUCCESS && r.keys().stream().anyMatch(k -> !known.knows(k));
        test("keys", Sign.RESULT_KEYS_CHANGED, Map.of(), "results hold keys or nesting this tool's never held", 0, n, newKeys, tool, text);
        test("malformed", Sign.MALFORMED_RESULTS, Map.of(), "results that open as JSON and do not parse", learnt.malformed(), n, r.malformed(), tool, text);
        test("paged", Sign.PAGED_RESULTS, Map.of(), "results with a page token", learnt.paged(), n, r.paged(), tool, text);
        exact("instructs", Sign.INSTRUCTIONS_IN_RESULTS, "results carrying an instruction to the agent", learnt.instructs(), n, r.instructs(), tool, text);
        test("transient", Sign.TRANSIENT_ERRORS, Map.of(), "transient errors (timeout, 503, rate limit)", learnt.kind(Reading.Kind.TRANSIENT), n, r.kind() == Reading.Kind.TRANSIENT, tool, text);
        exact("flapping", Sign.FLAPPING, "errors saying the tool is flapping (down and up by turns)", learnt.kind(Reading.Kind.FLAPPING), n, r.kind() == Reading.Kind.FLAPPING, tool, text);
        exact("timeout", Sign.TIMEOUTS, "time-outs naming a longer timeout or a job to run", learnt.kind(Reading.Kind.TIMEOUT), n, r.kind() == Reading.Kind.TIMEOUT, tool, text);
        exact("dependency", Sign.DEPENDENCY_ERRORS, "errors naming an earlier call to redo first", learnt.kind(Reading.Kind.DEPENDENCY), n, r.kind() == Reading.Kind.DEPENDENCY, tool, text);
        exact("quota", Sign.RATE_LIMITED, "rate-limit errors naming how long to wait (Retry-After)", learnt.kind(Reading.Kind.QUOTA), n, r.kind() == Reading.Kind.QUOTA, tool, text);
        test("auth", Sign.AUTH_ERRORS, Map.of(), "authentication errors", learnt.kind(Reading.Kind.AUTH), n, r.kind() == Reading.Kind.AUTH, tool, text);
        exact("retired", Sign.RETIRED_ERRORS, "errors saying the tool is retired", learnt.kind(Reading.Kind.RETIRED), n, r.kind() == Reading.Kind.RETIRED, tool, text);
        exact("withdrawn", Sign.WITHDRAWAL_NOTICE, "notices that tools were withdrawn", learnt.kind(Reading.Kind.WITHDRAWN), n, r.kind() == Reading.Kind.WITHDRAWN, tool, text);
        test("failure-as-success", Sign.RESULTS_AS_PROSE, Map.of(), "failures shaped as successes", learnt.kind(Reading.Kind.FAILURE_AS_SUCCESS), n,
                r.kind() == Reading.Kind.FAILURE_AS_SUCCESS, tool, text);
        test("errors", Sign.MORE_ERRORS, Map.of(), "errors", learnt.otherErrors(), n, r.error() && r.kind() == Reading.Kind.PLAIN, tool, text);
    }

    /**
     * Wording the server states outright (a tool retired or withdrawn, an instruction to the agent): where the baseline
     * never held it, its first appearance is the event; where it did, its rate is tested as any other.
     */
    private void exact(String id, Sign sign, String detail, int baseCount, int baseCalls, boolean hit, String tool, String text) {
        if (baseCount > 0) {
            test(id, sign, Map.of(), detail, baseCount, baseCalls, hit, tool, text);
            return;
        }
        Indicator ind = indicators.computeIfAbsent(id, k -> new Indicator(sign, Map.of(), detail, 0, baseCalls));
        if (!hit || ind.fired) return;
        ind.fired = true;
        ind.hits++;
        ObjectNode after = Json.object("hits", 1, "calls", calls, "example", text == null ? "" : text.length() > 300 ? text.substring(0, 300) + "..." : text);
        after.putArray("tools").add(tool);
        raise(new Event(Instant.now(), new Change(Change.kindOf(sign), sign, tool, detail + " (never in the baseline's " + baseCalls + " calls)",
                Json.object("rate", 0.0, "calls", baseCalls), after, Map.of()), calls, Double.POSITIVE_INFINITY, alpha));
    }

    private void test(String id, Sign sign, Map<String, String> params, String detail, int baseCount, int baseCalls, boolean hit, String tool, String text) {
        Indicator ind = indicators.computeIfAbsent(id, k -> new Indicator(sign, params, detail, baseCount, baseCalls));
        if (hit) {
            ind.tools.add(tool);
            if (ind.example == null) ind.example = text == null ? "" : text.length() > 300 ? text.substring(0, 300) + "..." : text;
        }
        if (ind.add(hit, Math.log(1 / alpha))) {
            ind.fired = true;
            ObjectNode before = Json.object("rate", round(ind.p0), "calls", baseCalls);
            ObjectNode after = Json.object("hits", ind.hits, "calls", calls, "example", ind.example);
            ind.tools.forEach(after.putArray("tools")::add);
            Change c = new Change(Change.kindOf(sign), sign, String.join(",", ind.tools), detail, before, after, ind.params);
            raise(new Event(Instant.now(), c, calls, ind.sum, alpha));
        }
    }

    private static double round(double x) { return Math.round(x * 1e5) / 1e5; }

    private void raise(Event e) {
        events.add(e);
        sink.accept(e);
    }

    public synchronized List<Event> events() { return List.copyOf(events); }

    public synchronized int calls() { return calls; }

    /**
     * The shifts the events point to, most likely first: each event gives each shift it names 1/(1+rank), rank 0
     * for the nearest; ties go to the catalog's order.
     */
    public synchronized List<String> ranking() {
        Map<String, Double> score = new LinkedHashMap<>();
        for (Event e : events) {
            List<Shift> near = e.change().shifts();
            for (int i = 0; i < near.size(); i++) score.merge(near.get(i).id(), 1.0 / (1 + i), Double::sum);
        }
        return score.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder())).map(Map.Entry::getKey).toList();
    }
}
