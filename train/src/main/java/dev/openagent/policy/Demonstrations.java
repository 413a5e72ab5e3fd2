package dev.openagent.policy;

import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftStack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.json.Json;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Oracle demonstrations: the oracle follows the environment's guide through every shift layer,
 * so under a shift its trajectory is the recovery demonstration (retrying after a transient
 * error, following a redirect, asking the user, refusing an unsolvable task). Each step is
 * recorded as what the agent saw, what the oracle did, and the task (privileged, for targets).
 */
public final class Demonstrations {
    /** One demonstrated step. */
    public record Demo(View view, Action action, Task task) {}

    /** A demonstrated episode: its steps, the shift stack it ran under, and whether the oracle succeeded. */
    public record Episode(List<Demo> steps, ShiftStack shifts, boolean success) {}

    private final Environment environment;
    private final double alpha;
    private final ShiftSampler shifts;
    private final long seed;
    private final List<Integer> levels;
    private final SplittableRandom rnd;
    private long count;
    /** Distinct tasks drawn in turn (0: a new task every episode). */
    private int pool;
    /** The probability of a slip before each oracle tool call (see {@link #withSlips}). */
    private double slips;

    /**
     * @param alpha  the fraction of episodes run under a shift sampled from {@code shifts} (0 for SFT)
     * @param shifts where shifted episodes draw their shift from (may be empty when alpha is 0)
     */
    public Demonstrations(Environment environment, double alpha, ShiftSampler shifts, long seed) {
        this(environment, alpha, shifts, seed, List.of());
    }

    /**
     * @param levels the difficulty levels to draw tasks from, uniformly (empty: any, as the task seed chooses)
     */
    public Demonstrations(Environment environment, double alpha, ShiftSampler shifts, long seed, List<Integer> levels) {
        if (alpha < 0 || alpha > 1) throw new UserInputException("alpha must be in [0, 1], got " + alpha);
        if (alpha > 0 && shifts.isEmpty()) {
            throw new UserInputException("alpha > 0 needs shifts to sample, and the shift catalog has none that apply to "
                    + environment.id());
        }
        this.environment = environment;
        this.alpha = alpha;
        this.shifts = shifts;
        this.seed = seed;
        this.levels = List.copyOf(levels);
        this.rnd = new SplittableRandom(Seeds.mix(seed, 0xDE40));
    }

    /**
     * Draws from {@code n} distinct training tasks, in turn, instead of a new task every episode (0);
     * a task met again gets a freshly drawn shift. For data-scaling studies: the same steps over 4x
     * the tasks.
     */
    public Demonstrations withTaskPool(int n) {
        if (n < 0) throw new UserInputException("the task pool cannot be negative");
        this.pool = n;
        return this;
    }

    /**
     * Before each oracle tool call, with probability {@code p}, the agent slips: it calls the same tool
     * with one text argument replaced by other words of the request (the slip a policy makes when it
     * copies the wrong span), and what came back stays in the view; the oracle's right call follows
     * and is the step learned (the slip itself is never a training target). Without slips every error
     * a PAFT demonstration shows after a call the request supports is either transient or a sign the
     * task is impossible, and the policy learned to refuse after its own wrong calls as well. Not on
     * unsolvable tasks ({@code task.unsolvable}), whose refusal follows a call that was right.
     */
    public Demonstrations withSlips(double p) {
        if (p < 0 || p >= 1) throw new UserInputException("the slip probability must be in [0, 1)");
        this.slips = p;
        return this;
    }

    /** Oracle failures in a row after which the draw gives up: every catalog shift is oracle-valid, so this is a defect. */
    static final int MAX_FAILURES_IN_A_ROW = 1000;

    /** The next training-split episode; oracle failures are skipped (they would teach failure). */
    public Episode next() {
        for (int failures = 0; ; failures++) {
            if (failures == MAX_FAILURES_IN_A_ROW) {
                throw new IllegalStateException("the oracle failed " + failures + " training episodes in a row on " + environment.id()
                        + ": no demonstration can be drawn (a shift that is not oracle-valid here? check it with openagent validate)");
            }
            long index = count++;
            long taskSeed = Seeds.mix(seed, pool > 0 ? index % pool : index);
            int difficulty = levels.isEmpty() ? 0 : levels.get(Math.floorMod(Seeds.mix(taskSeed, 0xD1FF), levels.size()));
            TaskRequest request = new TaskRequest(Split.TRAIN, taskSeed, difficulty);
            ShiftStack stack = alpha > 0 && rnd.nextDouble() < alpha ? shifts.sample(rnd) : ShiftStack.NONE;
            Episode e = record(stack.apply(environment.create()), request, stack, slips, rnd);
            if (e.success()) return e;
        }
    }

    /** Runs the oracle on one task and records every step. */
    public static Episode record(Env env, TaskRequest request, ShiftStack stack) {
        return record(env, request, stack, 0, null);
    }

    /**
     * Runs the oracle on one task and records every step, with a slip before a tool call at probability
     * {@code slips} when the task is solvable (an unsolvable task's refusal follows calls that were right).
     */
    static Episode record(Env env, TaskRequest request, ShiftStack stack, double slips, SplittableRandom rnd) {
        Start start = env.reset(request);
        if (!env.task().solvable()) slips = 0;
        Guide guide = env.guide();
        View view = View.start(start);
        List<Demo> steps = new ArrayList<>();
        Step last = null;
        while (true) {
            Action action = guide.next(last);
            if (slips > 0 && action instanceof Action.CallTools c && rnd.nextDouble() < slips) {
                Optional<Action> slip = slip(c, view.request(), rnd);
                if (slip.isPresent()) {
                    Step s = env.step(slip.get());
                    if (s.done()) return new Episode(steps, stack, false);
                    view = view.after(slip.get(), s);
                }
            }
            steps.add(new Demo(view, action, env.task()));
            last = env.step(action);
            view = view.after(action, last);
            if (last.done()) return new Episode(steps, stack, last.outcome().success());
        }
    }

    /**
     * The call with one text argument replaced: by another of its text arguments or by one or two
     * words of the request, never by its own value; empty when the call has no text argument.
     */
    static Optional<Action> slip(Action.CallTools c, String request, SplittableRandom rnd) {
        Action.ToolCall call = c.calls().getFirst();
        JsonNode parsed;
        try {
            parsed = Json.parse(call.arguments());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        if (!(parsed instanceof ObjectNode args)) return Optional.empty();
        List<String> texts = new ArrayList<>();
        args.properties().forEach(f -> { if (f.getValue().isTextual()) texts.add(f.getKey()); });
        if (texts.isEmpty()) return Optional.empty();
        String name = texts.get(rnd.nextInt(texts.size()));
        String value = args.get(name).asText();
        List<String> candidates = new ArrayList<>();
        for (String other : texts) if (!args.get(other).asText().equals(value)) candidates.add(args.get(other).asText());
        String[] words = request.replaceAll("[^\\p{L}\\p{N}:+-]+", " ").strip().split(" ");
        for (int i = 0; i < words.length; i++) {
            if (!words[i].isEmpty()) candidates.add(words[i]);
            if (i + 1 < words.length) candidates.add(words[i] + " " + words[i + 1]);
        }
        candidates.removeIf(x -> x.isBlank() || x.equals(value));
        if (candidates.isEmpty()) return Optional.empty();
        ObjectNode wrong = args.deepCopy();
        wrong.put(name, candidates.get(rnd.nextInt(candidates.size())));
        List<Action.ToolCall> calls = new ArrayList<>(c.calls());
        calls.set(0, new Action.ToolCall(call.id() + "_slip", call.name(), Json.write(wrong)));
        return Optional.of(new Action.CallTools(calls));
    }
}
