package dev.openagent.store;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server for tests (Debian's {@code postgresql} package, which {@code .ci/run}
 * installs), started on 127.0.0.1 on a free port in a temporary directory the first time a test
 * asks for it, and stopped when the test JVM exits. Each test gets a database of its own.
 * <p>
 * Two roles: {@value #TRUSTED} logs in without a password (in-process tests, which cannot set
 * environment variables), {@value #SHARDER} only with {@value #PASSWORD}, as a deployment would
 * (tests that start {@code openagent} processes pass it in {@code PGPASSWORD}).
 * <p>
 * Without PostgreSQL installed the tests that need it are skipped, except under {@code CI=true},
 * where that is a failure: CI must not pass by skipping them.
 */
public final class LocalPostgres {
    public static final String TRUSTED = "openagent";
    public static final String SHARDER = "sharder";
    public static final String PASSWORD = "shard-secret";

    private static LocalPostgres instance;
    private static final AtomicInteger DATABASES = new AtomicInteger();

    private final Path bin;
    private final Path data;
    private final int port;
    private final boolean asPostgresUser;

    private LocalPostgres(Path bin, Path data, int port, boolean asPostgresUser) {
        this.bin = bin;
        this.data = data;
        this.port = port;
        this.asPostgresUser = asPostgresUser;
    }

    /** The server, started on first use; skips the test (fails it under CI) when PostgreSQL is not installed. */
    public static synchronized LocalPostgres get() {
        if (instance != null) return instance;
        Path bin = findBin();
        if (bin == null) {
            String why = "PostgreSQL is not installed (Debian: apt-get install postgresql; .ci/run does it)";
            if ("true".equals(System.getenv("CI"))) throw new IllegalStateException(why);
            Assumptions.abort(why);
        }
        try {
            instance = start(bin);
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("cannot start PostgreSQL for the tests: " + e.getMessage(), e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(instance::stop, "local-postgres-stop"));
        return instance;
    }

    public int port() { return port; }

    /** A new, empty database; returns its name. */
    public String createDatabase() {
        String name = "t" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
        try (Connection c = connect("postgres"); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name + " OWNER " + SHARDER);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name + ": " + e.getMessage(), e);
        }
        return name;
    }

    /** {@code postgresql://USER@127.0.0.1:PORT/DB}, as a user passes it to --store. */
    public String url(String user, String database) {
        return "postgresql://" + user + "@127.0.0.1:" + port + "/" + database;
    }

    /** A store location for the trusted role (no password needed). */
    public StoreLocation location(String database) {
        return StoreLocation.parse(url(TRUSTED, database), "OPENAGENT_TEST_NO_PASSWORD");
    }

    /** A JDBC connection as the trusted role, for checks a test makes behind the store's back. */
    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?user=" + TRUSTED);
    }

    private static Path findBin() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, "initdb");
            if (Files.isExecutable(p)) {
                try {
                    return p.toRealPath().getParent();
                } catch (IOException e) {
                    return p.getParent();
                }
            }
        }
        Path debian = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(debian)) return null;
        try (Stream<Path> versions = Files.list(debian)) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("initdb")))
                    .max(Comparator.comparingInt(b -> Integer.parseInt(b.getParent().getFileName().toString().replaceAll("\\D", "0"))))
                    .orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    private static LocalPostgres start(Path bin) throws IOException, InterruptedException {
        // PostgreSQL refuses to run as root: then it runs as the postgres user Debian's package creates.
        boolean root = "root".equals(System.getProperty("user.name"));
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "openagent-pg-");
        Path data = dir.resolve("data");
        Path pwfile = dir.resolve("pw");
        Files.writeString(pwfile, PASSWORD + "\n");
        if (root) run(List.of("chown", "-R", "postgres:postgres", dir.toString()), false, 30);
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        LocalPostgres pg = new LocalPostgres(bin, data, port, root);
        run(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", TRUSTED, "--auth-local=trust", "--auth-host=reject",
                "-E", "UTF8", "--locale=C"), root, 120);
        // Who may log in from 127.0.0.1: the trusted role without a password, every other role with one.
        Files.writeString(data.resolve("pg_hba.conf"), """
                local all all trust
                host all %s 127.0.0.1/32 trust
                host all all 127.0.0.1/32 scram-sha-256
                """.formatted(TRUSTED), StandardCharsets.UTF_8);
        pg.run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("log").toString(), "-w", "-t", "60",
                "-o", "-c listen_addresses=127.0.0.1 -p " + port + " -k " + dir + " -c fsync=off -c synchronous_commit=off"
                        + " -c full_page_writes=off -c max_connections=60 -c shared_buffers=32MB", "start"));
        try (Connection c = pg.connect("postgres"); Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + SHARDER + " LOGIN PASSWORD '" + PASSWORD + "'");
        } catch (SQLException e) {
            throw new IOException("PostgreSQL started but refused the set-up: " + e.getMessage(), e);
        }
        return pg;
    }

    private void run(List<String> command) throws IOException, InterruptedException {
        run(command, asPostgresUser, 90);
    }

    private static void run(List<String> command, boolean asPostgres, int seconds) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (asPostgres) full.addAll(List.of("runuser", "-u", "postgres", "--"));
        full.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(full).redirectErrorStream(true);
        pb.environment().putAll(Map.of("LC_ALL", "C"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not finish in " + seconds + " s");
        }
        if (p.exitValue() != 0) throw new IOException(String.join(" ", full) + " failed (" + p.exitValue() + "): " + out.strip());
    }

    /** Stops the server at once (its data is thrown away) and deletes its directory. */
    private void stop() {
        try {
            run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "-w", "stop"));
        } catch (IOException | InterruptedException e) {
            System.err.println("could not stop the test PostgreSQL: " + e.getMessage());
        }
        try (Stream<Path> files = Files.walk(data.getParent())) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind
        }
    }
}
