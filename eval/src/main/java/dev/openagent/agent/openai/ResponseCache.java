package dev.openagent.agent.openai;

import java.util.Optional;

/**
 * Model responses by request hash: a rerun replays what the model said instead of asking again,
 * so resumed and repeated runs are fast and give the same trajectories.
 */
public interface ResponseCache {
    Optional<String> get(String key);

    void put(String key, String model, String body);

    ResponseCache NONE = new ResponseCache() {
        @Override
        public Optional<String> get(String key) { return Optional.empty(); }

        @Override
        public void put(String key, String model, String body) {}
    };
}
