package dev.openagent.tau2;

import java.nio.file.Files;
import java.nio.file.Path;

/** The tau2-bench snapshot beside the repository ({@code ../shared/peers/tau2-bench}), loaded once for all tests. */
final class Checkouts {
    private Checkouts() {}

    /** The snapshot's folder, found from the working directory up (Maven runs tests in the module's folder). */
    static Path shared() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve("shared/peers/tau2-bench");
            if (Files.isDirectory(candidate)) return candidate;
            candidate = p.resolve("../shared/peers/tau2-bench").normalize();
            if (Files.isDirectory(candidate)) return candidate;
        }
        throw new IllegalStateException("no shared/peers/tau2-bench above " + Path.of("").toAbsolutePath());
    }

    private static Tau2Retail retail;

    /** The retail environment of the snapshot (loading takes a few hundred milliseconds: shared by the tests). */
    static synchronized Tau2Retail retail() {
        if (retail == null) retail = Tau2Retail.load(shared());
        return retail;
    }
}
