package dev.openagent.policy;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.training.GradientCollector;
import org.junit.jupiter.api.Test;

class DjlSmokeTest {
    @Test
    void smoke() {
        try (NDManager m = NDManager.newBaseManager()) {
            NDArray w = m.randomNormal(new ai.djl.ndarray.types.Shape(5, 3));
            w.setRequiresGradient(true);
            try (NDManager s = m.newSubManager(); GradientCollector gc = Engine.getInstance().newGradientCollector()) {
                NDArray idx = s.create(new long[]{0, 2, 2});
                NDArray e = w.get(s, new NDIndex("{}", idx));
                NDArray loss = e.sum();
                gc.backward(loss);
                System.out.println(e.getManager() == s);
            }
            System.out.println(w.getGradient());
            System.out.println(Engine.getInstance().getEngineName() + " " + Engine.getInstance().getVersion());
        }
    }
}
