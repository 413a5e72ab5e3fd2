package dev.openagent.envs.household;

import dev.openagent.envs.household.HouseholdWorld.Layout;
import dev.openagent.envs.household.HouseholdWorld.Receptacle;
import dev.openagent.envs.household.HouseholdWorld.Thing;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.Commands;
import dev.openagent.sandbox.Chain;
import dev.openagent.sandbox.Task;
import dev.openagent.domain.TaskKind;
import dev.openagent.domain.DomainEnv;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static dev.openagent.envs.EnvTesting.answerWith;
import static dev.openagent.envs.EnvTesting.assertAnswerFails;
import static dev.openagent.envs.EnvTesting.assertRewrittenAnswerFails;
import static dev.openagent.envs.EnvTesting.hasRepeats;
import static dev.openagent.envs.EnvTesting.assertEveryLayoutPosesEveryDifficulty;
import static dev.openagent.envs.EnvTesting.assertSameTwice;
import static dev.openagent.envs.EnvTesting.assertSplitsShareNoNames;
import static dev.openagent.envs.EnvTesting.command;
import static dev.openagent.envs.EnvTesting.requestFor;
import static dev.openagent.envs.EnvTesting.runTampered;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HouseholdTest {
    private DomainEnv<HouseholdWorld> env;
    private Start start;

    @BeforeEach
    void setUp() {
        env = new DomainEnv<>(HouseholdDomain.DOMAIN);
        start = env.reset(new TaskRequest(Split.TEST, 42, 1));
    }

    private HouseholdWorld w() { return env.world(); }

    // ---------------------------------------------------------------- interface

    @Test
    void startOffersNoToolsAndCommandsOnlyViaHelp() {
        assertTrue(start.tools().isEmpty());
        assertEquals(Interface.TEXT_COMMAND, env.info().iface());
        assertFalse(start.systemPrompt().contains("go to <room>"), "commands are not in the prompt");
        assertTrue(start.systemPrompt().contains("help"));
        Observation help = command(env, "help");
        assertFalse(help.isError());
        for (String verb : HouseholdCommands.VERBS) assertTrue(help.text().contains(verb), verb);
        assertTrue(help.text().contains("ask <question>"), "the protocol's way to ask the user is listed");
        assertTrue(start.systemPrompt().contains("'ask <your question>'"));
        Observation reply = command(env, "ask which mug do you mean?");
        assertEquals(Observation.Source.USER, reply.source());
        assertFalse(reply.isError());
        assertTrue(command(env, "ask").isError());
        assertEquals(Observation.Source.ENV, help.source());
    }

    // ---------------------------------------------------------------- generator

    @Test
    void housesAreDeterministicAndSplitsShareNoThingNames() {
        assertSameTwice(() -> HouseholdWorld.generate(Split.TRAIN, 7), Layout::rooms, Layout::receptacles, Layout::things);
        assertSplitsShareNoNames(HouseholdWorld.LAYOUTS, 60, (l, names) -> l.things().forEach(t -> names.add(t.name())));
    }

    @Test
    void housesHaveTwinsAndRepeatedFurnitureNames() {
        Layout l = w().layout();
        assertTrue(hasRepeats(l.things(), t -> t.kind().name()), "two things of one kind in different colours");
        assertTrue(hasRepeats(l.receptacles(), Receptacle::name), "furniture of one name in two rooms (a sink, a shelf...)");
        assertEquals("hallway", l.rooms().getFirst());
    }

    /** Every cached layout of both splits can pose a task at every difficulty (kinds fall back to siblings, never fail). */
    @Test
    void everyLayoutPosesATaskAtEveryDifficulty() {
        assertEveryLayoutPosesEveryDifficulty(HouseholdWorld.LAYOUTS, (l, i) -> new HouseholdWorld(l), HouseholdTasks::generate);
    }

    /** The kinds the domain declares are the kinds its tasks carry, each at its declared difficulty, and every one is posed. */
    @Test
    void tasksAreOfTheDeclaredKindsAtTheirDifficulties() {
        Map<String, Integer> declared = new TreeMap<>();
        for (TaskKind<HouseholdWorld, ?> k : HouseholdDomain.DOMAIN.kinds()) declared.put(k.name(), k.difficulty());
        assertEquals(List.of(1, 2, 3, 4), env.info().difficulties());
        Set<String> seen = new TreeSet<>();
        for (long seed = 0; seed < 200; seed++) {
            env.reset(new TaskRequest(Split.TEST, seed, 0));
            Task task = env.task();
            assertEquals(declared.get(task.kind()), task.difficulty(), task.kind());
            seen.add(task.kind());
        }
        assertEquals(declared.keySet(), seen);
    }

    /**
     * A question about where a thing is can only ask for a thing the house lacks; a count, or a search the
     * request does not locate, only for a place it lacks. A request that names no place is not restated
     * through a landmark; one that does usually is.
     */
    @Test
    void kindsAreMadeImpossibleAndLongerOnlyWhereTheirRequestsAllow() {
        int landmarks = 0;
        for (long seed = 0; seed < 120; seed++) {
            env.reset(new TaskRequest(Split.TEST, seed, 0));
            Task task = env.task();
            Optional<Task> impossible = env.facts().unsolvable(task, seed);
            assertTrue(impossible.isPresent(), task.kind() + ": " + task.query());
            boolean noSuchThing = impossible.get().plan().answerTemplate().endsWith("in this house.");
            if (task.kind().equals("find_location")) assertTrue(noSuchThing, impossible.get().plan().answerTemplate());
            if (task.kind().equals("count_in_container") || task.kind().equals("find_transform_place")) {
                assertFalse(noSuchThing, impossible.get().plan().answerTemplate());
            }
            Optional<Chain> longer = env.facts().longerChain(task, seed, 1);
            if (task.kind().equals("find_location")) assertTrue(longer.isEmpty(), task.query());
            else if (longer.isPresent()) {
                assertTrue(longer.get().query().contains(" in the room where the "), longer.get().query());
                landmarks++;
            }
        }
        assertTrue(landmarks > 60, "requests restated through a landmark: " + landmarks);
    }

    // ---------------------------------------------------------------- commands

    @Test
    void lookGoOpenTakePutAndInventory() {
        assertTrue(command(env, "look").text().startsWith("You are in the hallway."));
        Observation kitchen = command(env, "Go to the Kitchen.");
        assertTrue(kitchen.text().startsWith("You are in the kitchen."), kitchen.text());
        assertTrue(kitchen.text().contains("fridge (closed)"));
        Observation opened = command(env, "open fridge");
        assertFalse(opened.isError());
        assertTrue(command(env, "open fridge").isError(), "already open");
        assertTrue(command(env, "look").text().contains("fridge (open)"));
        int fridge = receptacle("kitchen", "fridge");
        Thing inside = thingIn(fridge);
        if (inside != null) {
            assertTrue(opened.text().contains(inside.name()));
            assertFalse(command(env, "take " + inside.name() + " from fridge").isError());
            assertTrue(command(env, "inventory").text().contains(inside.name()));
            assertTrue(command(env, "take " + inside.name()).isError(), "already holding it");
            assertFalse(command(env, "put " + inside.name() + " on countertop").isError());
            assertEquals(receptacle("kitchen", "countertop"), w().loc[inside.index()]);
        }
        assertFalse(command(env, "close fridge").isError());
        assertTrue(command(env, "put nothing in fridge").isError());
    }

    @Test
    void heatingCoolingAndCleaningChangeState() {
        Thing mug = null;
        for (long seed = 0; mug == null; seed++) {
            env.reset(new TaskRequest(Split.TEST, seed, 1));
            for (Thing t : w().layout().things()) if (mug == null && t.kind().heat() && t.kind().cool() && t.kind().clean()) mug = t;
        }
        fetch(mug);
        command(env, "go to kitchen");
        Observation heated = command(env, "heat " + mug.name() + " with microwave");
        assertFalse(heated.isError(), heated.text());
        assertEquals(HouseholdWorld.HOT, w().state[mug.index()]);
        assertFalse(command(env, "cool " + mug.name() + " with fridge").isError());
        assertEquals(HouseholdWorld.COLD, w().state[mug.index()], "cooling undoes heating");
        assertFalse(command(env, "clean " + mug.name() + " with sink").isError());
        assertEquals(HouseholdWorld.COLD | HouseholdWorld.CLEAN, w().state[mug.index()]);
        assertTrue(command(env, "examine " + mug.name()).text().contains("cold, clean"));
        assertTrue(command(env, "heat " + mug.name() + " with sink").isError(), "a sink does not heat");
        assertTrue(command(env, "heat " + mug.name() + " with countertop").isError());
    }

    @Test
    void ambiguousAndAbsentNamesAreExplained() {
        command(env, "go to kitchen");
        Observation which = command(env, "open cabinet");
        long cabinets = w().layout().receptacles().stream().filter(r -> r.base().equals("cabinet") && r.room() == w().room).count();
        if (cabinets > 1) {
            assertEquals(ToolError.Code.INVALID_ARGUMENTS, which.error().code());
            assertTrue(which.text().contains("cabinet 1"));
        }
        assertEquals(ToolError.Code.DOMAIN, command(env, "open bathtub").error().code(), "no bathtub in the kitchen");
        assertEquals(ToolError.Code.DOMAIN, command(env, "take unicorn").error().code());
        assertEquals(ToolError.Code.DOMAIN, command(env, "go to attic").error().code());
    }

    @Test
    void badCommandsAreErrorsNeverExceptions() {
        assertEquals(ToolError.Code.INVALID_ARGUMENTS, command(env, "").error().code());
        assertEquals(ToolError.Code.INVALID_ARGUMENTS, command(env, "   \t ").error().code());
        assertEquals(ToolError.Code.INVALID_ARGUMENTS, command(env, "take " + "x".repeat(5000)).error().code());
        assertEquals(ToolError.Code.UNKNOWN_TOOL, command(env, "dance wildly").error().code());
        assertEquals(ToolError.Code.INVALID_ARGUMENTS, command(env, "take").error().code());
        assertEquals(ToolError.Code.INVALID_ARGUMENTS, command(env, "put mug").error().code());
        assertEquals(ToolError.Code.INVALID_ARGUMENTS, command(env, "heat mug").error().code());
        assertEquals(ToolError.Code.INVALID_ARGUMENTS, command(env, "go").error().code());
        assertEquals(ToolError.Code.INVALID_ARGUMENTS, command(env, "examine").error().code());
        assertTrue(command(env, "put in on").isError());
        assertTrue(command(env, "take from from from").isError());
        assertTrue(command(env, "\u0000\u0001 ?!").isError());
        Step calls = env.step(Action.CallTools.of("c1", "take", "{\"item\": \"mug\"}"));
        assertEquals(ToolError.Code.UNSUPPORTED_ACTION, calls.observations().getFirst().error().code());
        assertEquals("c1", calls.observations().getFirst().callId());
    }

    @Test
    void normalisationDropsArticlesCaseAndPunctuation() {
        assertEquals("take red mug from countertop", Commands.normalize("  Take the RED mug from a countertop. "));
        assertEquals("go to living room", Commands.normalize("go to the living room!"));
        assertEquals("", Commands.normalize(" the a an "));
    }

    @Test
    void theStepLimitEndsTheEpisode() {
        Step last = null;
        for (int i = 0; i < 60 && (last == null || !last.done()); i++) last = env.step(new Action.Command("look"));
        assertTrue(last.done());
        assertEquals(dev.openagent.sandbox.Outcome.End.STEP_LIMIT, last.outcome().end());
    }

    // ---------------------------------------------------------------- checker

    @Test
    void completionCodeIsShownOnlyWhenTheGoalIsReached() {
        TaskRequest r = requestFor(env, "pick_and_place", 1, Split.TRAIN);
        Trajectory t = runTampered(env, r, a -> a);
        assertTrue(t.success());
        String code = w().code;
        assertTrue(t.messages().stream().filter(m -> m.content() != null && m.content().contains(code)).count() >= 2,
                "the house shows the code and the answer carries it");
        assertRewrittenAnswerFails(env, r, s -> "Done.", "completion code");
    }

    @Test
    void undoingTheGoalOrMovingOtherThingsFails() {
        TaskRequest r = requestFor(env, "pick_and_place", 1, Split.TEST);
        env.reset(r);
        Step last = null;
        dev.openagent.sandbox.Guide guide = env.guide();
        Action a;
        while (!((a = guide.next(last)) instanceof Action.Answer)) last = env.step(a);
        String answer = ((Action.Answer) a).text();
        int goalThing = w().goal.things()[0];
        Receptacle target = w().receptacle(w().goal.target());
        // Take the thing back out: the goal no longer holds.
        assertFalse(command(env, "take " + w().thing(goalThing).name() + " from " + target.name()).isError());
        Step end = env.step(new Action.Answer(answer));
        assertFalse(end.outcome().success());
        assertTrue(end.outcome().detail().contains("goal is not reached") || end.outcome().detail().contains("moved"), end.outcome().detail());

        env.reset(r);
        guide = env.guide();
        last = null;
        while (!((a = guide.next(last)) instanceof Action.Answer)) last = env.step(a);
        Thing other = visibleOther(goalThing);
        assertNotNull(other, "something else is in sight at the end");
        {
            Receptacle at = w().receptacle(w().loc[other.index()]);
            assertFalse(command(env, "take " + other.name() + " from " + at.name()).isError());
            end = env.step(new Action.Answer(((Action.Answer) a).text()));
            assertFalse(end.outcome().success(), "holding a thing nobody asked to move");
            assertTrue(end.outcome().detail().contains(other.name()));
        }
    }

    @Test
    void questionsFailWhenTheHouseChanges() {
        TaskRequest r = requestFor(env, "find_location", 4, Split.TRAIN);
        assertTrue(runTampered(env, r, a -> a).success());
        env.reset(r);
        String right = String.join(" in the ", env.task().mustContain());
        Thing thing = null;
        for (Thing t : w().layout().things()) {
            Receptacle rec = w().receptacle(t.start());
            if (thing == null && !rec.openable() && rec.room() > 0) thing = t;
        }
        command(env, "go to " + w().layout().rooms().get(w().receptacle(thing.start()).room()));
        assertFalse(command(env, "take " + thing.name() + " from " + w().receptacle(thing.start()).name()).isError());
        assertAnswerFails(env, "It is on the " + right, "question");
        env.reset(r);
        if (!env.task().mustNotContain().isEmpty()) {
            Step wrong = env.step(new Action.Answer("It is in the " + env.task().mustNotContain().getFirst() + " " + right));
            assertFalse(wrong.outcome().success(), "naming where a twin is");
        }
    }

    @Test
    void tasksCarryDetailsAndGoalsByKind() {
        for (long seed = 0; seed < 60; seed++) {
            env.reset(new TaskRequest(Split.TEST, seed, 0));
            var task = env.task();
            if (task.writes()) assertNotNull(w().goal, task.kind());
            else assertNull(w().goal, task.kind());
            assertFalse(task.details().isEmpty(), task.kind());
            assertEquals("help", task.plan().calls().getFirst().args().get("text").asText(), "the oracle starts by asking for help");
        }
    }

    // ---------------------------------------------------------------- helpers

    private int receptacle(String room, String name) {
        for (Receptacle r : w().layout().receptacles()) if (r.name().equals(name) && w().layout().rooms().get(r.room()).equals(room)) return r.index();
        throw new AssertionError(name + " in " + room);
    }

    private Thing thingIn(int receptacle) {
        for (Thing t : w().layout().things()) if (w().loc[t.index()] == receptacle) return t;
        return null;
    }

    private Thing visibleOther(int except) {
        for (Thing t : w().layout().things()) if (t.index() != except && w().visible(t.index()) && w().loc[t.index()] >= 0) return t;
        return null;
    }

    private void fetch(Thing t) {
        Receptacle r = w().receptacle(t.start());
        command(env, "go to " + w().layout().rooms().get(r.room()));
        if (r.openable()) command(env, "open " + r.name());
        Observation took = command(env, "take " + t.name() + " from " + r.name());
        assertFalse(took.isError(), took.text());
    }
}
