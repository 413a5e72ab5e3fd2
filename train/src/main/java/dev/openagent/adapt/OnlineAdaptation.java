package dev.openagent.adapt;

import ai.djl.training.tracker.Tracker;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.curve.CurveSink;
import dev.openagent.json.Json;
import dev.openagent.metrics.Rate;
import dev.openagent.policy.Checkpoint;
import dev.openagent.policy.ClosingAdam;
import dev.openagent.policy.GroupUpdate;
import dev.openagent.policy.Policy;
import dev.openagent.policy.PolicyRunner;
import dev.openagent.registry.Catalog;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftStack;
import org.apache.commons.io.file.PathUtils;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Online adaptation ({@code eval --agent policy:DIR --adapt online}): the built-in policy acts on a stream of tasks
 * under one persistent shift and learns from outcome reward alone, as production could: no oracle, no
 * demonstrations. The stream comes in groups of {@code groupSize} episodes with sampled actions, by default each a task
 * of its own (as production sees them), the baseline of each episode's advantage being the group's mean success; with
 * {@code attempts} above 1, each task is attempted that many times and its attempts are one another's baseline (the RL
 * trainer's groups). Either way the update is {@link GroupUpdate}, the RL trainer's. After each group: one update, the
 * checkpoint saved under the run's directory, and the group's success (with its Wilson interval) and the episodes so
 * far sent to a {@link CurveSink}.
 *
 * <p>Resumable and deterministic: a group's tasks and its sampler's seed derive from the run seed and the group's
 * number, and each group's update starts Adam afresh (its state would otherwise have to be saved with the weights),
 * so the checkpoint of the last completed group is all a restarted run needs, and it gives the same curve.
 */
public final class OnlineAdaptation {
    /** Episodes in a group unless told. */
    public static final int DEFAULT_GROUP_SIZE = 32;
    /**
     * Attempts of each task in a group unless told: one. At equal episodes, distinct tasks against the group's mean
     * learnt faster than four attempts of a quarter as many tasks (docs/adaptation.md, *How groups are formed*).
     */
    public static final int DEFAULT_ATTEMPTS = 1;
    /** Groups in the stream unless told. */
    public static final int DEFAULT_GROUPS = 20;
    /** The learning rate unless told (docs/adaptation.md, *Online adaptation*). */
    public static final float DEFAULT_LR = 1e-3f;
    /** Decisions per forward-backward pass of an update (memory, not the result: the gradient is the group's sum). */
    static final int BATCH = 64;

    static final String SETTINGS = "online.json";
    static final String CHECKPOINTS = "checkpoints";

    private OnlineAdaptation() {}

    /**
     * @param policy     the starting checkpoint
     * @param env        the environment the tasks come from
     * @param shift      the persistent shift every episode runs under ({@link ShiftStack#NONE}: static)
     * @param split      the split the tasks are drawn from
     * @param difficulty the tasks' difficulty, 0 for any
     * @param groups     groups in the stream
     * @param groupSize  episodes in a group (at least 2: its mean is a baseline)
     * @param attempts   attempts of each task in a group (dividing {@code groupSize}): 1, each task once against the
     *                   group's mean; more, each task's attempts against their own mean
     * @param lr         Adam's learning rate for each group's update (0 leaves the policy as it was: a control)
     * @param seed       tasks and sampled actions
     * @param series     the curve's name
     */
    public record Settings(Path policy, String env, ShiftStack shift, Split split, int difficulty, int groups, int groupSize, int attempts,
                           float lr, long seed, String series) {
        public Settings {
            if (groups < 1) throw new UserInputException("--groups must be at least 1");
            if (groupSize < 2) throw new UserInputException("--group-size must be at least 2: a group's mean is its episodes' baseline");
            if (attempts < 1 || groupSize % attempts != 0) {
                throw new UserInputException("--attempts must be at least 1 and divide --group-size (" + groupSize + ")");
            }
            if (!(lr >= 0) || Float.isInfinite(lr)) throw new UserInputException("--adapt-lr must be a number >= 0");
        }

        /** Distinct tasks in a group. */
        public int tasks() { return groupSize / attempts; }

        /** The run's name when no directory is given: a hash of its {@link #identity}, so the same command resumes the same run. */
        public String id() { return "online-" + dev.openagent.results.EpisodeKey.Hashing.sha256(Json.write(identity())).substring(0, 12); }

        /** What identifies the run in its directory: everything that shapes the curve (the checkpoint by fingerprint). */
        ObjectNode identity() {
            ObjectNode o = Json.object();
            o.put("mode", "online");
            o.put("policy", Checkpoint.fingerprint(policy));
            o.put("env", env);
            o.put("shift", shift.label());
            o.put("split", split.id());
            o.put("difficulty", difficulty);
            o.put("groups", groups);
            o.put("group_size", groupSize);
            o.put("attempts", attempts);
            o.put("lr", lr);
            o.put("seed", seed);
            o.put("series", series);
            return o;
        }
    }

    /**
     * One group of the stream, as the curve records it.
     *
     * @param group      its number, from 1
     * @param success    the success of its sampled episodes (before the update that follows it), with the Wilson interval
     * @param episodes   episodes so far, this group's included
     * @param withSignal groups of attempts (with one attempt a task: the whole group) whose outcomes did not all agree
     * @param updated    whether the update stepped
     */
    public record Point(int group, Rate success, long episodes, int withSignal, boolean updated) {
        ObjectNode json() {
            ObjectNode o = Json.object();
            o.put("group", group);
            o.put("successes", success.k());
            o.put("n", success.n());
            o.put("episodes", episodes);
            o.put("with_signal", withSignal);
            o.put("updated", updated);
            return o;
        }

        static Point of(JsonNode o) {
            return new Point(o.path("group").asInt(), Rate.of(o.path("successes").asInt(), o.path("n").asInt()), o.path("episodes").asLong(),
                    o.path("with_signal").asInt(), o.path("updated").asBoolean());
        }

        /** The point's figures on a curve. */
        void send(String series, CurveSink sink) {
            sink.point(series, group, "success", success.value(), success.lo(), success.hi());
            sink.point(series, group, "episodes", episodes);
            sink.point(series, group, "with_signal", withSignal);
        }
    }

    /**
     * @param points      every group's point, those of a previous run (resumed) included
     * @param resumedFrom the groups found completed in the directory when the run started
     * @param last        the checkpoint after the last group run, or null when none ran
     */
    public record Result(List<Point> points, int resumedFrom, Path last) {
        /** The mean success of groups {@code from} to {@code to} (1-based, inclusive). */
        public double meanSuccess(int from, int to) {
            return points.subList(from - 1, to).stream().mapToDouble(p -> p.success().value()).average().orElse(Double.NaN);
        }
    }

    /** The checkpoint directory of a group. */
    public static Path checkpoint(Path out, int group) {
        return out.resolve(CHECKPOINTS).resolve(String.format(Locale.ROOT, "group-%04d", group));
    }

    /**
     * Runs the stream into {@code out} (created if absent), resuming after the last completed group found there, and
     * stops after group {@code stopAfter} (the whole stream when it is {@code settings.groups()} or more: less simulates
     * a run killed there). Each completed group's point goes to {@code sink}, flushed per group (a resumed run sends the
     * earlier groups' points first); {@code log} gets a progress line per group.
     *
     * @throws IllegalArgumentException when {@code out} holds another run's groups
     */
    public static Result run(Catalog catalog, Settings s, Path out, CurveSink sink, Consumer<String> log, int stopAfter) {
        Environment environment = catalog.get(s.env());
        ObjectNode identity = s.identity();
        List<Point> points = new ArrayList<>(completed(out, identity));
        int resumed = points.size();
        for (Point p : points) p.send(s.series(), sink);
        if (resumed > 0) {
            sink.flush();
            log.accept(String.format(Locale.ROOT, "resuming after group %d of %d (%s)", resumed, s.groups(), checkpoint(out, resumed)));
        }
        int end = Math.min(s.groups(), stopAfter);
        Path last = null;
        if (resumed >= end) return new Result(points, resumed, resumed > 0 ? checkpoint(out, resumed) : null);
        write(out.resolve(SETTINGS), Json.pretty(identity) + "\n");
        JsonNode made = Checkpoint.training(s.policy());
        long episodes = points.isEmpty() ? 0 : points.getLast().episodes();
        try (Policy policy = Checkpoint.load(resumed > 0 ? checkpoint(out, resumed) : s.policy())) {
            policy.wordDropout(0, 0); // acting and the policy gradient read every word, as the RL trainer's do
            for (int g = resumed + 1; g <= end; g++) {
                long t0 = System.nanoTime();
                List<PolicyRunner.Job> jobs = new ArrayList<>();
                for (int t = 0; t < s.tasks(); t++) {
                    TaskRequest request = new TaskRequest(s.split(), Seeds.mix(Seeds.mix(s.seed(), 0x0A11E), (long) (g - 1) * s.tasks() + t), s.difficulty());
                    for (int k = 0; k < s.attempts(); k++) jobs.add(new PolicyRunner.Job(environment, s.shift(), request));
                }
                SplittableRandom sampler = new SplittableRandom(Seeds.mix(Seeds.mix(s.seed(), 0x5A3F), g));
                List<PolicyRunner.Episode> ran = PolicyRunner.run(policy, s.series(), jobs, jobs.size(), sampler, true, e -> {});
                List<List<PolicyRunner.Episode>> byTask = new ArrayList<>();
                if (s.attempts() == 1) byTask.add(ran); // each task once: the group's mean over all its tasks is the baseline
                else for (int t = 0; t < s.tasks(); t++) byTask.add(ran.subList(t * s.attempts(), (t + 1) * s.attempts()));
                // A fresh optimiser per group: the checkpoint (weights only) is then the whole state of the stream.
                GroupUpdate.Stats u;
                try (ClosingAdam adam = ClosingAdam.of(Tracker.fixed(s.lr()), 1f)) {
                    u = GroupUpdate.apply(policy, adam, byTask, BATCH);
                }
                episodes += u.rollouts();
                Point p = new Point(g, Rate.of(u.successes(), u.rollouts()), episodes, u.withSignal(), u.updated());
                ObjectNode training = made.isObject() ? ((ObjectNode) made).deepCopy() : Json.object();
                training.set("online", identity.deepCopy().setAll(p.json()));
                save(policy, checkpoint(out, g), training);
                points.add(p);
                p.send(s.series(), sink);
                sink.flush();
                last = checkpoint(out, g);
                String signal = s.attempts() > 1 ? String.format(Locale.ROOT, "%d of %d tasks with signal", u.withSignal(), u.groups())
                        : u.updated() ? "updated" : "no signal (every outcome the same), not updated";
                log.accept(String.format(Locale.ROOT, "group %d/%d: success %.3f [%.3f, %.3f] over %d episodes (%d so far), %s, %.1f s",
                        g, s.groups(), p.success().value(), p.success().lo(), p.success().hi(), u.rollouts(), episodes, signal,
                        (System.nanoTime() - t0) / 1e9));
            }
        }
        return new Result(points, resumed, last);
    }

    /**
     * The points of the groups completed in {@code out} (groups 1..k, each with its checkpoint), or none; refuses a
     * directory whose run is another one.
     */
    static List<Point> completed(Path out, ObjectNode identity) {
        Path settings = out.resolve(SETTINGS);
        if (!Files.isRegularFile(settings)) return List.of();
        try {
            JsonNode was = Json.parse(Files.readString(settings, StandardCharsets.UTF_8));
            if (!was.equals(Json.parse(Json.write(identity)))) { // compared as read back: numbers parse to their own node types
                throw new UserInputException(out + " holds another online run (" + settings + " differs): give another --out, or remove it");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Point> points = new ArrayList<>();
        for (int g = 1; Files.isRegularFile(checkpoint(out, g).resolve("training.json")); g++) {
            points.add(Point.of(Checkpoint.training(checkpoint(out, g)).path("online")));
        }
        return points;
    }

    /** Saves a group's checkpoint whole or not at all: written beside, then renamed into place. */
    private static void save(Policy policy, Path dir, JsonNode training) {
        Path tmp = dir.resolveSibling(dir.getFileName() + ".tmp");
        try {
            delete(tmp);
            Checkpoint.save(policy, tmp, training);
            delete(dir);
            Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UserInputException("cannot save " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void delete(Path dir) throws IOException {
        if (Files.exists(dir)) PathUtils.deleteDirectory(dir);
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserInputException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
