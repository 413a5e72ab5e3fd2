package dev.openagent.policy;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.jni.JniUtils;

import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * Deep Java Library set-up shared by every policy: offline (libtorch comes from the
 * pytorch-native-cpu jar, nothing is downloaded), a stable cache directory, one intra-op and one
 * inter-op thread (faster than two on small matrices, and leaves the other core to the sandbox).
 * Settings given on the command line ({@code -D...}) or in the environment win.
 */
final class Djl {
    private Djl() {}

    /** Sets DJL up once, the first time it is asked for (the class-loading lock makes that happen once). */
    private static final class Ready {
        static final boolean DONE = setUp();

        private Ready() {}
    }

    static void init() {
        if (!Ready.DONE) throw new IllegalStateException("DJL is not set up");
    }

    private static boolean setUp() {
        setDefault("ai.djl.offline", "true");
        setDefault("ai.djl.pytorch.num_threads", "1");
        setDefault("ai.djl.pytorch.num_interop_threads", "1");
        if (System.getenv("DJL_CACHE_DIR") == null) {
            setDefault("DJL_CACHE_DIR", Path.of(System.getProperty("user.home"), ".cache", "openagent", "djl").toString());
        }
        Engine.getInstance();
        return true;
    }

    private static void setDefault(String key, String value) {
        if (System.getProperty(key) == null) System.setProperty(key, value);
    }

    /**
     * Records the autograd graph of {@code forward} on this thread and back-propagates the scalar it
     * returns into the gradients of the parameters it used; returns the scalar's value. This is what
     * DJL's {@code GradientCollector} does, without its one-collector-per-JVM flag: grad mode is per
     * thread in libtorch, so policies with their own parameters train at once on separate threads
     * (a study trains two on two cores).
     */
    static float backward(Supplier<NDArray> forward) {
        boolean was = JniUtils.isGradMode();
        JniUtils.setGradMode(true);
        try {
            NDArray loss = forward.get();
            try (NDArray seed = loss.getManager().ones(loss.getShape(), loss.getDataType())) {
                JniUtils.backward((PtNDArray) loss, (PtNDArray) seed, false, false);
            }
            return loss.getFloat();
        } finally {
            JniUtils.setGradMode(was);
        }
    }

    /** Runs without recording the autograd graph (grad mode is per thread in libtorch). */
    static <T> T inference(Supplier<T> work) {
        boolean was = JniUtils.isGradMode();
        JniUtils.setGradMode(false);
        try {
            return work.get();
        } finally {
            JniUtils.setGradMode(was);
        }
    }
}
