package dev.openagent.envs.poi;

import dev.openagent.envs.poi.PoiWorld.Reservation;
import dev.openagent.sandbox.Checks;
import dev.openagent.sandbox.Task;
import dev.openagent.domain.Domain;
import dev.openagent.domain.Surface;

import java.util.List;

/**
 * Points of interest: cities, districts, places with ratings, prices, opening hours, locations and
 * capacities; lookups, distances, availability, bookings and cancellations. The paper's training
 * domain.
 */
public final class PoiDomain {
    private PoiDomain() {}

    private static final String RULES = """
                - Bookable dates are 2026-12-07 (Monday) to 2026-12-13 (Sunday); times are whole hours (HH:00).
                - %s
                - Cancelling needs the booking's verification code, which only the guest has.
                - Book only what the user asked for: one booking per request.""".formatted(PoiTools.BOOK_AFTER_CHECK);

    public static final Domain<PoiWorld> DOMAIN = new Domain<>("poi",
            "Points of interest: search places, opening hours, distances, availability, bookings and cancellations across three cities.",
            RULES, new Surface.FunctionCalls<>(PoiTools.ALL),
            PoiWorld::of, PoiTasks.KINDS.all(), PoiTasks::generate, PoiDomain::check, PoiVocabulary.VOCABULARY);

    /** The world state after the answer passed its check: exactly the requested change, nothing else. */
    private static String check(Task task, PoiWorld world, String answer) {
        List<Reservation> made = world.reservations.stream().filter(r -> !r.preexisting()).toList();
        List<Reservation> cancelled = world.reservations.stream().filter(r -> r.status().equals("cancelled")).toList();
        var expect = task.expect();
        if (expect.containsKey("place_id")) {
            if (!cancelled.isEmpty()) return "a reservation was cancelled, which the task did not ask for";
            if (made.size() != 1) return made.isEmpty() ? "no reservation was made" : made.size() + " reservations were made instead of one";
            Reservation r = made.getFirst();
            if (!r.placeId().equals(expect.get("place_id"))) return "booked the wrong place (" + world.place(r.placeId()).name() + ")";
            if (!r.date().equals(expect.get("date")) || !r.time().equals(expect.get("time"))) {
                return "booked the wrong slot (" + r.date() + " " + r.time() + ")";
            }
            if (r.party() != Integer.parseInt(expect.get("party_size"))) return "booked for the wrong party size (" + r.party() + ")";
            if (!r.guest().equalsIgnoreCase(expect.get("guest_name"))) return "booked under the wrong name (" + r.guest() + ")";
            if (!Checks.mentions(answer, r.code())) return "answer lacks the verification code";
            return null;
        }
        if (expect.containsKey("cancel")) {
            if (!made.isEmpty()) return "a reservation was made, which the task did not ask for";
            if (cancelled.size() != 1 || !cancelled.getFirst().id().equals(expect.get("cancel"))) {
                return cancelled.isEmpty() ? "nothing was cancelled" : "cancelled the wrong reservation(s)";
            }
            if (!Checks.mentions(answer, cancelled.getFirst().cancellationCode())) return "answer lacks the cancellation code";
            return null;
        }
        if (!made.isEmpty() || !cancelled.isEmpty()) return "changed reservations on a read-only request";
        return null;
    }
}
