package dev.openagent.shift;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.ShiftExpectations.Rule;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static dev.openagent.shift.StaticCalls.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The mechanisms agents rely on, shift by shift, on every function-call environment at every severity: each
 * static episode is driven call by call under the shift (the oracle's static arguments, the same world), and
 * what the agent is shown is checked against what the shift documents (docs/shifts.md, the class comments):
 * the data behind a changed result is the static data, and following the documented steps gets it back.
 */
class ShiftMechanismsTest {
    /** Episodes per environment and severity. */
    static final int EPISODES = 30;

    static Stream<Arguments> envsAndSeverities() {
        return ShiftsBiteTest.functionCall().stream().flatMap(e -> Stream.of(1, 2, 3).map(s -> Arguments.of(e, s)));
    }

    static Env shifted(String env, String spec) {
        return ShiftSpec.parseStack(spec).apply(Environments.get(env).create());
    }

    static Optional<ToolSpec> shown(Start start, String tool) {
        return start.tools().stream().filter(t -> t.name().equals(tool)).findFirst();
    }

    // ---------------------------------------------------------------- obs.pagination

    /**
     * A read tool's list longer than a page comes a page at a time: the first page carries {@code page},
     * {@code total_pages} and {@code next_page_token}; calling the tool with {@code page_token} alone gives the
     * next page, until the token is null; the pages together are the static list, in order, and the result's
     * other fields are on every page. A bad token, or a token of another tool, is answered with an error that
     * names it. Every other result is the static one. (Mutations tried: a page one item short; the last page
     * with a next token; a bad token forwarded to the tool.)
     */
    @ParameterizedTest(name = "{0} severity {1}")
    @MethodSource("envsAndSeverities")
    void paginationServesEveryItemOfALongListPageByPage(String envId, int severity) {
        int size = switch (severity) { case 1 -> 5; case 2 -> 3; default -> 2; };
        Env env = shifted(envId, "obs.pagination:severity=" + severity);
        int paged = 0;
        int episodes = 0;
        // Long lists are rare in the oracle's static episodes (a lookup names one record): episodes until 5 were paged.
        for (StaticCalls.Driven d : StaticCalls.under(Environments.get(envId), env, 1000)) {
            if (paged == 5) break;
            episodes++;
            StaticCalls s = d.statics();
            Start start = d.start();
            assertTrue(start.systemPrompt().contains("(" + size + " items per page)"), start.systemPrompt());
            for (StaticCalls.Call c : s.calls()) {
                Observation o = call(env, c);
                Optional<String> list = longList(c.payload(), size);
                boolean readOnly = env.facts().tool(c.tool()).map(t -> t.readOnly()).orElse(false);
                if (!readOnly) {
                    // A tool that writes is never paged and takes no page token.
                    assertFalse(shown(start, c.tool()).orElseThrow().parameters().path("properties").has("page_token"), envId + ": " + c.tool() + " writes");
                }
                if (c.result().isError() || o.payload() == null || !o.payload().has("total_pages")) {
                    assertTrue(list.isEmpty() || c.result().isError() || !readOnly, envId + ": a read tool's long list is paged: " + c.tool() + " " + o.text());
                    assertEquals(c.result().text(), o.text(), envId + ": a result that is not paged is the static one");
                    continue;
                }
                paged++;
                String field = list.get();
                JsonNode all = c.payload().get(field);
                int pages = (all.size() + size - 1) / size;
                ToolSpec spec = shown(start, c.tool()).orElseThrow();
                assertTrue(spec.parameters().path("properties").has("page_token"), c.tool() + " documents page_token: " + spec.parameters());
                assertFalse(Json.write(spec.parameters().path("required")).contains("page_token"), "page_token is optional");
                ArrayNode items = Json.NODES.arrayNode();
                JsonNode page = o.payload();
                for (int k = 1; ; k++) {
                    assertEquals(k, page.path("page").asInt(), page.toString());
                    assertEquals(pages, page.path("total_pages").asInt(), page.toString());
                    assertEquals(k < pages ? size : all.size() - (pages - 1) * size, page.path(field).size(), page.toString());
                    page.path(field).forEach(items::add);
                    for (var e : c.payload().properties()) {
                        if (!e.getKey().equals(field)) assertEquals(e.getValue(), page.get(e.getKey()), "every page keeps the result's other fields: " + e.getKey());
                    }
                    JsonNode token = page.path("next_page_token");
                    if (k == pages) {
                        assertTrue(token.isNull(), "the last page has no next token: " + page);
                        break;
                    }
                    assertTrue(token.isTextual() && !token.asText().isBlank(), page.toString());
                    Observation next = call(env, c.tool(), Json.write(Json.object("page_token", token.asText())));
                    assertFalse(next.isError(), next.text());
                    page = next.payload();
                }
                assertEquals(all, items, envId + " " + c.tool() + ": the pages together are the whole list, in order");
                Observation bad = call(env, c.tool(), Json.write(Json.object("page_token", "pg_nosuchpage")));
                assertTrue(bad.isError() && bad.error().code() == ToolError.Code.INVALID_ARGUMENTS, bad.text());
                assertTrue(bad.text().contains("'pg_nosuchpage'") && bad.text().contains("page_token") && bad.text().contains(c.tool()), bad.text());
                String other = start.tools().stream().map(ToolSpec::name).filter(n -> !n.equals(c.tool()) && !n.equals("ask_user")).findFirst().orElseThrow();
                Observation elsewhere = call(env, other, Json.write(Json.object("page_token", o.payload().path("next_page_token").asText())));
                assertTrue(elsewhere.isError() && elsewhere.text().contains(other), "a token belongs to its tool: " + elsewhere.text());
            }
        }
        assertEquals(5, paged, envId + " severity " + severity + ": long lists paged in " + episodes + " episodes");
    }

    /** The first top-level array field longer than a page, as the shift pages it. */
    static Optional<String> longList(JsonNode payload, int size) {
        if (!(payload instanceof ObjectNode o)) return Optional.empty();
        for (var e : o.properties()) if (e.getValue().isArray() && e.getValue().size() > size) return Optional.of(e.getKey());
        return Optional.empty();
    }

    // ---------------------------------------------------------------- action.verification-change

    private static final Pattern CONFIRMATION = Pattern.compile("CF-\\d{6}");

    /**
     * A result that issues a code shows none: it has {@code confirmation_required} and a
     * {@code confirmation_id} instead (and, at severity 2 and up, a {@code challenge} word); the documented
     * confirm tool releases the codes for that id (and challenge), whole at severities 1-2, as two parts at 3
     * that joined are the code. An unknown id, a missing or wrong challenge are refused without a code. Every
     * other result is the static one. (Mutations tried: the code left in the result; the challenge not checked
     * at severity 2; parts split so that they do not join to the code.)
     */
    @ParameterizedTest(name = "{0} severity {1}")
    @MethodSource("envsAndSeverities")
    void verificationCodesAreWithheldUntilTheDocumentedConfirm(String envId, int severity) {
        Env env = shifted(envId, "action.verification-change:severity=" + severity);
        int withheld = 0;
        for (StaticCalls.Driven d : StaticCalls.under(Environments.get(envId), env, EPISODES)) {
            StaticCalls s = d.statics();
            Start start = d.start();
            ToolSpec confirm = start.tools().stream().filter(t -> t.name().startsWith("confirm_") && shown(s.start(), t.name()).isEmpty())
                    .findFirst().orElseThrow(() -> new AssertionError("no confirm tool: " + start.tools()));
            List<String> required = new ArrayList<>();
            confirm.parameters().path("required").forEach(x -> required.add(x.asText()));
            assertEquals(severity >= 2 ? List.of("confirmation_id", "challenge") : List.of("confirmation_id"), required);
            assertTrue(start.systemPrompt().contains("call " + confirm.name() + " with its confirmation_id"), start.systemPrompt());
            for (StaticCalls.Call c : s.calls()) {
                Observation o = call(env, c);
                Map<String, String> codes = new LinkedHashMap<>();
                if (!c.result().isError() && c.payload() instanceof ObjectNode p) {
                    p.properties().forEach(e -> { if (e.getKey().toLowerCase(java.util.Locale.ROOT).endsWith("code") && e.getValue().isTextual()) codes.put(e.getKey(), e.getValue().asText()); });
                }
                if (codes.isEmpty()) {
                    assertEquals(c.result().text(), o.text(), envId + ": a result without a code is the static one");
                    continue;
                }
                withheld++;
                for (String code : codes.values()) assertFalse(o.text().contains(code), "the code is withheld: " + o.text());
                JsonNode p = o.payload();
                assertTrue(p.path("confirmation_required").asBoolean(), o.text());
                String id = p.path("confirmation_id").asText();
                assertTrue(CONFIRMATION.matcher(id).matches(), o.text());
                String challenge = p.path("challenge").asText(null);
                assertEquals(severity >= 2, challenge != null, o.text());
                for (var e : c.payload().properties()) {
                    if (!codes.containsKey(e.getKey())) assertEquals(e.getValue(), p.get(e.getKey()), "the rest of the result is kept: " + e.getKey());
                }
                refusedWithoutCode(env, confirm.name(), Json.object("confirmation_id", "CF-000000", "challenge", "amber"), codes, "unknown confirmation_id");
                if (severity >= 2) {
                    refusedWithoutCode(env, confirm.name(), Json.object("confirmation_id", id), codes, "challenge does not match");
                    String wrong = challenge.equals("orbit") ? "quartz" : "orbit";
                    refusedWithoutCode(env, confirm.name(), Json.object("confirmation_id", id, "challenge", wrong), codes, "challenge does not match");
                }
                ObjectNode args = Json.object("confirmation_id", id);
                if (severity >= 2) args.put("challenge", challenge);
                Observation released = call(env, confirm.name(), Json.write(args));
                assertFalse(released.isError(), released.text());
                assertEquals("confirmed", released.payload().path("status").asText(), released.text());
                for (var e : codes.entrySet()) {
                    if (severity < 3) {
                        assertEquals(e.getValue(), released.payload().path(e.getKey()).asText(), released.text());
                    } else {
                        String one = released.payload().path(e.getKey() + "_part_1").asText("");
                        String two = released.payload().path(e.getKey() + "_part_2").asText("");
                        assertTrue(!one.isEmpty() && !two.isEmpty() && !released.payload().has(e.getKey()), released.text());
                        assertEquals(e.getValue(), one + two, "part 1 directly followed by part 2 is the code: " + released.text());
                    }
                }
            }
        }
        assertTrue(withheld >= 3, envId + " severity " + severity + ": only " + withheld + " results issued a code in " + EPISODES + " episodes");
    }

    private static void refusedWithoutCode(Env env, String tool, ObjectNode args, Map<String, String> codes, String says) {
        Observation o = call(env, tool, Json.write(args));
        assertTrue(o.isError() && o.text().contains(says), o.text());
        for (String code : codes.values()) assertFalse(o.text().contains(code), o.text());
    }

    // ---------------------------------------------------------------- domain.policy-update

    /**
     * The rules in force are listed in the system prompt and on each parameter they govern (its description
     * quotes the rule); a call with a governed value in the old form is refused with the rule quoted and never
     * reaches the service; the same call in the new form gets the static result (the meaning is unchanged).
     * At most {@code severity} rules. (Mutations tried: the old form accepted; the refusal not quoting the rule;
     * a new-form date converted back with day and month swapped.)
     */
    @ParameterizedTest(name = "{0} severity {1}")
    @MethodSource("envsAndSeverities")
    void policyUpdateRefusesOldFormsQuotingThePolicyAndAcceptsNewOnes(String envId, int severity) {
        Env env = shifted(envId, "domain.policy-update:severity=" + severity);
        int fit = fitting(Environments.get(envId));
        int refused = 0;
        Set<Rule> seen = new HashSet<>();
        for (StaticCalls.Driven d : StaticCalls.under(Environments.get(envId), env, EPISODES)) {
            StaticCalls s = d.statics();
            Start start = d.start();
            Map<Rule, String> rules = Rule.inForce(start);
            assertEquals(Math.min(severity, fit), rules.size(), "as many rules as the severity, of those that fit: " + start.systemPrompt());
            seen.addAll(rules.keySet());
            Map<String, Rule> governed = Rule.governed(start);
            assertEquals(rules.isEmpty(), governed.isEmpty(), "a rule in force governs some parameter: " + rules);
            for (StaticCalls.Call c : s.calls()) {
                ObjectNode args = StaticCalls.args(c);
                ObjectNode fresh = args.deepCopy();
                Map<String, Rule> old = new LinkedHashMap<>();
                for (var e : args.properties()) {
                    Rule rule = governed.get(c.tool() + "/" + e.getKey());
                    if (rule == null || !e.getValue().isTextual()) continue;
                    if (rule.old(e.getValue().asText())) old.put(e.getKey(), rule);
                    fresh.put(e.getKey(), rule.old(e.getValue().asText()) ? rule.fresh(e.getValue().asText()) : e.getValue().asText());
                }
                if (!old.isEmpty()) {
                    refused++;
                    Observation o = call(env, c);
                    assertTrue(o.isError() && o.error().code() == ToolError.Code.DOMAIN, o.text());
                    String param = o.text().substring(o.text().indexOf('\'') + 1, o.text().indexOf('\'', o.text().indexOf('\'') + 1));
                    assertTrue(old.containsKey(param), "the refusal names a parameter in the old form: " + o.text());
                    assertTrue(o.text().contains(rules.get(old.get(param))), "the refusal quotes the policy: " + o.text());
                }
                Observation o = call(env, c.tool(), Json.write(fresh));
                assertEquals(c.result().text(), o.text(), envId + " " + c.tool() + " " + fresh + ": the new form means what the old one meant");
            }
        }
        assertTrue(refused >= 3, envId + " severity " + severity + ": only " + refused + " calls in the old form in " + EPISODES + " episodes");
        assertEquals(fit, seen.size(), envId + ": every rule that fits is drawn: " + seen);
    }

    /** How many rules fit the environment's tools: dates and times by parameter name, person names as the environment declares them. */
    static int fitting(Environment environment) {
        Env env = environment.create();
        Start start = env.reset(StaticCalls.request(0));
        Set<Rule> fit = new HashSet<>();
        for (ToolSpec t : start.tools()) {
            t.parameters().path("properties").fieldNames().forEachRemaining(p -> {
                if (p.equals("date") || p.endsWith("_date")) fit.add(Rule.DATE);
                if (p.equals("time") || p.endsWith("_time")) fit.add(Rule.TIME);
                if (env.facts().personName(t.name(), p)) fit.add(Rule.NAME);
            });
        }
        return fit.size();
    }

    // ---------------------------------------------------------------- logic.conflict

    private static final Set<String> STALE = Set.of("partner_feed", "community_cache", "legacy_mirror");

    /**
     * The system prompt names the registry as authoritative; a result that lists sources has exactly one
     * registry source, and its data is the static result, at every severity. The other sources differ as
     * documented: one partial source (ids, names and what it says differently) at severities 1-2, in a third
     * and two thirds of the results, after the registry at 1 and in either order at 2; two full stale
     * sources claiming to be newer, in every result, in any order, at 3; of the values a source can change
     * ({@link #changeable}) they change one (1), about a third (2), about half (3), and always one at least. (Mutations tried: the registry's data corrupted; the stale
     * sources claiming older dates at severity 3; every result given sources at severity 1.)
     */
    @ParameterizedTest(name = "{0} severity {1}")
    @MethodSource("envsAndSeverities")
    void conflictKeepsTheTruthInTheAuthoritativeSource(String envId, int severity) {
        Env env = shifted(envId, "logic.conflict:severity=" + severity);
        int results = 0;
        int merged = 0;
        int registryFirst = 0;
        double differing = 0;
        double compared = 0;
        for (StaticCalls.Driven d : StaticCalls.under(Environments.get(envId), env, EPISODES)) {
            StaticCalls s = d.statics();
            Start start = d.start();
            assertTrue(start.systemPrompt().contains("the 'registry' source is authoritative"), start.systemPrompt());
            for (StaticCalls.Call c : s.calls()) {
                Observation o = call(env, c);
                if (c.result().isError() || c.payload() == null) {
                    assertEquals(c.result().text(), o.text());
                    continue;
                }
                results++;
                if (!o.payload().has("sources")) {
                    assertEquals(c.result().text(), o.text(), "a result without sources is the static one");
                    continue;
                }
                merged++;
                JsonNode sources = o.payload().get("sources");
                assertEquals(severity == 3 ? 3 : 2, sources.size(), o.text());
                List<JsonNode> registry = new ArrayList<>();
                sources.forEach(x -> { if (x.path("source").asText().equals("registry")) registry.add(x); });
                assertEquals(1, registry.size(), o.text());
                assertEquals(c.payload(), registry.getFirst().path("data"), "the registry holds the true values");
                if (sources.get(0).path("source").asText().equals("registry")) registryFirst++;
                Set<String> truth = new HashSet<>(StaticCalls.leaves(c.payload()));
                int canChange = changeable(c.payload());
                for (JsonNode x : sources) {
                    if (x == registry.getFirst()) continue;
                    assertTrue(STALE.contains(x.path("source").asText()), x.toString());
                    boolean newer = x.path("updated").asText().compareTo(registry.getFirst().path("updated").asText()) > 0;
                    assertEquals(severity == 3, newer, "stale sources claim to be newer at severity 3 only: " + o.text());
                    List<String> leaves = StaticCalls.leaves(x.path("data"));
                    long differ = leaves.stream().filter(l -> !truth.contains(l)).count();
                    assertEquals(canChange > 0, differ >= 1, "a stale source differs wherever a value can: " + o.text());
                    if (severity == 3) assertEquals(truth.size(), leaves.size(), "a full source at severity 3");
                    if (severity == 1 && canChange > 0) assertEquals(1, differ, "one value differs at severity 1: " + o.text());
                    differing += differ;
                    compared += canChange;
                }
            }
        }
        double share = (double) merged / results;
        double[] expected = {0.34, 0.67, 1.0};
        assertEquals(expected[severity - 1], share, severity == 3 ? 0 : 0.15, envId + ": " + merged + " of " + results + " results list sources");
        if (severity == 1) assertEquals(merged, registryFirst, "the registry comes first at severity 1");
        else assertTrue(registryFirst > 0 && registryFirst < merged, "the sources come in either order: registry first in " + registryFirst + " of " + merged);
        if (severity >= 2) {
            double want = severity == 2 ? 0.34 : 0.5;
            assertEquals(want, differing / compared, 0.1, envId + ": the share of the values they can change that the stale sources change");
        }
    }

    /**
     * How many values of a result a stale source can change, as documented: numbers and booleans, text with
     * a digit (a code, a phone number), and text of a field that has another value elsewhere in the result.
     */
    static int changeable(JsonNode payload) {
        Map<String, Set<String>> values = new LinkedHashMap<>();
        collect(payload, values);
        int[] n = {0};
        count(payload, null, values, n);
        return n[0];
    }

    private static void collect(JsonNode v, Map<String, Set<String>> values) {
        if (v.isObject()) v.properties().forEach(e -> {
            if (e.getValue().isTextual()) values.computeIfAbsent(e.getKey(), k -> new HashSet<>()).add(e.getValue().asText());
            collect(e.getValue(), values);
        });
        else if (v.isArray()) v.forEach(x -> collect(x, values));
    }

    private static void count(JsonNode v, String key, Map<String, Set<String>> values, int[] n) {
        if (v.isObject()) v.properties().forEach(e -> count(e.getValue(), e.getKey(), values, n));
        else if (v.isArray()) v.forEach(x -> count(x, null, values, n));
        else if (v.isNumber() || v.isBoolean() || v.isTextual() && (v.asText().chars().anyMatch(Character::isDigit)
                || key != null && values.getOrDefault(key, Set.of()).size() > 1)) n[0]++;
    }

    // ---------------------------------------------------------------- obs.redirect

    private static final Pattern GONE = Pattern.compile("410 Gone: '([^']+)' was retired .* Use '([^']+)' instead");

    /**
     * A retired tool answers 410 Gone naming its replacement; the replacement, called with the same arguments,
     * gives the static result under its own name. The tools the task needs first are retired, as many as the
     * severity; at 1 the retired tool's description says so and names the replacement, at 2 it is listed as
     * before beside the replacement, at 3 the replacement is not listed. (Mutations tried: the replacement
     * forwarding to another tool; the error naming no replacement; the replacement listed at severity 3.)
     */
    @ParameterizedTest(name = "{0} severity {1}")
    @MethodSource("envsAndSeverities")
    void redirectNamesAReplacementThatWorks(String envId, int severity) {
        Env env = shifted(envId, "obs.redirect:severity=" + severity);
        for (StaticCalls.Driven d : StaticCalls.under(Environments.get(envId), env, EPISODES)) {
            StaticCalls s = d.statics();
            Start start = d.start();
            Set<String> retired = new LinkedHashSet<>();
            for (StaticCalls.Call c : s.calls()) {
                Observation o = call(env, c);
                if (!o.isError() || c.result().isError()) {
                    assertEquals(c.result().text(), o.text(), envId + ": a tool that is not retired answers as before");
                    continue;
                }
                assertEquals(ToolError.Code.UNAVAILABLE, o.error().code(), o.text());
                Matcher m = GONE.matcher(o.text());
                assertTrue(m.find() && m.group(1).equals(c.tool()), o.text());
                String replacement = m.group(2);
                assertNotEquals(c.tool(), replacement);
                retired.add(c.tool());
                ToolSpec before = shown(s.start(), c.tool()).orElseThrow();
                ToolSpec old = shown(start, c.tool()).orElseThrow();
                Optional<ToolSpec> listed = shown(start, replacement);
                assertEquals(severity < 3, listed.isPresent(), "the replacement is listed below severity 3: " + replacement);
                listed.ifPresent(t -> {
                    assertEquals(before.description(), t.description());
                    assertEquals(before.parameters(), t.parameters(), "same parameters");
                });
                assertEquals(severity == 1 ? "Deprecated: use " + replacement + ". " + before.description() : before.description(), old.description());
                Observation works = call(env, replacement, c.call().arguments());
                assertFalse(works.isError(), works.text());
                assertEquals(replacement, works.tool());
                assertEquals(c.result().text(), works.text(), "the replacement returns the same result");
                Observation wrong = call(env, replacement, "{\"no_such_parameter\": 1}");
                assertTrue(wrong.isError() && !wrong.text().replace(replacement, "").contains(c.tool()), "its errors name the replacement: " + wrong.text());
            }
            List<String> planned = s.plannedTools();
            assertEquals(Math.min(severity, planned.size()), retired.size(), envId + " " + d.request() + ": retired " + retired + " of " + planned);
            assertTrue(planned.containsAll(retired));
        }
    }
}
