package dev.openagent.cli;

import dev.openagent.run.Shard;
import dev.openagent.store.LocalPostgres;
import dev.openagent.store.ResultStore;
import dev.openagent.store.StoreLocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Scale-out on a real scheduler: {@code deploy/slurm/eval-array.sbatch} submitted with
 * {@code sbatch --array=0-3} to a one-node Slurm cluster ({@link LocalSlurm}), each task a real
 * {@code openagent eval --shard i/4} process writing one run into PostgreSQL ({@link LocalPostgres}),
 * the store's password read from the secrets file the script takes. In the middle of their shards,
 * Slurm requeues task 1 ({@code scontrol requeue}, as on preemption or a node failure), and task 3
 * gets the signal Slurm sends near the time limit (SIGUSR1 to the batch shell, {@code --signal=B:USR1@300}),
 * on which the script stops openagent and requeues the task itself. Each next attempt, appended to the
 * task's log, resumes its shard; the run then equals a single process's, episode for episode.
 * <p>
 * The mid-shard moment does not depend on timing: a trigger in the test's database makes a write of
 * shard 1 or 3 after its {@value #HELD_AFTER}rd stored episode wait on an advisory lock the test
 * holds, so when the task is stopped it has committed some of its episodes and is in the middle of
 * writing more. The lock is let go once the task's next attempt has started (Slurm starts it only
 * after the first has ended); the stopped attempt's uncommitted write is then rolled back.
 */
@Timeout(600) // a guard against a hang only; the scenario takes about a minute on a busy 2-core machine
class SlurmScaleOutTest {
    static final int SHARDS = 4;
    static final int REQUEUED = 1;
    /** The array's last task: its SLURM_JOB_ID is the array's own id (sbatch(1)), which names every task to scontrol. */
    static final int TIMED_OUT = 3;
    static final int HELD_AFTER = 3;
    static final long GATE_LOCK = 4140;
    static final String EXPERIMENT = """
            name: slurm-test
            agents:
              - kind: oracle
              - kind: random
            envs: [poi]
            shifts: ["obs.format:format=xml", "tool.semantic-rename"]
            tasks: 12
            seed: 7
            concurrency: 2
            """;
    static final Pattern PLANNED = Pattern.compile("eval: (\\d+) episodes planned, (\\d+) already done, (\\d+) to run");

    @TempDir
    Path dir;

    @Test
    void aFourTaskArrayWithTasksStoppedMidShardAndRequeuedWritesTheRunOneProcessWrites() throws Exception {
        try (LocalSlurm slurm = LocalSlurm.start()) {
            LocalPostgres pg = LocalPostgres.get();
            Path experiment = Files.writeString(dir.resolve("exp.yaml"), EXPERIMENT);

            // One process, the reference.
            Path singleStore = dir.resolve("single.db");
            CliTest.Result single = CliTest.run("eval", "--config", experiment.toString(), "--store", singleStore.toString(), "--no-progress", "--json");
            assertEquals(0, single.code(), single.err());
            String runId = single.json().path("run").asText();
            int planned = single.json().path("planned").asInt();
            Map<String, String> expected = ScaleOutTest.outcomes(new StoreLocation.SqliteFile(singleStore), runId);
            assertEquals(planned, expected.size());
            Map<Integer, List<String>> held = new TreeMap<>();
            for (int i : List.of(REQUEUED, TIMED_OUT)) {
                Shard shard = new Shard(i, SHARDS);
                held.put(i, expected.keySet().stream().filter(shard::contains).sorted().toList());
                assertTrue(held.get(i).size() > HELD_AFTER + 2, "shard " + i + " has too few episodes to stop midway: " + held.get(i).size());
            }

            String db = pg.createDatabase();
            holdShards(pg, db, held);
            Path secrets = Files.writeString(dir.resolve("secrets"), "# the store's password\nPGPASSWORD=" + LocalPostgres.PASSWORD + "\n");
            Files.setPosixFilePermissions(secrets, PosixFilePermissions.fromString("rw-------"));
            Map<String, String> env = Map.of("OPENAGENT", openagentCommand().toString(), "OPENAGENT_STORE", pg.url(LocalPostgres.SHARDER, db),
                    "OPENAGENT_SECRETS", secrets.toString());
            Path script = Path.of("..", "deploy", "slurm", "eval-array.sbatch").toAbsolutePath().normalize();

            String job;
            Map<Integer, Integer> before = new TreeMap<>();
            try (Connection gate = pg.connect(db); Statement s = gate.createStatement()) {
                for (int i : held.keySet()) s.execute("SELECT pg_advisory_lock(" + (GATE_LOCK + i) + ")");
                job = slurm.sbatch(dir, env, List.of("--array=0-" + (SHARDS - 1), script.toString(), "--config", experiment.toString()));

                for (int i : held.keySet()) {
                    // Shard i is held inside a write, with some of its episodes committed.
                    slurm.await("shard " + i + " to wait at the gate", 300, () -> waiting(gate, GATE_LOCK + i) > 0 || ended(slurm, job, i));
                    assertEquals("RUNNING", slurm.tasks(job).get(i).state(), "task " + i + " ended before the gate: " + read(log(job, i)));
                    before.put(i, ScaleOutTest.committed(pg, db, new Shard(i, SHARDS)));
                    // Held mid-shard. Usually some episodes are committed by then, but when the store's writer puts
                    // the first episodes in one transaction with the held one (a busy machine batches more), none are:
                    // the trigger counts the transaction's own rows too. The plans below check either case.
                    assertTrue(before.get(i) < held.get(i).size(), before + " of " + held.get(i).size() + " episodes of shard " + i + " committed");
                    if (i == TIMED_OUT) assertEquals(job, slurm.tasks(job).get(i).jobId(), "the last task runs under the array's job id");
                    if (i == REQUEUED) slurm.command("scontrol", "requeue", job + "_" + i);
                    else slurm.command("scancel", "--signal=USR1", "--batch", job + "_" + i);
                }
                // The next attempts start once the first have ended.
                for (int i : held.keySet()) {
                    slurm.await("task " + i + "'s second attempt", 300, () -> read(log(job, i)).contains("attempt 2") || ended(slurm, job, i));
                    assertTrue(read(log(job, i)).contains("attempt 2"), "task " + i + " ended instead of being requeued:\n" + read(log(job, i)));
                    s.execute("SELECT pg_advisory_unlock(" + (GATE_LOCK + i) + ")");
                }
            }
            slurm.await("the array job to end", 300, () -> {
                try {
                    Map<Integer, LocalSlurm.Task> tasks = slurm.tasks(job);
                    return tasks.size() == SHARDS && tasks.values().stream().allMatch(t -> isFinal(t.state()));
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });

            for (LocalSlurm.Task t : slurm.tasks(job).values()) {
                String log = read(log(job, t.index()));
                assertEquals("COMPLETED 0:0", t.state() + " " + t.exitCode(), "task " + t.index() + ":\n" + log);
                assertEquals(held.containsKey(t.index()) ? 1 : 0, t.restarts(), "task " + t.index() + " restarts:\n" + log);
                assertTrue(log.contains("shard " + t.index() + "/" + SHARDS + " scored"), log);
            }
            // A stopped task's log holds both attempts (--open-mode=append): the first planned the whole shard,
            // the second found what the first had committed and ran only the rest.
            for (int i : held.keySet()) {
                String log = read(log(job, i));
                assertTrue(log.contains("attempt 1") && log.contains("attempt 2"), log);
                int n = held.get(i).size(), done = before.get(i);
                List<List<Integer>> plans = PLANNED.matcher(log).results()
                        .map(m -> List.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)))).toList();
                assertEquals(List.of(List.of(n, 0, n), List.of(n, done, n - done)), plans, log);
            }
            assertTrue(read(log(job, REQUEUED)).contains("DUE TO JOB REQUEUE"), read(log(job, REQUEUED)));
            String timedOut = read(log(job, TIMED_OUT));
            assertTrue(timedOut.contains("time limit near") && timedOut.contains("requeueing it (restart 1 of at most 3)"), timedOut);

            // Nothing lost, nothing duplicated: the run's episodes are the single process's, one row each.
            assertEquals(expected, ScaleOutTest.outcomes(pg.location(db), runId));
            try (Connection c = pg.connect(db); Statement s = c.createStatement()) {
                assertEquals(planned, count(s, "SELECT count(*) FROM run_episodes WHERE run_id = '" + runId + "'"));
                assertEquals(planned, count(s, "SELECT count(*) FROM episodes"));
            }
            // The same experiment without --shard afterwards runs nothing, and its summary is the single process's.
            CliTest.Result whole = CliTest.run("eval", "--config", experiment.toString(), "--store", pg.url(LocalPostgres.TRUSTED, db), "--no-progress", "--json");
            assertEquals(0, whole.code(), whole.err());
            assertEquals(planned, whole.json().path("reused").asInt());
            assertEquals(0, whole.json().path("ran").asInt());
            assertEquals("complete", whole.json().path("status").asText());
            assertEquals(ScaleOutTest.comparable(single.json()), ScaleOutTest.comparable(whole.json()));
        }
    }

    /** Task i's log, where the script's --output puts it (the directory sbatch ran in). */
    Path log(String job, int task) {
        return dir.resolve("openagent-eval-" + job + "_" + task + ".log");
    }

    /**
     * Creates the store's schema (owned by the shards' role, as if a shard had created it) and a trigger that
     * makes a write of each held shard wait on its lock ({@link #GATE_LOCK} + the shard's index) once
     * {@value #HELD_AFTER} of its episodes are stored.
     */
    static void holdShards(LocalPostgres pg, String db, Map<Integer, List<String>> held) throws SQLException {
        ResultStore.open(pg.location(db)).close();
        StringBuilder checks = new StringBuilder();
        held.forEach((shard, ids) -> {
            String array = ids.stream().map(id -> "'" + id + "'").collect(Collectors.joining(",", "ARRAY[", "]"));
            checks.append("""
                      IF NEW.id = ANY (%1$s) AND (SELECT count(*) FROM episodes WHERE id = ANY (%1$s)) >= %2$d THEN
                        PERFORM pg_advisory_xact_lock_shared(%3$d);
                      END IF;
                    """.formatted(array, HELD_AFTER, GATE_LOCK + shard));
        });
        try (Connection c = pg.connect(db); Statement s = c.createStatement()) {
            for (String table : List.of("meta", "runs", "episodes", "run_episodes", "responses")) {
                s.execute("ALTER TABLE " + table + " OWNER TO " + LocalPostgres.SHARDER);
            }
            s.execute("CREATE FUNCTION hold_shards() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n" + checks + "  RETURN NEW;\nEND $$");
            s.execute("CREATE TRIGGER hold_shards BEFORE INSERT ON episodes FOR EACH ROW EXECUTE FUNCTION hold_shards()");
        }
    }

    /** Sessions waiting for the advisory lock {@code key} in this database. */
    static int waiting(Connection gate, long key) {
        try (Statement s = gate.createStatement()) {
            return count(s, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = " + key
                    + " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    static int count(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    static boolean ended(LocalSlurm slurm, String job, int task) {
        try {
            LocalSlurm.Task t = slurm.tasks(job).get(task);
            return t != null && isFinal(t.state());
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A state a task does not leave by itself (squeue(1), "JOB STATE CODES"). */
    static boolean isFinal(String state) {
        return List.of("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "OUT_OF_MEMORY", "NODE_FAIL", "BOOT_FAIL", "DEADLINE", "PREEMPTED")
                .contains(state);
    }

    /** {@code openagent} for the tasks: this build's CLI (the test classpath), with the JVM options ./openagent reads. */
    Path openagentCommand() throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path command = Files.writeString(bin.resolve("openagent"), """
                #!/bin/sh
                exec %s -XX:+UseSerialGC $OPENAGENT_JAVA_OPTS -cp %s %s "$@"
                """.formatted(quote(java), quote(System.getProperty("java.class.path")), Main.class.getName()));
        Files.setPosixFilePermissions(command, PosixFilePermissions.fromString("rwxr-xr-x"));
        return command;
    }

    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
