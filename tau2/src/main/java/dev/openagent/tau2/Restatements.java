package dev.openagent.tau2;

import dev.openagent.envs.kit.TaskVariants;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Chain;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Task;
import dev.openagent.tau2.Retail.User;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a tau2 retail task is restated under shifts, in its own world (the database every task starts from): made
 * impossible (an order that does not exist; a customer no account matches), its order reached through more
 * lookups (the order as the customer's account lists it), or revised mid-episode (another tau2 task of the same
 * kind). What a task says is read from its gold actions: the values its calls use that its request states.
 */
final class Restatements {
    private static final long REVISED = 0x7A52;
    private static final List<String> ORDINALS = List.of("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth");

    private final Tau2Retail env;

    Restatements(Tau2Retail env) {
        this.env = env;
    }

    private Tau2Retail.Gold gold(Task t) { return env.gold(t.expect().get(Tau2Retail.TAU2_TASK)); }

    // ---------------------------------------------------------------- what a request states

    private static final Pattern ORDER = Pattern.compile("#?W\\d{7}\\b");

    /** The orders the request names (as "#W2378156" or "W2378156", once each), in the order it names them: id -> span. */
    static Map<String, String> orders(String query, RetailDb db) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = ORDER.matcher(query);
        while (m.find()) {
            String span = m.group();
            String id = span.startsWith("#") ? span : "#" + span;
            if (db.orders().containsKey(id) && TaskVariants.once(query, span) && !(span.startsWith("W") && query.contains("#" + span))) out.putIfAbsent(id, span);
        }
        return out;
    }

    /** Who the request says the user is: the customer whose name and zip code, email or user id it states. */
    record Identity(User user, boolean name, boolean zip, boolean email, boolean id) {}

    static Optional<Identity> identity(String query, RetailDb db) {
        for (User u : db.users().values()) {
            boolean name = TaskVariants.once(query, u.name().firstName() + " " + u.name().lastName());
            boolean zip = TaskVariants.once(query, u.address().zip());
            boolean email = TaskVariants.once(query, u.email());
            boolean id = TaskVariants.once(query, u.userId());
            if ((name && zip) || email || (id && (zip || name))) return Optional.of(new Identity(u, name, zip, email, id));
        }
        return Optional.empty();
    }

    /**
     * The request's details a user can supply when asked: the name, zip code, email, user id and order ids it states.
     * Leaving out the zip code is ambiguous when another customer has the same name (and the name, when another customer
     * has the same zip code): tau2's database has both.
     */
    static List<Detail> details(String query, RetailDb db) {
        List<Detail> out = new ArrayList<>();
        identity(query, db).ifPresent(who -> {
            User u = who.user();
            String name = u.name().firstName() + " " + u.name().lastName();
            String zip = u.address().zip();
            long sameName = db.users().values().stream().filter(x -> x.name().equals(u.name())).count();
            long sameZip = db.users().values().stream().filter(x -> x.address().zip().equals(zip)).count();
            if (who.name()) out.add(new Detail("name", name, "name|first name|last name|full name|called", "My name is " + name + ".", sameZip > 1 && who.zip() && !who.email() && !who.id()));
            if (who.zip()) out.add(new Detail("zip_code", zip, "zip|zipcode|postal", "My zip code is " + zip + ".", sameName > 1 && who.name() && !who.email() && !who.id()));
            if (who.email()) out.add(new Detail("email", u.email(), "email|e-mail|mail", "My email is " + u.email() + ".", false));
            if (who.id()) out.add(new Detail("user_id", u.userId(), "user id|username|account", "My user id is " + u.userId() + ".", false));
        });
        orders(query, db).values().forEach(span -> out.add(new Detail("order_id", span, "order id|order number|which order", "It is order " + span + ".", false)));
        return out;
    }

    // ---------------------------------------------------------------- task.unsolvable

    /** The request names an order that does not exist: looking it up shows it. */
    Optional<Task> missingOrder(Task t, RetailState w, SplittableRandom rnd) {
        List<Map.Entry<String, String>> named = new ArrayList<>(orders(t.query(), w.db).entrySet());
        if (named.isEmpty()) return Optional.empty();
        var pick = named.get(rnd.nextInt(named.size()));
        String id = pick.getKey();
        String span = pick.getValue();
        String missing = id;
        while (w.order(missing) != null) missing = "#W" + (1000000 + rnd.nextInt(9000000));
        String newSpan = span.startsWith("#") ? missing : missing.substring(1);
        List<GoldPlan.Call> probes = probesBefore(t.plan(), id, "order_id");
        probes.add(new GoldPlan.Call("get_order_details", Json.object("order_id", missing)));
        return Optional.of(restated(t, span, newSpan).unsolvable(t.query().replace(span, newSpan), probes, "There is no order " + newSpan + ".",
                TaskVariants.replaceInDetails(t.details(), span, newSpan, true)));
    }

    /**
     * No account matches who the user says they are (tau2's policy: authenticate first, by email or by name and zip
     * code): every way the request identifies the customer (email, zip code, user id) is changed to one no account has,
     * and each way of finding the account shows it.
     */
    Optional<Task> unknownCustomer(Task t, RetailState w, SplittableRandom rnd) {
        Identity who = identity(t.query(), w.db).orElse(null);
        if (who == null || !(who.email() || who.zip() || who.id())) return Optional.empty();
        User u = who.user();
        Changes c = new Changes(t);
        if (who.id()) {
            String other = u.userId();
            while (w.user(other) != null) other = u.userId().replaceFirst("_\\d+$", "") + "_" + (1000 + rnd.nextInt(9000));
            c.change(u.userId(), other, new GoldPlan.Call("get_user_details", Json.object("user_id", other)), "the user id " + other);
        }
        if (who.email()) {
            String other = u.email();
            while (hasEmail(w, other)) other = u.email().replaceFirst("^([^@0-9]*)[0-9]*@", "$1" + (100 + rnd.nextInt(9900)) + "@");
            c.change(u.email(), other, new GoldPlan.Call("find_user_id_by_email", Json.object("email", other)), "the email address " + other);
        }
        if (who.zip()) {
            String first = u.name().firstName();
            String last = u.name().lastName();
            String other = u.address().zip();
            while (other.equals(u.address().zip()) || matches(w, first, last, other)) other = String.format("%05d", 10000 + rnd.nextInt(89999));
            c.change(u.address().zip(), other, new GoldPlan.Call("find_user_id_by_name_zip", Json.object("first_name", first, "last_name", last, "zip", other)),
                    "the name " + first + " " + last + " with the zip code " + other);
        }
        return Optional.of(c.task.unsolvable(c.query, c.probes, "No customer account has " + String.join(", nor ", c.why) + ".", c.details));
    }

    /** A request's values changed one by one (in its text, its details and what the user says), with a probe for each. */
    private static final class Changes {
        Task task;
        String query;
        List<Detail> details;
        final List<GoldPlan.Call> probes = new ArrayList<>();
        final List<String> why = new ArrayList<>();

        Changes(Task t) {
            task = t;
            query = t.query();
            details = t.details();
        }

        void change(String from, String to, GoldPlan.Call probe, String reason) {
            task = restated(task, from, to);
            query = query.replace(from, to);
            details = TaskVariants.replaceInDetails(details, from, to, true);
            probes.add(probe);
            why.add(reason);
        }
    }

    private static boolean matches(RetailState w, String first, String last, String zip) {
        for (User u : w.allUsers()) {
            if (u.name().firstName().equalsIgnoreCase(first) && u.name().lastName().equalsIgnoreCase(last) && u.address().zip().equals(zip)) return true;
        }
        return false;
    }

    private static boolean hasEmail(RetailState w, String email) {
        for (User u : w.allUsers()) if (u.email().equalsIgnoreCase(email)) return true;
        return false;
    }

    /** The task whose user now states {@code to} where they stated {@code from} (in what they answer too). */
    private static Task restated(Task t, String from, String to) {
        Map<String, String> facts = new LinkedHashMap<>();
        t.userFacts().forEach((k, v) -> facts.put(k, v.replace(from, to)));
        return t.withUserFacts(facts);
    }

    /**
     * The plan's look-ups before the first call that uses {@code value} (as {@code param}): what an agent does before
     * it runs into the value. Writing calls are left out (probes never write), and so are calls that read them.
     */
    private static List<GoldPlan.Call> probesBefore(GoldPlan plan, String value, String param) {
        List<GoldPlan.Call> out = new ArrayList<>();
        Map<Integer, Integer> kept = new HashMap<>();
        for (int i = 0; i < plan.calls().size(); i++) {
            GoldPlan.Call c = plan.calls().get(i);
            if (value.equals(c.args().path(param).asText(null))) break;
            if (RetailTools.WRITES.contains(c.tool()) || c.tool().equals(RetailTools.TRANSFER)) continue;
            Map<String, GoldPlan.Ref> refs = new HashMap<>();
            boolean ok = true;
            for (var e : c.refs().entrySet()) {
                Integer at = kept.get(e.getValue().call());
                if (at == null) ok = false;
                else refs.put(e.getKey(), new GoldPlan.Ref(at, e.getValue().pointer()));
            }
            if (!ok) continue;
            kept.put(i, out.size());
            out.add(new GoldPlan.Call(c.tool(), c.args(), refs));
        }
        return out;
    }

    // ---------------------------------------------------------------- logic.longer-chain

    /**
     * The request's order as the customer's account lists it ("my order (the third order listed on my account)"):
     * the account is found the way the request identifies the customer, then its profile lists the order.
     */
    Optional<Chain> orderThroughAccount(Task t, RetailState w, SplittableRandom rnd, int extraHops) {
        Identity who = identity(t.query(), w.db).orElse(null);
        if (who == null) return Optional.empty();
        List<Map.Entry<String, String>> named = orders(t.query(), w.db).entrySet().stream()
                .filter(e -> who.user().orders().indexOf(e.getKey()) >= 0 && who.user().orders().indexOf(e.getKey()) < ORDINALS.size()).toList();
        if (named.isEmpty()) return Optional.empty();
        var pick = named.get(rnd.nextInt(named.size()));
        int k = who.user().orders().indexOf(pick.getKey());
        List<GoldPlan.Call> hops = new ArrayList<>();
        if (extraHops <= 1 && who.id()) {
            hops.add(new GoldPlan.Call("get_user_details", Json.object("user_id", who.user().userId())));
        } else {
            User u = who.user();
            if (who.email()) hops.add(new GoldPlan.Call("find_user_id_by_email", Json.object("email", u.email())));
            else if (who.name() && who.zip()) hops.add(new GoldPlan.Call("find_user_id_by_name_zip",
                    Json.object("first_name", u.name().firstName(), "last_name", u.name().lastName(), "zip", u.address().zip())));
            else return Optional.empty();
            hops.add(new GoldPlan.Call("get_user_details", Json.object(), Map.of("user_id", new GoldPlan.Ref(0, ""))));
        }
        String query = t.query().replace(pick.getValue(), "(the " + ORDINALS.get(k) + " order listed on my account)");
        List<Detail> details = t.details().stream().filter(d -> query.contains(d.span())).toList();
        return Optional.of(new Chain(query, hops, "/orders/" + k, pick.getKey(), details));
    }

    // ---------------------------------------------------------------- query.intent-drift

    /**
     * Another tau2 task of the same kind in the same split, using the same tools, that asks for other work with
     * another outcome (other changes to the database, or other facts to tell): the user changes their mind before
     * anything was written, so the database is still the one every task starts from. Tasks that end with a transfer
     * to a human agent are neither revised nor revisions.
     */
    Optional<Task> revised(Task t, long seed) {
        Tau2Retail.Gold g = gold(t);
        if (g == null || transfers(g)) return Optional.empty();
        Set<String> used = used(g.plan());
        List<Tau2Retail.Gold> candidates = env.split(t.split()).stream()
                .filter(c -> c != g && c.kind().equals(g.kind()) && !transfers(c) && used(c.plan()).equals(used)
                        && !c.plan().calls().equals(g.plan().calls()) && !c.query().equals(g.query())
                        && !(c.changes().equals(g.changes()) && c.task().communicateInfo().equals(g.task().communicateInfo())))
                .toList();
        if (candidates.isEmpty()) return Optional.empty();
        Tau2Retail.Gold pick = candidates.get(Math.floorMod(Seeds.mix(seed, REVISED), candidates.size()));
        return Optional.of(Tau2Retail.task(pick, Split.parse(pick.task().split()), t.seed()));
    }

    private static boolean transfers(Tau2Retail.Gold g) {
        return g.plan().calls().stream().anyMatch(c -> c.tool().equals(RetailTools.TRANSFER));
    }

    private static Set<String> used(GoldPlan plan) {
        Set<String> out = new java.util.TreeSet<>();
        plan.calls().forEach(c -> out.add(c.tool()));
        return out;
    }

    // ---------------------------------------------------------------- query.redundant

    /** Sentences about products and places of this shop the request does not name. */
    static List<String> distractions(Task t, RetailState w, SplittableRandom rnd) {
        List<String> products = new ArrayList<>();
        for (var p : w.db.products().values()) if (!t.query().toLowerCase().contains(p.name().toLowerCase())) products.add(p.name());
        List<String> cities = new ArrayList<>();
        for (User u : w.db.users().values()) {
            String c = u.address().city();
            if (!t.query().contains(c) && !cities.contains(c)) cities.add(c);
        }
        List<String> out = new ArrayList<>();
        if (!products.isEmpty()) {
            String p = products.get(rnd.nextInt(products.size()));
            out.add("I might also buy a " + p.toLowerCase() + " from you later, but not today.");
        }
        if (!cities.isEmpty()) out.add("My sister in " + cities.get(rnd.nextInt(cities.size())) + " told me your support is quick.");
        if (products.size() > 1) {
            String p = products.get(rnd.nextInt(products.size()));
            out.add("The " + p.toLowerCase() + " I bought last year is still working fine, so nothing to do about that one.");
        }
        return out;
    }
}
