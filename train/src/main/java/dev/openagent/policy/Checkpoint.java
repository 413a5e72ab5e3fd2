package dev.openagent.policy;

import ai.djl.ndarray.NDArray;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.UserInputException;
import dev.openagent.json.Json;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A policy on disk: a directory with {@code config.json} (sizes, hash settings, answer words),
 * {@code weights.bin} (every parameter by name: shape and little-endian float32 values),
 * {@code vocabulary.txt} (the words whose identity the policy reads, one per line) and
 * {@code training.json} (how it was made: method, environment, steps, seed, figures).
 */
public final class Checkpoint {
    static final String CONFIG = "config.json";
    static final String WEIGHTS = "weights.bin";
    static final String TRAINING = "training.json";
    static final String VOCABULARY = "vocabulary.txt";
    private static final int MAGIC = 0x4F415057; // "OAPW"
    private static final int FORMAT = 1;

    private Checkpoint() {}

    public static void save(Policy policy, Path dir, JsonNode training) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(CONFIG), Json.pretty(policy.config()) + "\n", StandardCharsets.UTF_8);
            Files.write(dir.resolve(VOCABULARY), policy.vocabulary().words(), StandardCharsets.UTF_8);
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(dir.resolve(WEIGHTS)), 1 << 16))) {
                out.writeInt(MAGIC);
                out.writeInt(FORMAT);
                Map<String, NDArray> params = policy.net().params;
                out.writeInt(params.size());
                for (var e : params.entrySet()) {
                    long[] dims = e.getValue().getShape().getShape();
                    out.writeUTF(e.getKey());
                    out.writeInt(dims.length);
                    for (long d : dims) out.writeLong(d);
                    float[] v = e.getValue().toFloatArray();
                    ByteBuffer buf = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
                    buf.asFloatBuffer().put(v);
                    out.write(buf.array());
                }
            }
            if (training != null) Files.writeString(dir.resolve(TRAINING), Json.pretty(training) + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserInputException("cannot write checkpoint to " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Loads a checkpoint directory.
     *
     * @throws IllegalArgumentException when the directory is not a checkpoint or its files do not fit together
     */
    public static Policy load(Path dir) {
        Path config = dir.resolve(CONFIG);
        Path weights = dir.resolve(WEIGHTS);
        if (!Files.isRegularFile(config) || !Files.isRegularFile(weights)) {
            throw new UserInputException(dir + " is not a policy checkpoint (needs " + CONFIG + " and " + WEIGHTS + ")");
        }
        PolicyConfig c;
        try {
            c = Json.read(Files.readString(config, StandardCharsets.UTF_8), PolicyConfig.class);
        } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
            throw new UserInputException("cannot read " + config + ": " + rootMessage(e));
        }
        Map<String, float[]> values = new LinkedHashMap<>();
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(weights), 1 << 16))) {
            if (in.readInt() != MAGIC) throw new UserInputException(weights + " is not a policy weights file");
            int format = in.readInt();
            if (format != FORMAT) throw new UserInputException(weights + " has weights format " + format + " (this build reads " + FORMAT + ")");
            int count = in.readInt();
            for (int i = 0; i < count; i++) {
                String name = in.readUTF();
                int rank = in.readInt();
                long size = 1;
                for (int k = 0; k < rank; k++) size *= in.readLong();
                if (size > 50_000_000) throw new UserInputException(weights + ": parameter " + name + " is implausibly large");
                byte[] raw = new byte[(int) size * 4];
                in.readFully(raw);
                float[] v = new float[(int) size];
                ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
                values.put(name, v);
            }
        } catch (EOFException e) {
            throw new UserInputException(weights + " is truncated");
        } catch (NoSuchFileException e) {
            throw new UserInputException("no such file: " + weights);
        } catch (IOException e) {
            throw new UserInputException("cannot read " + weights + ": " + e.getMessage(), e);
        }
        Vocabulary vocabulary;
        try {
            Path v = dir.resolve(VOCABULARY);
            vocabulary = new Vocabulary(Files.isRegularFile(v) ? Files.readAllLines(v, StandardCharsets.UTF_8) : java.util.List.of());
        } catch (IOException e) {
            throw new UserInputException("cannot read " + dir.resolve(VOCABULARY) + ": " + e.getMessage(), e);
        }
        Djl.init();
        return new Policy(c, vocabulary, PolicyNet.of(c, values));
    }

    /**
     * A fingerprint of the policy a directory holds (SHA-256 of its config, vocabulary and weights),
     * so results stored for one checkpoint are never mistaken for another's.
     */
    public static String fingerprint(Path dir) {
        try {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            for (String f : new String[]{CONFIG, VOCABULARY, WEIGHTS}) {
                Path p = dir.resolve(f);
                if (Files.isRegularFile(p)) sha.update(Files.readAllBytes(p));
                else if (!f.equals(VOCABULARY)) throw new UserInputException(dir + " is not a policy checkpoint (needs " + CONFIG + " and " + WEIGHTS + ")");
            }
            return java.util.HexFormat.of().formatHex(sha.digest()).substring(0, 32);
        } catch (IOException e) {
            throw new UserInputException("cannot read " + dir + ": " + e.getMessage(), e);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What {@code training.json} says, or an empty object. */
    public static JsonNode training(Path dir) {
        Path f = dir.resolve(TRAINING);
        try {
            return Files.isRegularFile(f) ? Json.parse(Files.readString(f, StandardCharsets.UTF_8)) : Json.object();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) t = t.getCause();
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }
}
