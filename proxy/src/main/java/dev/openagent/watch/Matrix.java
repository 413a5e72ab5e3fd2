package dev.openagent.watch;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.json.Json;
import dev.openagent.proxy.ProxySession;
import dev.openagent.proxy.Upstream;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftCatalog;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The watch's confusion matrix (docs/watch.md): every catalog shift that changes a tool surface or observations
 * ({@code tool.*}, {@code obs.*}), applied by the proxy's own engine ({@link ProxySession}) at severities 1-3 to the
 * official filesystem and memory servers, traffic from a scripted client; and unshifted sessions of the same varied
 * traffic, which must raise no event. The baseline of each server is learnt from unshifted sessions on other seeds.
 */
public final class Matrix {
    /** One planned call, by the upstream's own tool and parameter names. */
    record Call(String tool, Map<String, Object> args) {}

    /** A server the matrix runs: its command line and the varied traffic a client makes of it. */
    record Server(String name, List<String> command, Function<Random, Call> traffic) {}

    /** One shift at one severity: how many sessions, detected, with the right tier first, with the shift itself first. */
    public record Row(String shift, String tier, int severity, int sessions, int detected, int rightTier, int first, Map<String, Integer> tops) {}

    /** @param skipped shift ids that could not apply to a server, with why */
    public record Result(List<Row> rows, int cleanSessions, int cleanCalls, int falseEvents, List<String> falseExamples, int baselineCalls,
                         Map<String, String> skipped) {
        public ObjectNode toJson() {
            ObjectNode o = Json.object("clean_sessions", cleanSessions, "clean_calls", cleanCalls, "false_events", falseEvents, "baseline_calls", baselineCalls);
            falseExamples.forEach(o.putArray("false_examples")::add);
            ArrayNode rs = o.putArray("rows");
            for (Row r : rows) {
                ObjectNode x = rs.addObject();
                x.put("shift", r.shift()).put("tier", r.tier()).put("severity", r.severity()).put("sessions", r.sessions()).put("detected", r.detected())
                        .put("right_tier", r.rightTier()).put("ranked_first", r.first());
                ObjectNode tops = x.putObject("top_shift");
                r.tops().forEach(tops::put);
            }
            ObjectNode sk = o.putObject("not_applicable");
            skipped.forEach(sk::put);
            return o;
        }
    }

    private static final Pattern USE_INSTEAD = Pattern.compile("(?i)use '([^']+)' instead");
    private static final Pattern RENEW = Pattern.compile("Call (\\S+) to renew");

    private Matrix() {}

    /**
     * @param bin      the folder holding mcp-server-filesystem and mcp-server-memory (examples/mcp-servers/node_modules/.bin)
     * @param work     a folder of its own for the servers' files
     * @param seeds    sessions per shift, severity and server
     * @param calls    calls per session
     * @param clean    unshifted sessions that must raise nothing
     * @param learn    unshifted sessions per server the baseline is learnt from
     * @param explain  print the events of each session whose applied shift was not ranked first
     */
    public static Result run(Path bin, Path work, int seeds, int calls, int clean, int learn, double alpha, boolean explain, PrintStream progress) {
        List<Server> servers = servers(bin, work);
        Map<String, Upstream> upstreams = new LinkedHashMap<>();
        try {
            for (Server s : servers) upstreams.put(s.name(), new Upstream(s.command(), null, Duration.ofSeconds(60), work.resolve(s.name() + ".log")));
            Map<String, Snapshot> baselines = new LinkedHashMap<>();
            int baselineCalls = 0;
            for (Server s : servers) {
                Upstream u = upstreams.get(s.name());
                Traffic traffic = new Traffic();
                List<Snapshot.Tool> tools = null;
                for (int i = 0; i < learn; i++) {
                    ProxySession session = new ProxySession(u, ShiftStack.NONE, 1_000_000L + i);
                    if (tools == null) tools = shown(session);
                    baselineCalls += drive(session, s, new Random(1_000_000L + i), calls, (tool, text, error, ms) -> traffic.add(tool, Reading.of(text, error), ms));
                }
                baselines.put(s.name(), new Snapshot(u.describe(), java.time.Instant.now(), tools, List.of(), List.of(), List.of(), traffic.toJson()));
                progress.println("watch matrix: learnt " + s.name() + " from " + learn + " sessions (" + traffic.calls() + " calls)");
            }

            List<Row> rows = new ArrayList<>();
            Map<String, String> skipped = new LinkedHashMap<>();
            for (Shift shift : ShiftCatalog.all()) {
                if (!shift.id().startsWith("tool.") && !shift.id().startsWith("obs.")) continue;
                if (shift.signs().isEmpty()) {
                    // Nothing the watch reads would name it (obs.type-drift: values retyped under the same keys).
                    skipped.put(shift.id(), "declares no sign the watch can see");
                    continue;
                }
                for (int severity = 1; severity <= 3; severity++) {
                    ShiftStack stack = ShiftSpec.parseStack(shift.id() + ":severity=" + severity);
                    int sessions = 0, detected = 0, rightTier = 0, first = 0;
                    Map<String, Integer> tops = new LinkedHashMap<>();
                    for (Server s : servers) {
                        for (int seed = 1; seed <= seeds; seed++) {
                            ProxySession session;
                            try {
                                session = new ProxySession(upstreams.get(s.name()), stack, seed);
                            } catch (IllegalArgumentException e) {
                                skipped.put(shift.id() + " on " + s.name(), e.getMessage());
                                break;
                            }
                            Watcher w = new Watcher(baselines.get(s.name()), alpha, e -> {});
                            w.listed(shown(session));
                            drive(session, s, new Random(seed * 7919L + severity), calls, (tool, text, error, ms) -> w.called(tool, text, error, ms));
                            sessions++;
                            List<String> ranking = w.ranking();
                            if (!w.events().isEmpty()) detected++;
                            String top = ranking.isEmpty() ? "(none)" : ranking.getFirst();
                            tops.merge(top, 1, Integer::sum);
                            if (!ranking.isEmpty() && ShiftCatalog.get(top).tier() == shift.tier()) rightTier++;
                            if (top.equals(shift.id())) first++;
                            else if (explain) {
                                progress.println("  " + shift.id() + ":severity=" + severity + " on " + s.name() + " seed " + seed + ": ranked " + ranking);
                                w.events().forEach(e -> progress.println("    " + e.change().line() + "  " + e.change().after()));
                            }
                        }
                    }
                    if (sessions == 0) continue;
                    Row row = new Row(shift.id(), shift.tier().id(), severity, sessions, detected, rightTier, first, tops);
                    rows.add(row);
                    progress.println("watch matrix: " + shift.id() + " severity " + severity + ": detected " + detected + "/" + sessions + ", right tier "
                            + rightTier + ", ranked first " + first + " (top: " + tops + ")");
                }
            }

            int falseEvents = 0, cleanCalls = 0;
            List<String> examples = new ArrayList<>();
            for (int i = 0; i < clean; i++) {
                Server s = servers.get(i % servers.size());
                long seed = 5_000_000L + i;
                ProxySession session = new ProxySession(upstreams.get(s.name()), ShiftStack.NONE, seed);
                Watcher w = new Watcher(baselines.get(s.name()), alpha, e -> {});
                w.listed(shown(session));
                cleanCalls += drive(session, s, new Random(seed), calls, (tool, text, error, ms) -> w.called(tool, text, error, ms));
                falseEvents += w.events().size();
                for (Watcher.Event e : w.events()) if (examples.size() < 10) examples.add(s.name() + " seed " + seed + ": " + e.change().line());
            }
            progress.println("watch matrix: " + clean + " unshifted sessions (" + cleanCalls + " calls): " + falseEvents + " events");
            return new Result(rows, clean, cleanCalls, falseEvents, examples, baselineCalls, skipped);
        } finally {
            upstreams.values().forEach(Upstream::close);
        }
    }

    /** Told each call the client made, as the session answered it. */
    interface Seen {
        void call(String tool, String text, boolean error, double millis);
    }

    static List<Snapshot.Tool> shown(ProxySession session) {
        return session.tools().stream().map(Snapshot.Tool::of).toList();
    }

    /**
     * The scripted client: draws calls from the server's traffic, makes those it can from what it is shown (a tool
     * by its name, with parameters the shown schema has), follows a replacement an error names, renews access when
     * told, and retries a failure that says to. Returns how many calls it made.
     */
    static int drive(ProxySession session, Server server, Random rnd, int calls, Seen seen) {
        Map<String, ToolSpec> shown = new HashMap<>();
        session.tools().forEach(t -> shown.put(t.name(), t));
        Map<String, String> instead = new HashMap<>();
        int made = 0;
        for (int attempt = 0; made < calls && attempt < calls * 3; attempt++) {
            Call planned = server.traffic().apply(rnd);
            String name = instead.getOrDefault(planned.tool(), planned.tool());
            ToolSpec spec = shown.get(name);
            if (spec == null && !instead.containsKey(planned.tool())) continue;
            if (spec != null && !planned.args().keySet().stream().allMatch(k -> spec.parameters().path("properties").has(k))) continue;
            for (int tries = 0; tries < 3 && made < calls; tries++) {
                long begin = System.nanoTime();
                ProxySession.Reply reply = session.call(name, planned.args());
                made++;
                seen.call(name, reply.text(), reply.error(), (System.nanoTime() - begin) / 1e6);
                if (!reply.error()) break;
                Matcher use = USE_INSTEAD.matcher(reply.text());
                Matcher renew = RENEW.matcher(reply.text());
                if (use.find()) {
                    instead.put(planned.tool(), use.group(1));
                    name = use.group(1);
                } else if (renew.find() && made < calls) {
                    ProxySession.Reply r = session.call(renew.group(1), Map.of());
                    made++;
                    seen.call(renew.group(1), r.text(), r.error(), 0);
                } else if (Reading.of(reply.text(), true).kind() != Reading.Kind.TRANSIENT) {
                    break;
                }
            }
        }
        return made;
    }

    /** The official filesystem and memory servers, each with a folder of its own and its varied traffic. */
    static List<Server> servers(Path bin, Path work) {
        Path root = work.resolve("files");
        Path memory = work.resolve("memory.jsonl");
        try {
            Files.createDirectories(root.resolve("notes"));
            Files.createDirectories(root.resolve("out"));
            Files.writeString(root.resolve("readme.txt"), "Project Lark: a small service.\nDeadline: 2026-12-04\nOwner: Ana\n");
            Files.writeString(root.resolve("notes").resolve("meeting.md"), "# Meeting\n\nWe agreed to ship on Friday. Bea reviews the release notes.\n");
            Files.writeString(root.resolve("notes").resolve("todo.txt"), "buy stamps\ncall the printer\nwrite the summary\n");
            Files.writeString(root.resolve("config.json"), "{\"name\": \"lark\", \"replicas\": 3, \"regions\": [\"eu\", \"us\"]}\n");
            Files.deleteIfExists(memory);
        } catch (IOException e) {
            throw new UserInputException("cannot prepare " + work + ": " + e.getMessage(), e);
        }
        String r = root.toString();
        List<String> files = List.of(r + "/readme.txt", r + "/notes/meeting.md", r + "/notes/todo.txt", r + "/config.json");
        List<String> dirs = List.of(r, r + "/notes", r + "/out");
        Function<Random, Call> fsTraffic = rnd -> switch (rnd.nextInt(10)) {
            case 0, 1 -> new Call("read_text_file", Map.of("path", pick(rnd, files)));
            case 2 -> new Call("read_text_file", Map.of("path", r + "/missing-" + rnd.nextInt(5) + ".txt"));   // fails: no such file
            case 3 -> new Call("list_directory", Map.of("path", pick(rnd, dirs)));
            case 4 -> new Call("get_file_info", Map.of("path", pick(rnd, files)));
            case 5 -> new Call("directory_tree", Map.of("path", r + "/notes"));
            case 6 -> new Call("search_files", Map.of("path", r, "pattern", pick(rnd, List.of("*.txt", "*.md", "*.json"))));
            case 7 -> new Call("write_file", Map.of("path", r + "/out/report-" + rnd.nextInt(4) + ".txt", "content", "report " + rnd.nextInt(1000) + "\n"));
            case 8 -> new Call("read_multiple_files", Map.of("paths", List.of(pick(rnd, files), pick(rnd, files))));
            default -> new Call("list_allowed_directories", Map.of());
        };
        List<String> people = List.of("Ana", "Bea", "Caio", "Dora", "Emil", "Femi", "Gus", "Hana");
        List<String> facts = List.of("likes tea", "works in Lisbon", "owns a bike", "speaks Finnish", "plays chess", "reviews releases");
        Function<Random, Call> memTraffic = rnd -> switch (rnd.nextInt(9)) {
            case 0 -> new Call("create_entities", Map.of("entities", List.of(Map.of("name", pick(rnd, people), "entityType", "person",
                    "observations", List.of(pick(rnd, facts))))));
            case 1 -> new Call("add_observations", Map.of("observations", List.of(Map.of("entityName", pick(rnd, people), "contents", List.of(pick(rnd, facts))))));
            case 2 -> new Call("create_relations", Map.of("relations", List.of(Map.of("from", pick(rnd, people), "to", pick(rnd, people), "relationType", "knows"))));
            case 3, 4 -> new Call("search_nodes", Map.of("query", pick(rnd, List.of("tea", "Lisbon", "chess", "Ana", "person", "bike"))));
            case 5 -> new Call("open_nodes", Map.of("names", List.of(pick(rnd, people), pick(rnd, people))));
            case 6 -> new Call("read_graph", Map.of());
            case 7 -> new Call("delete_observations", Map.of("deletions", List.of(Map.of("entityName", pick(rnd, people), "observations", List.of(pick(rnd, facts))))));
            default -> new Call("add_observations", Map.of("observations", List.of(Map.of("entityName", "Nobody" + rnd.nextInt(3), "contents", List.of("x")))));  // fails
        };
        return List.of(new Server("filesystem", List.of(bin.resolve("mcp-server-filesystem").toString(), r), fsTraffic),
                new Server("memory", List.of("env", "MEMORY_FILE_PATH=" + memory, bin.resolve("mcp-server-memory").toString()), memTraffic));
    }

    private static <T> T pick(Random rnd, List<T> from) { return from.get(rnd.nextInt(from.size())); }
}
