package dev.openagent.policy;

import dev.openagent.episode.Conversation;
import dev.openagent.episode.Trajectory;
import dev.openagent.episode.Usage;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftStack;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Runs many episodes of one policy in lockstep: each turn, one batched forward pass acts for
 * every episode in flight. This is how training rollouts and evaluations reach thousands of
 * actions per second on a CPU; it records the same {@link Trajectory} as the episode loop.
 */
public final class PolicyRunner {
    private PolicyRunner() {}

    /** One episode to run: a task of an environment under a shift stack. */
    public record Job(Environment environment, ShiftStack shifts, TaskRequest request) {}

    /** What the policy saw and decided at one step. */
    public record Decided(View view, Decision decision) {}

    /**
     * A finished episode, with its decisions when they were recorded, and its task (privileged:
     * for scoring and reports, never shown to the policy).
     */
    public record Episode(Trajectory trajectory, List<Decided> steps, Task task) {}

    private static final class Slot {
        int job;
        Env env;
        Start start;
        Conversation conversation;
        View view;
        List<Decided> steps;
        Usage usage = Usage.NONE;
    }

    /**
     * Runs the jobs on {@code threads} threads, each with its own lockstep batch of at most
     * {@code parallel} episodes (forward passes of one policy run at once on separate cores);
     * results come back in job order. Thread t runs jobs t, t + threads, ...; each draws samples
     * from its own split of {@code sampler}, so a seeded run gives the same episodes every time.
     */
    public static List<Episode> run(Policy policy, String agent, List<Job> jobs, int parallel, int threads, SplittableRandom sampler,
                                    boolean record, Consumer<Episode> onDone) {
        int n = Math.max(1, Math.min(threads, jobs.size()));
        if (n == 1) return run(policy, agent, jobs, parallel, sampler, record, onDone);
        Consumer<Episode> done = e -> {
            synchronized (onDone) {
                onDone.accept(e);
            }
        };
        List<Future<List<Episode>>> shards = new ArrayList<>();
        // Platform threads: a forward pass is a native call, which would pin a virtual thread's carrier anyway.
        try (ExecutorService pool = Executors.newFixedThreadPool(n)) {
            for (int t = 0; t < n; t++) {
                List<Job> shard = new ArrayList<>();
                for (int j = t; j < jobs.size(); j += n) shard.add(jobs.get(j));
                SplittableRandom own = sampler == null ? null : sampler.split();
                shards.add(pool.submit(() -> run(policy, agent, shard, parallel, own, record, done)));
            }
            Episode[] all = new Episode[jobs.size()];
            for (int t = 0; t < n; t++) {
                List<Episode> got = shards.get(t).get();
                for (int k = 0; k < got.size(); k++) all[t + k * n] = got.get(k);
            }
            return Arrays.asList(all);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running policy episodes", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new IllegalStateException(e.getCause());
        }
    }

    /**
     * Runs the jobs on this thread, at most {@code parallel} at a time; results come back in job order.
     *
     * @param sampler null for greedy actions, else the source of sampled ones
     * @param record  whether to keep each step's view and decision (for policy-gradient updates)
     */
    public static List<Episode> run(Policy policy, String agent, List<Job> jobs, int parallel, SplittableRandom sampler,
                                    boolean record, Consumer<Episode> onDone) {
        Episode[] done = new Episode[jobs.size()];
        Slot[] slots = new Slot[Math.max(1, parallel)];
        int next = 0;
        int active = 0;
        while (next < jobs.size() || active > 0) {
            for (int i = 0; i < slots.length && next < jobs.size(); i++) {
                if (slots[i] != null) continue;
                slots[i] = open(jobs.get(next), next, record);
                next++;
                active++;
            }
            List<Integer> live = new ArrayList<>();
            List<View> views = new ArrayList<>();
            for (int i = 0; i < slots.length; i++) {
                if (slots[i] != null) {
                    live.add(i);
                    views.add(slots[i].view);
                }
            }
            List<Policy.Acted> acted = policy.act(views, sampler);
            for (int k = 0; k < live.size(); k++) {
                Slot s = slots[live.get(k)];
                Policy.Acted a = acted.get(k);
                if (s.steps != null) s.steps.add(new Decided(s.view, a.decision()));
                s.conversation.add(a.action());
                Step step = s.env.step(a.action());
                s.conversation.add(step);
                // Tokens: what the policy read to decide (its context), and the action it wrote.
                long read = policy.length(s.view);
                s.view = s.view.after(a.action(), step);
                long wrote = Tokenizer.tokenize(s.view.turns().getLast().actionText()).size();
                s.usage = s.usage.plus(new Usage(read, wrote, 1));
                if (step.done()) {
                    Job job = jobs.get(s.job);
                    Task task = s.env.task();
                    Trajectory t = new Trajectory(s.env.spec().env(), task.id(), task.split().id(), job.request().seed(),
                            task.difficulty(), task.kind(), task.solvable(), s.env.spec().shifts(), agent, s.start.tools(),
                            s.conversation.messages(), step.outcome(), s.conversation.stats(s.usage), s.env.dbChanges());
                    Episode e = new Episode(t, s.steps == null ? List.of() : List.copyOf(s.steps), task);
                    done[s.job] = e;
                    onDone.accept(e);
                    slots[live.get(k)] = null;
                    active--;
                }
            }
        }
        return Arrays.asList(done);
    }

    private static Slot open(Job job, int index, boolean record) {
        Slot s = new Slot();
        s.job = index;
        s.env = job.shifts().apply(job.environment().create());
        s.start = s.env.reset(job.request());
        s.conversation = new Conversation(s.start);
        s.view = View.start(s.start);
        s.steps = record ? new ArrayList<>() : null;
        return s;
    }
}
