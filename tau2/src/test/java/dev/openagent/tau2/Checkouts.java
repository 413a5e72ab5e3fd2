package dev.openagent.tau2;

import java.nio.file.Files;
import java.nio.file.Path;

/** The tau2-bench snapshot beside the repository ({@code ../shared/peers/tau2-bench}), loaded once for all tests. */
final class Checkouts {
    private Checkouts() {}

    /** The snapshot's folder, as the CLI finds it by default (Maven runs tests in the module's folder). */
    static Path shared() {
        Path p = Tau2Checkout.choose(null, null);
        if (!Files.isDirectory(p)) throw new IllegalStateException("no " + Tau2Checkout.SHARED + " beside " + Path.of("").toAbsolutePath() + " or its parents");
        return p;
    }

    private static Tau2Retail retail;

    /** The retail environment of the snapshot (loading takes a few hundred milliseconds: shared by the tests). */
    static synchronized Tau2Retail retail() {
        if (retail == null) retail = Tau2Retail.load(shared());
        return retail;
    }
}
