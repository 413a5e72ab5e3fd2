package dev.openagent.envs.poi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.domain.TaskKind;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.envs.poi.PoiWorld.Category;
import dev.openagent.envs.poi.PoiWorld.Place;
import dev.openagent.envs.poi.PoiWorld.Reservation;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.GoldPlan.Ref;

import java.util.List;
import java.util.Map;

import static dev.openagent.envs.kit.TaskDraft.ref;

/**
 * Bookings and cancellations. A booking is check_availability then make_reservation (the rule
 * {@link PoiTools#BOOK_AFTER_CHECK}): both are recorded, not run, since a successful check enables the
 * booking only the agent may make.
 */
final class PoiBookings {
    private PoiBookings() {}

    static final TaskKind<PoiWorld, PoiTasks> CANCEL = TaskKind.<PoiWorld, PoiTasks>of("cancel_booking", 2, PoiBookings::cancelBooking)
            .impossibleBy(PoiRestatements::neverBooked).longerBy(PoiRestatements::nearestLandmark);
    static final TaskKind<PoiWorld, PoiTasks> BOOK = TaskKind.<PoiWorld, PoiTasks>of("book_table", 3, PoiBookings::bookTable)
            .impossibleBy(PoiRestatements::missingPlace, PoiRestatements::outsideWeek).longerBy(PoiRestatements::nearestLandmark);
    static final TaskKind<PoiWorld, PoiTasks> CONSTRAINED = TaskKind.<PoiWorld, PoiTasks>of("constrained_booking", 4, PoiBookings::constrainedBooking)
            .impossibleBy(PoiRestatements::outsideWeek, PoiRestatements::unknownCity).longerBy(PoiRestatements::nearestLandmark);
    static final TaskKind<PoiWorld, PoiTasks> CLOSER = TaskKind.<PoiWorld, PoiTasks>of("closer_booking", 4, PoiBookings::closerBooking)
            .impossibleBy(PoiRestatements::outsideWeek).longerBy(PoiRestatements::nearestLandmark);

    private static boolean cancelBooking(PoiTasks g) {
        TaskDraft<PoiWorld> t = g.draft;
        PoiWorld w = g.w;
        Place p = g.pick(x -> x.category().reservable, true);
        String guest = PoiNames.guest(w.layout().split(), g.rnd);
        int day = openDay(g, p);
        int otherDay = openDay(g, p);
        while (otherDay == day) otherDay = openDay(g, p);
        Place other = g.pick(x -> x.category().reservable && x != p && x.city().equals(p.city()) && x.hours()[day] != null, false);
        // The target, a near miss at the same place on another day, and another place on the same day.
        Reservation target = w.addExisting(p, PoiWorld.DATES.get(day), PoiWorld.time(p.hours()[day][0] + 1), 2 + g.rnd.nextInt(4), guest);
        w.addExisting(p, PoiWorld.DATES.get(otherDay), PoiWorld.time(p.hours()[otherDay][0] + 2), 2 + g.rnd.nextInt(4), guest);
        w.addExisting(other, PoiWorld.DATES.get(day), PoiWorld.time(other.hours()[day][0]), 2 + g.rnd.nextInt(4), guest);
        JsonNode found = t.look("find_reservations", TaskDraft.args("guest_name", guest)).get("reservations");
        int k = TaskDraft.require(found, "reservation_id", target.id());
        t.commit("cancel_reservation", TaskDraft.args("verification_code", target.code()),
                Map.of("reservation_id", ref(0, "/reservations/" + k + "/reservation_id")));
        String date = PoiWorld.DATES.get(day);
        t.query = "Please cancel my booking at " + p.name() + " in " + p.city() + " on " + date + ". It is under the name "
                + guest + ", verification code " + target.code() + ". Tell me the cancellation code.";
        t.answer = "Your booking " + "{0:/reservations/" + k + "/reservation_id} is cancelled. Cancellation code: {1:/cancellation_code}.";
        t.expect.put("cancel", target.id());
        t.details.add(new Detail("date", " on " + date, "date|day|when|which booking|which one", "The one on " + date + ".", true));
        return true;
    }

    private static boolean bookTable(PoiTasks g) {
        for (int attempt = 0; ; attempt++) {
            Place p = g.pick(x -> x.category().reservable, true);
            int[] slot = freeSlot(g, p, 2 + g.rnd.nextInt(5));
            if (slot == null) {
                if (attempt < 50) continue;
                throw new IllegalStateException("no free slot for a booking task in this world");
            }
            int party = slot[2];
            String guest = PoiNames.guest(g.w.layout().split(), g.rnd);
            int k = g.addSearchByName(p);
            booking(g, p, slot[0], slot[1], party, guest, ref(0, "/results/" + k + "/place_id"));
            g.draft.query = "Book a table for " + party + " at " + p.name() + " in " + p.city() + " on " + PoiWorld.DATES.get(slot[0])
                    + " at " + PoiWorld.time(slot[1]) + " under the name " + guest + ".";
            bookingDetails(g, p, slot[0], slot[1], party, guest, true);
            return true;
        }
    }

    private static boolean constrainedBooking(PoiTasks g) {
        TaskDraft<PoiWorld> t = g.draft;
        PoiWorld w = g.w;
        for (int attempt = 0; ; attempt++) {
            Place p = g.pick(x -> x.category() == Category.RESTAURANT, false);
            double minRating = Math.max(3.0, PoiWorld.round1(p.rating() - 0.1 * g.rnd.nextInt(4)));
            int maxPrice = Math.min(4, p.price() + g.rnd.nextInt(2));
            ObjectNode args = TaskDraft.args("city", p.city(), "category", "restaurant", "cuisine", p.cuisine(),
                    "min_rating", minRating, "max_price", maxPrice);
            boolean withDistrict = g.count(args) != 1;
            if (withDistrict) args.put("district", p.district());
            if (g.count(args) != 1) {
                if (attempt < 80) continue;
                throw new IllegalStateException("no constrained-booking task in this world");
            }
            int party = 2 + g.rnd.nextInt(5);
            boolean fallback = g.rnd.nextBoolean();
            int[] requested = fallback ? fullSlotWithLater(g, p, party) : freeSlot(g, p, party);
            if (requested == null) {
                if (attempt < 80) continue;
                requested = freeSlot(g, p, party);
                fallback = false;
            }
            int day = requested[0];
            int hour = requested[1];
            String guest = PoiNames.guest(w.layout().split(), g.rnd);
            String date = PoiWorld.DATES.get(day);
            t.add("search_places", args);
            Ref id = ref(0, "/results/0/place_id");
            int bookHour = hour;
            if (fallback) {
                t.add("check_availability", slotArgs(date, PoiWorld.time(hour), party), Map.of("place_id", id));
                bookHour = w.laterTimes(p, day, hour, party).stream().mapToInt(PoiWorld::hour).findFirst().orElseThrow();
                Map<String, Ref> later = Map.of("place_id", id, "time", ref(1, "/later_times/0"));
                t.commit("check_availability", slotArgs(date, null, party), later);
                ObjectNode book = slotArgs(date, null, party);
                book.put("guest_name", guest);
                t.commit("make_reservation", book, later);
            } else {
                t.commit("check_availability", slotArgs(date, PoiWorld.time(hour), party), Map.of("place_id", id));
                ObjectNode book = slotArgs(date, PoiWorld.time(hour), party);
                book.put("guest_name", guest);
                t.commit("make_reservation", book, Map.of("place_id", id));
            }
            int last = t.last();
            t.answer = "Booked {" + last + ":/place_name} for " + party + " on " + date + " at {" + last + ":/time}. Verification code: {"
                    + last + ":/verification_code}.";
            expectBooking(g, p, day, bookHour, party, guest);
            t.query = "Book a table for " + party + " on " + date + " at " + PoiWorld.time(hour) + " under the name " + guest
                    + " at the " + p.cuisine() + " restaurant" + (withDistrict ? " in the " + p.district() + " district of " : " in ")
                    + p.city() + " that is rated at least " + minRating + " and has a price level of at most " + maxPrice
                    + ". If that time is taken, book the earliest later time that day.";
            bookingDetails(g, p, day, hour, party, guest, false);
            return true;
        }
    }

    private static boolean closerBooking(PoiTasks g) {
        PoiWorld w = g.w;
        for (int attempt = 0; ; attempt++) {
            Place landmark = g.pick(x -> !x.category().reservable && x.category() != Category.BAKERY, false);
            List<Place> options = w.places().stream()
                    .filter(x -> x.city().equals(landmark.city()) && x.category().reservable && w.uniqueName(x)).toList();
            if (attempt > 300) throw new IllegalStateException("no closer-booking task in this world");
            if (options.size() < 2 || !w.uniqueName(landmark)) continue;
            Place a = options.get(g.rnd.nextInt(options.size()));
            Place b = options.get(g.rnd.nextInt(options.size()));
            double da = PoiWorld.distanceKm(landmark, a);
            double db = PoiWorld.distanceKm(landmark, b);
            if (a == b || Math.abs(da - db) < 0.3) continue;
            Place closer = da < db ? a : b;
            int[] slot = freeSlot(g, closer, 2 + g.rnd.nextInt(5));
            if (slot == null) continue;
            int party = slot[2];
            String guest = PoiNames.guest(w.layout().split(), g.rnd);
            int kl = g.addSearchByName(landmark);
            int ka = g.addSearchByName(a);
            int kb = g.addSearchByName(b);
            Ref lid = ref(0, "/results/" + kl + "/place_id");
            Ref aid = ref(1, "/results/" + ka + "/place_id");
            Ref bid = ref(2, "/results/" + kb + "/place_id");
            g.draft.add("get_distance", Json.object(), Map.of("from_place_id", lid, "to_place_id", aid));
            g.draft.add("get_distance", Json.object(), Map.of("from_place_id", lid, "to_place_id", bid));
            booking(g, closer, slot[0], slot[1], party, guest, closer == a ? aid : bid);
            g.draft.query = "I'll be at " + landmark.name() + " in " + landmark.city() + ". Book a table for " + party + " on "
                    + PoiWorld.DATES.get(slot[0]) + " at " + PoiWorld.time(slot[1]) + " under the name " + guest
                    + " at whichever is closer to it: " + a.name() + " or " + b.name() + ".";
            bookingDetails(g, closer, slot[0], slot[1], party, guest, false);
            return true;
        }
    }

    // ---------------------------------------------------------------- pieces

    /** check_availability then make_reservation on a place id reference; the answer carries the code. */
    private static void booking(PoiTasks g, Place p, int day, int hour, int party, String guest, Ref id) {
        String date = PoiWorld.DATES.get(day);
        String time = PoiWorld.time(hour);
        g.draft.commit("check_availability", slotArgs(date, time, party), Map.of("place_id", id));
        ObjectNode book = slotArgs(date, time, party);
        book.put("guest_name", guest);
        int last = g.draft.commit("make_reservation", book, Map.of("place_id", id));
        g.draft.answer = "Booked " + p.name() + " for " + party + " on " + date + " at " + time + ". Verification code: {" + last
                + ":/verification_code}.";
        expectBooking(g, p, day, hour, party, guest);
    }

    private static void expectBooking(PoiTasks g, Place p, int day, int hour, int party, String guest) {
        Map<String, String> expect = g.draft.expect;
        expect.put("place_id", p.id());
        expect.put("date", PoiWorld.DATES.get(day));
        expect.put("time", PoiWorld.time(hour));
        expect.put("party_size", Integer.toString(party));
        expect.put("guest_name", guest);
    }

    private static void bookingDetails(PoiTasks g, Place p, int day, int hour, int party, String guest, boolean cityDetail) {
        List<Detail> details = g.draft.details;
        details.add(new Detail("party_size", "for " + party + " ", "how many|people|party|guests|persons|size", "We are " + party + " people.", false));
        details.add(new Detail("date", " on " + PoiWorld.DATES.get(day), "date|day|when", "On " + PoiWorld.DATES.get(day) + ".", false));
        details.add(new Detail("time", " at " + PoiWorld.time(hour), "time|hour|when|what time", "At " + PoiWorld.time(hour) + ".", false));
        details.add(new Detail("guest_name", " under the name " + guest, "name|who|whose", "The booking should be under " + guest + ".", false));
        if (cityDetail) g.cityDetail(p);
    }

    private static ObjectNode slotArgs(String date, String time, int party) {
        return TaskDraft.args("date", date, "time", time, "party_size", party);
    }

    private static int openDay(PoiTasks g, Place p) {
        while (true) {
            int day = g.rnd.nextInt(7);
            if (p.hours()[day] != null) return day;
        }
    }

    /** {day, hour, party} of a slot where the party fits, or null. */
    private static int[] freeSlot(PoiTasks g, Place p, int party) {
        for (int attempt = 0; attempt < 200; attempt++) {
            int day = g.rnd.nextInt(7);
            int[] h = p.hours()[day];
            if (h == null || h[1] - h[0] < 2) continue;
            int hour = h[0] + g.rnd.nextInt(h[1] - h[0] - 1);
            if (g.w.available(p, day, hour, party)) return new int[]{day, hour, party};
        }
        return null;
    }

    /** {day, hour} of a full slot with a later free time the same day, or null. */
    private static int[] fullSlotWithLater(PoiTasks g, Place p, int party) {
        for (int attempt = 0; attempt < 200; attempt++) {
            int day = g.rnd.nextInt(7);
            int[] h = p.hours()[day];
            if (h == null || h[1] - h[0] < 3) continue;
            int hour = h[0] + g.rnd.nextInt(h[1] - h[0] - 2);
            if (p.openAt(day, hour) && g.w.seatsLeft(p, day, hour) < party && !g.w.laterTimes(p, day, hour, party).isEmpty()) {
                return new int[]{day, hour};
            }
        }
        return null;
    }
}
