package dev.openagent.policy;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import ai.djl.training.optimizer.Adam;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * DJL's Adam, with its moment arrays freed when it is closed. DJL's optimizers detach their state from every manager,
 * leaving it to the garbage collector, which never frees libtorch's memory: each Adam leaked two arrays the size of the
 * weights (8 MB for the default policy), and online adaptation, which starts a fresh Adam every group, grew by about that
 * much a group until the study of adaptation reached 17 GB. The updates are DJL's own, unchanged.
 */
public final class ClosingAdam extends Adam implements AutoCloseable {
    private final List<NDArray> state = new ArrayList<>();

    private ClosingAdam(Adam.Builder builder) {
        super(builder);
    }

    /** Adam at this learning-rate schedule, clipping each gradient element to [-clip, clip]. */
    public static ClosingAdam of(Tracker learningRate, float clip) {
        return new ClosingAdam(Optimizer.adam().optLearningRateTracker(learningRate).optClipGrad(clip));
    }

    @Override
    protected NDArray withDefaultState(Map<String, Map<Device, NDArray>> states, String key, Device device, Function<String, NDArray> init) {
        return super.withDefaultState(states, key, device, k -> {
            NDArray a = init.apply(k);
            synchronized (state) {
                state.add(a);
            }
            return a;
        });
    }

    /** Frees the moments; the optimizer must not be used after. */
    @Override
    public void close() {
        synchronized (state) {
            state.forEach(NDArray::close);
            state.clear();
        }
    }
}
