package dev.openagent.run;

import dev.openagent.results.GoldFacts;
import dev.openagent.results.EpisodeResult;
import dev.openagent.results.EpisodeKey;
import dev.openagent.UserInputException;
import dev.openagent.registry.Catalog;
import dev.openagent.episode.Agent;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.InfrastructureException;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunStatus;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Runs an {@link Experiment} into the results store: plans every episode (agents × environments ×
 * shift conditions × tasks × trials), skips those the store already holds, and runs the rest on
 * virtual threads with at most {@code concurrency} in flight, saving each one as it finishes.
 * Rerunning the same experiment therefore resumes it; episodes that ended in an infrastructure
 * error are run again.
 */
public final class EvalRunner {
    /** Bumped when a harness change makes stored episodes incomparable with new ones. */
    public static final int HARNESS_VERSION = 1;

    /** One experimental condition: an environment under a shift stack. */
    public record Condition(String env, Environment environment, ShiftStack stack, String label, String tier) {
        /** The environment under the stack, labelled and tiered as results carry them. */
        public static Condition of(String env, Environment environment, ShiftStack s) {
            String tier = s.isStatic() ? EpisodeResult.STATIC : s.tier() == null ? EpisodeResult.MIXED : s.tier().id();
            return new Condition(env, environment, s, s.label(), tier);
        }
    }

    /** A planned episode: its identity, the agent, the condition and the task (its position in the task plan, its request). */
    public record Planned(EpisodeKey key, EvalAgent agent, Condition condition, int taskIndex, TaskRequest request) {}

    /**
     * What running a list of planned episodes did ({@link #runPlanned}).
     *
     * @param reused        planned episodes found finished in the store (linked to the run)
     * @param ran           episodes run now (including those that ended in an infrastructure error)
     * @param errors        infrastructure errors among those run now
     * @param stopReason    why running stopped early, or null
     * @param internalError the first exception thrown inside an episode (a bug), or null
     */
    public record Batch(int reused, int ran, int errors, String stopReason, Throwable internalError) {}

    /**
     * What a run did.
     *
     * @param shard         the part of the experiment this process ran ({@link Shard#ALL}: all of it)
     * @param planned       episodes of this shard
     * @param reused        planned episodes found finished in the store
     * @param ran           episodes run now (including those that ended in an infrastructure error)
     * @param errors        infrastructure errors among those run now
     * @param stopReason    why the run stopped early, or null
     * @param notApplicable conditions left out because a shift does not apply to an environment
     * @param internalError the first exception thrown inside an episode (a bug), or null
     * @param runPlanned    episodes of the whole experiment, every shard's
     * @param runScored     episodes of the whole run scored in the store when this process finished, whoever ran them
     * @param status        the run's status as this process left it: complete, partial (this shard is done, others'
     *                      episodes are missing), incomplete (infrastructure errors) or stopped
     */
    public record RunResult(String runId, Shard shard, int planned, int reused, int ran, int errors, String stopReason,
                            List<String> notApplicable, Throwable internalError, int runPlanned, int runScored, RunStatus status) {
        /** Whether every episode of this process's shard is scored. */
        public boolean complete() { return stopReason == null && errors == 0 && reused + ran == planned; }
    }

    private final Catalog catalog;
    private final ResultStore store;
    private final RunControl control;
    private final Progress progress;
    private final Function<String, List<ShiftStack>> shifts;

    /** @param catalog the environments an experiment's ids name (built-in and loaded ones) */
    public EvalRunner(Catalog catalog, ResultStore store, RunControl control, Progress progress) {
        this(catalog, store, control, progress, ShiftSpec::expand);
    }

    /** @param shifts expands a shift spec into conditions (the shift catalog's {@link ShiftSpec#expand}, or a test's own) */
    public EvalRunner(Catalog catalog, ResultStore store, RunControl control, Progress progress, Function<String, List<ShiftStack>> shifts) {
        this.catalog = catalog;
        this.store = store;
        this.control = control;
        this.progress = progress == null ? Progress.NONE : progress;
        this.shifts = shifts;
    }

    /**
     * The conditions of an experiment over the environments of {@code catalog}: the static one first, then each expanded
     * shift spec once, its stacks resolved in the catalog.
     */
    public static List<Condition> conditions(Catalog catalog, Experiment exp, List<String> notApplicable) {
        return conditions(catalog, exp, ShiftSpec::expand, notApplicable);
    }

    static List<Condition> conditions(Catalog catalog, Experiment exp, Function<String, List<ShiftStack>> expand, List<String> notApplicable) {
        List<ShiftStack> stacks = new ArrayList<>();
        stacks.add(ShiftStack.NONE);
        expand.apply(exp.shiftSpec()).forEach(s -> stacks.add(s.in(catalog)));
        List<Condition> out = new ArrayList<>();
        for (String envId : exp.envs()) {
            Environment environment = catalog.get(envId);
            if (exp.difficulty() != 0 && !environment.info().difficulties().contains(exp.difficulty())) {
                throw new UserInputException(envId + " has no difficulty " + exp.difficulty() + " (levels: " + environment.info().difficulties() + ")");
            }
            Set<String> seen = new HashSet<>();
            for (ShiftStack s : stacks) {
                String label = s.label();
                if (!seen.add(label)) continue;
                Optional<String> why = Conditions.notApplicable(s, environment);
                if (why.isPresent()) {
                    notApplicable.add(envId + " / " + label + ": " + why.get());
                    continue;
                }
                out.add(Condition.of(envId, environment, s));
            }
        }
        return out;
    }

    /** The part of an episode's identity the other key fields do not cover. */
    public static String configHash(EvalAgent agent, Experiment exp) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("agent", agent.identity());
        m.put("split", exp.splitValue().id());
        m.put("difficulty", exp.difficulty());
        m.put("harness", HARNESS_VERSION);
        return EpisodeKey.Hashing.sha256(Json.write(m)).substring(0, 16);
    }

    /**
     * The run's id: a hash of the experiment as {@link #describe} records it, without its name. The
     * same experiment is the same run whatever its name, concurrency or budget.
     */
    public static String runId(Experiment exp, List<EvalAgent> agents) {
        Map<String, Object> m = describe(exp, agents);
        m.remove("name");
        m.put("harness", HARNESS_VERSION);
        return "run-" + EpisodeKey.Hashing.sha256(Json.write(m)).substring(0, 12);
    }

    public RunResult run(Experiment exp, List<EvalAgent> agents) {
        return run(exp, agents, Shard.ALL, null);
    }

    /**
     * Runs one shard of the experiment into the run {@code runId} (null: the experiment's own id,
     * {@link #runId}). Shards started anywhere against one store (PostgreSQL for several machines)
     * write one run; each skips what the store already holds, so a rerun of a killed shard runs
     * only what it lost.
     */
    public RunResult run(Experiment exp, List<EvalAgent> agents, Shard shard, String runId) {
        if (agents.isEmpty()) throw new UserInputException("the experiment names no agent");
        Set<String> labels = new HashSet<>();
        for (EvalAgent a : agents) {
            if (!labels.add(a.label())) throw new UserInputException("two agents are labelled '" + a.label() + "': give them distinct labels");
        }
        List<String> notApplicable = new ArrayList<>();
        List<Planned> whole = plan(exp, agents, conditions(catalog, exp, shifts, notApplicable));
        List<Planned> plan = shard.whole() ? whole : whole.stream().filter(p -> shard.contains(p.key())).toList();
        if (runId == null) runId = runId(exp, agents);
        String name = exp.name() == null ? runId : exp.name();
        String config = Json.write(describe(exp, agents));
        store.beginRun(runId, name, config, whole.size());
        Batch batch = runPlanned(runId, plan, exp.concurrency());
        int runScored = store.progress(runId).finished();
        String stopReason = control.stopReason();
        boolean mineComplete = stopReason == null && batch.errors() == 0 && batch.reused() + batch.ran() == plan.size();
        // Statuses from this process's view; reports check the counts themselves (another shard may finish later).
        RunStatus status = runScored >= whole.size() ? RunStatus.COMPLETE : stopReason != null ? RunStatus.STOPPED
                : !mineComplete ? RunStatus.INCOMPLETE : RunStatus.PARTIAL;
        String note = stopReason != null ? stopReason
                : status == RunStatus.PARTIAL ? "shard " + shard + " done; " + runScored + " of " + whole.size() + " episodes scored" : null;
        store.saveRun(runId, name, config, whole.size(), status, note);
        return new RunResult(runId, shard, plan.size(), batch.reused(), batch.ran(), batch.errors(), stopReason,
                List.copyOf(notApplicable), batch.internalError(), whole.size(), runScored, status);
    }

    /**
     * Runs planned episodes into the run {@code runId} (begun by the caller, {@link ResultStore#beginRun}): those the store
     * holds finished are linked to the run and not run again, the rest run on virtual threads with at most
     * {@code concurrency} in flight, each saved as it finishes. Stops early when the run control stops (a budget, the
     * endpoint refusing our credentials) or after a run of consecutive infrastructure errors. Returns once every episode
     * started has been saved (flushed).
     */
    public Batch runPlanned(String runId, List<Planned> plan, int concurrency) {
        if (concurrency < 1) throw new UserInputException("concurrency must be at least 1");
        Set<String> hashes = new HashSet<>();
        for (Planned p : plan) hashes.add(p.key().configHash());

        Set<String> finished = new HashSet<>();
        for (String h : hashes) finished.addAll(store.finishedEpisodes(h));
        List<String> reused = new ArrayList<>();
        List<Planned> todo = new ArrayList<>();
        for (Planned p : plan) {
            if (finished.contains(p.key().id())) reused.add(p.key().id());
            else todo.add(p);
        }
        store.link(runId, reused);

        AtomicInteger ran = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        AtomicInteger consecutiveErrors = new AtomicInteger();
        AtomicReference<Throwable> internal = new AtomicReference<>();
        int breaker = Math.max(10, 2 * concurrency);
        progress.start(plan.size(), reused.size());
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Semaphore slots = new Semaphore(concurrency);
            for (Planned p : todo) {
                if (control.stopped()) break;
                slots.acquireUninterruptibly();
                if (control.stopped()) {
                    slots.release();
                    break;
                }
                pool.submit(() -> {
                    try {
                        EpisodeResult r = runOne(p, internal);
                        try {
                            store.saveEpisode(runId, r);
                        } catch (IllegalStateException e) {
                            control.stop(e.getMessage());
                            return;
                        }
                        ran.incrementAndGet();
                        if (r.infraError()) {
                            errors.incrementAndGet();
                            if (consecutiveErrors.incrementAndGet() >= breaker) {
                                control.stop(breaker + " episodes in a row failed with infrastructure errors (last: " + r.outcome().detail() + ")");
                            }
                        } else {
                            consecutiveErrors.set(0);
                        }
                        progress.finished(r);
                    } finally {
                        slots.release();
                    }
                });
            }
        } finally {
            progress.close();
        }
        store.flush();
        return new Batch(reused.size(), ran.get(), errors.get(), control.stopReason(), internal.get());
    }

    /** Every episode of the experiment, tasks outermost so a partial run covers every condition evenly. */
    private static List<Planned> plan(Experiment exp, List<EvalAgent> agents, List<Condition> conditions) {
        List<TaskRequest> requests = new TaskPlan(exp.splitValue(), exp.tasks(), exp.seed(), exp.difficulty()).requests();
        Map<EvalAgent, String> hashes = new LinkedHashMap<>();
        for (EvalAgent a : agents) hashes.put(a, configHash(a, exp));
        List<Planned> plan = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            for (int trial = 0; trial < exp.trials(); trial++) {
                for (EvalAgent a : agents) {
                    for (Condition c : conditions) {
                        EpisodeKey key = new EpisodeKey(hashes.get(a), a.label(), c.env(), c.label(), requests.get(i).seed(), trial);
                        plan.add(new Planned(key, a, c, i, requests.get(i)));
                    }
                }
            }
        }
        return plan;
    }

    /** Attempts of an episode whose environment fails (an MCP server that crashed, hung or timed out) before it counts as an infrastructure error. */
    static final int ENV_ATTEMPTS = 3;

    private EpisodeResult runOne(Planned p, AtomicReference<Throwable> internal) {
        long t0 = System.nanoTime();
        for (int attempt = 1; ; attempt++) {
            try {
                Env env = p.condition().stack().apply(p.condition().environment().create());
                Agent agent = p.agent().forTrial(p.key().trial());
                Trajectory t = Episodes.run(env, agent, p.request());
                return new EpisodeResult(p.key(), p.condition().tier(), p.taskIndex(), t.outcome(), t, GoldFacts.of(env.task()),
                        (System.nanoTime() - t0) / 1_000_000);
            } catch (InfrastructureException e) {
                // The environment's infrastructure failed, not the agent: run the episode again from the start, then
                // record an infrastructure error (never an agent failure), run again on resume.
                if (attempt < ENV_ATTEMPTS) continue;
                return new EpisodeResult(p.key(), p.condition().tier(), p.taskIndex(),
                        new Outcome(false, Outcome.End.INFRA_ERROR, "environment failed " + attempt + " times: " + e.getMessage()), null,
                        GoldFacts.NONE, (System.nanoTime() - t0) / 1_000_000);
            } catch (RuntimeException e) {
                // A bug in the sandbox or the agent, not something the model did: kept as an error and run again on resume.
                internal.compareAndSet(null, e);
                return new EpisodeResult(p.key(), p.condition().tier(), p.taskIndex(),
                        new Outcome(false, Outcome.End.INFRA_ERROR, "internal error: " + e), null, GoldFacts.NONE,
                        (System.nanoTime() - t0) / 1_000_000);
            }
        }
    }

    /** The experiment as stored with the run: what was asked, with each agent's identity (never a key). */
    public static Map<String, Object> describe(Experiment exp, List<EvalAgent> agents) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", exp.name());
        List<Object> as = new ArrayList<>();
        for (EvalAgent a : agents) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("label", a.label());
            x.put("identity", a.identity());
            as.add(x);
        }
        m.put("agents", as);
        m.put("envs", exp.envs());
        m.put("shifts", exp.shifts());
        m.put("tasks", exp.tasks());
        m.put("trials", exp.trials());
        m.put("seed", exp.seed());
        m.put("split", exp.splitValue().id());
        m.put("difficulty", exp.difficulty());
        return m;
    }
}
