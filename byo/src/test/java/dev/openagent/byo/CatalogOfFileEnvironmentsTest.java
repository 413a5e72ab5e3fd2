package dev.openagent.byo;

import dev.openagent.UserInputException;
import dev.openagent.episode.Episodes;
import dev.openagent.oracle.OracleAgent;
import dev.openagent.registry.Catalog;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A catalog holds the environment files it loaded: reachable by id, a domain.transfer target, closed with it. */
class CatalogOfFileEnvironmentsTest {
    @TempDir
    Path dir;

    private static final String TASK = "{\"id\": \"a\", \"query\": \"Name of A1?\", \"gold\": [{\"tool\": \"lookup\", \"args\": {\"code\": \"A1\"}}], \"answer\": \"Alpha\"}\n";

    private Path file(String id) throws Exception {
        Path d = Files.createDirectories(dir.resolve(id));
        Files.writeString(d.resolve("env.yaml"), LookupFile.yaml(id));
        Files.writeString(d.resolve("tasks.jsonl"), TASK);
        return d.resolve("env.yaml");
    }

    /** A file environment that counts how often it was closed. */
    private record Counted(FileEnvironment file, AtomicInteger closed) implements Environment, AutoCloseable {
        @Override
        public EnvironmentInfo info() { return file.info(); }

        @Override
        public Env create() { return file.create(); }

        @Override
        public void close() {
            closed.incrementAndGet();
            file.close();
        }
    }

    @Test
    void aFileEnvironmentLoadedThroughACatalogClosesWithIt() throws Exception {
        Path p = file("codes");
        AtomicInteger closed = new AtomicInteger();
        Catalog catalog = new Catalog();
        Environment e = catalog.load(p, () -> new Counted(FileEnvironment.load(p), closed));
        assertSame(e, catalog.load(p, () -> { throw new AssertionError("a source is loaded once"); }));
        assertSame(e, catalog.get("codes"));
        assertEquals(Environments.ids().size() + 1, catalog.ids().size());
        assertEquals("codes", catalog.ids().getLast(), "loaded environments come after the built-in ones");
        assertFalse(Environments.find("codes").isPresent(), "nothing a catalog loads is global");
        assertFalse(new Catalog().find("codes").isPresent(), "nor reachable from another catalog");
        catalog.close();
        assertEquals(1, closed.get());
        catalog.close();
        assertEquals(1, closed.get(), "closing twice closes once");
        assertThrows(IllegalStateException.class, () -> catalog.load(dir.resolve("other"), () -> e));
    }

    @Test
    void anIdTakenTwiceIsOneLineAndTheSecondFileIsClosed() throws Exception {
        Path first = file("twice");
        Path d = Files.createDirectories(dir.resolve("again"));
        Files.writeString(d.resolve("env.yaml"), LookupFile.yaml("twice"));
        Files.writeString(d.resolve("tasks.jsonl"), TASK);
        AtomicInteger closed = new AtomicInteger();
        try (Catalog catalog = new Catalog()) {
            catalog.load(first, () -> FileEnvironment.load(first));
            UserInputException taken = assertThrows(UserInputException.class,
                    () -> catalog.load(d.resolve("env.yaml"), () -> new Counted(FileEnvironment.load(d.resolve("env.yaml")), closed)));
            assertEquals("environment id 'twice' is already taken; give the file another id", taken.getMessage());
            assertEquals(1, closed.get());
            UserInputException unknown = assertThrows(UserInputException.class, () -> catalog.get("nope"));
            assertEquals(1, unknown.getMessage().lines().count());
        }
    }

    @Test
    void domainTransferTargetsAFileEnvironmentOfTheCatalog() throws Exception {
        Path p = file("codes");
        try (Catalog catalog = new Catalog()) {
            Environment codes = catalog.load(p, () -> FileEnvironment.load(p));
            Environment poi = catalog.get("poi");
            ShiftStack unbound = ShiftSpec.parseStack("domain.transfer:to=codes");
            assertTrue(unbound.notApplicable(poi.info()).isEmpty(), "applicability is judged for auto");
            assertThrows(UserInputException.class, () -> unbound.apply(poi.create()), "the built-in catalog knows no file environment");

            ShiftStack bound = unbound.in(catalog);
            assertEquals(unbound.label(), bound.label());
            Env shifted = bound.apply(poi.create());
            assertEquals("codes", shifted.info().id());
            assertTrue(Episodes.run(shifted, new OracleAgent(), new TaskRequest(Split.TEST, 1, 0)).outcome().success());
            assertEquals(codes.info().id(), bound.layers().getFirst().shift().environmentAfter(poi.info(), bound.layers().getFirst().params()).id());

            // auto still takes the first other built-in environment of the same interface, the file's too
            ShiftStack auto = ShiftSpec.parseStack("domain.transfer").in(catalog);
            assertEquals(ShiftSpec.parseStack("domain.transfer").apply(poi.create()).info().id(), auto.apply(poi.create()).info().id());
            assertEquals("poi", auto.apply(codes.create()).info().id());
            ShiftStack format = ShiftSpec.parseStack("obs.format");
            assertSame(format, format.in(catalog), "a stack without a shift that looks environments up stays as it is");
        }
    }
}
