package dev.openagent.shift.tool;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Sign;
import dev.openagent.shift.Texts;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * tool.crowded: the tool list is crowded with tools of other services, as when an agent is connected to many MCP
 * servers at once (LiveMCPBench puts hundreds of tools in front of it; ToolSandbox adds whole irrelevant tool pools):
 * the tools the other built-in environments declare (their names, descriptions and schemas; a name that would clash
 * takes its environment's id as a prefix) and tools generated from the seed out of other services' vocabularies
 * (calendars, code repositories, weather, spreadsheets...). Nothing is a near-duplicate of a tool already listed (that
 * is tool.distractors): a candidate whose description shares half its words (of four letters or more) with a listed tool's,
 * either way, is left out. Severity 1 adds 100 tools, 2 250, 3 500, each put at a random place among the real ones (which keep their
 * names, descriptions and order among themselves; {@code ask_user} stays where it was). None of them reaches the
 * service: another environment's tool answers that this conversation has no account there, a generated tool that reads
 * answers an empty result of its own service, one that writes that its service is not connected.
 */
public final class Crowded extends ShiftEnv<Crowded.Episode> {
    public static final Shift SHIFT = new Shift("tool.crowded", Tier.PERCEPTION, Dimension.A,
            "100-500 tools of other services (other environments' tools, calendars, repositories, weather...) crowd the tool list; the real ones keep their names.",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "a command environment lists one line per verb in help; there is no tool list to crowd"),
            Crowded::new).seenAs(Sign.TOOLS_CROWDED);

    /** An added tool: whose it is, and for a generated one whether it writes. */
    private record Extra(String service, String what, boolean borrowed, boolean writes, String noun) {}

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        final Map<String, Extra> extras = new HashMap<>();
    }

    private Crowded(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    /** How many tools a severity adds. */
    static int count(int severity) {
        return switch (severity) { case 1 -> 100; case 2 -> 250; default -> 500; };
    }

    @Override
    protected Start begin(Start in) {
        List<ToolSpec> real = in.tools();
        Set<String> names = new HashSet<>();
        real.forEach(t -> names.add(t.name()));
        List<Set<String>> listed = real.stream().filter(t -> !Protocol.ASK_USER.equals(t.name())).map(t -> words(t.description())).toList();
        // Candidates: the other environments' tools, then the generated ones, drawn in a seeded order.
        List<Candidate> pool = new ArrayList<>();
        String here = inner.info().id();
        Environments.declaredTools().forEach((env, tools) -> {
            if (env.equals(here)) return;
            String what = Environments.get(env).info().description();
            for (ToolSpec t : tools) pool.add(new Candidate(t, new Extra(env, what, true, false, "")));
        });
        pool.addAll(ServiceTools.all());
        shuffle(pool);
        List<ToolSpec> added = new ArrayList<>();
        int n = count(severity());
        for (Candidate c : pool) {
            if (added.size() == n) break;
            if (nearDuplicate(c.words(), listed)) continue;
            String name = c.tool().name();
            if (names.contains(name) || Protocol.ASK_USER.equals(name)) name = c.extra().service() + "_" + name;
            if (names.contains(name)) continue;
            names.add(name);
            ep.extras.put(name, c.extra());
            added.add(c.tool().withName(name));
        }
        // Each added tool at a random place among the real ones, which keep their order; ask_user stays last.
        List<ToolSpec> own = real.stream().filter(t -> !Protocol.ASK_USER.equals(t.name())).toList();
        List<ToolSpec> out = new ArrayList<>();
        int r = 0;
        int a = 0;
        while (r < own.size() || a < added.size()) {
            int left = own.size() - r + added.size() - a;
            if (a == added.size() || (r < own.size() && rnd.nextInt(left) < own.size() - r)) out.add(own.get(r++));
            else out.add(added.get(a++));
        }
        real.stream().filter(t -> Protocol.ASK_USER.equals(t.name())).forEach(out::add);
        return in.withTools(out);
    }

    /** A candidate tool, what answers it, and the words of its description (read once: every episode draws from hundreds). */
    record Candidate(ToolSpec tool, Extra extra, Set<String> words) {
        Candidate(ToolSpec tool, Extra extra) {
            this(tool, extra, Crowded.words(tool.description()));
        }
    }

    private void shuffle(List<Candidate> pool) {
        for (int i = pool.size() - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            Candidate x = pool.get(i);
            pool.set(i, pool.get(j));
            pool.set(j, x);
        }
    }

    /** Whether a description shares half its words with a listed tool's, or holds half of that one's: a near-duplicate. */
    private static boolean nearDuplicate(Set<String> candidate, List<Set<String>> listed) {
        if (candidate.isEmpty()) return false;
        for (Set<String> l : listed) {
            if (l.isEmpty()) continue;
            int shared = 0;
            for (String w : candidate) if (l.contains(w)) shared++;
            if (shared * 2 >= candidate.size() || shared * 2 >= l.size()) return true;
        }
        return false;
    }

    /** The words of a description that say what it does: those of four letters or more ("the", "for", "id" aside). */
    static Set<String> words(String text) {
        Set<String> out = new HashSet<>();
        for (String w : text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) if (w.length() >= 4) out.add(w);
        return out;
    }

    @Override
    protected Route route(Action.ToolCall call) {
        Extra x = ep.extras.get(call.name());
        if (x == null) return new Forward(call);
        if (x.borrowed()) {
            return new Reply(error(call, ToolError.Code.DOMAIN, "'" + call.name() + "' belongs to the " + x.service() + " service (" + x.what()
                    + "). This conversation has no account there: nothing was looked up, booked or changed."));
        }
        if (x.writes()) {
            return new Reply(error(call, ToolError.Code.DOMAIN, "The " + x.what() + " is not connected to this conversation: no "
                    + x.noun().replace('_', ' ') + " was created, changed or removed."));
        }
        ObjectNode out = Json.object();
        out.put("service", x.service());
        ArrayNode items = out.putArray("results");
        out.put("total", items.size());
        out.put("message", "No " + x.noun().replace('_', ' ') + " in the " + x.what() + " matches"
                + (Texts.argsObject(call.arguments()) == null ? "." : " " + Texts.abbreviate(call.arguments(), 80) + "."));
        return new Reply(Observation.tool(call.id(), call.name(), Json.write(out), out));
    }

    /**
     * Tools of services no environment here is about, generated from a small vocabulary: each service's things
     * (nouns), with its fields, under eight operations. Words the protocol shifts' own tools are found by (a session,
     * a token, a ticket, waiting, confirming) and the environments' subjects (places, bookings, orders, patients,
     * flights...) are kept out, so no generated tool says what a real or a protocol tool does.
     */
    static final class ServiceTools {
        private ServiceTools() {}

        /** A service: its prefix, what it is, its things, and four fields its tools take. */
        private record Service(String id, String what, List<String> nouns, List<Field> fields) {}

        private record Field(String name, String type, String description) {}

        private static Field s(String name, String description) { return new Field(name, "string", description); }

        private static Field i(String name, String description) { return new Field(name, "integer", description); }

        private static final List<Service> SERVICES = List.of(
                new Service("calendar", "calendar service", List.of("event", "calendar", "attendee"),
                        List.of(s("title", "Title of the event"), s("start", "Start, ISO 8601 date and time"), s("time_zone", "IANA time zone, e.g. Europe/Berlin"), i("duration_minutes", "Length in minutes"))),
                new Service("repo", "code repository host", List.of("repository", "issue", "branch"),
                        List.of(s("owner", "Account that owns the repository"), s("label", "Issue label"), s("base", "Base branch name"), i("per_page_limit", "At most this many entries"))),
                new Service("weather", "weather service", List.of("forecast", "alert", "station"),
                        List.of(s("latitude", "Latitude in degrees"), s("longitude", "Longitude in degrees"), s("units", "metric or imperial"), i("days", "Days ahead, 1 to 14"))),
                new Service("sheets", "spreadsheet service", List.of("spreadsheet", "worksheet", "chart"),
                        List.of(s("range", "A1 notation, e.g. Sheet1!A1:C10"), s("formula", "Cell formula"), s("value_input", "RAW or USER_ENTERED"), i("row_count", "Number of rows"))),
                new Service("mail", "e-mail service", List.of("message", "folder", "draft"),
                        List.of(s("subject", "Subject line"), s("recipient", "E-mail address of the recipient"), s("mailbox", "Mailbox name"), i("max_results", "At most this many results"))),
                new Service("chat", "team chat service", List.of("channel", "post", "member"),
                        List.of(s("workspace", "Workspace name"), s("text", "Text of the post"), s("emoji", "Reaction emoji"), i("history_days", "Days of history"))),
                new Service("notes", "note-taking app", List.of("note", "notebook", "tag"),
                        List.of(s("content", "Markdown text"), s("color", "Label color"), s("pinned", "true or false"), i("word_limit", "At most this many words"))),
                new Service("todo", "to-do list app", List.of("todo_item", "todo_list", "label"),
                        List.of(s("due", "Due date, YYYY-MM-DD"), s("priority", "low, medium or high"), s("assignee", "Who it is assigned to"), i("position", "Position in the list"))),
                new Service("music", "music streaming service", List.of("playlist", "track", "album"),
                        List.of(s("artist", "Artist name"), s("genre", "Music genre"), s("market", "Two-letter market code"), i("tempo_bpm", "Tempo in beats per minute"))),
                new Service("stocks", "stock market data service", List.of("quote", "watchlist", "portfolio"),
                        List.of(s("symbol", "Ticker symbol, e.g. ACME"), s("exchange", "Exchange code"), s("interval", "1m, 1h or 1d"), i("lookback", "Intervals to look back"))),
                new Service("translate", "translation service", List.of("glossary", "translation_job", "language_model"),
                        List.of(s("source_language", "BCP 47 code of the source text"), s("target_language", "BCP 47 code to translate into"), s("formality", "formal or informal"), i("character_limit", "At most this many characters"))),
                new Service("drive", "cloud file storage", List.of("file", "shared_folder", "share_link"),
                        List.of(s("path", "Path of the file"), s("mime_type", "MIME type"), s("permission", "viewer, commenter or editor"), i("size_limit_mb", "Largest size in MB"))),
                new Service("contacts", "address book", List.of("contact", "contact_group", "birthday"),
                        List.of(s("nickname", "Nickname"), s("company", "Company"), s("relation", "Relation to the owner"), i("page_size", "Contacts per batch"))),
                new Service("ledger", "bookkeeping service", List.of("invoice", "expense", "budget"),
                        List.of(s("currency", "ISO 4217 code"), s("category", "Ledger category"), s("fiscal_year", "Fiscal year, e.g. FY2026"), i("amount_cents", "Amount in cents"))),
                new Service("home", "smart home hub", List.of("device", "scene", "thermostat"),
                        List.of(s("room", "Room of the house"), s("mode", "heat, cool or auto"), s("brightness", "0 to 100 percent"), i("target_celsius", "Target temperature in Celsius"))),
                new Service("news", "news reader", List.of("article", "feed", "topic"),
                        List.of(s("source", "News source"), s("keyword", "Keyword"), s("country", "Two-letter country code"), i("hours_back", "Hours back"))),
                new Service("recipes", "recipe collection", List.of("recipe", "ingredient", "meal_plan"),
                        List.of(s("diet", "vegetarian, vegan or none"), s("course", "starter, main or dessert"), s("servings", "Number of servings"), i("prep_minutes", "Preparation time in minutes"))),
                new Service("fitness", "fitness tracker", List.of("workout", "activity", "goal"),
                        List.of(s("sport", "Kind of sport"), s("intensity", "easy, moderate or hard"), s("device_id", "Tracker id"), i("steps", "Step count"))),
                new Service("photos", "photo library", List.of("photo", "gallery", "caption"),
                        List.of(s("taken_on", "Date taken, YYYY-MM-DD"), s("camera", "Camera model"), s("face", "Person tagged"), i("width_px", "Width in pixels"))),
                new Service("ci", "build pipeline service", List.of("pipeline", "build", "artifact"),
                        List.of(s("commit_sha", "Commit hash"), s("runner", "Runner label"), s("stage", "Pipeline stage"), i("timeout_minutes", "Build timeout in minutes"))),
                new Service("docs", "document editor", List.of("document", "comment", "revision"),
                        List.of(s("heading", "Heading text"), s("author", "Author name"), s("font", "Font family"), i("line", "Line number"))),
                new Service("video", "video platform", List.of("video", "subscription", "subtitle"),
                        List.of(s("channel_handle", "Channel handle"), s("resolution", "720p, 1080p or 4k"), s("subtitle_language", "Language of the subtitles"), i("length_seconds", "Length in seconds"))),
                new Service("dns", "DNS provider", List.of("zone", "dns_record", "certificate"),
                        List.of(s("hostname", "Fully qualified host name"), s("record_type", "A, AAAA, CNAME, MX or TXT"), s("target", "Record target"), i("ttl", "Time to live in seconds"))),
                new Service("hr", "human resources system", List.of("employee", "leave_request", "payslip"),
                        List.of(s("team", "Team name"), s("manager", "Manager's e-mail"), s("leave_type", "vacation, sick or parental"), i("year", "Calendar year"))),
                new Service("packages", "package registry", List.of("package", "package_version", "maintainer"),
                        List.of(s("ecosystem", "npm, maven or pypi"), s("license", "SPDX license id"), s("semver_range", "Version range, e.g. ^1.2"), i("downloads_min", "Least weekly downloads"))));

        private static final List<Candidate> ALL = build();

        static List<Candidate> all() { return ALL; }

        private static List<Candidate> build() {
            List<Candidate> out = new ArrayList<>();
            for (Service s : SERVICES) {
                for (String noun : s.nouns()) {
                    String thing = noun.replace('_', ' ');
                    String things = plural(thing);
                    String idParam = noun + "_id";
                    Field f1 = s.fields().get(0);
                    Field f2 = s.fields().get(1);
                    Field f3 = s.fields().get(2);
                    Field f4 = s.fields().get(3);
                    out.add(tool(s, noun, false, s.id() + "_list_" + plural(noun),
                            "List the " + things + " in the " + s.what() + ", most recent first; filter by " + words(f1) + ".", List.of(f1, f4), List.of()));
                    out.add(tool(s, noun, false, s.id() + "_search_" + plural(noun),
                            "Search the " + s.what() + " for " + things + " by keyword, " + words(f1) + " or " + words(f2) + ".",
                            List.of(s("query", "Keywords to search for"), f1, f2), List.of("query")));
                    out.add(tool(s, noun, false, s.id() + "_get_" + noun,
                            "One " + thing + " of the " + s.what() + " by its id, with its " + words(f1) + ", " + words(f2) + " and " + words(f3) + ".",
                            List.of(s(idParam, "Id of the " + thing)), List.of(idParam)));
                    out.add(tool(s, noun, true, s.id() + "_create_" + noun,
                            "Create a " + thing + " in the " + s.what() + " with " + words(f1) + ", " + words(f2) + " and " + words(f3) + ".",
                            List.of(f1, f2, f3), List.of(f1.name())));
                    out.add(tool(s, noun, true, s.id() + "_update_" + noun,
                            "Change the " + words(f2) + " or " + words(f3) + " of a " + thing + " in the " + s.what() + ".",
                            List.of(s(idParam, "Id of the " + thing), f2, f3), List.of(idParam)));
                    out.add(tool(s, noun, true, s.id() + "_delete_" + noun,
                            "Delete a " + thing + " from the " + s.what() + " for good.", List.of(s(idParam, "Id of the " + thing)), List.of(idParam)));
                    out.add(tool(s, noun, true, s.id() + "_archive_" + noun,
                            "Archive a " + thing + " of the " + s.what() + "; it can be restored within 30 days.", List.of(s(idParam, "Id of the " + thing)), List.of(idParam)));
                    out.add(tool(s, noun, false, s.id() + "_export_" + plural(noun),
                            "Export the " + things + " of the " + s.what() + " as a file link, filtered by " + words(f4) + ".",
                            List.of(s("format", "csv or json"), f4), List.of("format")));
                }
            }
            return List.copyOf(out);
        }

        private static String words(Field f) { return f.name().replace('_', ' '); }

        private static String plural(String noun) {
            if (noun.endsWith("y") && !noun.endsWith("ey")) return noun.substring(0, noun.length() - 1) + "ies";
            if (noun.endsWith("s") || noun.endsWith("ch") || noun.endsWith("sh")) return noun + "es";
            return noun + "s";
        }

        private static Candidate tool(Service s, String noun, boolean writes, String name, String description, List<Field> fields, List<String> required) {
            ObjectNode schema = Json.object();
            schema.put("type", "object");
            ObjectNode props = schema.putObject("properties");
            for (Field f : fields) {
                ObjectNode p = props.putObject(f.name());
                p.put("type", f.type());
                p.put("description", f.description());
            }
            ArrayNode req = schema.putArray("required");
            required.forEach(req::add);
            return new Candidate(new ToolSpec(name, description, schema), new Extra(s.id(), s.what(), false, writes, noun));
        }
    }
}
