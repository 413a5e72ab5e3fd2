package dev.openagent.envs.medical;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskVariants;
import dev.openagent.envs.medical.MedicalWorld.Doctor;
import dev.openagent.envs.medical.MedicalWorld.Drug;
import dev.openagent.envs.medical.MedicalWorld.Patient;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.GoldPlan.Ref;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Task;
import dev.openagent.tool.ShiftHooks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

import static dev.openagent.envs.kit.TaskDraft.args;

/**
 * What the shifts may know about the hospital: how its requests become impossible (a patient who is
 * not registered, a date outside the clinic week, a campus it does not have, a drug outside the
 * formulary or one the patient must not get, an appointment never booked, a doctor with no clinic that
 * day, a language no matching doctor speaks), how a campus or a drug is reached through a patient's
 * chart, the other path to a medication list, its records, its rule of order and its words.
 */
final class MedicalShiftHooks {
    private MedicalShiftHooks() {}

    private static final List<String> OUTSIDE = List.of("2027-02-26", "2027-03-06", "2027-03-07", "2027-03-08", "2027-03-09",
            "2027-03-10", "2027-03-11", "2027-03-12", "2027-03-15");

    // ---------------------------------------------------------------- task.unsolvable

    static Optional<Task> unsolvable(Task task, MedicalWorld w, long seed) {
        SplittableRandom rnd = new SplittableRandom(Seeds.mix(seed, 0x0DD));
        List<TaskVariants.Way> ways = new ArrayList<>();
        boolean findsPatient = !task.plan().calls().isEmpty() && task.plan().calls().getFirst().tool().equals("find_patient");
        switch (task.kind()) {
            case "department_location", "count_doctors" -> ways.add(r -> unknownCampus(task, w, r));
            case "drug_class" -> ways.add(r -> notInFormulary(task, w, r));
            case "first_free_time" -> {
                ways.add(r -> outsideWeek(task, r));
                ways.add(r -> unknownCampus(task, w, r));
            }
            case "cancel_appointment" -> ways.add(r -> neverBooked(task, w, r));
            case "interaction_question" -> ways.add(r -> notInFormulary(task, w, r));
            case "book_specialist" -> {
                ways.add(r -> outsideWeek(task, r));
                ways.add(r -> fullyBooked(task, w, r));
            }
            case "checked_prescription" -> ways.add(r -> unsafeDrug(task, w, r));
            case "primary_doctor_booking" -> ways.add(r -> noClinicThatDay(task, w, r));
            case "earliest_matching_specialist" -> ways.add(r -> noMatchingDoctor(task, w, r));
            default -> { }
        }
        if (findsPatient) ways.add(r -> notRegistered(task, w, r));
        return TaskVariants.first(ways, rnd);
    }

    /** The patient is not registered: the date of birth is one no patient of that name has. */
    private static Optional<Task> notRegistered(Task task, MedicalWorld w, SplittableRandom rnd) {
        ObjectNode find = task.plan().calls().getFirst().args();
        String name = find.path("name").asText("");
        String dob = find.path("date_of_birth").asText("");
        if (dob.isEmpty() || !TaskVariants.once(task.query(), dob)) return Optional.empty();
        String other;
        do {
            other = String.format(Locale.ROOT, "%d-%02d-%02d", 1940 + rnd.nextInt(70), 1 + rnd.nextInt(12), 1 + rnd.nextInt(28));
        } while (registered(w, name, other));
        ObjectNode probe = args("name", name, "date_of_birth", other);
        return Optional.of(task.unsolvable(task.query().replace(dob, other), List.of(new GoldPlan.Call("find_patient", probe)),
                "No patient named " + name + " born " + other + " is registered.", TaskVariants.replaceInDetails(task.details(), dob, other, true)));
    }

    private static boolean registered(MedicalWorld w, String name, String dob) {
        return w.map.patients().stream().anyMatch(p -> p.name().equals(name) && p.dob().equals(dob));
    }

    /** The date asked for is outside the clinic week. */
    private static Optional<Task> outsideWeek(Task task, SplittableRandom rnd) {
        String date = null;
        for (GoldPlan.Call c : task.plan().calls()) if (date == null && c.args().has("date")) date = c.args().get("date").asText();
        if (date == null || !TaskVariants.once(task.query(), date)) return Optional.empty();
        String other = TaskVariants.any(OUTSIDE, rnd);
        return Optional.of(task.unsolvable(task.query().replace(date, other), TaskVariants.probesUntil(task.plan(), "date", other),
                other + " is outside the clinic week (" + MedicalWorld.DATES.getFirst() + " to " + MedicalWorld.DATES.getLast() + ").",
                TaskVariants.replaceInDetails(task.details(), date, other, false)));
    }

    /** The campus asked about is not one of this hospital's. */
    private static Optional<Task> unknownCampus(Task task, MedicalWorld w, SplittableRandom rnd) {
        String campus = null;
        for (String c : w.map.campuses()) if (task.query().contains(" " + c + " Campus")) campus = c;
        if (campus == null || !TaskVariants.once(task.query(), campus + " Campus")) return Optional.empty();
        List<String> pool = new ArrayList<>(MedicalNames.CAMPUSES);
        pool.removeIf(c -> w.map.campuses().contains(c) || task.query().contains(c));
        String other = TaskVariants.any(pool, rnd);
        List<GoldPlan.Call> probes = TaskVariants.probesUntil(task.plan(), "campus", other + " Campus");
        if (probes.isEmpty()) return Optional.empty();
        return Optional.of(task.unsolvable(task.query().replace(campus + " Campus", other + " Campus"), probes,
                "The hospital has no " + other + " Campus (its campuses: " + String.join(", ", w.map.campuses()) + ").",
                TaskVariants.replaceInDetails(task.details(), campus, other, true)));
    }

    /** The drug asked about is not in the formulary: a name made of the formulary's stems that no drug has. */
    private static Optional<Task> notInFormulary(Task task, MedicalWorld w, SplittableRandom rnd) {
        Drug named = null;
        for (Drug d : w.map.drugs()) if (TaskVariants.once(task.query(), d.name()) && (named == null || d.name().length() > named.name().length())) named = d;
        if (named == null || !task.query().contains(named.name())) return Optional.empty();
        String fake = null;
        for (int i = 0; i < 200 && fake == null; i++) {
            String candidate = TaskVariants.any(MedicalNames.DRUG_STEMS, rnd) + TaskVariants.any(MedicalNames.DRUG_SUFFIXES, rnd);
            String lower = candidate.toLowerCase(Locale.ROOT);
            if (w.map.drugs().stream().noneMatch(d -> d.lowerName().contains(lower) || lower.contains(d.lowerName()))) fake = candidate;
        }
        if (fake == null) return Optional.empty();
        List<GoldPlan.Call> probes = new ArrayList<>();
        for (GoldPlan.Call c : task.plan().calls()) {
            if (c.tool().equals("search_drugs") && c.args().path("name").asText().equals(named.name())) {
                probes.add(new GoldPlan.Call("search_drugs", args("name", fake)));
                break;
            }
            probes.add(c);
        }
        return Optional.of(task.unsolvable(task.query().replace(named.name(), fake), probes, fake + " is not in the hospital's formulary.",
                TaskVariants.replaceInDetails(task.details(), named.name(), fake, true)));
    }

    /** The appointment to cancel was never made: another clinic day, on which the patient has none with that doctor. */
    private static Optional<Task> neverBooked(Task task, MedicalWorld w, SplittableRandom rnd) {
        MedicalWorld.Appointment target = w.appointment(task.expect().getOrDefault("cancel", ""));
        if (target == null) return Optional.empty();
        String date = MedicalWorld.DATES.get(target.day());
        if (!TaskVariants.once(task.query(), date)) return Optional.empty();
        List<String> free = new ArrayList<>();
        for (int d = 0; d < MedicalWorld.DATES.size(); d++) {
            int day = d;
            boolean has = w.appointments.stream().anyMatch(a -> a.patientId().equals(target.patientId()) && a.doctorId().equals(target.doctorId())
                    && a.day() == day);
            if (!has) free.add(MedicalWorld.DATES.get(d));
        }
        if (free.isEmpty()) return Optional.empty();
        String other = TaskVariants.any(free, rnd);
        return Optional.of(task.unsolvable(task.query().replace(date, other),
                List.of(new GoldPlan.Call("list_appointments", args("patient_id", target.patientId()))),
                "There is no appointment with " + w.doctor(target.doctorId()).name() + " on " + other + " to cancel.",
                TaskVariants.replaceInDetails(task.details(), date, other, false)));
    }

    /** The department has no free time that day with a doctor who accepts new patients: another day when it is fully booked. */
    private static Optional<Task> fullyBooked(Task task, MedicalWorld w, SplittableRandom rnd) {
        GoldPlan.Call slots = task.plan().calls().stream().filter(c -> c.tool().equals("find_open_slots")).findFirst().orElse(null);
        if (slots == null) return Optional.empty();
        String department = slots.args().path("department").asText();
        String campus = w.campus(slots.args().path("campus").asText());
        String date = slots.args().path("date").asText();
        if (campus == null || !TaskVariants.once(task.query(), date)) return Optional.empty();
        List<String> full = new ArrayList<>();
        for (int d = 0; d < MedicalWorld.DATES.size(); d++) {
            if (MedicalTools.openSlots(w, department, campus, d, true).isEmpty()) full.add(MedicalWorld.DATES.get(d));
        }
        if (full.isEmpty()) return Optional.empty();
        String other = TaskVariants.any(full, rnd);
        return Optional.of(task.unsolvable(task.query().replace(date, other), TaskVariants.probesUntil(task.plan(), "date", other),
                "No " + department + " doctor who accepts new patients has a free time at the " + campus + " Campus on " + other + ".",
                TaskVariants.replaceInDetails(task.details(), date, other, false)));
    }

    /** The drug asked for must not be prescribed: a major interaction with the patient's medication, or an allergy. */
    private static Optional<Task> unsafeDrug(Task task, MedicalWorld w, SplittableRandom rnd) {
        Patient p = w.patient(task.expect().getOrDefault("prescribe_patient", ""));
        Drug d = w.drug(task.expect().getOrDefault("prescribe_drug", ""));
        if (p == null || d == null || !TaskVariants.once(task.query(), d.name())) return Optional.empty();
        for (Drug x : Pick.shuffled(w.map.drugs(), rnd)) {
            if (w.takes(p, x) || w.safe(p, x) || task.query().contains(x.name())) continue;
            String why = w.allergic(p, x) ? p.name() + " is allergic to " + x.drugClass() + " drugs"
                    : x.name() + " has a major interaction with " + p.name() + "'s current medication";
            List<GoldPlan.Call> probes = new ArrayList<>();
            for (GoldPlan.Call c : task.plan().calls()) {
                if (c.tool().equals("prescribe_medication")) break;
                ObjectNode a = c.args();
                if (c.tool().equals("search_drugs") && a.path("name").asText().equals(d.name())) a.put("name", x.name());
                probes.add(new GoldPlan.Call(c.tool(), a, fixDrugRefs(c, task, w, x)));
            }
            return Optional.of(task.unsolvable(task.query().replace(d.name(), x.name()), probes,
                    "Blocked: " + why + "; it must not be prescribed.", TaskVariants.replaceInDetails(task.details(), d.name(), x.name(), false)));
        }
        return Optional.empty();
    }

    /** A search by the new drug's name lists it where the old one was listed: refs into that result point at its index. */
    private static Map<String, Ref> fixDrugRefs(GoldPlan.Call c, Task task, MedicalWorld w, Drug x) {
        Map<String, Ref> refs = new HashMap<>(c.refs());
        Ref drug = refs.get("drug_id");
        if (drug != null && task.plan().calls().get(drug.call()).tool().equals("search_drugs")) {
            int k = MedicalTools.drugs(w, x.name(), null).indexOf(x);
            refs.put("drug_id", new Ref(drug.call(), "/drugs/" + k + "/drug_id"));
        }
        return refs;
    }

    /** The primary doctor holds no clinic on the day asked for. */
    private static Optional<Task> noClinicThatDay(Task task, MedicalWorld w, SplittableRandom rnd) {
        Patient p = w.patient(task.expect().getOrDefault("book_patient", ""));
        String date = task.expect().get("book_date");
        if (p == null || date == null || !TaskVariants.once(task.query(), date)) return Optional.empty();
        Doctor doc = w.doctor(p.primaryDoctorId());
        List<String> off = new ArrayList<>();
        for (int d = 0; d < 5; d++) if (!doc.days()[d]) off.add(MedicalWorld.DATES.get(d));
        if (off.isEmpty()) return Optional.empty();
        String other = TaskVariants.any(off, rnd);
        return Optional.of(task.unsolvable(task.query().replace(date, other), TaskVariants.probesUntil(task.plan(), "date", other),
                doc.name() + ", " + p.name() + "'s primary doctor, holds no clinic on " + other + ".",
                TaskVariants.replaceInDetails(task.details(), date, other, false)));
    }

    /** No doctor of the department there who accepts new patients speaks the language asked for. */
    private static Optional<Task> noMatchingDoctor(Task task, MedicalWorld w, SplittableRandom rnd) {
        GoldPlan.Call search = task.plan().calls().stream().filter(c -> c.tool().equals("search_doctors")).findFirst().orElse(null);
        if (search == null) return Optional.empty();
        String department = search.args().path("department").asText();
        String campus = w.campus(search.args().path("campus").asText());
        String language = search.args().path("language").asText();
        if (campus == null || !TaskVariants.once(task.query(), " speaks " + language)) return Optional.empty();
        List<String> none = new ArrayList<>();
        for (String l : MedicalNames.LANGUAGES) {
            if (MedicalTools.doctors(w, department, campus, null, l, true).isEmpty()) none.add(l);
        }
        if (none.isEmpty()) return Optional.empty();
        String other = TaskVariants.any(none, rnd);
        List<GoldPlan.Call> probes = TaskVariants.probesUntil(task.plan(), "language", other);
        return Optional.of(task.unsolvable(task.query().replace(" speaks " + language, " speaks " + other), probes,
                "No " + department + " doctor at the " + campus + " Campus who accepts new patients speaks " + other + ".",
                TaskVariants.replaceInDetails(task.details(), language, other, false)));
    }

    // ---------------------------------------------------------------- logic.longer-chain

    /**
     * A campus becomes the campus of a patient's chart ("the home campus of Q (born D)", from severity 2
     * "the campus where the primary doctor of Q (born D) works"); a drug becomes one on a patient's
     * medication list ("the statin Q (born D) takes").
     */
    static Optional<ShiftHooks.Chain> longerChain(Task task, MedicalWorld w, long seed, int extra) {
        SplittableRandom rnd = new SplittableRandom(Seeds.mix(seed, 0xC4A1));
        Optional<ShiftHooks.Chain> campus = campusChain(task, w, rnd, extra);
        return campus.isPresent() ? campus : drugChain(task, w, rnd);
    }

    private static Optional<ShiftHooks.Chain> campusChain(Task task, MedicalWorld w, SplittableRandom rnd, int extra) {
        String campus = null;
        for (String c : w.map.campuses()) if (TaskVariants.once(task.query(), " the " + c + " Campus")) campus = c;
        if (campus == null) return Optional.empty();
        String c = campus;
        Patient q = Pick.any(w.map.patients(), rnd, p -> p.campus().equals(c) && !task.query().contains(p.name()) && !task.query().contains(p.dob()));
        if (q == null) return Optional.empty();
        List<GoldPlan.Call> hops = new ArrayList<>();
        hops.add(new GoldPlan.Call("find_patient", args("name", q.name(), "date_of_birth", q.dob())));
        String said;
        String pointer;
        if (extra >= 2) {
            hops.add(new GoldPlan.Call("get_patient_record", args(), Map.of("patient_id", new Ref(0, "/patients/0/patient_id"))));
            hops.add(new GoldPlan.Call("get_doctor_profile", args(), Map.of("doctor_id", new Ref(1, "/primary_doctor_id"))));
            said = " the campus where the primary doctor of " + q.name() + " (born " + q.dob() + ") works";
            pointer = "/campus";
        } else {
            said = " the home campus of " + q.name() + " (born " + q.dob() + ")";
            pointer = "/patients/0/home_campus";
        }
        String query = task.query().replace(" the " + campus + " Campus", said);
        return Optional.of(new ShiftHooks.Chain(query, hops, pointer, campus + " Campus", details(task, query, "campus")));
    }

    private static Optional<ShiftHooks.Chain> drugChain(Task task, MedicalWorld w, SplittableRandom rnd) {
        if (!Set.of("drug_class", "interaction_question", "checked_prescription").contains(task.kind())) return Optional.empty();
        Drug drug = null;
        for (Drug d : w.map.drugs()) if (TaskVariants.once(task.query(), d.name()) && (drug == null || d.name().length() > drug.name().length())) drug = d;
        if (drug == null) return Optional.empty();
        Drug x = drug;
        boolean first = task.kind().equals("drug_class");   // naming the class would give the answer away
        Patient q = Pick.any(w.map.patients(), rnd, p -> !task.query().contains(p.name()) && (first ? p.medications().getFirst().equals(x.id())
                : p.medications().contains(x.id()) && p.medications().stream().filter(m -> w.drug(m).drugClass().equals(x.drugClass())).count() == 1));
        if (q == null) return Optional.empty();
        int k = q.medications().indexOf(x.id());
        String who = q.name() + " (born " + q.dob() + ")";
        String said = first ? "the first medication on the list of " + who : "the " + x.drugClass() + " that " + who + " takes";
        List<GoldPlan.Call> hops = List.of(new GoldPlan.Call("find_patient", args("name", q.name(), "date_of_birth", q.dob())),
                new GoldPlan.Call("get_medication_list", args(), Map.of("patient_id", new Ref(0, "/patients/0/patient_id"))));
        String query = task.query().replace(x.name(), said);
        return Optional.of(new ShiftHooks.Chain(query, hops, "/medications/" + k + "/name", x.name(), details(task, query, "")));
    }

    private static List<Detail> details(Task task, String query, String replacedKey) {
        return task.details().stream().filter(d -> !d.key().equals(replacedKey) && query.contains(d.span())).toList();
    }

    // ---------------------------------------------------------------- query.redundant

    static List<String> distractions(Task task, MedicalWorld w, long seed) {
        SplittableRandom rnd = new SplittableRandom(Seeds.mix(seed, 0xD15));
        List<String> out = new ArrayList<>();
        Doctor doc = Pick.any(w.map.doctors(), rnd, d -> !task.query().contains(d.name()));
        if (doc != null) out.add("My neighbour sees " + doc.name() + " in " + doc.department() + " and says good things about them.");
        Drug drug = Pick.any(w.map.drugs(), rnd, d -> !task.query().contains(d.name()));
        if (drug != null) out.add("A friend of mine takes " + drug.name() + " and had no trouble with it.");
        String campus = TaskVariants.any(w.map.campuses(), rnd);
        out.add("Parking at the " + campus + " Campus was a nightmare last time.");
        return out;
    }

    // ---------------------------------------------------------------- other paths, records, rules, words

    static final Map<String, ShiftHooks.Alternative> ALTERNATIVES = Map.of(
            // A medication list: the chart's medication names, then each drug's formulary entry (id, class, dose).
            "get_medication_list", new ShiftHooks.Alternative("get_medication_list", Set.of("get_patient_record", "search_drugs", "get_drug_info"),
                    (args, results) -> {
                        if (results.isEmpty()) return new GoldPlan.Call("get_patient_record", args("patient_id", args.path("patient_id").asText("")));
                        JsonNode names = results.getFirst().path("current_medications");
                        int done = results.size() - 1;
                        if (done >= 2 * names.size()) return null;
                        if (done % 2 == 0) return new GoldPlan.Call("search_drugs", args("name", names.get(done / 2).asText()));
                        String name = names.get(done / 2).asText();
                        for (JsonNode d : results.getLast().path("drugs")) {
                            if (d.path("name").asText().equals(name)) return new GoldPlan.Call("get_drug_info", args("drug_id", d.path("drug_id").asText()));
                        }
                        return new GoldPlan.Call("get_drug_info", args("drug_id", ""));
                    },
                    (args, results) -> {
                        ObjectNode out = Json.object();
                        out.put("patient_id", args.path("patient_id").asText(""));
                        ArrayNode meds = out.putArray("medications");
                        for (int i = 2; i < results.size(); i += 2) {
                            JsonNode info = results.get(i);
                            ObjectNode m = meds.addObject();
                            m.put("drug_id", info.path("drug_id").asText());
                            m.put("name", info.path("name").asText());
                            m.put("drug_class", info.path("drug_class").asText());
                            m.put("dose", info.path("standard_dose").asText());
                        }
                        out.put("count", meds.size());
                        return out;
                    }));

    static Optional<ShiftHooks.Lookup> lookup(String idField) {
        return switch (idField) {
            case "patient_id" -> Optional.of(new ShiftHooks.Lookup("get_patient_record", "patient_id", Set.of("name", "date_of_birth", "home_campus")));
            case "doctor_id" -> Optional.of(new ShiftHooks.Lookup("get_doctor_profile", "doctor_id", Set.of("name", "department", "campus")));
            case "drug_id" -> Optional.of(new ShiftHooks.Lookup("get_drug_info", "drug_id", Set.of("name", "drug_class")));
            default -> Optional.empty();
        };
    }

    static final List<ShiftHooks.Prerequisite> PREREQUISITES = List.of(new ShiftHooks.Prerequisite("check_interactions", "prescribe_medication"));

    static final Map<String, List<String>> SYNONYMS = Map.ofEntries(
            Map.entry("patient", List.of("client", "member", "person")),
            Map.entry("patients", List.of("clients", "members", "persons")),
            Map.entry("doctor", List.of("physician", "clinician", "provider")),
            Map.entry("doctors", List.of("physicians", "clinicians", "providers")),
            Map.entry("departments", List.of("wards", "units", "clinics")),
            Map.entry("medication", List.of("medicine", "drug", "prescription")),
            Map.entry("drugs", List.of("medicines", "medications", "remedies")),
            Map.entry("drug", List.of("medicine", "medication", "remedy")),
            Map.entry("interactions", List.of("conflicts", "contraindications", "clashes")),
            Map.entry("prescribe", List.of("issue", "order", "dispense")),
            Map.entry("slots", List.of("openings", "times", "vacancies")),
            Map.entry("schedule", List.of("calendar", "agenda", "timetable")),
            Map.entry("profile", List.of("bio", "details", "card")),
            Map.entry("record", List.of("chart", "file", "history")),
            Map.entry("birth", List.of("born", "birthdate", "dob")),
            Map.entry("campus", List.of("site", "location", "facility")),
            Map.entry("accepting", List.of("taking", "admitting", "open_to")),
            Map.entry("new", List.of("fresh", "incoming", "first_time")),
            Map.entry("language", List.of("tongue", "spoken", "speaks")),
            Map.entry("reason", List.of("purpose", "motive", "cause")),
            Map.entry("confirmation", List.of("booking", "verification", "reference")));

    static final List<ShiftHooks.Rewrite> PARAPHRASES = List.of(
            new ShiftHooks.Rewrite("\\bfront-desk phone number\\b", "reception number"),
            new ShiftHooks.Rewrite("\\bearliest free\\b", "first available"),
            new ShiftHooks.Rewrite("\\bcurrently taking\\b", "on at the moment"),
            new ShiftHooks.Rewrite("\\bwith a doctor who accepts new patients\\b", "with a doctor who is taking new patients"),
            new ShiftHooks.Rewrite("\\bgive me the confirmation code\\b", "let me know the confirmation code"),
            new ShiftHooks.Rewrite("\\bgive me the verification code\\b", "send me the verification code"),
            new ShiftHooks.Rewrite("\\bWhat is the cancellation reference\\?", "Please tell me the cancellation reference."),
            new ShiftHooks.Rewrite("\\bIf that time is taken, take the next free time that day\\b", "Should that slot be gone, book the next free one that day"),
            new ShiftHooks.Rewrite("\\bhow severe it is\\b", "how serious each interaction is"));
}
