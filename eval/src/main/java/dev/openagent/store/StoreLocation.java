package dev.openagent.store;

import dev.openagent.UserInputException;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import org.sqlite.SQLiteConfig;

/**
 * Where a results store lives: an SQLite file (the default, one machine) or a PostgreSQL database
 * (many processes on many machines writing one run). Both hold the same schema and behave the
 * same; what differs is here: how to connect, and the few statements one engine needs.
 */
public sealed interface StoreLocation {
    /** The variable the PostgreSQL password is read from unless another is named. */
    String DEFAULT_PASSWORD_ENV = "PGPASSWORD";

    /** A connection with auto-commit on. */
    Connection connect() throws SQLException;

    /** A connection that cannot write (a store merged from, which must stay as it is). */
    Connection connectReadOnly() throws SQLException;

    /** Appended to {@code CREATE TABLE} of tables keyed by text only (SQLite stores them without a rowid). */
    String keyedTableOptions();

    /**
     * Serializes schema creation among processes that open a new store at the same moment (called
     * inside the transaction that checks and creates the schema).
     */
    void lockSchema(Connection c) throws SQLException;

    /** Whether the store must already exist to be read ({@code report} on a missing file is an error, not a new store). */
    boolean exists();

    /**
     * Reads {@code --store}: {@code postgresql://USER@HOST[:PORT]/DB[?param=value&...]} or a file path.
     *
     * @param passwordEnv the environment variable holding the PostgreSQL password (never the command line)
     */
    static StoreLocation parse(String text, String passwordEnv) {
        if (text.startsWith("postgresql://") || text.startsWith("postgres://")) return Postgres.parse(text, passwordEnv);
        if (text.matches("^[a-zA-Z][a-zA-Z0-9+.-]*://.*")) {
            throw new UserInputException("--store '" + text + "': a results store is a file path or postgresql://USER@HOST:PORT/DB");
        }
        return new SqliteFile(Path.of(text));
    }

    /** An SQLite file in WAL mode: one writer process at a time (others wait), any number of readers. */
    record SqliteFile(Path file) implements StoreLocation {
        @Override
        public Connection connect() throws SQLException {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                try {
                    Files.createDirectories(parent);
                } catch (java.io.IOException e) {
                    throw new UserInputException("cannot create the directory of " + file + ": " + e.getMessage(), e);
                }
            }
            Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA busy_timeout=30000");
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA synchronous=NORMAL");
            } catch (SQLException e) {
                c.close();
                throw e;
            }
            return c;
        }

        @Override
        public Connection connectReadOnly() throws SQLException {
            if (!Files.isRegularFile(file)) throw new UserInputException("no results store at " + file);
            SQLiteConfig config = new SQLiteConfig();
            config.setReadOnly(true);
            config.setBusyTimeout(30_000);
            return DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath(), config.toProperties());
        }

        @Override
        public String keyedTableOptions() { return " WITHOUT ROWID"; }

        @Override
        public void lockSchema(Connection c) {
            // SQLite takes the database's write lock with the first CREATE; busy_timeout makes others wait.
        }

        @Override
        public boolean exists() { return Files.isRegularFile(file); }

        @Override
        public String toString() { return file.toString(); }
    }

    /**
     * A PostgreSQL database. The password comes from the environment variable {@code passwordEnv}
     * (PGPASSWORD unless named otherwise), never from the URL, so it stays out of shell history,
     * process lists and Kubernetes manifests.
     *
     * @param params further connection parameters from the URL's query ({@code sslmode=require}, ...)
     */
    record Postgres(String user, String host, int port, String database, Map<String, String> params, String passwordEnv)
            implements StoreLocation {
        /** A fixed key for the advisory lock that serializes schema creation ("openagent" in ASCII). */
        private static final long SCHEMA_LOCK = 0x6f70656e6167656eL;

        public Postgres {
            params = Map.copyOf(params);
        }

        static Postgres parse(String text, String passwordEnv) {
            URI uri;
            try {
                uri = new URI(text);
            } catch (URISyntaxException e) {
                throw new UserInputException("--store '" + text + "' is not a URL of the form postgresql://USER@HOST:PORT/DB");
            }
            String info = uri.getRawUserInfo();
            if (info != null && info.contains(":")) {
                throw new UserInputException("--store: put no password in the URL; set it in the environment variable "
                        + (passwordEnv == null ? DEFAULT_PASSWORD_ENV : passwordEnv) + " instead");
            }
            String host = uri.getHost();
            String path = uri.getRawPath() == null ? "" : uri.getRawPath();
            if (host == null || path.length() < 2 || path.indexOf('/', 1) >= 0) {
                throw new UserInputException("--store '" + text + "': expected postgresql://USER@HOST:PORT/DB (a host and one database name)");
            }
            Map<String, String> params = new LinkedHashMap<>();
            if (uri.getRawQuery() != null) {
                for (String kv : uri.getRawQuery().split("&")) {
                    if (kv.isEmpty()) continue;
                    int eq = kv.indexOf('=');
                    String k = decode(eq < 0 ? kv : kv.substring(0, eq));
                    if (k.equalsIgnoreCase("password")) {
                        throw new UserInputException("--store: put no password in the URL; set it in the environment variable "
                                + (passwordEnv == null ? DEFAULT_PASSWORD_ENV : passwordEnv) + " instead");
                    }
                    params.put(k, eq < 0 ? "" : decode(kv.substring(eq + 1)));
                }
            }
            // Checked here: the driver would print a logging warning and an "unable to parse" error quoting its own URL.
            if (uri.getPort() == 0 || uri.getPort() > 65535) {
                throw new UserInputException("--store '" + text + "': the port must be between 1 and 65535, not " + uri.getPort());
            }
            return new Postgres(info == null ? null : decode(info), host, uri.getPort() < 0 ? 5432 : uri.getPort(),
                    decode(path.substring(1)), params, passwordEnv == null ? DEFAULT_PASSWORD_ENV : passwordEnv);
        }

        private static String decode(String s) {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        }

        @Override
        public Connection connect() throws SQLException {
            Properties p = new Properties();
            // Bounded waits, so an unreachable server is an error within seconds, not a hang.
            p.setProperty("connectTimeout", "10");
            p.setProperty("loginTimeout", "20");
            p.setProperty("tcpKeepAlive", "true");
            p.setProperty("ApplicationName", "openagent");
            p.setProperty("reWriteBatchedInserts", "true");
            p.putAll(params);
            if (user != null) p.setProperty("user", user);
            String password = System.getenv(passwordEnv);
            if (password != null && !password.isEmpty()) p.setProperty("password", password);
            String h = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
            return DriverManager.getConnection("jdbc:postgresql://" + h + ":" + port + "/" + database, p);
        }

        @Override
        public Connection connectReadOnly() throws SQLException {
            Connection c = connect();
            try {
                c.setReadOnly(true);
            } catch (SQLException e) {
                c.close();
                throw e;
            }
            return c;
        }

        @Override
        public String keyedTableOptions() { return ""; }

        @Override
        public void lockSchema(Connection c) throws SQLException {
            try (Statement s = c.createStatement()) {
                s.execute("SELECT pg_advisory_xact_lock(" + SCHEMA_LOCK + ")");
            }
        }

        @Override
        public boolean exists() { return true; }

        /** Where the password comes from, for errors about it. */
        String passwordHint() {
            return System.getenv(passwordEnv) == null ? " (no password given: set " + passwordEnv + ")"
                    : " (the password is read from " + passwordEnv + ")";
        }

        @Override
        public String toString() {
            return "postgresql://" + (user == null ? "" : user + "@") + host + ":" + port + "/" + database;
        }
    }
}
