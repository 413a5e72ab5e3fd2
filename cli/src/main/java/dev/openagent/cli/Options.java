package dev.openagent.cli;

import dev.openagent.UserInputException;
import dev.openagent.byo.FileEnvironment;
import dev.openagent.tau2.Tau2Checkout;
import dev.openagent.tau2.Tau2Retail;
import dev.openagent.registry.Catalog;
import dev.openagent.json.Json;
import dev.openagent.run.Conditions;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Split;
import dev.openagent.server.http.BearerAuth;
import dev.openagent.server.http.HttpService;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.store.ResultStore;
import dev.openagent.store.StoreLocation;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The options several commands share, as picocli mixins: each is declared, documented and checked
 * once. A command that wants another default passes it to the constructor ({@code @Mixin
 * Options.Shift shift = new Options.Shift("all")}); picocli shows that initial value as the default.
 */
final class Options {
    private Options() {}

    /** {@code --tau2-dir}: where the tau2-bench checkout {@code --env tau2:retail} reads is. */
    static final class Tau2Dir {
        @Option(names = "--tau2-dir", paramLabel = "DIR", description = "The tau2-bench checkout (or its data folder) that --env tau2:retail reads "
                + "(default: $" + Tau2Checkout.ENV_VAR + ", else " + Tau2Checkout.SHARED + ").")
        String dir;
    }

    /** {@code --env}: one environment. */
    static final class Env {
        @Option(names = "--env", paramLabel = "ENV", description = "Environment id, tau2:retail (tau2-bench's retail domain, docs/tau2.md), "
                + "or an environment file (docs/bring-your-own.md) (default: ${DEFAULT-VALUE}).")
        String id = "poi";

        @Mixin
        Tau2Dir tau2 = new Tau2Dir();

        @Spec(Spec.Target.MIXEE)
        CommandSpec command;

        /** The command line's catalog, which the environment is loaded into and looked up in. */
        Catalog catalog() { return Main.catalog(command); }

        /** The environment; a file's is loaded once and {@link #id} becomes its id (what reports and labels use). */
        Environment environment() {
            Environment e = resolve(catalog(), id, tau2.dir);
            id = e.id();
            return e;
        }

        /** The id tau2-bench's retail domain is asked for by ({@code --env tau2:retail}); its episodes carry {@value Tau2Retail#ID}. */
        static final String TAU2_RETAIL = "tau2:retail";

        /**
         * A built-in environment by id; tau2-bench's retail domain ({@value #TAU2_RETAIL}, or its id), read from the
         * checkout {@code tau2Dir} names (else $TAU2_DATA_DIR, else the snapshot beside the repository); or an
         * environment file (a path to a .yaml, .yml or .json file). One that is loaded is loaded into {@code catalog}
         * once (a file's server checked and its tasks read) under its id, so everything given the catalog reaches it by
         * id; it closes with the catalog.
         */
        static Environment resolve(Catalog catalog, String idOrPath, String tau2Dir) {
            if (idOrPath.equals(TAU2_RETAIL) || idOrPath.equals(Tau2Retail.ID)) {
                Path dir = Tau2Checkout.choose(tau2Dir, System.getenv(Tau2Checkout.ENV_VAR)).toAbsolutePath().normalize();
                return catalog.load(dir.resolve("#" + TAU2_RETAIL), () -> Tau2Retail.load(dir));
            }
            if (idOrPath.startsWith("tau2:")) {
                throw new Main.UserError("tau2-bench domain '" + idOrPath.substring(5) + "' is not supported (only " + TAU2_RETAIL + ")");
            }
            if (!isFile(idOrPath)) return catalog.get(idOrPath);
            Path p = Path.of(idOrPath).toAbsolutePath().normalize();
            return catalog.load(p, () -> FileEnvironment.load(p));
        }

        static boolean isFile(String idOrPath) {
            return idOrPath.endsWith(".yaml") || idOrPath.endsWith(".yml") || idOrPath.endsWith(".json") || idOrPath.contains("/");
        }

        /**
         * Refuses a split an environment file has no task of (a file whose tasks are all test tasks, served on the train
         * split, would fail every reset): one line naming the split it has. Built-in environments generate both.
         */
        static void requireTasks(Environment e, dev.openagent.sandbox.Split split) {
            if (!(e instanceof FileEnvironment f) || f.tasks(split) > 0) return;
            java.util.TreeMap<String, java.util.Set<String>> ids = new java.util.TreeMap<>(f.taskIds());
            if (ids.isEmpty()) throw new Main.UserError(e.id() + " has no task");
            String has = ids.entrySet().stream().map(x -> x.getValue().size() + " " + x.getKey()).collect(java.util.stream.Collectors.joining(" and "));
            throw new Main.UserError(e.id() + " has no " + split.id() + " task (its file has " + has + "): pass --split " + ids.firstKey());
        }

        /** The environment, checked to have this difficulty level (0: any). */
        Environment environment(int difficulty) {
            Environment e = environment();
            if (difficulty != 0 && !e.info().difficulties().contains(difficulty)) {
                throw new Main.UserError(id + " has no difficulty " + difficulty + " (levels: " + e.info().difficulties() + ")");
            }
            return e;
        }
    }

    /** {@code --seed}. */
    static final class Seed {
        @Option(names = "--seed", paramLabel = "SEED", description = "Seed of everything drawn at random (tasks, shifts, weights): the same seed gives "
                + "the same results (default: ${DEFAULT-VALUE}).")
        long value;

        Seed() { this(1); }

        Seed(long initial) { value = initial; }
    }

    /** {@code --split}. */
    static final class SplitOption {
        @Option(names = "--split", paramLabel = "SPLIT", description = "train or test (default: ${DEFAULT-VALUE}).")
        String name;

        SplitOption() { this("test"); }

        SplitOption(String initial) { name = initial; }

        Split split() { return Split.parse(name); }
    }

    /** {@code --shift}: a shift spec, checked before anything runs. */
    static final class Shift {
        @Option(names = "--shift", paramLabel = "SPEC", description = "Shift spec: none, ID[:k=v,...], A+B (composed), tier:NAME, "
                + "all (each shift separately); ';' joins specs; peers' names (shifts --aliases) and severity words (ID:heavy) are "
                + "written out as catalog ids (default: ${DEFAULT-VALUE}).")
        String spec;

        Shift() { this("none"); }

        Shift(String initial) { spec = initial; }

        @Spec(Spec.Target.MIXEE)
        CommandSpec command;

        /**
         * The spec given (checked, peers' names and severity words written out as catalog ids), or the command's default;
         * null when the default is none (eval: the experiment file's).
         */
        String spec() { return spec == null ? null : check(spec, "--shift"); }

        /** The spec's conditions on the environment, resolved in the command line's catalog. */
        Conditions conditions(Environment environment, boolean pairs) {
            return Conditions.of(Main.catalog(command), spec(), environment, pairs);
        }

        /**
         * The spec, checked as {@link ShiftSpec} reads it (typos such as {@code +}, {@code obs.format:}, an
         * empty condition or parameter, unknown ids, tiers and parameters, an alias given parameters are its errors), as
         * one line; returned in catalog terms ({@link ShiftSpec#canonical}), which is what the command then runs, stores and
         * reports.
         *
         * @param source where the spec was written, for the error ({@code --shift}, a file's {@code shifts:})
         */
        static String check(String spec, String source) {
            try {
                ShiftSpec.expand(spec);
                return ShiftSpec.canonical(spec);
            } catch (IllegalArgumentException e) {
                throw new Main.UserError(source + " '" + spec + "': " + e.getMessage());
            }
        }
    }

    /** {@code --threads}. */
    static final class Threads {
        @Option(names = "--threads", paramLabel = "N", description = "Worker threads (default: available processors).")
        Integer count;

        int workers() { return count == null ? Runtime.getRuntime().availableProcessors() : Math.max(1, count); }
    }

    /** {@code --json}: the result as JSON on standard output instead of text. */
    static final class JsonOutput {
        @Option(names = "--json", description = "Print the result as JSON on standard output.")
        boolean on;

        void print(Object value) { System.out.println(Json.pretty(value)); }
    }

    /** {@code --episodes} of a benchmark. */
    static final class Episodes {
        @Option(names = "--episodes", paramLabel = "N", description = "Episodes measured (default: ${DEFAULT-VALUE}).")
        int count;

        Episodes(int initial) { count = initial; }

        int count() {
            if (count < 1) throw new Main.UserError("--episodes must be at least 1");
            return count;
        }
    }

    /** {@code --store}: the results store, an SQLite file or a PostgreSQL database. */
    static final class Store {
        @Option(names = "--store", paramLabel = "PATH|URL", description = "Results store: an SQLite file, or postgresql://USER@HOST:PORT/DB "
                + "(default: ${DEFAULT-VALUE}).")
        String spec = ResultStore.DEFAULT.toString();

        @Mixin
        StorePassword password = new StorePassword();

        StoreLocation location() { return password.location(spec); }
    }

    /** {@code --store} where it is optional: record the command's run (and its learning curve) in a results store. */
    static final class OptionalStore {
        @Option(names = "--store", paramLabel = "PATH|URL", description = "Record this run and its learning curve in a results store: an SQLite "
                + "file, or postgresql://USER@HOST:PORT/DB (`openagent view --store` charts it; docs/view.md).")
        String spec;

        @Mixin
        StorePassword password = new StorePassword();

        /** The store, or null when none was named. */
        StoreLocation location() { return spec == null ? null : password.location(spec); }
    }

    /** {@code --store-password-env}: where a PostgreSQL store's password comes from (never the command line). */
    static final class StorePassword {
        @Option(names = "--store-password-env", paramLabel = "NAME",
                description = "Environment variable holding the PostgreSQL password (default: ${DEFAULT-VALUE}).")
        String variable = StoreLocation.DEFAULT_PASSWORD_ENV;

        /** A store named on the command line. */
        StoreLocation location(String text) {
            if (text == null || text.isBlank()) throw new Main.UserError("a results store is a file path or a postgresql:// URL, not empty");
            return StoreLocation.parse(text, variable);
        }
    }

    /** Where a server listens and whom it lets in: {@code --host}, {@code --token-env}, {@code --max-body}. */
    static final class Listen {
        @Option(names = "--host", paramLabel = "HOST", description = "Address to bind (default: ${DEFAULT-VALUE}).")
        String host = "127.0.0.1";

        @Option(names = "--token-env", paramLabel = "NAME",
                description = "Require 'Authorization: Bearer <token>', the token read from this environment variable.")
        String tokenEnv;

        @Option(names = "--max-body", paramLabel = "BYTES", description = "Largest request body (default: ${DEFAULT-VALUE}).")
        long maxBody;

        Listen(long maxBody) { this.maxBody = maxBody; }

        BearerAuth auth() { return BearerAuth.fromEnv(tokenEnv); }

        /** Warns on stderr when the server is reachable from other machines without a token. */
        void warnIfExposed(String server) {
            if (!HttpService.isLoopback(host) && tokenEnv == null) {
                System.err.println(server + ": WARNING: listening on " + host + " without --token-env: anyone who can reach this port can use it");
            }
        }

        UserInputException cannotListen(int port, IOException e) {
            return new UserInputException("cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }
}
