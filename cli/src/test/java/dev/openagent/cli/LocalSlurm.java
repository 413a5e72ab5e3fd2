package dev.openagent.cli;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A one-node Slurm cluster on 127.0.0.1 for tests (Debian's {@code slurm-wlm} and {@code munge},
 * which {@code .ci/run} installs). Everything is private to it: a munged with its own key and
 * socket, slurmctld and slurmd in the foreground as the user running the tests (who is then
 * SlurmUser and the only job owner), a slurm.conf on free ports that {@code SLURM_CONF} points to,
 * and state, spool and logs in a temporary directory that {@link #close()} deletes after stopping
 * the jobs and the daemons. The machine's own Slurm and munge, if any, are not touched.
 * <p>
 * Without Slurm installed the test is skipped, except under {@code CI=true}, where that is a failure.
 */
final class LocalSlurm implements AutoCloseable {
    private static final List<String> PROGRAMS = List.of("mungekey", "munged", "slurmctld", "slurmd", "sbatch", "scontrol", "sinfo", "scancel");
    /** Debian puts the daemons in /usr/sbin, which is not on an ordinary user's PATH. */
    private static final List<String> SBIN = List.of("/usr/sbin", "/usr/local/sbin", "/sbin");

    /** One task of a job array as {@code scontrol show job} reports it. */
    record Task(int index, String state, int restarts, String exitCode, String jobId) {}

    private final Path dir;
    private final Map<String, Path> programs;
    private final List<Process> daemons = new ArrayList<>();

    private LocalSlurm(Path dir, Map<String, Path> programs) {
        this.dir = dir;
        this.programs = programs;
    }

    /** Starts the cluster and waits until its node is idle; skips the test (fails it under CI) when Slurm is not installed. */
    static LocalSlurm start() throws IOException, InterruptedException {
        Map<String, Path> programs = new HashMap<>();
        List<String> missing = new ArrayList<>();
        for (String p : PROGRAMS) {
            Path found = find(p);
            if (found == null) missing.add(p);
            else programs.put(p, found);
        }
        if (!missing.isEmpty()) {
            String why = "Slurm is not installed (missing " + String.join(", ", missing) + "; Debian: apt-get install --no-install-recommends slurmctld slurmd slurm-client munge; .ci/run does it)";
            if ("true".equals(System.getenv("CI"))) throw new IllegalStateException(why);
            Assumptions.abort(why);
        }
        // Under /tmp, not a JUnit @TempDir: munge wants every directory on its socket's path searchable by all,
        // and the socket path must stay short.
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "openagent-slurm-");
        LocalSlurm slurm = new LocalSlurm(dir, programs);
        try {
            slurm.boot();
        } catch (IOException | InterruptedException | RuntimeException e) {
            slurm.close();
            throw e;
        }
        return slurm;
    }

    private void boot() throws IOException, InterruptedException {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path key = Files.createDirectory(dir.resolve("munge-key"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        for (String d : List.of("state", "spool", "logs")) Files.createDirectory(dir.resolve(d));
        Path socket = dir.resolve("munge.socket");
        run(List.of(program("mungekey"), "--create", "--keyfile", key.resolve("munge.key").toString()), Map.of(), 30);
        daemon("munged", program("munged"), "--foreground", "--socket=" + socket, "--key-file=" + key.resolve("munge.key"),
                "--pid-file=" + dir.resolve("munged.pid"), "--log-file=" + dir.resolve("logs/munged.log"), "--seed-file=" + key.resolve("munged.seed"));
        await("munged to create its socket", 30, () -> Files.exists(socket));

        // The node as slurmd sees this machine (CPUs, memory), named as slurmctld's host must be: the short host name.
        String hardware = run(List.of(program("slurmd"), "-C"), Map.of(), 30);
        String cpus = field(hardware, "CPUs"), memory = field(hardware, "RealMemory");
        String host = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip().split("\\.")[0];
        String user = System.getProperty("user.name");
        Files.writeString(dir.resolve("plugstack.conf"), "");
        Files.writeString(conf(), """
                ClusterName=openagent-test
                SlurmctldHost=%1$s(127.0.0.1)
                SlurmctldPort=%2$d
                SlurmdPort=%3$d
                SlurmUser=%4$s
                SlurmdUser=%4$s
                AuthType=auth/munge
                CredType=cred/munge
                # cred_expire is also how long a requeued job waits before it may start again (default 120 s).
                AuthInfo=socket=%5$s,cred_expire=10
                StateSaveLocation=%6$s/state
                SlurmdSpoolDir=%6$s/spool
                SlurmctldPidFile=%6$s/slurmctld.pid
                SlurmdPidFile=%6$s/slurmd.pid
                SlurmctldLogFile=%6$s/logs/slurmctld.log
                SlurmdLogFile=%6$s/logs/slurmd.log
                PlugStackConfig=%6$s/plugstack.conf
                ProctrackType=proctrack/linuxproc
                TaskPlugin=task/none
                JobAcctGatherType=jobacct_gather/none
                AccountingStorageType=accounting_storage/none
                JobCompType=jobcomp/none
                MpiDefault=none
                SelectType=select/cons_tres
                SelectTypeParameters=CR_CPU
                # A scheduling pass every second (default 60 s), so a requeued task starts once it may.
                SchedulerParameters=sched_interval=1
                # Batch jobs are requeued only when they ask for it (sbatch --requeue): a test shows that the script does.
                JobRequeue=0
                ReturnToService=2
                KillWait=5
                MinJobAge=600
                NodeName=%1$s NodeAddr=127.0.0.1 CPUs=%7$s RealMemory=%8$s State=UNKNOWN
                PartitionName=test Nodes=%1$s Default=YES MaxTime=INFINITE State=UP
                """.formatted(host, freePort(), freePort(), user, socket, dir, cpus, memory));
        daemon("slurmctld", program("slurmctld"), "-D");
        daemon("slurmd", program("slurmd"), "-D", "-N", host);
        await("the node to be idle (sinfo)", 60, () -> {
            try {
                return run(List.of(program("sinfo"), "-h", "-o", "%t"), env(), 30).strip().equals("idle");
            } catch (IOException e) {
                return false;  // slurmctld not answering yet
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** The environment a Slurm command needs here: {@code SLURM_CONF}. */
    Map<String, String> env() {
        return Map.of("SLURM_CONF", conf().toString());
    }

    /** {@code sbatch --parsable ARGS} from {@code workDir} with {@code env} added; returns the job id. */
    String sbatch(Path workDir, Map<String, String> env, List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(program("sbatch"), "--parsable"));
        command.addAll(args);
        Map<String, String> all = new HashMap<>(env);
        all.putAll(env());
        return run(command, all, workDir, 60).strip().split(";")[0];
    }

    /** A Slurm command ({@code scontrol}, {@code scancel}, ...) with ARGS; returns its output. */
    String command(String program, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(program(program)));
        command.addAll(List.of(args));
        return run(command, env(), 60);
    }

    private static final Pattern TASK = Pattern.compile("^JobId=(\\S+) .*?ArrayTaskId=(\\S+) .*?JobState=(\\S+) .*?Restarts=(\\d+) .*?ExitCode=(\\S+)");

    /** The tasks of array job {@code jobId} by index (pending tasks that Slurm still holds as one record are listed one by one). */
    Map<Integer, Task> tasks(String jobId) throws IOException, InterruptedException {
        Map<Integer, Task> out = new java.util.TreeMap<>();
        for (String line : command("scontrol", "show", "job", "-o", jobId).split("\\R")) {
            Matcher m = TASK.matcher(line);
            if (!m.find()) continue;
            for (String part : m.group(2).replaceFirst("%.*", "").split(",")) {
                String[] range = part.split("-");
                int from = Integer.parseInt(range[0]), to = Integer.parseInt(range[range.length - 1]);
                for (int i = from; i <= to; i++) out.put(i, new Task(i, m.group(3), Integer.parseInt(m.group(4)), m.group(5), m.group(1)));
            }
        }
        return out;
    }

    /** Polls {@code condition} every 100 ms for up to {@code seconds}; fails naming {@code what}, with the daemons' logs. */
    void await(String what, int seconds, BooleanSupplier condition) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            for (Process p : daemons) {
                if (!p.isAlive()) throw new IllegalStateException("a Slurm daemon exited (" + p.exitValue() + ") while waiting for " + what + logs());
            }
            if (System.nanoTime() > deadline) throw new IllegalStateException("no " + what + " within " + seconds + " s" + logs());
            Thread.sleep(100);
        }
    }

    /** The ends of the daemons' logs, for a failure message. */
    String logs() throws IOException {
        StringBuilder sb = new StringBuilder();
        try (Stream<Path> files = Files.list(dir.resolve("logs"))) {
            for (Path f : files.sorted().toList()) {
                List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                sb.append("\n--- ").append(f.getFileName()).append(" (last lines)\n")
                        .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size())));
            }
        }
        return sb.toString();
    }

    /** Cancels every job, waits for them to end, stops slurmd, slurmctld and munged, and deletes the directory. */
    @Override
    public void close() {
        try {
            if (daemons.size() == 3) {
                run(List.of(program("scancel"), "--user", System.getProperty("user.name")), env(), 60);
                await("the cancelled jobs to end", 60, () -> {
                    try {
                        return command("scontrol", "show", "job", "-o").lines().noneMatch(l -> l.contains("JobState=RUNNING") || l.contains("JobState=COMPLETING"));
                    } catch (IOException | InterruptedException e) {
                        return true;
                    }
                });
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            System.err.println("LocalSlurm: could not cancel the jobs: " + e.getMessage());
        }
        for (Process p : daemons.reversed()) {
            p.destroy();
            try {
                if (!p.waitFor(30, TimeUnit.SECONDS)) p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                p.destroyForcibly();
            }
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind
        }
    }

    private Path conf() { return dir.resolve("slurm.conf"); }

    private String program(String name) { return programs.get(name).toString(); }

    private void daemon(String name, String... command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("logs/" + name + ".out").toFile());
        pb.environment().putAll(env());
        daemons.add(pb.start());
    }

    private static String field(String slurmdC, String name) {
        Matcher m = Pattern.compile("\\b" + name + "=(\\d+)").matcher(slurmdC);
        if (!m.find()) throw new IllegalStateException("slurmd -C printed no " + name + ": " + slurmdC);
        return m.group(1);
    }

    private static Path find(String program) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(SBIN);
        for (String d : dirs) {
            Path p = Path.of(d.isEmpty() ? "." : d, program);
            if (Files.isExecutable(p)) return p;
        }
        return null;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private String run(List<String> command, Map<String, String> env, int seconds) throws IOException, InterruptedException {
        return run(command, env, dir, seconds);
    }

    /** Runs a command to its end; returns its standard output, or throws with its error output when it fails. */
    private String run(List<String> command, Map<String, String> env, Path workDir, int seconds) throws IOException, InterruptedException {
        Path err = Files.createTempFile(dir, "command-", ".err");
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile()).redirectError(err.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish in " + seconds + " s");
            }
            if (p.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " failed (" + p.exitValue() + "): " + (out + Files.readString(err)).strip());
            }
            return out;
        } finally {
            Files.deleteIfExists(err);
        }
    }
}
