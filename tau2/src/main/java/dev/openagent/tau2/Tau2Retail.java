package dev.openagent.tau2;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.json.Json;
import dev.openagent.domain.Domain;
import dev.openagent.domain.DomainEnv;
import dev.openagent.domain.Surface;
import dev.openagent.domain.TaskKind;
import dev.openagent.domain.Tool;
import dev.openagent.domain.ToolFailure;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * tau2-bench's retail domain as an environment ({@code --env tau2:retail}, id {@value #ID}), built from a tau2-bench
 * checkout at load time: its database ({@code db.json}, a fresh copy per episode by a copy-on-write overlay), its
 * tools (behaviour implemented in {@link RetailTools}; names, parameters and descriptions read from the checkout's
 * {@code tools.py}), its policy as the rules, its tasks and train/test splits. A task's request is its user
 * scenario in the user's words ({@link Scenario}); the deterministic user answers {@code ask_user} from what the
 * scenario says the user knows. The final database must equal the one the task's gold actions leave (tau2's
 * database check), and every {@code communicate_info} item must appear in what the agent said (tau2's communicate
 * check); natural-language assertions need a model judge and are reported as not scored. A transfer to a human
 * agent ends the episode, as in tau2. Every episode reports its final database as {@code db_changes}.
 * <p>
 * Construction is a plain factory ({@link #load}); nothing is registered globally.
 */
public final class Tau2Retail implements Environment {
    public static final String ID = "tau2-retail";
    /** The key of a task's expectations naming its tau2 task id (the checker reads the task's gold outcome by it). */
    static final String TAU2_TASK = "tau2_task";

    private final Tau2Checkout checkout;
    private final RetailDb db;
    private final List<Tool<RetailState>> tools;
    private final Map<String, Tool<RetailState>> byName = new LinkedHashMap<>();
    private final Map<String, Gold> tasks = new LinkedHashMap<>();
    private final Map<Split, List<Gold>> splits = new LinkedHashMap<>();
    private final Domain<RetailState> domain;
    private final EnvironmentInfo info;
    private final Restatements restatements = new Restatements(this);
    private final String policy;

    /**
     * A tau2 task with what replaying its gold actions here gave: which actions succeeded (tau2 rejects some of its
     * own gold actions; they change nothing), the database changes they leave, and the task as an episode poses it.
     */
    record Gold(Tau2Task task, List<Boolean> ok, RetailState.Changes changes, String kind, int difficulty, String query,
                List<Detail> details, Map<String, String> userFacts, GoldPlan plan, boolean writes, Set<String> unseen) {
        Gold {
            ok = List.copyOf(ok);
            details = List.copyOf(details);
            unseen = Set.copyOf(unseen);
        }
    }

    private Tau2Retail(Tau2Checkout checkout) {
        this.checkout = checkout;
        String dbFile = checkout.data().resolve("db.json").toString();
        this.db = RetailDb.read(checkout.json("db.json"), dbFile);
        this.tools = RetailTools.tools(ToolDocs.read(checkout.text(checkout.tools()), checkout.tools().toString()), checkout.tools().toString());
        tools.forEach(t -> byName.put(t.name(), t));
        this.policy = checkout.text(checkout.data().resolve("policy.md"));
        readTasks();
        List<TaskKind<RetailState, Object>> kinds = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Gold g : tasks.values()) {
            if (g.task().split() != null && seen.add(g.kind() + "/" + g.difficulty())) kinds.add(RetailFacts.kind(g.kind(), g.difficulty(), restatements));
        }
        this.domain = new Domain<>(ID, "tau2-bench's retail domain (customer service: orders, returns, exchanges, cancellations, addresses, payments), "
                + "read from the tau2-bench checkout at " + checkout.root(), policy, new Surface.FunctionCalls<>(tools),
                (split, seed) -> new RetailState(db), kinds, this::task, this::check, RetailFacts.vocabulary());
        this.info = DomainEnv.infoOf(domain);
    }

    /**
     * Loads the retail domain of the tau2-bench checkout at {@code dir} (its root or its {@code data} folder).
     *
     * @throws BadTau2Data for a missing or malformed directory, a database that does not match tau2's schema, a task
     *                     naming a tool tau2's retail domain does not have: one line saying what and where
     */
    public static Tau2Retail load(java.nio.file.Path dir) {
        return new Tau2Retail(Tau2Checkout.at(dir, "retail"));
    }

    // ---------------------------------------------------------------- tasks

    private void readTasks() {
        String tasksFile = checkout.data().resolve("tasks.json").toString();
        String splitFile = checkout.data().resolve("split_tasks.json").toString();
        JsonNode splitJson = checkout.json("split_tasks.json");
        Map<String, String> splitOf = new LinkedHashMap<>();
        for (Split s : Split.values()) {
            JsonNode ids = splitJson.path(s.id());
            if (!ids.isArray()) throw new BadTau2Data(splitFile + ": no '" + s.id() + "' list of task ids");
            ids.forEach(id -> splitOf.put(id.asText(), s.id()));
        }
        JsonNode all = checkout.json("tasks.json");
        if (!all.isArray()) throw new BadTau2Data(tasksFile + ": expected a list of tasks");
        for (int i = 0; i < all.size(); i++) {
            String at = tasksFile + ": task " + all.get(i).path("id").asText("#" + i);
            Tau2Task t = Tau2Task.read(all.get(i), splitOf.get(all.get(i).path("id").asText()), at);
            if (tasks.containsKey(t.id())) throw new BadTau2Data(at + ": the id is used twice");
            tasks.put(t.id(), replay(t, at));
        }
        for (var e : splitOf.entrySet()) {
            if (!tasks.containsKey(e.getKey())) throw new BadTau2Data(splitFile + ": " + e.getValue() + " names task '" + e.getKey() + "', which tasks.json lacks");
        }
        for (Split s : Split.values()) {
            splits.put(s, tasks.values().stream().filter(g -> s.id().equals(g.task().split())).toList());
            if (splits.get(s).isEmpty()) throw new BadTau2Data(splitFile + ": the " + s.id() + " split is empty");
        }
    }

    /**
     * Replays a task's gold actions on a fresh database, as tau2's evaluator does, and poses the task from it. Its plan
     * is the gold actions that succeed, each preceded by the look-ups an agent makes to find what it sends
     * ({@link Discovery}), each id argument a reference to the latest earlier look-up's result that holds it (the data
     * dependencies tau2's tasks leave implicit).
     */
    private Gold replay(Tau2Task t, String at) {
        RetailState s = new RetailState(db);
        List<Boolean> ok = new ArrayList<>();
        Set<String> writes = new LinkedHashSet<>();
        int writing = 0;
        for (int i = 0; i < t.actions().size(); i++) {
            Tau2Task.Action a = t.actions().get(i);
            Tool<RetailState> tool = byName.get(a.name());
            if (tool == null) {
                throw new BadTau2Data(at + ", action " + i + ": names the tool '" + a.name() + "', which tau2's retail tools do not have (tools: "
                        + String.join(", ", byName.keySet()) + ")");
            }
            try {
                tool.behaviour().call(s, tool.params().validate(a.arguments()));
                ok.add(true);
                if (RetailTools.WRITES.contains(a.name())) {
                    writing++;
                    writes.add(RetailFacts.shortName(a.name()));
                } else if (a.name().equals(RetailTools.TRANSFER)) {
                    writes.add("transfer");
                }
            } catch (ToolFailure f) {
                ok.add(false);   // tau2 logs it and goes on: a rejected call changes nothing
            }
        }
        String kind = writes.isEmpty() ? "lookup" : String.join("+", writes.stream().sorted().toList());
        int difficulty = Math.min(4, writing + 1);
        String query = Scenario.request(t);
        Discovery plan = discover(t, ok, query, s.changes(), at);
        String answer = t.communicateInfo().isEmpty() ? "Your request has been handled."
                : "Here is what you asked about: " + String.join("; ", t.communicateInfo()) + ".";
        return new Gold(t, ok, s.changes(), kind, difficulty, query, Restatements.details(query, db), Scenario.userFacts(t),
                GoldPlan.answer(plan.calls(), answer), writing > 0, plan.unseen());
    }

    /**
     * The gold actions that succeed, each after the look-ups an agent makes first, replayed again on a fresh database:
     * the look-ups change nothing, so it must end as the gold actions alone do.
     */
    private Discovery discover(Tau2Task t, List<Boolean> ok, String query, RetailState.Changes gold, String at) {
        RetailState s = new RetailState(db);
        Discovery d = new Discovery(byName, s, shownBefore(query), customer(t, query));
        for (int i = 0; i < t.actions().size(); i++) {
            Tau2Task.Action a = t.actions().get(i);
            Tool<RetailState> tool = byName.get(a.name());
            if (!ok.get(i)) {
                try {
                    tool.behaviour().call(s, tool.params().validate(a.arguments()));
                } catch (ToolFailure rejected) {
                    // as in the replay: it changes nothing and is no part of the plan
                }
                continue;
            }
            d.before(a, orderOf(t, ok, i));
            d.gold(a, tool.behaviour().call(s, tool.params().validate(a.arguments())));
        }
        if (!s.changes().equals(gold)) throw new IllegalStateException(at + ": the look-ups added to the gold actions changed the database");
        return d;
    }

    /** What an agent is shown before it calls anything: the request, the policy and the tools. */
    private String shownBefore(String query) {
        StringBuilder sb = new StringBuilder(query).append('\n').append(policy);
        for (Tool<RetailState> tool : tools) sb.append('\n').append(tool.name()).append(": ").append(tool.description()).append(' ').append(Json.write(tool.params().schema()));
        return sb.toString();
    }

    /** The customer a task is about: the owner of the first order its gold actions use, the user they name, or who the request says. */
    private String customer(Tau2Task t, String query) {
        for (Tau2Task.Action a : t.actions()) {
            Retail.Order o = db.orders().get(a.arguments().path("order_id").asText(""));
            if (o != null) return o.userId();
            if (db.users().containsKey(a.arguments().path("user_id").asText(""))) return a.arguments().get("user_id").asText();
        }
        return Restatements.identity(query, db).map(id -> id.user().userId()).orElse(null);
    }

    /** The order a gold action is about: its own, else that of the next successful action that names one. */
    private String orderOf(Tau2Task t, List<Boolean> ok, int i) {
        for (int k = i; k < t.actions().size(); k++) {
            String o = t.actions().get(k).arguments().path("order_id").asText(null);
            if (o != null && ok.get(k) && db.orders().containsKey(o)) return o;
        }
        return null;
    }

    Gold gold(String tau2Id) { return tasks.get(tau2Id); }

    /** The tasks of the checkout by tau2 id, in tasks.json's order, with their gold replay. */
    Map<String, Gold> tasks() { return tasks; }

    List<Gold> split(Split s) { return splits.get(s); }

    RetailDb db() { return db; }

    Domain<RetailState> domain() { return domain; }

    /** The task of a request: a task of its split (and difficulty) chosen by its seed. */
    private Task task(RetailState world, TaskRequest request, long seed) {
        List<Gold> pool = splits.get(request.split()).stream().filter(g -> request.difficulty() == 0 || g.difficulty() == request.difficulty()).toList();
        if (pool.isEmpty()) throw new UserInputException(ID + " has no " + request.split().id() + " task of difficulty " + request.difficulty());
        return task(pool.get(Math.floorMod(request.seed(), pool.size())), request.split(), seed);
    }

    /** The episode's task for a tau2 task: its id ends with '/' and tau2's task id. */
    static Task task(Gold g, Split split, long seed) {
        return new Task(ID + "/" + split.id() + "/" + g.task().id(), ID, split, seed, g.kind(), g.difficulty(), g.query(), g.plan(), true,
                List.of(), List.of(), Map.of(TAU2_TASK, g.task().id()), g.details(), g.userFacts(), g.writes());
    }

    // ---------------------------------------------------------------- scoring

    /**
     * tau2's checks that need no model: the database equals the one the gold actions leave, and every
     * communicate_info item is in something the agent said (case-insensitive, commas ignored, as tau2 compares).
     */
    private String check(Task task, RetailState world, String answer) {
        Gold g = tasks.get(task.expect().get(TAU2_TASK));
        if (g == null) throw new IllegalStateException("task " + task.id() + " names no tau2 task");
        RetailState.Changes got = world.changes();
        if (!got.equals(g.changes())) return "the database differs from the one tau2's gold actions leave: " + DbDiff.first(got.json(), g.changes().json());
        List<String> said = new ArrayList<>(world.said);
        said.add(answer);
        for (String info : g.task().communicateInfo()) {
            String want = info.toLowerCase(Locale.ROOT);
            if (said.stream().noneMatch(m -> m.toLowerCase(Locale.ROOT).replace(",", "").contains(want))) return "did not tell the user '" + info + "'";
        }
        return null;
    }

    // ---------------------------------------------------------------- Environment

    @Override
    public EnvironmentInfo info() { return info; }

    /**
     * Turns an episode may take: tau2's tasks take up to 13 gold actions, twice the generated environments' longest,
     * and shifts add turns (questions, retries, pages, lookups). tau2 itself stops at 200 messages of both sides.
     */
    static final int MAX_TURNS = 60;

    @Override
    public Env create() { return new Tau2Env(this, new DomainEnv<>(domain, MAX_TURNS)); }

    Restatements restatements() { return restatements; }

    @Override
    public Optional<String> notApplicable(String shiftId) { return RetailFacts.notApplicable(shiftId); }

    /** Where the checkout is. */
    public Tau2Checkout checkout() { return checkout; }

    /** The number of tasks of a split. */
    public int tasks(Split split) { return splits.get(split).size(); }

    /** A task's natural-language assertions (tau2's model-judged criteria, not scored here). */
    List<String> nlAssertions(Task task) {
        Gold g = tasks.get(task.expect().get(TAU2_TASK));
        return g == null ? List.of() : g.task().nlAssertions();
    }

    /** The database changes of a finished world, in tau2's schema. */
    static ObjectNode dbChanges(RetailState world) { return world.changes().json(); }
}
