package dev.openagent.envs.poi;

import dev.openagent.sandbox.Split;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PoiWorldTest {
    @Test
    void sameSeedGivesTheSameWorld() {
        for (long seed = 0; seed < 50; seed++) {
            PoiWorld.Layout a = PoiWorld.generate(Split.TRAIN, seed);
            PoiWorld.Layout b = PoiWorld.generate(Split.TRAIN, seed);
            assertEquals(a.cities(), b.cities());
            assertEquals(a.places().stream().map(PoiWorld.Place::id).toList(), b.places().stream().map(PoiWorld.Place::id).toList());
            assertEquals(a.places().stream().map(PoiWorld.Place::name).toList(), b.places().stream().map(PoiWorld.Place::name).toList());
        }
        assertNotEquals(PoiWorld.generate(Split.TRAIN, 1).cities(), PoiWorld.generate(Split.TRAIN, 2).cities());
    }

    @Test
    void trainAndTestShareNoCityPlaceOrGuestNames() {
        Set<String> trainCities = new HashSet<>(), testCities = new HashSet<>();
        Set<String> trainPlaces = new HashSet<>(), testPlaces = new HashSet<>();
        for (long seed = 0; seed < 200; seed++) {
            PoiWorld.Layout tr = PoiWorld.generate(Split.TRAIN, seed);
            PoiWorld.Layout te = PoiWorld.generate(Split.TEST, seed);
            tr.cities().forEach(c -> trainCities.add(c.name()));
            te.cities().forEach(c -> testCities.add(c.name()));
            tr.places().forEach(p -> trainPlaces.add(stem(p.name())));
            te.places().forEach(p -> testPlaces.add(stem(p.name())));
        }
        assertTrue(disjoint(trainCities, testCities), "cities overlap");
        assertTrue(disjoint(trainPlaces, testPlaces), "place names overlap");
        Set<String> trainGuests = new HashSet<>(), testGuests = new HashSet<>();
        var rnd = new java.util.SplittableRandom(3);
        for (int i = 0; i < 500; i++) {
            trainGuests.add(PoiNames.guest(Split.TRAIN, rnd).split(" ")[0]);
            testGuests.add(PoiNames.guest(Split.TEST, rnd).split(" ")[0]);
        }
        assertTrue(disjoint(trainGuests, testGuests), "guest first names overlap");
    }

    @Test
    void everyWorldIsWellFormed() {
        for (long seed = 0; seed < 100; seed++) {
            PoiWorld.Layout m = PoiWorld.generate(seed % 2 == 0 ? Split.TRAIN : Split.TEST, seed);
            assertEquals(3, m.cities().size());
            assertEquals(m.places().size(), m.byId().size(), "place ids are unique");
            for (PoiWorld.City c : m.cities()) {
                List<PoiWorld.Place> here = m.places().stream().filter(p -> p.city().equals(c.name())).toList();
                assertEquals(here.size(), here.stream().map(PoiWorld.Place::name).collect(Collectors.toSet()).size(),
                        "names are unique within a city");
                for (PoiWorld.Category cat : PoiWorld.Category.values()) {
                    assertTrue(here.stream().anyMatch(p -> p.category() == cat), c.name() + " has a " + cat.id);
                }
            }
            for (PoiWorld.Place p : m.places()) {
                assertTrue(p.rating() >= 3.0 && p.rating() <= 5.0);
                assertTrue(p.price() >= 1 && p.price() <= 4);
                assertTrue(p.x() >= 0 && p.x() <= 10 && p.y() >= 0 && p.y() <= 10);
                assertTrue(p.category().reservable == (p.capacity() > 0));
                assertTrue(p.category() == PoiWorld.Category.RESTAURANT == (p.cuisine() != null));
                int openDays = 0;
                for (int[] h : p.hours()) {
                    if (h == null) continue;
                    openDays++;
                    assertTrue(h[0] < h[1] && h[0] >= 0 && h[1] <= 24);
                }
                assertTrue(openDays >= 6);
            }
            long twins = m.places().stream().filter(p -> m.twins()[p.index()] >= 0).count();
            assertTrue(twins >= 10, "same-named places in other cities exist: " + twins);
        }
    }

    @Test
    void nearMissNamesShareAStemWithinACity() {
        PoiWorld.Layout m = PoiWorld.generate(Split.TRAIN, 7);
        long shared = m.places().stream().collect(Collectors.groupingBy(p -> p.city() + "|" + stem(p.name()), Collectors.counting()))
                .values().stream().filter(n -> n > 1).count();
        assertTrue(shared >= 5, "near-miss names exist: " + shared);
    }

    @Test
    void worldsAreCachedButStateIsPerEpisode() {
        PoiWorld a = PoiWorld.of(Split.TRAIN, 11);
        PoiWorld b = PoiWorld.of(Split.TRAIN, 11);
        assertTrue(a.layout() == b.layout(), "the immutable layout is shared");
        PoiWorld.Place p = a.places().stream().filter(x -> x.category().reservable).findFirst().orElseThrow();
        a.addExisting(p, PoiWorld.DATES.get(0), "12:00", 2, "Ana Ruiz");
        assertFalse(a.reservations().isEmpty());
        assertTrue(b.reservations().isEmpty(), "reservations are not shared");
        assertNotNull(a.place(p.id()));
    }

    private static String stem(String name) {
        String[] w = name.split(" ");
        return w[0] + " " + w[1];
    }

    private static boolean disjoint(Set<String> a, Set<String> b) {
        Set<String> both = new HashSet<>(a);
        both.retainAll(b);
        return both.isEmpty();
    }
}
