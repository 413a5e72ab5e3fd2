package dev.openagent.store;

import dev.openagent.agent.openai.ResponseCache;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.Optional;

/** The cache of model responses in the results store (table {@code responses}), keyed by request hash. */
record Responses(StoreWriter writer, StoreReader reader) implements ResponseCache {
    private static final String PUT = """
            INSERT INTO responses(key, model, body, created_at) VALUES (?,?,?,?)
            ON CONFLICT(key) DO UPDATE SET model=excluded.model, body=excluded.body, created_at=excluded.created_at""";

    @Override
    public Optional<String> get(String key) {
        return reader.read(c -> {
            PreparedStatement p = reader.prepared("SELECT body FROM responses WHERE key = ?");
            p.setString(1, key);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        });
    }

    /** Stores a response; returns at once (the writer commits it with its next batch). */
    @Override
    public void put(String key, String model, String body) {
        String now = Instant.now().toString();
        writer.update(PUT, false, p -> {
            p.setString(1, key);
            p.setString(2, model);
            p.setString(3, Runs.text(body));
            p.setString(4, now);
        });
    }
}
