package dev.openagent.envs.poi;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.AgentSession;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.domain.DomainEnv;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checker: right answers pass; missing values, near misses and wrong or extra state changes fail. */
class PoiCheckerTest {
    private final DomainEnv<PoiWorld> env = new DomainEnv<>(PoiDomain.DOMAIN);

    /** Plays the oracle up to (not including) its final answer; returns that answer. */
    private String playUntilAnswer(String kind, int difficulty) {
        for (long seed = 0; seed < 500; seed++) {
            env.reset(new TaskRequest(Split.TEST, seed, difficulty));
            if (!env.task().kind().equals(kind)) continue;
            AgentSession oracle = new OracleAgent().begin(null, env);
            Step last = null;
            while (true) {
                Action a = oracle.act(last);
                if (a instanceof Action.Answer answer) return answer.text();
                last = env.step(a);
            }
        }
        throw new AssertionError("no " + kind + " task in 500 seeds");
    }

    private Outcome answer(String text) {
        Step s = env.step(new Action.Answer(text));
        assertTrue(s.done());
        return s.outcome();
    }

    @Test
    void theOraclesAnswerPassesAndAVagueOneFails() {
        String right = playUntilAnswer("phone_lookup", 2);
        assertTrue(answer(right).success());
        playUntilAnswer("phone_lookup", 2);
        Outcome vague = answer("I found the place, it has a phone.");
        assertFalse(vague.success());
        assertTrue(vague.detail().contains("lacks"), vague.detail());
    }

    @Test
    void namingTheNearMissFails() {
        for (long seed = 0; seed < 500; seed++) {
            env.reset(new TaskRequest(Split.TEST, seed, 2));
            Task t = env.task();
            if (!t.kind().equals("phone_lookup") || t.mustNotContain().isEmpty()) continue;
            String hedge = "It is " + t.mustContain().getFirst() + " or maybe " + t.mustNotContain().getFirst();
            Outcome o = answer(hedge);
            assertFalse(o.success());
            assertTrue(o.detail().contains("wrong"), o.detail());
            return;
        }
        throw new AssertionError("no phone lookup with a twin");
    }

    @Test
    void bookingIsCheckedOnWorldStateAndTheCode() {
        String right = playUntilAnswer("book_table", 3);
        String withoutCode = right.replaceAll("V[A-Z2-9]{6}", "");
        Outcome noCode = answer(withoutCode);
        assertFalse(noCode.success());
        assertEquals("answer lacks the verification code", noCode.detail());
    }

    @Test
    void aSecondBookingOrAWrongPlaceFails() {
        playUntilAnswer("book_table", 3);
        Task t = env.task();
        PoiWorld w = env.world();
        var made = w.reservations().getFirst();
        // Book the same slot again under the same name: two reservations instead of one.
        var p = w.place(made.placeId());
        w.book(p, made.date(), made.time(), made.party(), made.guest());
        Outcome twice = answer("Booked. Verification code: " + made.code());
        assertFalse(twice.success());
        assertTrue(twice.detail().contains("2 reservations"), twice.detail());
        assertNotNull(t.expect().get("place_id"));
    }

    @Test
    void cancellingTheWrongBookingFails() {
        playUntilAnswer("cancel_booking", 2);
        // Undo the oracle's cancellation and cancel another of the guest's bookings instead.
        PoiWorld w = env.world();
        String target = env.task().expect().get("cancel");
        List<PoiWorld.Reservation> all = new ArrayList<>(w.reservations());
        for (var r : all) {
            if (r.id().equals(target)) w.replace(new PoiWorld.Reservation(r.id(), r.placeId(), r.date(), r.time(), r.party(), r.guest(), r.code(), "confirmed", true, null));
            else if (r.status().equals("confirmed")) {
                w.replace(r.cancelled("XAAAAAA"));
                break;
            }
        }
        Outcome o = answer("Cancelled, code XAAAAAA");
        assertFalse(o.success());
        assertEquals("cancelled the wrong reservation(s)", o.detail());
    }

    @Test
    void aReadOnlyRequestThatBooksFails() {
        String right = playUntilAnswer("rating_lookup", 1);
        PoiWorld w = env.world();
        var p = w.places().stream().filter(x -> x.category().reservable).findFirst().orElseThrow();
        w.book(p, PoiWorld.DATES.get(1), "12:00", 2, "Someone Else");
        Outcome o = answer(right);
        assertFalse(o.success());
        assertEquals("changed reservations on a read-only request", o.detail());
    }

    @Test
    void refusingASolvableTaskIsAFalseRefusal() {
        env.reset(new TaskRequest(Split.TEST, 3, 1));
        Step s = env.step(new Action.Refuse("no"));
        assertTrue(s.done());
        assertFalse(s.outcome().success());
        assertEquals(Outcome.End.REFUSED, s.outcome().end());
        assertEquals(0.0, s.reward());
    }
}
