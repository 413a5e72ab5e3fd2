package dev.openagent.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.server.http.BearerAuth;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The proxy in front of the real filesystem server ({@code @modelcontextprotocol/server-filesystem}) under each
 * shift the proxy applies to it (every {@code tool.*} and {@code obs.*} shift of {@code openagent shifts} that needs
 * no task and no declared fact), one at a time, driven over Streamable HTTP by a scripted MCP client that uses only
 * what it is shown: it picks each tool by its description, each argument by the parameter's name, type or
 * description, reads results in whatever format they come, and acts on what errors and notices say. It knows the
 * job in the world's terms (read a file, list a folder, write, edit, move, look at the tree and a file's
 * metadata, read back) and the filesystem server's own descriptions, as an agent that has used the server would.
 * Per shift: every step reached the real server as the upstream tool it meant with exactly the arguments it meant,
 * nothing else reached it, the files on disk changed as asked, and the shift showed the client something the
 * server alone would not have.
 */
class ProxyShiftsTest {
    /** One way of doing a purpose: a phrase of the upstream tool's description, and (for the assertions only) that tool. */
    record Way(String phrase, String upstreamTool) {}

    /** What the client wants done, with the ways it knows, preferred first (the second is for when the first is gone). */
    enum Purpose {
        READ(new Way("Read the complete contents of a file from the file system as text", "read_text_file"),
                new Way("Read the complete contents of a file as text", "read_file")),
        LIST(new Way("Get a detailed listing of all files and directories in a specified path. Results", "list_directory"),
                new Way("Get a detailed listing of all files and directories in a specified path, including sizes", "list_directory_with_sizes")),
        WRITE(new Way("Create a new file or completely overwrite an existing file", "write_file")),
        EDIT(new Way("Make line-based edits to a text file", "edit_file")),
        MOVE(new Way("Move or rename files and directories", "move_file")),
        TREE(new Way("Get a recursive tree view of files and directories", "directory_tree")),
        INFO(new Way("Retrieve detailed metadata about a file or directory", "get_file_info"));

        final List<Way> ways;

        Purpose(Way... ways) { this.ways = List.of(ways); }

        boolean doneBy(String upstreamTool) { return ways.stream().anyMatch(w -> w.upstreamTool().equals(upstreamTool)); }
    }

    /** One step of the job: a purpose, its arguments in the world's terms, and a text its result must show (null: none). */
    record Step(Purpose purpose, Map<String, Object> args, String expect) {}

    /** What the shift must have shown the client that the server alone would not have. */
    enum Seen {
        /** nothing: the proxy without a shift */
        NOTHING,
        /** other tools: names, descriptions, schemas, more or fewer of them */
        TOOLS,
        /** results other than the server's own */
        RESULTS,
        /** errors or notices the client had to act on: a retry, a renewal, a replacement tool */
        ACTED
    }

    /**
     * A shift stack to run the job under, on a seed, with what it must show; {@code stop} is the step where the job
     * can no longer be done from what the client is shown (null: it can be done to the end). Each stop is a finding
     * about the shift on this server, kept here so that the test fails when it changes.
     */
    record Condition(String spec, long seed, Seen seen, Purpose stop) {
        @Override
        public String toString() { return spec.isEmpty() ? "no shift" : spec; }
    }

    /**
     * Every tool.* and obs.* shift the proxy applies to this server (`openagent shifts`; the others need a task or a
     * declared fact), at its default severity and, where a higher one changes other things, that one too. The seed is
     * 7 except where another one makes the shift reach a tool the job uses. Renaming shifts rename only what the
     * server describes, so write_file's undescribed path and content keep their names under every one of them (the
     * view check's rule: a name erased with nothing shown in its place tells no client which is which).
     * obs.malformed-output runs at severity 3: only directory_tree answers in JSON here, the one kind of result it breaks.
     */
    static List<Condition> conditions() {
        return List.of(
                new Condition("", 7, Seen.NOTHING, null),
                new Condition("tool.name-noise", 7, Seen.TOOLS, null),
                new Condition("tool.name-noise:severity=3", 7, Seen.TOOLS, null),
                new Condition("tool.identity-erasure:severity=1", 7, Seen.TOOLS, null),
                // write_file's path and content have no descriptions (the server gives none), so they keep their names: an
                // erased name with nothing shown in its place would leave no client able to tell the path from the content.
                new Condition("tool.identity-erasure", 7, Seen.TOOLS, null),
                new Condition("tool.semantic-rename", 7, Seen.TOOLS, null),
                new Condition("tool.semantic-rename:severity=3", 7, Seen.TOOLS, null),
                new Condition("tool.semantic-trap", 7, Seen.TOOLS, null),
                new Condition("tool.semantic-trap:severity=3", 7, Seen.TOOLS, null),
                new Condition("tool.distractors", 7, Seen.TOOLS, null),
                new Condition("tool.schema-noise", 7, Seen.TOOLS, null),
                new Condition("tool.schema-noise:severity=3", 7, Seen.TOOLS, null),
                // A proxy session has no plan, so any tool may go, also one with no other path: here get_file_info
                // (and read_text_file, whose work read_file does too).
                new Condition("tool.removal", 7, Seen.TOOLS, Purpose.INFO),
                new Condition("tool.set-change", 7, Seen.ACTED, null),
                new Condition("tool.poisoned-description", 7, Seen.TOOLS, null),
                new Condition("obs.format:format=xml", 7, Seen.RESULTS, null),
                new Condition("obs.format:format=yaml", 7, Seen.RESULTS, null),
                new Condition("obs.format:format=kv", 7, Seen.RESULTS, null),
                new Condition("obs.format:format=table", 7, Seen.RESULTS, null),
                new Condition("obs.nonstandard-feedback", 7, Seen.RESULTS, null),
                new Condition("obs.schema-drift", 7, Seen.RESULTS, null),
                new Condition("obs.injection", 7, Seen.RESULTS, null),
                new Condition("obs.malformed-output:severity=3", 1, Seen.RESULTS, null),
                new Condition("obs.runtime-error", 7, Seen.ACTED, null),
                new Condition("obs.redirect", REDIRECT_SEED, Seen.ACTED, null),
                new Condition("obs.redirect:severity=3", REDIRECT_SEED, Seen.ACTED, null),
                new Condition("obs.auth-expiry", 7, Seen.ACTED, null),
                new Condition("obs.quota-exhausted", 7, Seen.ACTED, null),
                new Condition("obs.quota-exhausted:severity=3", 7, Seen.ACTED, null),
                new Condition("obs.flapping", 7, Seen.ACTED, null),
                new Condition("obs.flapping:severity=3", 7, Seen.ACTED, null),
                new Condition("obs.latency", 7, Seen.ACTED, null),
                new Condition("obs.latency:severity=3", 7, Seen.ACTED, null),
                // Only the page_token parameter: this server's results hold no list inside an object to page.
                new Condition("obs.pagination", 7, Seen.TOOLS, null));
    }

    static Path root;
    static Upstream upstream;
    static List<McpSchema.Tool> upstreamTools;

    @BeforeAll
    static void startTheFilesystemServer() throws Exception {
        ProxyServerTest.requireServer();
        root = Files.createTempDirectory("proxy-shifts").toRealPath();
        upstream = new Upstream(List.of(ProxyServerTest.FILESYSTEM.toString(), root.toString()), null, Duration.ofSeconds(60), root.resolve("upstream.log"));
        upstreamTools = upstream.tools();
    }

    @AfterAll
    static void stop() throws Exception {
        if (upstream != null) upstream.close();
        if (root != null) {
            try (var files = Files.walk(root)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** A seed at which obs.redirect at severity 2 retires a tool the job uses (move_file), so the client meets the 410. */
    static final long REDIRECT_SEED = 3;

    @ParameterizedTest(name = "{0}")
    @MethodSource("conditions")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everyCallReachesTheRealServerMappedBackAndTheFilesChange(Condition condition) throws Exception {
        String spec = condition.spec();
        Path work = Files.createDirectories(root.resolve(spec.isEmpty() ? "unshifted" : spec.replaceAll("[^a-z0-9]+", "-")));
        Files.createDirectories(work.resolve("archive"));
        Path notes = work.resolve("notes.txt");
        Files.writeString(notes, "Deadline: 2026-12-04\nOwner: Ana\n");
        Path report = work.resolve("report.txt");
        Path archived = work.resolve("archive").resolve("report.txt");
        String written = "written under " + (spec.isEmpty() ? "no shift" : spec);
        List<Step> steps = List.of(
                new Step(Purpose.READ, Map.of("path", notes.toString()), "2026-12-04"),
                new Step(Purpose.LIST, Map.of("path", work.toString()), "notes.txt"),
                new Step(Purpose.WRITE, Map.of("path", report.toString(), "content", written), null),
                new Step(Purpose.EDIT, Map.of("path", notes.toString(), "edits", List.of(Map.of("oldText", "Owner: Ana", "newText", "Owner: Bea"))), "Owner: Bea"),
                new Step(Purpose.MOVE, Map.of("source", report.toString(), "destination", archived.toString()), null),
                new Step(Purpose.TREE, Map.of("path", work.toString()), "report.txt"),
                new Step(Purpose.INFO, Map.of("path", archived.toString()), "size"),
                new Step(Purpose.READ, Map.of("path", archived.toString()), written));
        Purpose stop = condition.stop();

        try (SessionPool pool = new SessionPool(upstream, spec.isEmpty() ? ShiftStack.NONE : ShiftSpec.parseStack(spec), condition.seed(), 1, Duration.ofMinutes(5), null);
             ProxyServer server = ProxyServer.http(pool, "127.0.0.1", 0, BearerAuth.NONE, 1 << 20)) {
            McpSyncClient mcp = ProxyServerTest.client(server.url());
            ProxySession session = server.session();
            ViewClient client = new ViewClient(mcp);
            List<Step> done = new ArrayList<>();
            try {
                for (Step s : steps) {
                    if (s.purpose() == stop) {
                        NotFromView refused = assertThrows(NotFromView.class, () -> client.perform(s), spec + ": " + stop + " was expected to be impossible from view\n" + client.transcript());
                        client.log.add("(cannot: " + refused.getMessage() + ")");
                        break;
                    }
                    client.perform(s);
                    done.add(s);
                }
            } catch (NotFromView e) {
                throw new AssertionError(spec + ": " + e.getMessage() + "\n" + client.transcript(), e);
            } finally {
                mcp.close();
            }
            String transcript = spec + "\n" + client.transcript();

            // Each step reached the upstream as a tool that does what it meant, with exactly the arguments it meant; nothing else did.
            List<ProxySession.Call> reached = session.calls().stream().filter(c -> c.upstream() != null && !c.upstream().error()).toList();
            for (Step s : done) {
                JsonNode want = Json.tree(s.args());
                assertTrue(reached.stream().anyMatch(c -> s.purpose().doneBy(c.upstream().tool()) && c.upstream().args().equals(want)),
                        s.purpose() + " " + want + " never reached the upstream: " + transcript);
            }
            for (ProxySession.Call c : reached) {
                assertTrue(done.stream().anyMatch(s -> s.purpose().doneBy(c.upstream().tool()) && Json.tree(s.args()).equals(c.upstream().args())),
                        "the upstream received a call the client never meant: " + c.upstream() + "\n" + transcript);
            }
            // The files on disk, as far as the job went.
            boolean edited = done.stream().anyMatch(s -> s.purpose() == Purpose.EDIT), moved = done.stream().anyMatch(s -> s.purpose() == Purpose.MOVE);
            assertEquals("Deadline: 2026-12-04\nOwner: " + (edited ? "Bea" : "Ana") + "\n", Files.readString(notes), transcript);
            assertEquals(moved, Files.exists(archived), transcript);
            if (moved) assertEquals(written, Files.readString(archived), transcript);
            assertFalse(Files.exists(report), "written and moved, or never written: " + transcript);
            assertEquals(stop == null ? steps.size() : steps.indexOf(steps.stream().filter(s -> s.purpose() == stop).findFirst().orElseThrow()), done.size(), transcript);
            // The shift showed the client what it changes, which the server itself would not have shown; without a shift, nothing.
            Map<Seen, String> seen = client.shifted(upstreamTools, session.calls());
            if (condition.seen() == Seen.NOTHING) assertTrue(seen.isEmpty(), "without a shift the client saw " + seen + "\n" + transcript);
            else assertTrue(seen.containsKey(condition.seen()), condition.seen() + " expected; the client saw " + seen + "\n" + transcript);
        }
    }

    /** A step the client cannot take from what it is shown. */
    static final class NotFromView extends RuntimeException {
        NotFromView(String message) { super(message); }
    }

    /** The scripted MCP client. */
    static final class ViewClient {
        private static final Pattern USE_INSTEAD = Pattern.compile("'([^']+)' (?:was withdrawn|was retired|is withdrawn)[^']*?use '([^']+)'", Pattern.CASE_INSENSITIVE);
        private static final Pattern RENEW = Pattern.compile("401 Unauthorized.*?Call (\\S+) to renew", Pattern.DOTALL);
        private static final Pattern WAIT = Pattern.compile("429 Too Many Requests.*?^Retry-After: (\\d+)$.*?Call (\\S+) with seconds=", Pattern.DOTALL | Pattern.MULTILINE);
        /** A time-out that names the value to pass: "504 Gateway Timeout ... \ntimeout_seconds=60" or "\nasync=true". */
        private static final Pattern LONGER = Pattern.compile("504 Gateway Timeout.*?^(\\w+)=(\\w+)$", Pattern.DOTALL | Pattern.MULTILINE);
        /** A job's ticket: its id, and the tool that returns its result. */
        private static final Pattern JOB = Pattern.compile("\"job_id\"\\s*:\\s*\"([^\"]+)\".*?\"status\"\\s*:\\s*\"running\".*?call (\\w+) with", Pattern.DOTALL);
        private static final Pattern PAGE_TOKEN = Pattern.compile("\"?(\\w*page_token|next_token)\"?\\s*[:=]\\s*\"?([A-Za-z0-9_-]+)\"?");
        private static final Pattern JSON_START = Pattern.compile("\\{|\\[\\s*[\\[{\"'\\d\\]-]");
        private static final int MAX_TRIES = 8;

        private final McpSyncClient mcp;
        private final List<McpSchema.Tool> tools;
        /** Tools a notice or an error named in place of a listed one: the replacement takes the same parameters. */
        private final Map<String, McpSchema.Tool> replacements = new LinkedHashMap<>();
        /** The tool each purpose turned out to be, once found (a withdrawal or a redirect replaces it). */
        private final Map<Purpose, String> chosen = new LinkedHashMap<>();
        final List<String> log = new ArrayList<>();
        /** What the shift made the client do: retries, renewals, replacements, further pages. */
        private final List<String> acted = new ArrayList<>();

        ViewClient(McpSyncClient mcp) {
            this.mcp = mcp;
            this.tools = mcp.listTools().tools();
        }

        String transcript() { return String.join("\n", log); }

        void perform(Step s) {
            String name = chosen.computeIfAbsent(s.purpose(), this::find);
            Map<String, Object> args = ViewArgs.map(tool(name), s.args());
            StringBuilder seen = new StringBuilder();
            for (int attempt = 0; attempt < MAX_TRIES; attempt++) {
                McpSchema.CallToolResult r = mcp.callTool(new McpSchema.CallToolRequest(name, args));
                boolean error = Boolean.TRUE.equals(r.isError());
                String text = text(r);
                log.add("> " + name + " " + Json.write(args) + "\n< " + (error ? "ERROR " : "") + text);
                Matcher m = USE_INSTEAD.matcher(text);
                if (m.find() && m.group(1).equals(name)) {
                    // withdrawn or retired: the notice names the tool that takes its place, with the same parameters
                    String next = m.group(2);
                    McpSchema.Tool old = tool(name);
                    if (tools.stream().noneMatch(t -> t.name().equals(next))) replacements.put(next, old);
                    acted.add(name + " replaced by " + next);
                    name = next;
                    chosen.put(s.purpose(), name);
                    if (error) continue;
                }
                Matcher renew = RENEW.matcher(text);
                if (error && renew.find()) {
                    McpSchema.CallToolResult renewed = mcp.callTool(new McpSchema.CallToolRequest(renew.group(1), Map.of()));
                    log.add("> " + renew.group(1) + " {}\n< " + text(renewed));
                    acted.add("renewed with " + renew.group(1));
                    continue;
                }
                Matcher wait = WAIT.matcher(text);
                if (error && wait.find()) {
                    // a rate limit: retrying at once fails the same way; the listed tool waits the Retry-After first
                    McpSchema.CallToolResult waited = mcp.callTool(new McpSchema.CallToolRequest(wait.group(2), Map.of("seconds", Integer.parseInt(wait.group(1)))));
                    log.add("> " + wait.group(2) + " {\"seconds\":" + wait.group(1) + "}\n< " + text(waited));
                    acted.add("waited " + wait.group(1) + " s with " + wait.group(2));
                    continue;
                }
                Matcher longer = LONGER.matcher(text);
                if (error && longer.find()) {
                    // timed out: the error names the parameter to pass (a longer timeout, or to run the call as a job)
                    Map<String, Object> next = new LinkedHashMap<>(args);
                    String v = longer.group(2);
                    next.put(longer.group(1), v.matches("\\d+") ? (Object) Integer.parseInt(v) : v.equals("true") ? (Object) Boolean.TRUE : v);
                    args = next;
                    acted.add("passed " + longer.group(1) + "=" + v + " after a time-out");
                    continue;
                }
                Matcher job = JOB.matcher(text);
                for (int poll = 0; !error && job.find() && poll < MAX_TRIES; poll++) {
                    // a job: its result comes from the tool the ticket names, "running" until it is done
                    McpSchema.CallToolResult polled = mcp.callTool(new McpSchema.CallToolRequest(job.group(2), Map.of("job_id", job.group(1))));
                    error = Boolean.TRUE.equals(polled.isError());
                    String was = text;
                    text = text(polled);
                    log.add("> " + job.group(2) + " {\"job_id\":\"" + job.group(1) + "\"}\n< " + (error ? "ERROR " : "") + text);
                    acted.add("polled job " + job.group(1) + " after: " + was);
                    job = JOB.matcher(text);
                }
                if (error) {
                    if (!transientError(text)) throw new NotFromView(s.purpose() + ": the server answered an error the client cannot act on: " + text);
                    acted.add("retried after: " + text);
                    continue;
                }
                if (looksMalformed(text)) {
                    acted.add("retried after a malformed result");
                    continue;
                }
                seen.append(text).append('\n');
                Matcher page = PAGE_TOKEN.matcher(text);
                if (page.find() && !page.group(2).equalsIgnoreCase("null")) {
                    String param = pageParam(tool(name)).orElseThrow(() -> new NotFromView(s.purpose() + ": a page token, and no parameter to pass it in"));
                    Map<String, Object> next = new LinkedHashMap<>(args);
                    next.put(param, page.group(2));
                    args = next;
                    acted.add("fetched the page after " + page.group(2));
                    continue;
                }
                if (s.expect() != null && !seen.toString().contains(s.expect())) {
                    throw new NotFromView(s.purpose() + ": the result does not show '" + s.expect() + "': " + text);
                }
                return;
            }
            throw new NotFromView(s.purpose() + ": no usable answer after " + MAX_TRIES + " calls");
        }

            /**
         * The tool whose description says it does what the purpose needs; near-duplicates that say they do something
         * else are left out, and of tools shown alike (a replacement listed beside the tool it replaces) the first.
         */
        private String find(Purpose p) {
            for (Way way : p.ways) {
                List<McpSchema.Tool> fit = tools.stream().filter(t -> t.description() != null && t.description().contains(way.phrase()))
                        .filter(t -> !t.description().contains("DRY RUN") && !t.description().contains("ASYNCHRONOUS"))
                        .toList();
                List<McpSchema.Tool> current = fit.stream().filter(t -> !t.description().toLowerCase(Locale.ROOT).contains("deprecated")).toList();
                if (!current.isEmpty()) fit = current;
                if (fit.size() == 1) return fit.getFirst().name();
                // The same description and parameters: nothing shown tells them apart, and either will do; the first listed.
                if (fit.size() > 1 && fit.stream().map(ViewClient::toolJson).distinct().count() == 1) return fit.getFirst().name();
                if (fit.size() > 1) throw new NotFromView(p + ": " + fit.size() + " tools fit its description: " + fit.stream().map(McpSchema.Tool::name).toList());
            }
            throw new NotFromView(p + ": no tool shown does it");
        }

        private McpSchema.Tool tool(String name) {
            return tools.stream().filter(t -> t.name().equals(name)).findFirst().or(() -> Optional.ofNullable(replacements.get(name)))
                    .orElseThrow(() -> new NotFromView("the tool '" + name + "' is neither listed nor named by a notice"));
        }

        private static Optional<String> pageParam(McpSchema.Tool tool) {
            return ViewArgs.properties(tool.inputSchema()).keySet().stream().filter(k -> k.toLowerCase(Locale.ROOT).contains("page")).findFirst();
        }

        private static boolean transientError(String text) {
            String t = text.toLowerCase(Locale.ROOT);
            return t.contains("retry") || t.contains("try the same") || t.contains("temporarily");
        }

        /** JSON that does not parse: a result broken on the way, which a retry fetches again. */
        private static boolean looksMalformed(String text) {
            String t = text.strip();
            if (!JSON_START.matcher(t).lookingAt()) return false;   // "[DIR] archive" is a listing, not JSON
            try {
                Json.MAPPER.readTree(t);
                return false;
            } catch (Exception e) {
                return true;
            }
        }

        static String text(McpSchema.CallToolResult r) {
            StringBuilder sb = new StringBuilder();
            for (McpSchema.Content c : r.content()) if (c instanceof McpSchema.TextContent t) sb.append(t.text());
            return sb.toString();
        }

        /**
         * What the session showed that the upstream alone would not have: other tools (names, descriptions,
         * schemas), calls that reached it under other names or arguments, results other than its own, or errors
         * and notices the client had to act on.
         */
        Map<Seen, String> shifted(List<McpSchema.Tool> upstreamTools, List<ProxySession.Call> calls) {
            Map<Seen, String> seen = new LinkedHashMap<>();
            if (!acted.isEmpty()) seen.put(Seen.ACTED, acted.toString());
            Map<String, JsonNode> real = new LinkedHashMap<>(), shown = new LinkedHashMap<>();
            for (McpSchema.Tool t : upstreamTools) real.put(t.name(), toolJson(t));
            for (McpSchema.Tool t : tools) shown.put(t.name(), toolJson(t));
            if (!real.equals(shown)) {
                seen.put(Seen.TOOLS, shown.entrySet().stream().filter(e -> !e.getValue().equals(real.get(e.getKey()))).map(Map.Entry::getKey).toList()
                        + " shown, " + real.keySet().stream().filter(n -> !shown.containsKey(n)).toList() + " not");
            }
            for (ProxySession.Call c : calls) {
                if (c.upstream() != null && c.upstream().result() != null && !c.upstream().error() && !c.reply().error() && !sameText(c.upstream().result(), c.reply().text())) {
                    seen.putIfAbsent(Seen.RESULTS, c.tool() + ": " + c.reply().text());
                }
            }
            return seen;
        }

        /** The same text, or the same JSON document however it is spaced (the proxy writes JSON results compactly). */
        private static boolean sameText(String upstream, String shown) {
            if (String.valueOf(upstream).equals(shown)) return true;
            try {
                return upstream != null && Json.MAPPER.readTree(upstream).equals(Json.MAPPER.readTree(shown));
            } catch (Exception e) {
                return false;
            }
        }

        /** A tool as shown; an empty required list is no list (the proxy writes one where the server left it out). */
        private static JsonNode toolJson(McpSchema.Tool t) {
            JsonNode schema = Json.tree(t.inputSchema());
            if (schema.path("required").isArray() && schema.path("required").isEmpty()) ((com.fasterxml.jackson.databind.node.ObjectNode) schema).remove("required");
            return Json.object().put("description", t.description()).set("schema", schema);
        }
    }

    /** Maps the world's arguments onto a tool's shown parameters by what the schema shows: names, types, descriptions, what is required. */
    static final class ViewArgs {
        private ViewArgs() {}

        @SuppressWarnings("unchecked")
        static Map<String, Object> properties(Object schema) {
            Object p = schema instanceof Map<?, ?> m ? m.get("properties") : null;
            return p instanceof Map<?, ?> props ? (Map<String, Object>) props : Map.of();
        }

        @SuppressWarnings("unchecked")
        static Map<String, Object> map(McpSchema.Tool tool, Map<String, Object> world) {
            return map(Json.MAPPER.convertValue(tool.inputSchema(), Map.class), world, tool.name());
        }

        /** A shown parameter read as a wanted one, and how sure: 0 the same name, 1 a synonym or its description names it, 2+ a name a few typos away. */
        private record Reading(String want, String shown, int score) {}

        @SuppressWarnings("unchecked")
        static Map<String, Object> map(Map<String, Object> schema, Map<String, Object> world, String where) {
            Map<String, Object> props = properties(schema);
            List<Reading> readings = new ArrayList<>();
            for (String want : world.keySet()) {
                for (String shown : props.keySet()) {
                    Map<String, Object> p = (Map<String, Object>) props.get(shown);
                    int score = reads(want, shown, p);
                    if (score >= 0 && typeFits(p, world.get(want))) readings.add(new Reading(want, shown, score));
                }
            }
            readings.sort(Comparator.comparingInt(Reading::score));
            Map<String, String> chosen = new LinkedHashMap<>();   // want -> shown
            for (Reading r : readings) {
                if (chosen.containsKey(r.want()) || chosen.containsValue(r.shown())) continue;
                boolean tie = readings.stream().anyMatch(o -> o != r && o.score() == r.score() && !chosen.containsKey(o.want()) && !chosen.containsValue(o.shown())
                        && (o.want().equals(r.want()) || o.shown().equals(r.shown())));
                if (!tie) chosen.put(r.want(), r.shown());
            }
            // By elimination: a wanted value that only one parameter left can take (its type), which takes no other wanted value.
            boolean progress = true;
            while (progress) {
                progress = false;
                List<String> unmatched = world.keySet().stream().filter(w -> !chosen.containsKey(w)).toList();
                for (String want : unmatched) {
                    List<String> left = props.keySet().stream().filter(p -> !chosen.containsValue(p))
                            .filter(p -> typeFits((Map<String, Object>) props.get(p), world.get(want))).toList();
                    boolean sole = left.size() == 1 && unmatched.stream().filter(o -> !o.equals(want))
                            .noneMatch(o -> typeFits((Map<String, Object>) props.get(left.getFirst()), world.get(o)));
                    if (sole) {
                        chosen.put(want, left.getFirst());
                        progress = true;
                        break;
                    }
                }
            }
            if (chosen.size() < world.size()) {
                throw new NotFromView(where + ": nothing shown tells which parameter is " + world.keySet().stream().filter(w -> !chosen.containsKey(w)).toList()
                        + " among " + props.keySet() + " (" + Json.write(schema) + ")");
            }
            Map<String, Object> out = new LinkedHashMap<>();
            chosen.forEach((want, shown) -> out.put(shown, value(props.get(shown), world.get(want), where + "." + shown)));
            return out;
        }

        @SuppressWarnings("unchecked")
        private static Object value(Object schema, Object v, String where) {
            Object items = schema instanceof Map<?, ?> s ? s.get("items") : null;
            if (v instanceof List<?> list && items instanceof Map<?, ?> itemSchema) {
                List<Object> out = new ArrayList<>();
                for (Object x : list) out.add(x instanceof Map<?, ?> m ? map((Map<String, Object>) itemSchema, (Map<String, Object>) m, where + "[]") : x);
                return out;
            }
            return v;
        }

        private static boolean typeFits(Map<String, Object> schema, Object v) {
            Object type = schema == null ? null : schema.get("type");
            if (type == null) return true;
            return switch (String.valueOf(type)) {
                case "string" -> v instanceof String;
                case "array" -> v instanceof List<?>;
                case "object" -> v instanceof Map<?, ?>;
                case "number", "integer" -> v instanceof Number;
                case "boolean" -> v instanceof Boolean;
                default -> true;
            };
        }

        /** Synonyms an agent reads a parameter name as (plain English, not the shift's tables). */
        private static final Map<String, List<String>> SYNONYMS = Map.of(
                "path", List.of("file", "filepath", "location", "filename", "dir", "directory", "folder"),
                "content", List.of("text", "body", "data", "contents"),
                "source", List.of("src", "from", "origin"),
                "destination", List.of("dest", "to", "target"),
                "edits", List.of("changes", "modifications", "replacements"),
                "oldText", List.of("old", "find", "search", "original"),
                "newText", List.of("new", "replace", "replacement"));

        /** How a shown parameter reads as the wanted one (see {@link Reading}); -1 when it does not. */
        static int reads(String want, String shown, Map<String, Object> schema) {
            String w = norm(want), s = norm(shown);
            if (w.equals(s)) return 0;
            for (String syn : SYNONYMS.getOrDefault(want, List.of())) if (s.equals(norm(syn))) return 1;
            Object d = schema == null ? null : schema.get("description");
            if (d instanceof String desc && Pattern.compile("\\b" + Pattern.quote(want) + "\\b", Pattern.CASE_INSENSITIVE).matcher(desc).find()) return 1;
            int e = edits(w, s);
            return w.length() >= 3 && e <= w.length() / 2 ? 1 + e : -1;
        }

        private static String norm(String s) {
            return s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        }

        /** Damerau-Levenshtein distance (optimal string alignment). */
        static int edits(String a, String b) {
            int[][] d = new int[a.length() + 1][b.length() + 1];
            for (int i = 0; i <= a.length(); i++) d[i][0] = i;
            for (int j = 0; j <= b.length(); j++) d[0][j] = j;
            for (int i = 1; i <= a.length(); i++) {
                for (int j = 1; j <= b.length(); j++) {
                    int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                    d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                    if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
            return d[a.length()][b.length()];
        }
    }
}
