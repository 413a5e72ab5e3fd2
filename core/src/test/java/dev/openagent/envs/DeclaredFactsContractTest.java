package dev.openagent.envs;

import dev.openagent.registry.Environments;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.AgentSession;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.domain.Domain;
import dev.openagent.domain.DomainEnv;
import dev.openagent.domain.Surface;
import dev.openagent.sandbox.Alternative;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.RecordLookup;
import dev.openagent.sandbox.ToolFacts;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.domain.Tool;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What every environment declares for shifts is true (docs/adding-an-environment.md): every kind of
 * task has a realistic impossible variant, most tasks a domain-specific longer chain, and the records,
 * other paths and prerequisites its tools declare are true of the environment's own tools.
 */
class DeclaredFactsContractTest {
    static List<String> ids() { return Environments.ids(); }

    static List<String> functionCall() {
        return Environments.all().stream().filter(e -> e.info().iface() == Interface.FUNCTION_CALL).map(Environment::id).toList();
    }

    @ParameterizedTest
    @MethodSource("ids")
    void everyKindOfTaskHasARealisticImpossibleVariant(String id) {
        Env env = ShiftSpec.parseStack("task.unsolvable").apply(Environments.get(id).create());
        Map<String, Integer> kinds = new TreeMap<>();
        for (long seed = 0; seed < 200; seed++) {
            Start start = env.reset(new TaskRequest(seed % 2 == 0 ? Split.TEST : Split.TRAIN, seed, 0));
            String reason = env.task().plan().answerTemplate();
            assertFalse(reason.startsWith("This service has no"), id + " " + env.task().kind() + " falls back to removing the capability: " + start.query());
            assertFalse(env.task().solvable());
            assertTrue(start.query().length() > 20);
            kinds.merge(env.task().kind(), 1, Integer::sum);
        }
        assertTrue(kinds.size() >= 7, id + ": every kind is seen: " + kinds);
    }

    @ParameterizedTest
    @MethodSource("ids")
    void mostTasksReachTheirEntityThroughADomainSpecificChain(String id) {
        Env env = ShiftSpec.parseStack("logic.longer-chain").apply(Environments.get(id).create());
        int own = 0;
        int n = 200;
        for (long seed = 0; seed < n; seed++) {
            Start start = env.reset(new TaskRequest(Split.TEST, seed, 0));
            if (!start.query().startsWith("Please handle my support ticket")) own++;
        }
        assertTrue(own >= n / 2, id + ": " + own + " of " + n + " tasks get the environment's own longer chain");
    }

    /** The fields a lookup declares come back from its tool with the values the list showed. */
    @ParameterizedTest
    @MethodSource("functionCall")
    void recordLookupsGiveBackTheFieldsTheyDeclare(String id) {
        int checked = 0;
        for (long seed = 0; seed < 60; seed++) {
            checked += oracleEpisode(id, seed, (domain, world, facts, call, result) -> {
                int n = 0;
                for (Iterator<Map.Entry<String, JsonNode>> it = result.fields(); it.hasNext(); ) {
                    JsonNode list = it.next().getValue();
                    if (!list.isArray()) continue;
                    for (JsonNode item : list) {
                        String idKey = firstId(item);
                        if (idKey == null) continue;
                        Optional<RecordLookup> l = facts.lookup(idKey);
                        if (l.isEmpty()) continue;
                        ObjectNode args = Json.object();
                        args.put(l.get().param(), item.get(idKey).asText());
                        JsonNode record = run(domain, world, l.get().tool(), args);
                        for (String f : l.get().fields()) {
                            if (item.has(f)) assertEquals(item.get(f), record.get(f), id + ": " + l.get().tool() + " gives back " + f + " of " + item);
                        }
                        n++;
                    }
                }
                return n;
            });
        }
        assertTrue(checked > 50, id + ": lookups were exercised: " + checked);
    }

    /** The environments that declare another path to a tool (written down here, not read from their facts). */
    static List<String> withOtherPaths() { return List.of("poi", "medical", "retail"); }

    @ParameterizedTest
    @MethodSource("functionCall")
    void otherPathsAreDeclaredWhereWrittenDown(String id) {
        assertEquals(withOtherPaths().contains(id), !facts(id).alternatives().isEmpty(), id + " declares other paths: " + facts(id).alternatives().keySet());
    }

    /** Another path to a tool gives exactly what the tool gives, on the calls the tasks make. */
    @ParameterizedTest
    @MethodSource("withOtherPaths")
    void otherPathsGiveWhatTheRemovedToolGives(String id) {
        int[] compared = {0};
        for (long seed = 0; seed < 150; seed++) {
            oracleEpisode(id, seed, (domain, world, facts, call, result) -> {
                Alternative alt = facts.alternatives().get(call.tool());
                if (alt == null) return 0;
                List<JsonNode> results = new ArrayList<>();
                for (GoldPlan.Call c = alt.next().apply(call.args(), List.of()); c != null; c = alt.next().apply(call.args(), List.copyOf(results))) {
                    assertTrue(alt.uses().contains(c.tool()), c.tool() + " is declared");
                    results.add(run(domain, world, c.tool(), c.resolve(results)));
                }
                assertEquals(result, alt.result().apply(call.args(), results), id + ": the other path to " + call.tool() + " " + call.args());
                compared[0]++;
                return 1;
            });
        }
        assertTrue(compared[0] > 3, id + ": other paths were compared: " + compared[0]);
    }

    @ParameterizedTest
    @MethodSource("functionCall")
    void prerequisitesAndRecordsNameRealTools(String id) {
        Environment e = Environments.get(id);
        Domain<?> d = ((DomainEnv<?>) e.create()).domain();
        EnvFacts facts = facts(id);
        for (EnvFacts.Prerequisite p : facts.prerequisites()) {
            assertTrue(e.info().tools().contains(p.before()) && e.info().tools().contains(p.after()), p.toString());
            assertTrue(d.rules().contains(p.before()), id + ": the rules state the order " + p);
        }
        Env env = e.create();
        Map<String, ToolSpec> specs = new TreeMap<>();
        env.reset(new TaskRequest(Split.TEST, 0, 0)).tools().forEach(t -> specs.put(t.name(), t));
        for (ToolFacts t : facts.tools()) {
            assertTrue(specs.containsKey(t.tool()), id + ": facts of a tool it does not have: " + t.tool());
            for (RecordLookup r : t.records()) {
                assertEquals(t.tool(), r.tool());
                assertTrue(specs.get(t.tool()).parameters().path("properties").has(r.param()), id + ": " + r + " names a parameter of " + t.tool());
            }
            if (t.undoes() != null) {
                assertTrue(specs.containsKey(t.undoes()), id + ": " + t.tool() + " undoes a tool it does not have: " + t.undoes());
                assertFalse(facts.readOnlyTools().contains(t.undoes()), id + ": " + t.tool() + " undoes a read-only tool");
            }
            if (t.sends() != null) {
                assertTrue(specs.containsKey(t.sends().made()), id + ": " + t.tool() + " sends the code of a tool it does not have: " + t.sends().made());
                assertFalse(facts.readOnlyTools().contains(t.sends().made()), id + ": " + t.tool() + " sends the code of a read-only tool");
                for (String p : List.of(t.sends().code(), t.sends().to())) {
                    assertTrue(specs.get(t.tool()).parameters().path("properties").has(p), id + ": " + t.tool() + " sends with a parameter it lacks: " + p);
                }
            }
        }
        facts.alternatives().forEach((tool, alt) -> {
            assertTrue(e.info().tools().contains(tool));
            alt.uses().forEach(u -> assertTrue(e.info().tools().contains(u), u));
        });
    }

    // ---------------------------------------------------------------- helpers

    /** The facts of an environment in one of its episodes. */
    private static EnvFacts facts(String id) {
        Env env = Environments.get(id).create();
        env.reset(new TaskRequest(Split.TEST, 0, 0));
        return env.facts();
    }

    interface CallCheck {
        /** Checks one plan call about to be made on this world, with the result the tool gives; returns how many things it checked. */
        int check(Domain<Object> domain, Object world, EnvFacts facts, GoldPlan.Call call, JsonNode result);
    }

    /** Runs the oracle on a base episode; before each read-only call, hands it and its result (run on the world) to the check. */
    private static int oracleEpisode(String id, long seed, CallCheck check) {
        DomainEnv<?> env = (DomainEnv<?>) Environments.get(id).create();
        return episode(env, seed, check);
    }

    @SuppressWarnings("unchecked")
    private static <W> int episode(DomainEnv<W> env, long seed, CallCheck check) {
        Domain<Object> domain = (Domain<Object>) (Domain<?>) env.domain();
        Start start = env.reset(new TaskRequest(seed % 2 == 0 ? Split.TEST : Split.TRAIN, seed, 0));
        AgentSession oracle = new OracleAgent().begin(start, env);
        int n = 0;
        Step last = null;
        do {
            Action a = oracle.act(last);
            if (a instanceof Action.CallTools c) {
                for (Action.ToolCall call : c.calls()) {
                    if (!env.facts().readOnlyTools().contains(call.name())) continue;
                    ObjectNode args = (ObjectNode) Json.parse(call.arguments());
                    n += check.check(domain, env.world(), env.facts(), new GoldPlan.Call(call.name(), args), run(domain, env.world(), call.name(), args));
                }
            }
            last = env.step(a);
            for (Observation o : last.observations()) if (o.isError()) fail("oracle error " + o.text());
        } while (!last.done());
        return n;
    }

    private static <W> JsonNode run(Domain<W> domain, W world, String tool, ObjectNode args) {
        for (Tool<W> t : ((Surface.FunctionCalls<W>) domain.surface()).tools()) {
            if (t.name().equals(tool)) return t.behaviour().call(world, t.params().validate(args));
        }
        throw new AssertionError("no tool " + tool);
    }

    private static String firstId(JsonNode item) {
        for (Iterator<String> it = item.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (k.endsWith("_id") && item.get(k).isTextual()) return k;
        }
        return null;
    }
}
