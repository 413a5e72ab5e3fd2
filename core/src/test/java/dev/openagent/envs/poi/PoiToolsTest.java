package dev.openagent.envs.poi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.envs.poi.PoiWorld.Category;
import dev.openagent.envs.poi.PoiWorld.Place;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.ToolError;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PoiToolsTest {
    private final PoiFixture f = new PoiFixture(Split.TRAIN, 42);

    private Place restaurant() {
        return f.firstWhere(p -> p.category() == Category.RESTAURANT);
    }

    @Test
    void everyToolHasADescriptionAndAnObjectSchema() {
        assertEquals(12, PoiTools.ALL.size());
        for (var t : PoiTools.ALL) {
            assertFalse(t.description().isBlank(), t.name());
            JsonNode schema = t.spec().parameters();
            assertEquals("object", schema.get("type").asText());
            assertFalse(schema.get("additionalProperties").asBoolean());
        }
    }

    @Test
    void searchFiltersByEveryCriterionAndOrdersByName() {
        Place p = restaurant();
        JsonNode all = f.call("search_places", "{\"city\":\"" + p.city() + "\"}");
        assertEquals(f.world.placesIn(p.city()).size(), all.get("count").asInt());
        for (int i = 1; i < all.get("results").size(); i++) {
            assertTrue(all.get("results").get(i - 1).get("name").asText().compareTo(all.get("results").get(i).get("name").asText()) <= 0);
        }
        JsonNode byName = f.call("search_places", "{\"city\":\"" + p.city().toUpperCase() + "\",\"name\":\"" + p.name().toLowerCase() + "\"}");
        assertTrue(contains(byName, p.id()));
        JsonNode filtered = f.call("search_places", "{\"city\":\"" + p.city() + "\",\"category\":\"restaurant\",\"cuisine\":\"" + p.cuisine()
                + "\",\"district\":\"" + p.district() + "\",\"min_rating\":" + p.rating() + ",\"max_price\":" + p.price() + "}");
        assertTrue(contains(filtered, p.id()));
        for (JsonNode r : filtered.get("results")) {
            assertEquals("restaurant", r.get("category").asText());
            assertEquals(p.district(), r.get("district").asText());
            assertTrue(r.get("rating").asDouble() >= p.rating());
            assertTrue(r.get("price_level").asInt() <= p.price());
        }
        JsonNode everywhere = f.call("search_places", "{\"name\":\"" + p.name() + "\"}");
        assertTrue(contains(everywhere, p.id()), "city is optional");
        assertEquals(ToolError.Code.DOMAIN, f.fails("search_places", "{\"city\":\"Atlantis\"}").error().code());
    }

    @Test
    void detailsHoursAndReviewsDescribeThePlace() {
        Place p = restaurant();
        JsonNode d = f.call("get_place_details", "{\"place_id\":\"" + p.id() + "\"}");
        assertEquals(p.phone(), d.get("phone").asText());
        assertEquals(p.cuisine(), d.get("cuisine").asText());
        assertTrue(d.get("takes_reservations").asBoolean());
        assertEquals(7, d.get("opening_hours").size());
        for (int day = 0; day < 7; day++) {
            JsonNode h = f.call("get_opening_hours", "{\"place_id\":\"" + p.id() + "\",\"day\":\"" + PoiWorld.DAYS.get(day) + "\"}");
            assertEquals(p.hours()[day] != null, h.get("open").asBoolean());
            assertEquals(PoiTools.hoursText(p, day), d.get("opening_hours").get(PoiWorld.DAYS.get(day)).asText());
            if (p.hours()[day] != null) assertEquals(PoiWorld.time(p.hours()[day][0]), h.get("opens").asText());
        }
        JsonNode reviews = f.call("get_reviews", "{\"place_id\":\"" + p.id() + "\"}");
        assertEquals(3, reviews.get("reviews").size());
        assertEquals(ToolError.Code.DOMAIN, f.fails("get_place_details", "{\"place_id\":\"P0000\"}").error().code());
    }

    @Test
    void distanceAndNearbyAgree() {
        Place museum = f.firstWhere(p -> p.category() == Category.MUSEUM);
        JsonNode near = f.call("find_nearby", "{\"place_id\":\"" + museum.id() + "\",\"category\":\"cafe\",\"radius_km\":20}");
        double previous = 0;
        for (JsonNode r : near.get("results")) {
            JsonNode d = f.call("get_distance", "{\"from_place_id\":\"" + museum.id() + "\",\"to_place_id\":\"" + r.get("place_id").asText() + "\"}");
            assertEquals(r.get("distance_km").asDouble(), d.get("distance_km").asDouble(), 1e-9);
            assertTrue(d.get("distance_km").asDouble() >= previous, "nearest first");
            previous = d.get("distance_km").asDouble();
        }
        assertTrue(near.get("count").asInt() > 0);
        Place elsewhere = f.firstWhere(p -> !p.city().equals(museum.city()));
        assertEquals(ToolError.Code.DOMAIN, f.fails("get_distance",
                "{\"from_place_id\":\"" + museum.id() + "\",\"to_place_id\":\"" + elsewhere.id() + "\"}").error().code());
        Place other = f.firstWhere(p -> p.city().equals(museum.city()) && p != museum);
        JsonNode walk = f.call("get_distance", "{\"from_place_id\":\"" + museum.id() + "\",\"to_place_id\":\"" + other.id() + "\"}");
        JsonNode drive = f.call("get_distance", "{\"from_place_id\":\"" + museum.id() + "\",\"to_place_id\":\"" + other.id() + "\",\"mode\":\"drive\"}");
        assertEquals(walk.get("distance_km"), drive.get("distance_km"));
        assertEquals("walk", walk.get("mode").asText());
    }

    @Test
    void bookingNeedsACheckOfTheSameSlotAndIssuesACode() {
        Place p = restaurant();
        int day = firstOpenDay(p);
        int hour = freeHour(p, day, 2);
        String slot = "\"place_id\":\"" + p.id() + "\",\"date\":\"" + PoiWorld.DATES.get(day) + "\",\"time\":\"" + PoiWorld.time(hour) + "\",\"party_size\":2";
        String failure = f.fails("make_reservation", "{" + slot + ",\"guest_name\":\"Ana Ruiz\"}").getMessage();
        assertTrue(failure.contains("check_availability"), failure);
        JsonNode check = f.call("check_availability", "{" + slot + "}");
        assertTrue(check.get("available").asBoolean());
        JsonNode booking = f.call("make_reservation", "{" + slot + ",\"guest_name\":\"Ana Ruiz\"}");
        assertEquals("confirmed", booking.get("status").asText());
        assertTrue(booking.get("verification_code").asText().matches("V[A-Z2-9]{6}"));
        assertEquals(1, f.world.reservations().size());
        JsonNode found = f.call("find_reservations", "{\"guest_name\":\"ana ruiz\"}");
        assertEquals(1, found.get("count").asInt());
        assertFalse(found.toString().contains(booking.get("verification_code").asText()), "lookups never reveal the code");
        JsonNode got = f.call("get_reservation", "{\"reservation_id\":\"" + booking.get("reservation_id").asText() + "\"}");
        assertEquals(p.id(), got.get("place_id").asText());
    }

    @Test
    void availabilityExplainsFullAndClosedSlotsAndRejectsBadSlots() {
        Place p = restaurant();
        int day = firstOpenDay(p);
        JsonNode closed = f.call("check_availability", "{\"place_id\":\"" + p.id() + "\",\"date\":\"" + PoiWorld.DATES.get(day)
                + "\",\"time\":\"03:00\",\"party_size\":2}");
        assertFalse(closed.get("available").asBoolean());
        assertEquals("closed at that time", closed.get("reason").asText());
        assertTrue(closed.get("later_times").size() > 0);
        Place museum = f.firstWhere(x -> x.category() == Category.MUSEUM);
        assertTrue(f.fails("check_availability", "{\"place_id\":\"" + museum.id() + "\",\"date\":\"2026-12-08\",\"time\":\"12:00\",\"party_size\":2}")
                .getMessage().contains("does not take reservations"));
        assertTrue(f.fails("check_availability", "{\"place_id\":\"" + p.id() + "\",\"date\":\"2027-01-01\",\"time\":\"12:00\",\"party_size\":2}")
                .getMessage().contains("bookable week"));
        assertTrue(f.fails("check_availability", "{\"place_id\":\"" + p.id() + "\",\"date\":\"2026-12-08\",\"time\":\"7pm\",\"party_size\":2}")
                .getMessage().contains("HH:00"));
        // A full slot lists later free times.
        for (Place q : f.world.places()) {
            if (!q.category().reservable) continue;
            for (int d = 0; d < 7; d++) {
                if (q.hours()[d] == null) continue;
                for (int h = q.hours()[d][0]; h < q.hours()[d][1]; h++) {
                    if (f.world.seatsLeft(q, d, h) == 0) {
                        JsonNode full = f.call("check_availability", "{\"place_id\":\"" + q.id() + "\",\"date\":\"" + PoiWorld.DATES.get(d)
                                + "\",\"time\":\"" + PoiWorld.time(h) + "\",\"party_size\":1}");
                        assertEquals("fully booked", full.get("reason").asText());
                        return;
                    }
                }
            }
        }
        throw new AssertionError("no full slot in the world");
    }

    @Test
    void cancellationNeedsTheRightCodeOnce() {
        Place p = restaurant();
        var r = f.world.addExisting(p, PoiWorld.DATES.get(firstOpenDay(p)), "12:00", 2, "Liam Kim");
        assertTrue(f.fails("cancel_reservation", "{\"reservation_id\":\"" + r.id() + "\",\"verification_code\":\"VWRONG1\"}")
                .getMessage().contains("does not match"));
        JsonNode ok = f.call("cancel_reservation", "{\"reservation_id\":\"" + r.id() + "\",\"verification_code\":\"" + r.code().toLowerCase() + "\"}");
        assertEquals("cancelled", ok.get("status").asText());
        assertTrue(ok.get("cancellation_code").asText().startsWith("X"));
        assertEquals("cancelled", f.world.reservations().getFirst().status());
        assertTrue(f.fails("cancel_reservation", "{\"reservation_id\":\"" + r.id() + "\",\"verification_code\":\"" + r.code() + "\"}")
                .getMessage().contains("already cancelled"));
        assertTrue(f.fails("cancel_reservation", "{\"reservation_id\":\"R-00000\",\"verification_code\":\"X\"}").getMessage().contains("no reservation"));
        assertTrue(f.fails("get_reservation", "{\"reservation_id\":\"R-00000\"}").getMessage().contains("no reservation"));
    }

    @Test
    void districtsListTheCity() {
        var city = f.world.cities().getFirst();
        JsonNode d = f.call("list_districts", "{\"city\":\"" + city.name() + "\"}");
        assertEquals(city.districts().size(), d.get("districts").size());
        assertEquals(ToolError.Code.DOMAIN, f.fails("list_districts", "{\"city\":\"Nowhere\"}").error().code());
    }

    private int firstOpenDay(Place p) {
        for (int d = 0; d < 7; d++) if (p.hours()[d] != null) return d;
        throw new AssertionError();
    }

    private int freeHour(Place p, int day, int party) {
        for (int h = p.hours()[day][0]; h < p.hours()[day][1]; h++) if (f.world.available(p, day, h, party)) return h;
        throw new AssertionError("no free hour");
    }

    private static boolean contains(JsonNode search, String id) {
        for (JsonNode r : search.get("results")) if (r.get("place_id").asText().equals(id)) return true;
        return false;
    }
}
