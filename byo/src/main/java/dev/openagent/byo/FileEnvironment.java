package dev.openagent.byo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.domain.Domain;
import dev.openagent.domain.DomainEnv;
import dev.openagent.domain.Params;
import dev.openagent.domain.Surface;
import dev.openagent.domain.TaskKind;
import dev.openagent.domain.Tool;
import dev.openagent.domain.ToolFailure;
import dev.openagent.domain.Vocabulary;
import dev.openagent.episode.InfrastructureException;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.DelegatingEnv;
import dev.openagent.sandbox.Checks;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.ToolFacts;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An environment declared in a file (docs/bring-your-own.md): its tools from an MCP server or declared inline,
 * its tasks from a JSONL file, its facts for shifts from the file's keys. It runs as a {@link Domain} over a
 * {@link Worker} per episode (a workdir refilled from the fixtures and a server session), so every shift
 * reaches it through the facts it declares. Workers are pooled: each runs one episode at a time with its own
 * server process, and as many exist as episodes run at once. {@link #close} stops them.
 */
public final class FileEnvironment implements Environment, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FileEnvironment.class);

    private static final int DEFAULT_TIMEOUT_SECONDS = 30;

    private final EnvFile file;
    private final Path dir;
    private final Path fixtures;
    private final Path base;
    private final Domain<Worker> domain;
    private final EnvironmentInfo info;
    private final Map<String, Set<String>> tasksBySplit = new LinkedHashMap<>();
    private final List<FileTasks.Entry> tasks;
    private final Map<String, String> missing = new LinkedHashMap<>();
    private final java.util.concurrent.LinkedBlockingDeque<Worker> idle = new java.util.concurrent.LinkedBlockingDeque<>();
    private final List<Worker> workers = new CopyOnWriteArrayList<>();
    private final AtomicInteger started = new AtomicInteger();
    private final Thread shutdown;
    /** Where workers are started (and spent ones stopped) in the background, when each episode needs a new server. */
    private final java.util.concurrent.ExecutorService spares = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();
    /** {@code mcp.restart}: true (a new server every episode), false (never), or null (when it holds workdir files open). */
    private final Boolean restart;
    /** Whether every episode gets a newly started server: {@code restart: true}, or the server was seen holding files open. */
    private volatile boolean restartEach;
    /** Workers being started in the background for the episodes to come (each then waits in {@link #idle}). */
    private final AtomicInteger warming = new AtomicInteger();
    private volatile boolean closed;

    /**
     * Reads and checks an environment file and its tasks, starts one server to list its tools, and checks every
     * task against them: every mistake is reported here, as one line naming file, line and key, before any episode.
     *
     * @throws BadEnvironmentFile (a {@link dev.openagent.UserInputException}) for a mistake in the files or a server that does not work
     */
    public static FileEnvironment load(Path path) {
        Path file = path.toAbsolutePath().normalize();
        if (!Files.isRegularFile(file)) throw new BadEnvironmentFile(path + ": no such environment file");
        String text = SourceFile.text(file);
        SourceFile.Parsed parsed = SourceFile.read(file, text, 1);
        return new FileEnvironment(parsed.source(), parsed.as(EnvFile.class), file.getParent());
    }

    private FileEnvironment(SourceFile src, EnvFile f, Path dir) {
        this.file = f;
        this.dir = dir;
        if (f.id() == null || !f.id().matches("[a-z][a-z0-9_-]{0,40}")) {
            throw src.error(f.id() == null ? "" : "/id", f.id() == null ? "missing key 'id'" : "an id is lower-case letters, digits, '-' and '_'");
        }
        if (f.tasks() == null) throw src.error("", "missing key 'tasks'");
        if (f.mcp() != null) {
            boolean cmd = f.mcp().command() != null && !f.mcp().command().isEmpty();
            if (cmd == (f.mcp().url() != null)) throw src.error("/mcp", "give either 'command' (stdio) or 'url' (Streamable HTTP)");
        }
        if (f.mcp() != null && f.mcp().timeoutSeconds() != null && f.mcp().timeoutSeconds() <= 0) {
            throw src.error("/mcp/timeout_seconds", "a timeout is a number of seconds above 0, not " + f.mcp().timeoutSeconds());
        }
        this.restart = f.mcp() == null ? Boolean.FALSE : f.mcp().restart();
        this.restartEach = Boolean.TRUE.equals(restart);
        this.fixtures = f.reset() == null || f.reset().copy() == null ? null : Fixtures.folder(src, dir, f.reset().copy());
        Path taskFile = dir.resolve(f.tasks()).normalize();
        if (!Files.isRegularFile(taskFile)) throw src.error("/tasks", "no task file " + taskFile);
        for (int i = 0; i < f.paraphrases().size(); i++) {
            if (f.paraphrases().get(i).size() != 2) throw src.error("/paraphrases/" + i, "a paraphrase is [regex, replacement]");
        }
        try {
            this.base = Files.createTempDirectory("openagent-" + f.id() + "-");
        } catch (IOException e) {
            throw new BadEnvironmentFile("cannot create a temporary folder: " + e.getMessage());
        }
        this.shutdown = new Thread(this::stopAll, "openagent-byo-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdown);
        try {
            // One worker started now: its server lists the tools, and a server that cannot start is reported before any episode.
            Worker first = newWorker();
            List<Tool<Worker>> tools = FileTools.declared(src, file, fixtures, first);
            Set<String> names = new LinkedHashSet<>();
            Set<String> readOnly = new LinkedHashSet<>();
            for (Tool<Worker> t : tools) {
                names.add(t.name());
                if (t.facts().readOnly()) readOnly.add(t.name());
            }
            this.tasks = FileTasks.read(taskFile, names);
            for (FileTasks.Entry e : tasks) tasksBySplit.computeIfAbsent(e.split().id(), k -> new LinkedHashSet<>()).add(e.id());
            List<TaskKind<Worker, Object>> kinds = new ArrayList<>();
            Set<String> seen = new LinkedHashSet<>();
            for (FileTasks.Entry e : tasks) {
                TaskLine t = FileTasks.line(e, FileTasks.WORKDIR);
                String kind = t.kind() == null ? "task" : t.kind();
                if (seen.add(kind + "/" + e.difficulty())) {
                    kinds.add(TaskKind.<Worker, Object>of(kind, e.difficulty(), g -> true).impossibleBy(this::impossible));
                }
            }
            List<EnvFacts.Rewrite> rewrites = f.paraphrases().stream().map(p -> new EnvFacts.Rewrite(p.get(0), p.get(1))).toList();
            Vocabulary<Worker> words = new Vocabulary<>(f.synonyms(), rewrites, (task, world, rnd) -> distractions(task, rnd));
            this.domain = new Domain<>(f.id(), f.description() == null ? f.id() : f.description(), f.rules() == null ? "" : f.rules(),
                    new Surface.FunctionCalls<>(tools), (split, seed) -> null, kinds,
                    (world, request, seed) -> task(world, request, seed, readOnly), this::check, words);
            this.info = DomainEnv.infoOf(domain);
            missingFacts(tools);
            idle.push(first);
        } catch (RuntimeException e) {
            // The servers stop and the work folders go; the log of a server that failed stays, as one file.
            for (Worker w : workers) w.close();
            Runtime.getRuntime().removeShutdownHook(shutdown);
            spares.shutdownNow();
            String message = e.getMessage();
            if (e instanceof InfrastructureException && !workers.isEmpty()) message = keepLog(workers.getFirst().log, message, f.id());
            Worker.delete(base);
            if (e instanceof InfrastructureException) throw src.error(f.mcp().command() != null ? "/mcp/command" : "/mcp/url", message);
            throw e;
        }
    }

    /** The log of a server that failed to start, moved out of the work folder (which is deleted): the message names it. */
    private static String keepLog(Path log, String message, String id) {
        if (!Files.isRegularFile(log) || !message.contains(log.toString())) return message;
        try {
            Path kept = Files.createTempFile("openagent-" + id + "-server-", ".log");
            Files.move(log, kept, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return message.replace(log.toString(), kept.toString());
        } catch (IOException e) {
            return message;
        }
    }

    // ---------------------------------------------------------------- tasks and checks

    private Task task(Worker w, TaskRequest request, long seed, Set<String> readOnly) {
        List<FileTasks.Entry> pool = tasks.stream()
                .filter(e -> e.split() == request.split() && (request.difficulty() == 0 || e.difficulty() == request.difficulty())).toList();
        if (pool.isEmpty()) {
            throw new UserInputException(file.id() + " has no " + request.split().id() + " task"
                    + (request.difficulty() == 0 ? "" : " of difficulty " + request.difficulty()));
        }
        FileTasks.Entry e = pool.get(Math.floorMod(request.seed(), pool.size()));
        return FileTasks.task(FileTasks.line(e, w.dir()), file.id(), request.split(), seed, e.difficulty(), readOnly);
    }

    private FileTasks.Entry entry(String id) {
        return tasks.stream().filter(e -> e.id().equals(id)).findFirst().orElseThrow();
    }

    /** The world after a right answer: every state check of the task, calling tools on the episode's server. */
    private String check(Task task, Worker w, String answer) {
        w.checking = true;   // the state checks look at the world: the episode's order rules do not bind them
        return stateChecks(FileTasks.line(entry(task.id()), w.dir()), (tool, args) -> {
            JsonNode r = domainTool(tool).behaviour().call(w, Params.ofSchema(Json.object()).validate(args));
            return r.isTextual() ? r.asText() : Json.write(r);
        });
    }

    /** What a state check's tool answered: its text, or {@link ToolFailure} when the tool failed. */
    @FunctionalInterface
    public interface ToolCaller {
        String call(String tool, ObjectNode args);
    }

    private static String stateChecks(TaskLine t, ToolCaller caller) {
        if (t.check() == null) return null;
        for (int i = 0; i < t.check().state().size(); i++) {
            TaskLine.StateCheck s = t.check().state().get(i);
            ObjectNode args = s.args() == null ? Json.object() : (ObjectNode) s.args();
            String text;
            try {
                text = caller.call(s.tool(), args);
            } catch (ToolFailure f) {
                return "state check " + i + " (" + s.tool() + ") failed: " + f.getMessage();
            }
            for (String need : texts(s.resultContains())) {
                if (!Checks.mentions(text, need)) return "state check " + i + " (" + s.tool() + "): the result lacks '" + need + "'";
            }
            for (String bad : texts(s.resultNotContains())) {
                if (!bad.isBlank() && Checks.mentions(text, bad)) return "state check " + i + " (" + s.tool() + "): the result holds '" + bad + "'";
            }
        }
        return null;
    }

    /**
     * One task of the file by its id, for scoring a session that did not run in this environment (the shift
     * proxy's, on a live server): the task with {@code {workdir}} replaced by {@code workdir}, and its state checks
     * made through {@code caller} (the live server's tools).
     */
    public record ScoredTask(Task task, java.util.function.Function<ToolCaller, String> stateChecks, Reset reset) {}

    /**
     * What {@code reset.copy} does before each episode, for a folder a live server works in: {@link #refill} empties
     * {@code workdir} and copies the fixtures into it (null in a {@link ScoredTask} when the file has no {@code reset.copy}).
     */
    public record Reset(Path fixtures, Path workdir) {
        public void refill() {
            try {
                Fixtures.refill(fixtures, workdir);
            } catch (IOException e) {
                throw new InfrastructureException("cannot refill " + workdir + " from " + fixtures + ": " + e.getMessage(), e);
            }
        }
    }

    /** @throws BadEnvironmentFile when the file has no task of that id */
    public ScoredTask scoredTask(String id, String workdir, long seed) {
        FileTasks.Entry e = tasks.stream().filter(x -> x.id().equals(id)).findFirst()
                .orElseThrow(() -> new BadEnvironmentFile("no task '" + id + "' in " + file.id() + " (tasks: " + String.join(", ", tasks.stream().map(FileTasks.Entry::id).toList()) + ")"));
        Set<String> readOnly = new LinkedHashSet<>();
        toolFacts().forEach((name, f) -> {
            if (f.readOnly()) readOnly.add(name);
        });
        TaskLine line = FileTasks.line(e, workdir);
        return new ScoredTask(FileTasks.task(line, file.id(), e.split(), seed, e.difficulty(), readOnly), caller -> stateChecks(line, caller),
                fixtures == null ? null : new Reset(fixtures, Path.of(workdir)));
    }

    private static List<String> texts(JsonNode n) {
        if (n == null) return List.of();
        if (n.isArray()) {
            List<String> out = new ArrayList<>();
            n.forEach(x -> out.add(x.asText()));
            return out;
        }
        return List.of(n.asText());
    }

    private Tool<Worker> domainTool(String name) {
        return ((Surface.FunctionCalls<Worker>) domain.surface()).tools().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    /** task.unsolvable: the task's declared impossible variant, if it has one. */
    private Optional<Task> impossible(Task task, Worker w, java.util.SplittableRandom rnd) {
        TaskLine t = FileTasks.line(entry(task.id()), w.dir());
        if (t.impossible() == null) return Optional.empty();
        TaskLine.Impossible i = t.impossible();
        List<dev.openagent.sandbox.GoldPlan.Call> probes = i.probes().stream().map(FileTasks::call).toList();
        List<dev.openagent.sandbox.Detail> kept = task.details().stream().filter(d -> i.query().contains(d.span())).toList();
        return Optional.of(task.unsolvable(i.query(), probes, i.reason(), kept));
    }

    private List<String> distractions(Task task, java.util.SplittableRandom rnd) {
        List<String> left = new ArrayList<>(file.distractions().stream().filter(s -> !task.query().contains(s)).toList());
        List<String> out = new ArrayList<>();
        while (!left.isEmpty() && out.size() < 2) out.add(left.remove(rnd.nextInt(left.size())));
        return out;
    }

    // ---------------------------------------------------------------- facts and applicability

    private void missingFacts(List<Tool<Worker>> tools) {
        if (tools.stream().allMatch(t -> t.facts().after().isEmpty())) {
            missing.put("logic.inversion", "no tool declares 'after' (an order rule between two tools)");
        }
        if (tools.stream().allMatch(t -> t.facts().personNames().isEmpty())) {
            missing.put("domain.policy-update", "no tool declares 'person_name' (a parameter holding a person's name)");
        }
        if (tools.stream().allMatch(t -> t.facts().records().isEmpty())) {
            missing.put("obs.missing-values", "no tool declares 'record_of' (the record it returns by id, to recover a missing field)");
        }
        List<TaskLine> lines = tasks.stream().map(e -> FileTasks.line(e, FileTasks.WORKDIR)).toList();
        if (lines.stream().allMatch(t -> t.impossible() == null)) {
            missing.put("task.unsolvable", "no task declares 'impossible' (the same request made impossible)");
        }
        if (lines.stream().allMatch(t -> t.details().isEmpty())) {
            missing.put("query.underspecified", "no task declares 'details' (a span of the query the user can supply)");
        }
        if (lines.stream().allMatch(t -> t.details().stream().noneMatch(d -> Boolean.TRUE.equals(d.ambiguous())))) {
            missing.put("query.ambiguous", "no task declares a detail with 'ambiguous: true'");
        }
    }

    @Override
    public Optional<String> notApplicable(String shiftId) { return Optional.ofNullable(missing.get(shiftId)); }

    @Override
    public EnvironmentInfo info() { return info; }

    /** The ids of the tasks of each split, as the file declares them. */
    /**
     * The facts each tool carries (the file's {@code read_only}, {@code after}, {@code record_of}, {@code person_name},
     * and the server's read-only hints), by tool name: the shift proxy gives them to a live server's tools of the same name.
     */
    public Map<String, ToolFacts> toolFacts() {
        Map<String, ToolFacts> out = new LinkedHashMap<>();
        for (Tool<Worker> t : ((Surface.FunctionCalls<Worker>) domain.surface()).tools()) out.put(t.name(), t.facts());
        return out;
    }

    public Map<String, Set<String>> taskIds() { return Map.copyOf(tasksBySplit); }

    /** The number of tasks of a split. */
    public int tasks(Split split) { return tasksBySplit.getOrDefault(split.id(), Set.of()).size(); }

    /** Where the workers' workdirs and server logs are. */
    public Path workFolder() { return base; }

    // ---------------------------------------------------------------- workers

    private Worker newWorker() {
        Worker w = new Worker(started.getAndIncrement(), base, this::connect);
        workers.add(w);
        return w;
    }

    private McpConnection connect(Worker w) {
        EnvFile.Mcp m = file.mcp();
        if (m == null) return null;
        Duration timeout = Duration.ofSeconds(m.timeoutSeconds() == null ? DEFAULT_TIMEOUT_SECONDS : m.timeoutSeconds());
        List<String> command = m.command() == null ? null : m.command().stream().map(a -> expand(a, w)).toList();
        Map<String, String> env = new LinkedHashMap<>();
        m.env().forEach((k, v) -> env.put(k, expand(v, w)));
        return McpConnection.open(command, m.url() == null ? null : expand(m.url(), w), env, timeout, w.log);
    }

    private String expand(String s, Worker w) {
        return s.replace(FileTasks.WORKDIR, w.dir()).replace("{dir}", dir.toString());
    }

    /**
     * A worker for an episode: an idle one (its workdir refilled, its server restarted if it must be), or one started
     * in the background on a fresh workdir while the last episode ran (waited for when it is still starting), or a
     * new one. When every episode needs a new server, the next episode's is started now, while this one runs.
     */
    private Worker acquire() {
        Worker w = idle.pollFirst();
        // A server starting for the episodes to come is waited for (not started twice); one that fails to start
        // leaves nothing in the pool, and this episode then starts its own.
        while (w == null && warming.get() > 0) {
            try {
                w = idle.pollFirst(50, java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InfrastructureException("interrupted while waiting for a server to start", e);
            }
        }
        if (w == null) w = newWorker();
        if (w.ready) {
            w.ready = false;
        } else {
            try {
                List<String> held = w.prepare(fixtures, restartEach, restart == null);
                if (!held.isEmpty()) restartsEach(held);
            } catch (InfrastructureException e) {
                retire(w, false);
                throw e;
            }
        }
        if (restartEach && !closed) {
            warming.incrementAndGet();
            spares.submit(this::warm);
        }
        return w;
    }

    /** The server was seen holding workdir files open: from now on every episode gets a newly started server, and the user is told once. */
    private synchronized void restartsEach(List<String> held) {
        if (restartEach) return;
        restartEach = true;
        LOG.warn("openagent: {}: the MCP server keeps {} of its workdir open, and a fixture replaced under an open file is not the one it "
                + "uses: every episode now starts a new server on a fresh copy (set mcp.restart: true to say so, docs/bring-your-own.md)",
                file.id(), String.join(", ", held));
    }

    private void release(Worker w) {
        if (w.broken) {
            retire(w, false);   // its log names the failure
        } else if (restartEach && !closed) {
            spares.submit(() -> retire(w, true));   // its replacement was started when the episode began
        } else {
            idle.push(w);
        }
    }

    /** Starts a worker in a fresh workdir (fixtures copied, server started in it) and puts it in the pool. */
    private void warm() {
        try {
            if (closed) return;
            Worker s = newWorker();
            try {
                s.prepare(fixtures, false, false);
            } catch (RuntimeException e) {
                retire(s, false);   // the next acquire starts one itself, and reports what fails
                return;
            }
            s.ready = true;
            if (closed) retire(s, true);
            else idle.addLast(s);   // behind the workers that wait already
        } finally {
            warming.decrementAndGet();
        }
    }

    private void retire(Worker w, boolean deleteFolder) {
        w.close();
        workers.remove(w);
        if (deleteFolder) Worker.delete(w.folder());
    }

    @Override
    public Env create() { return new FileEnv(); }

    /** Stops every server and deletes the workdirs. */
    @Override
    public void close() {
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdown);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running
        }
    }

    private void stopAll() {
        closed = true;
        spares.shutdownNow();
        try {
            spares.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        idle.clear();
        for (Worker w : workers) w.close();
        workers.clear();
        Worker.delete(base);
    }

    /**
     * One instance: a {@link DomainEnv} over this environment's domain, holding a worker for the episode it runs
     * (taken from the pool at reset, given back when the episode ends or the next one starts).
     */
    private final class FileEnv extends DelegatingEnv {
        private final Lease lease;
        /** The tool errors of the episode so far (tool: message), named when its checks fail. */
        private final List<String> toolErrors = new ArrayList<>();

        FileEnv() {
            this(new Lease());
        }

        private FileEnv(Lease lease) {
            super(episodes(lease));
            this.lease = lease;
        }

        @Override
        public Start reset(TaskRequest request) {
            if (lease.worker != null) release(lease.worker);
            lease.worker = null;
            lease.worker = acquire();
            toolErrors.clear();
            return inner.reset(request);
        }

        @Override
        public Step step(Action action) {
            Step s = inner.step(action);
            for (dev.openagent.sandbox.Observation o : s.observations()) {
                if (o.isError() && o.tool() != null) toolErrors.add(o.tool() + ": " + abbreviate(o.error().message()));
            }
            if (s.done() && s.outcome() != null && !s.outcome().success() && !toolErrors.isEmpty()) {
                // A failed check often has its cause in a tool that failed earlier (a server refusing writes, say).
                dev.openagent.sandbox.Outcome o = s.outcome();
                s = s.withOutcome(new dev.openagent.sandbox.Outcome(o.success(), o.end(), o.detail() + "; the episode's tool errors: "
                        + String.join(" | ", toolErrors.subList(0, Math.min(3, toolErrors.size())))
                        + (toolErrors.size() > 3 ? " (and " + (toolErrors.size() - 3) + " more)" : ""), o.attacked()));
            }
            if (s.done() && lease.worker != null) {
                release(lease.worker);
                lease.worker = null;
            }
            return s;
        }
    }

    /** The worker an episode of a {@link FileEnv} holds, read by its domain's world. */
    private static final class Lease {
        Worker worker;
    }

    private static String abbreviate(String s) {
        String line = s.replaceAll("\\s+", " ").strip();
        return line.length() <= 160 ? line : line.substring(0, 157) + "...";
    }

    /** The file's domain run on the worker the lease holds. */
    private DomainEnv<Worker> episodes(Lease lease) {
        Domain<Worker> d = domain;
        return new DomainEnv<>(new Domain<>(d.id(), d.description(), d.rules(), d.surface(), (split, seed) -> lease.worker,
                d.kinds(), d.generator(), d.checker(), d.vocabulary()), file.maxSteps() == null ? d.maxSteps() : file.maxSteps());
    }
}
