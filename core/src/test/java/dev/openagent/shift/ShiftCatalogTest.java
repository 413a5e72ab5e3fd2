package dev.openagent.shift;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.registry.Environments;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.envs.poi.PoiDomain;
import dev.openagent.envs.poi.PoiWorld;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.SimulatedUser;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Step;
import dev.openagent.domain.Domain;
import dev.openagent.domain.DomainEnv;
import dev.openagent.shift.domain.DomainTransfer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ShiftCatalogTest {
    /** The catalog of the design brief (and wave 2's shifts, issue 18; issue 38's): id, tier, dimension. */
    static final Map<String, String> DESIGN = Map.ofEntries(
            Map.entry("query.paraphrase", "perception Q"), Map.entry("query.noise", "perception Q"),
            Map.entry("query.redundant", "perception Q"), Map.entry("tool.name-noise", "perception A"),
            Map.entry("tool.identity-erasure", "perception A"), Map.entry("tool.semantic-rename", "perception A"),
            Map.entry("tool.semantic-trap", "perception A"), Map.entry("tool.distractors", "perception A"),
            Map.entry("tool.schema-noise", "perception A"), Map.entry("obs.format", "interaction O"),
            Map.entry("obs.missing-values", "interaction O"), Map.entry("obs.nonstandard-feedback", "interaction O"),
            Map.entry("obs.runtime-error", "interaction O"), Map.entry("obs.redirect", "interaction O"),
            Map.entry("obs.pagination", "interaction O"), Map.entry("action.verification-change", "interaction A"),
            Map.entry("logic.inversion", "reasoning A"), Map.entry("logic.extra-prerequisite", "reasoning A"),
            Map.entry("logic.conflict", "reasoning O"), Map.entry("logic.longer-chain", "reasoning Q"),
            Map.entry("query.underspecified", "reasoning Q"), Map.entry("query.ambiguous", "reasoning Q"),
            Map.entry("domain.transfer", "internalization D"), Map.entry("task.unsolvable", "internalization D"),
            Map.entry("domain.policy-update", "internalization D"), Map.entry("tool.removal", "internalization A"),
            Map.entry("tool.set-change", "interaction A"), Map.entry("obs.schema-drift", "interaction O"),
            Map.entry("obs.auth-expiry", "interaction O"), Map.entry("obs.malformed-output", "interaction O"),
            Map.entry("interface.action-list", "interaction A"), Map.entry("query.intent-drift", "reasoning Q"),
            Map.entry("obs.injection", "security O"), Map.entry("tool.poisoned-description", "security A"),
            // issue 38: the shifts the field reports next
            Map.entry("tool.bare", "perception A"), Map.entry("obs.type-drift", "interaction O"),
            Map.entry("obs.quota-exhausted", "interaction O"), Map.entry("query.noisy-user", "reasoning Q"),
            Map.entry("obs.stale-data", "interaction O"),
            Map.entry("obs.flapping", "interaction O"), Map.entry("obs.latency", "interaction O"),
            Map.entry("obs.cascading-failure", "interaction O"), Map.entry("tool.crowded", "perception A"));

    @Test
    void theCatalogIsTheDesignTable() {
        Map<String, String> got = ShiftCatalog.all().stream()
                .collect(Collectors.toMap(Shift::id, s -> s.tier().id() + " " + s.dimension()));
        assertEquals(DESIGN, got);
    }

    @Test
    void theDocsShowEveryShift() throws java.io.IOException {
        String docs = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "shifts.md"));
        for (Shift s : ShiftCatalog.all()) {
            assertTrue(docs.contains("### `" + s.id() + "`"), s.id() + " has a before/after section in docs/shifts.md");
            assertTrue(docs.contains("| `" + s.id() + "` |"), s.id() + " is in the catalog table of docs/shifts.md");
        }
    }

    @Test
    void everyShiftWithAMagnitudeHasThreeSeverityLevels() {
        Set<String> binary = Set.of("query.ambiguous", "logic.inversion", "task.unsolvable", "domain.transfer");
        for (Shift s : ShiftCatalog.all()) {
            var severity = s.params().stream().filter(p -> p.name().equals("severity")).findFirst();
            assertEquals(!binary.contains(s.id()), severity.isPresent(), s.id());
            // The action list also takes 0, today's behaviour (the commands only on help).
            List<String> levels = s.id().equals("interface.action-list") ? List.of("0", "1", "2", "3") : List.of("1", "2", "3");
            severity.ifPresent(p -> assertEquals(levels, p.values(), s.id()));
        }
    }

    @Test
    void askUserIsNeverRenamedRemovedOrPerturbed() {
        for (String id : ShiftExpectations.applicable("poi")) {
            Shift s = ShiftCatalog.get(id);
            for (int sev = 1; sev <= 3; sev++) {
                String spec = s.params().stream().anyMatch(p -> p.name().equals("severity")) ? s.id() + ":severity=" + sev : s.id();
                Env env = ShiftSpec.parseStack(spec).apply(Environments.get("poi").create());
                for (long seed = 0; seed < 10; seed++) {
                    Start start = env.reset(new TaskRequest(Split.TEST, seed, 0));
                    List<ToolSpec> asks = start.tools().stream().filter(t -> t.name().equals(Protocol.ASK_USER)).toList();
                    assertEquals(List.of(Protocol.ASK_USER_TOOL), asks, spec);
                }
            }
        }
    }

    /** Where each shift applies is what ShiftExpectations pins, environment by environment; a registered environment not pinned fails. */
    @Test
    void applicabilityIsPinnedEnvironmentByEnvironment() {
        Map<String, Set<String>> pinned = ShiftExpectations.applies();
        assertEquals(ShiftCatalog.all().stream().map(Shift::id).toList(), List.copyOf(pinned.keySet()),
                "ShiftExpectations.APPLIES lists every shift of the catalog once, in its order");
        Set<String> mentioned = pinned.values().stream().flatMap(Set::stream).collect(Collectors.toSet());
        assertEquals(Set.copyOf(Environments.ids()), mentioned, "every registered environment is pinned, and only those");
        for (Environment e : Environments.all()) {
            for (Shift s : ShiftCatalog.all()) {
                Optional<String> why = s.notApplicable(e.info());
                assertEquals(pinned.get(s.id()).contains(e.id()), why.isEmpty(), s.id() + " on " + e.id() + ": " + why.orElse("applies"));
            }
        }
    }

    @Test
    void textCommandEnvironmentsAreToldWhyAShiftDoesNotApply() {
        EnvironmentInfo text = Environments.get("household").info();
        ShiftCatalog.all().forEach(s -> s.notApplicable(text).ifPresent(why -> assertTrue(why.startsWith("not for text-command environments: ")
                && why.length() > 60, s.id() + ": " + why)));
        assertTrue(ShiftCatalog.all().stream().anyMatch(s -> s.notApplicable(text).isPresent()));
    }

    @Test
    void domainTransferCrossesInterfacesAndTheLayersAboveItAreJudgedOnTheTarget() {
        Shift transfer = ShiftCatalog.get("domain.transfer");
        assertTrue(transfer.notApplicable(Environments.get("household").info()).isEmpty(), "auto takes an environment of another interface");
        assertEquals("poi", transfer.environmentAfter(Environments.get("household").info(), Map.of("to", "auto")).id());
        assertEquals("medical", transfer.environmentAfter(Environments.get("poi").info(), Map.of("to", "auto")).id(), "the paper's POI -> medical");
        assertTrue(ShiftSpec.parseStack("domain.transfer:to=medical+obs.missing-values").notApplicable(Environments.get("household").info()).isEmpty());
        String why = ShiftSpec.parseStack("domain.transfer:to=household+logic.inversion").notApplicable(Environments.get("poi").info()).orElseThrow();
        assertTrue(why.startsWith("logic.inversion") && why.endsWith("(on household)"), why);
        Env env = ShiftSpec.parseStack("domain.transfer:to=household").apply(Environments.get("poi").create());
        Start start = env.reset(new TaskRequest(Split.TEST, 3, 0));
        assertTrue(start.tools().isEmpty(), "a function-call agent now faces text commands");
        assertEquals(Interface.TEXT_COMMAND, env.info().iface());
        assertEquals("household", env.spec().env());
    }

    @Test
    void composedStacksAreInCanonicalOrderWhateverOrderTheyWereWrittenIn() {
        ShiftStack ab = ShiftSpec.parseStack("obs.format:format=xml+query.noise");
        ShiftStack ba = ShiftSpec.parseStack("query.noise+obs.format:format=xml");
        assertEquals(ab.label(), ba.label());
        assertEquals("query.noise+obs.format:format=xml", ab.label());
        Env env = ab.apply(Environments.get("poi").create());
        env.reset(new TaskRequest(Split.TEST, 1, 0));
        assertEquals(List.of("query.noise", "obs.format"), env.spec().shifts().stream().map(r -> r.id()).toList());
        assertEquals("query.noise:severity=2+obs.format:format=xml,severity=2", env.spec().shiftSpec());
    }

    @Test
    void underspecifiedRequestsLackTheDetailAndTheUserKnowsIt() {
        Env env = ShiftSpec.parseStack("query.underspecified:severity=1").apply(Environments.get("poi").create());
        for (long seed = 0; seed < 30; seed++) {
            Start start = env.reset(new TaskRequest(Split.TEST, seed, 3));
            Task base = ((dev.openagent.sandbox.EnvWrapper) env).inner().task();
            Task shifted = env.task();
            assertNotEquals(base.query(), start.query());
            var gone = base.details().stream().filter(d -> !start.query().contains(d.span())).toList();
            assertEquals(1, gone.size(), start.query());
            Step reply = env.step(new Action.AskUser(ShiftedQuestions.about(gone.getFirst())));
            assertEquals(gone.getFirst().reply(), reply.observations().getFirst().text());
            Step other = env.step(new Action.AskUser("What is your favourite colour?"));
            assertEquals(SimulatedUser.DONT_KNOW, other.observations().getFirst().text());
            assertTrue(shifted.userFacts().containsValue(gone.getFirst().reply()));
        }
    }

    @Test
    void ambiguousRequestsMatchSeveralPlaces() {
        Env env = ShiftSpec.parseStack("query.ambiguous").apply(Environments.get("poi").create());
        int ambiguous = 0;
        for (long seed = 0; seed < 60; seed++) {
            Start start = env.reset(new TaskRequest(Split.TEST, seed, 1));
            Task base = ((dev.openagent.sandbox.EnvWrapper) env).inner().task();
            if (start.query().equals(base.query())) continue;
            ambiguous++;
            var city = base.details().stream().filter(d -> d.ambiguousWithout()).findFirst().orElseThrow();
            assertFalse(start.query().contains(city.span()), start.query());
        }
        assertTrue(ambiguous >= 15, "single-place lookups mostly have a twin elsewhere: " + ambiguous);
    }

    static final dev.openagent.episode.Agent REFUSER = new dev.openagent.episode.Agent() {
        public String name() { return "refuser"; }
        public dev.openagent.episode.AgentSession begin(Start start, Env env) { return last -> new Action.Refuse("no"); }
    };

    @Test
    void answeringAnUnsolvableTaskNeverScores() {
        Env env = ShiftSpec.parseStack("task.unsolvable").apply(Environments.get("poi").create());
        StaticReplayAgent sloppy = new StaticReplayAgent();
        for (long seed = 0; seed < 80; seed++) {
            Trajectory t = Episodes.run(env, sloppy, new TaskRequest(Split.TEST, seed, 0));
            assertFalse(t.solvable());
            assertFalse(t.success(), "an answer to an unsolvable task fails: " + t.taskId());
            Trajectory refused = Episodes.run(env, REFUSER, new TaskRequest(Split.TEST, seed, 0));
            assertTrue(refused.success());
        }
    }

    @Test
    void unsolvableVariantsAreRealisticAndVaried() {
        Env env = ShiftSpec.parseStack("task.unsolvable").apply(Environments.get("poi").create());
        Set<String> kinds = new java.util.TreeSet<>();
        for (long seed = 0; seed < 120; seed++) {
            Start start = env.reset(new TaskRequest(Split.TEST, seed, 0));
            Task base = ((dev.openagent.sandbox.EnvWrapper) env).inner().task();
            assertNotEquals(base.query(), start.query(), "the request itself changes");
            String reason = env.task().plan().answerTemplate();
            kinds.add(reason.startsWith("There is no place") ? "missing place" : reason.contains("outside the bookable week") ? "outside week"
                    : reason.contains("has no booking") ? "never booked" : reason.contains("does not cover") ? "unknown city" : reason);
        }
        assertEquals(Set.of("missing place", "outside week", "never booked", "unknown city"), kinds);
    }

    /** A poi twin under another id, declaring nothing: the honest target for domain.transfer until a second environment lands. */
    static Environment twin() {
        Domain<PoiWorld> poi = PoiDomain.DOMAIN;
        Domain<PoiWorld> u = poi.undeclared("poi-twin");
        return Environments.of(new Domain<>("poi-twin", "poi under another id", u.rules(), u.surface(),
                (split, seed) -> poi.world(split, seed + 1), u.kinds(), (w, r, seed) -> poi.task(w, r, seed + 1), poi.checker(), u.vocabulary()));
    }

    @Test
    void domainTransferSwapsInTheTasksOfAnotherEnvironment() {
        Environment poi = Environments.get("poi");
        Environment other = twin();
        Shift transfer = DomainTransfer.shift(id -> id.equals("poi") ? Optional.of(poi) : id.equals("poi-twin") ? Optional.of(other) : Optional.empty(),
                () -> List.of("poi", "poi-twin"));
        assertTrue(transfer.notApplicable(poi.info()).isEmpty());
        Env env = transfer.wrap(poi.create(), Map.of("to", "poi-twin"));
        OracleAgent oracle = new OracleAgent();
        for (long seed = 0; seed < 40; seed++) {
            Trajectory t = Episodes.run(env, oracle, new TaskRequest(Split.TEST, seed, 0));
            assertTrue(t.success());
            assertEquals("poi-twin", t.env());
            assertEquals(List.of("domain.transfer"), t.shifts().stream().map(r -> r.id()).toList());
            Trajectory source = Episodes.run(poi.create(), oracle, new TaskRequest(Split.TEST, seed, 0));
            assertNotEquals(source.messages().get(1), t.messages().get(1), "the tasks are the other environment's");
        }
        assertThrows(IllegalArgumentException.class, () -> transfer.wrap(poi.create(), Map.of("to", "poi")));
        assertThrows(IllegalArgumentException.class, () -> transfer.wrap(poi.create(), Map.of("to", "nowhere")));
    }

    @Test
    void domainTransferDoesNotApplyWithoutAnotherEnvironment() {
        Environment poi = Environments.get("poi");
        Shift alone = DomainTransfer.shift(id -> id.equals("poi") ? Optional.of(poi) : Optional.empty(), () -> List.of("poi"));
        assertEquals(Optional.of("no other environment is registered besides poi"), alone.notApplicable(poi.info()));
        assertThrows(IllegalArgumentException.class, () -> alone.wrap(poi.create(), Map.of("to", "auto")));
        assertTrue(ShiftCatalog.get("domain.transfer").notApplicable(poi.info()).isEmpty(), "the registry has other environments");
    }

    /** The generic fallbacks hold on every function-call environment: pairs from the plan, unused tools, tickets, no capability. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"medical", "retail", "travel"})
    void theGenericFallbacksKeepEveryTaskSolvableOrRefusable(String id) {
        Domain<?> plain = ((DomainEnv<?>) Environments.get(id).create()).domain().undeclared(id + "-plain");
        for (String spec : List.of("logic.inversion", "tool.removal:severity=3", "logic.longer-chain", "task.unsolvable")) {
            Env env = ShiftSpec.parseStack(spec).apply(new DomainEnv<>(plain));
            for (long seed = 0; seed < 40; seed++) {
                Trajectory t = Episodes.run(env, new OracleAgent(), new TaskRequest(Split.TEST, seed, 0));
                assertTrue(t.success(), id + " " + spec + " " + t.taskId() + ": " + t.outcome());
            }
        }
    }

    @Test
    void theGenericFallbackOfUnsolvableRemovesTheNeededCapability() {
        Domain<PoiWorld> plain = PoiDomain.DOMAIN.undeclared("plain");
        Env env = ShiftSpec.parseStack("task.unsolvable").apply(new DomainEnv<>(plain));
        for (long seed = 0; seed < 20; seed++) {
            Start start = env.reset(new TaskRequest(Split.TEST, seed, 0));
            Task base = ((dev.openagent.sandbox.EnvWrapper) env).inner().task();
            Set<String> shown = start.tools().stream().map(ToolSpec::name).collect(Collectors.toSet());
            base.plan().calls().forEach(c -> assertFalse(shown.contains(c.tool()), c.tool() + " is gone"));
            assertTrue(Episodes.run(env, new OracleAgent(), new TaskRequest(Split.TEST, seed, 0)).success());
        }
    }

    /** A spec with a line break (or any control character) is one line naming it, not an error message echoed across lines. */
    @Test
    void aControlCharacterInASpecIsRefusedInOneLine() {
        for (String spec : new String[] {"query.noise\n;all", "tool.semantic-rename+\tobs.format", "none;query.noise\u2028"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ShiftSpec.expand(spec));
            assertTrue(e.getMessage().startsWith("shift spec has a control character (U+"), e.getMessage());
            assertFalse(e.getMessage().contains("\n") || e.getMessage().contains("\u2028"), e.getMessage());
        }
    }
}
