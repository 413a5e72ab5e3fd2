package dev.openagent.envs.medical;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.envs.kit.Names;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.envs.kit.TaskVariants;
import dev.openagent.envs.medical.MedicalWorld.Department;
import dev.openagent.envs.medical.MedicalWorld.Doctor;
import dev.openagent.envs.medical.MedicalWorld.Drug;
import dev.openagent.envs.medical.MedicalWorld.Patient;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

import static dev.openagent.envs.kit.TaskDraft.args;
import static dev.openagent.envs.kit.TaskDraft.ref;
import static dev.openagent.envs.kit.TaskDraft.require;

/**
 * Questions that change nothing: where a department is, how many doctors match, a drug's class (one call);
 * a patient's medication, a doctor's first free time, whether a drug interacts with a patient's medication
 * (two or three). A question about a campus the hospital lacks or a drug outside its formulary cannot be answered.
 */
final class MedicalQuestions extends MedicalTaskFamily {
    MedicalQuestions(MedicalWorld w, SplittableRandom rnd, TaskDraft<MedicalWorld> t) {
        super(w, rnd, t);
    }

    // ---------------------------------------------------------------- one call

    boolean departmentLocation() {
        Department d = Pick.preferring(w.layout().departments(), rnd, x -> twinDepartment(x) != null, 0.8).getFirst();
        JsonNode r = t.look("list_departments", args("campus", d.campus() + " Campus")).get("departments");
        int k = require(r, "department", d.name());
        String at = " at the " + d.campus() + " Campus";
        t.query = "Where is the " + d.name() + " department" + at + ", and what is its front-desk phone number?";
        t.answer = d.name() + at + " is at {0:/departments/" + k + "/location}; its phone number is {0:/departments/" + k + "/phone}.";
        t.must.add(d.location());
        t.must.add(d.phone());
        Department twin = twinDepartment(d);
        if (twin != null) t.mustNot.add(twin.phone());
        t.detail("campus", at, "campus|where|which one|location|site|hospital", "The one at the " + d.campus() + " Campus.", twin != null);
        return true;
    }

    boolean countDoctors() {
        // Departments where the language filter changes the count (it matters), with a language someone there speaks.
        for (Department d : Pick.shuffled(w.layout().departments(), rnd)) {
            List<Doctor> there = MedicalTools.doctors(w, d.name(), d.campus(), null, null, null);
            for (String language : Pick.shuffled(MedicalNames.LANGUAGES.subList(1, MedicalNames.LANGUAGES.size()), rnd)) {
                int n = MedicalTools.doctors(w, d.name(), d.campus(), null, language, null).size();
                if (n == there.size() || (n == 0 && rnd.nextDouble() < 0.85)) continue;
                t.look("search_doctors", args("department", d.name(), "campus", d.campus() + " Campus", "language", language));
                String at = " at the " + d.campus() + " Campus";
                t.query = "How many " + d.name() + " doctors" + at + " speak " + language + "?";
                t.answer = "{0:/count} " + d.name() + " doctors" + at + " speak " + language + ".";
                t.must.add(Integer.toString(n));
                t.mustNot.add(Integer.toString(there.size()));
                t.detail("campus", at, "campus|where|which one|location|site|hospital", "At the " + d.campus() + " Campus.", false);
                return true;
            }
        }
        return false;
    }

    boolean drugClass() {
        Drug d = Pick.preferring(w.layout().drugs(), rnd, x -> nearMissDrug(x) != null, 0.8).getFirst();
        JsonNode r = t.look("search_drugs", args("name", d.name())).get("drugs");
        int k = require(r, "drug_id", d.id());
        t.query = "What class of drug is " + d.name() + "?";
        t.answer = d.name() + " belongs to the drug class {0:/drugs/" + k + "/drug_class}.";
        t.must.add(d.drugClass());
        Drug near = nearMissDrug(d);
        if (near != null && !near.drugClass().equals(d.drugClass())) t.mustNot.add(near.drugClass());
        return true;
    }

    // ---------------------------------------------------------------- two or three calls

    boolean currentMedications() {
        Patient p = pickPatient(x -> !x.medications().isEmpty());
        if (p == null) return false;
        int k = findPatient(p);
        t.look("get_medication_list", args(), Map.of("patient_id", ref(0, "/patients/" + k + "/patient_id")));
        String born = born(p);
        t.query = "Which medications is " + p.name() + born + " currently taking?";
        StringBuilder answer = new StringBuilder(p.name() + " currently takes ");
        for (int i = 0; i < p.medications().size(); i++) {
            if (i > 0) answer.append(", ");
            answer.append("{1:/medications/").append(i).append("/name}");
            t.must.add(w.drug(p.medications().get(i)).name());
        }
        t.answer = answer.append('.').toString();
        Patient twin = twinPatient(p);
        if (twin != null) {
            for (String id : twin.medications()) if (!p.medications().contains(id)) t.mustNot.add(w.drug(id).name());
        }
        dobDetail(p, born);
        return true;
    }

    boolean firstFreeTime() {
        for (Doctor d : Pick.preferring(w.layout().doctors(), rnd, x -> twinDoctor(x) != null, 0.8)) {
            for (int day : Pick.shuffled(DAYS, rnd)) {
                List<Integer> free = w.freeSlots(d, day);
                if (free.isEmpty()) continue;
                String at = " at the " + d.campus() + " Campus";
                String date = MedicalWorld.DATES.get(day);
                JsonNode found = t.look("search_doctors", args("name", d.name(), "campus", d.campus() + " Campus")).get("doctors");
                int k = require(found, "doctor_id", d.id());
                t.look("get_doctor_schedule", args("date", date), Map.of("doctor_id", ref(0, "/doctors/" + k + "/doctor_id")));
                t.query = "What is the earliest free appointment time with " + d.name() + at + " on " + date + "?";
                t.answer = "The earliest free time with " + d.name() + " on " + date + " is {1:/free_times/0}.";
                t.must.add(MedicalWorld.TIMES[free.getFirst()]);
                Doctor twin = twinDoctor(d);
                if (twin != null) {
                    List<Integer> other = w.freeSlots(twin, day);
                    if (!other.isEmpty() && !other.getFirst().equals(free.getFirst())) t.mustNot.add(MedicalWorld.TIMES[other.getFirst()]);
                }
                t.detail("campus", at, "campus|where|which one|which doctor|location|site", "The one at the " + d.campus() + " Campus.", twin != null);
                t.detail("date", " on " + date, "date|day|when", "On " + date + ".", false);
                return true;
            }
        }
        return false;
    }

    boolean interactionQuestion() {
        boolean wantConflict = rnd.nextDouble() < 0.7;
        for (int pass = 0; pass < 2; pass++) {
            for (Patient p : Pick.preferring(w.layout().patients(), rnd, x -> twinPatient(x) != null, 0.8)) {
                if (p.medications().isEmpty()) continue;
                for (Drug d : Pick.shuffled(w.layout().drugs(), rnd)) {
                    if (w.takes(p, d) || (pass == 0 && (w.worstConflict(p, d) != MedicalWorld.NONE) != wantConflict)) continue;
                    int k = findPatient(p);
                    JsonNode drugs = t.look("search_drugs", args("name", d.name())).get("drugs");
                    int kd = require(drugs, "drug_id", d.id());
                    JsonNode check = t.look("check_interactions", args(), Map.of(
                            "patient_id", ref(0, "/patients/" + k + "/patient_id"), "drug_id", ref(1, "/drugs/" + kd + "/drug_id")));
                    String born = born(p);
                    t.query = "Does " + d.name() + " interact with any current medication of " + p.name() + born
                            + "? Name each one it interacts with and how severe it is, or say none.";
                    JsonNode list = check.get("conflicts");
                    if (list.isEmpty()) {
                        t.answer = d.name() + " interacts with none of " + p.name() + "'s current medications.";
                        t.must.add("none");
                        for (String id : p.medications()) t.mustNot.add(w.drug(id).name());
                    } else {
                        StringBuilder a = new StringBuilder(d.name() + " interacts with ");
                        for (int i = 0; i < list.size(); i++) {
                            if (i > 0) a.append(" and ");
                            a.append("{2:/conflicts/").append(i).append("/name} ({2:/conflicts/").append(i).append("/severity})");
                            t.must.add(list.get(i).get("name").asText());
                            t.must.add(list.get(i).get("severity").asText());
                        }
                        t.answer = a.append('.').toString();
                        for (String id : p.medications()) {
                            if (w.severity(d, w.drug(id)) == MedicalWorld.NONE) t.mustNot.add(w.drug(id).name());
                        }
                        t.mustNot.add("none");
                    }
                    dobDetail(p, born);
                    return true;
                }
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- made impossible

    /** The campus asked about is not one of this hospital's. */
    static Optional<Task> unknownCampus(Task task, MedicalWorld w, SplittableRandom rnd) {
        String campus = null;
        for (String c : w.layout().campuses()) if (task.query().contains(" " + c + " Campus")) campus = c;
        if (campus == null || !TaskVariants.once(task.query(), campus + " Campus")) return Optional.empty();
        List<String> pool = new ArrayList<>(MedicalNames.CAMPUSES);
        pool.removeIf(c -> w.layout().campuses().contains(c) || task.query().contains(c));
        String other = Names.any(pool, rnd);
        List<GoldPlan.Call> probes = TaskVariants.probesUntil(task.plan(), "campus", other + " Campus");
        if (probes.isEmpty()) return Optional.empty();
        return Optional.of(task.unsolvable(task.query().replace(campus + " Campus", other + " Campus"), probes,
                "The hospital has no " + other + " Campus (its campuses: " + String.join(", ", w.layout().campuses()) + ").",
                TaskVariants.replaceInDetails(task.details(), campus, other, true)));
    }

    /** The drug asked about is not in the formulary: a name made of the formulary's stems that no drug has. */
    static Optional<Task> notInFormulary(Task task, MedicalWorld w, SplittableRandom rnd) {
        Drug named = null;
        for (Drug d : w.layout().drugs()) if (TaskVariants.once(task.query(), d.name()) && (named == null || d.name().length() > named.name().length())) named = d;
        if (named == null || !task.query().contains(named.name())) return Optional.empty();
        String fake = null;
        for (int i = 0; i < 200 && fake == null; i++) {
            String candidate = Names.any(MedicalNames.DRUG_STEMS, rnd) + Names.any(MedicalNames.DRUG_SUFFIXES, rnd);
            String lower = candidate.toLowerCase(Locale.ROOT);
            if (w.layout().drugs().stream().noneMatch(d -> d.lowerName().contains(lower) || lower.contains(d.lowerName()))) fake = candidate;
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

    // ---------------------------------------------------------------- pieces

    private Doctor twinDoctor(Doctor d) { return w.layout().doctorTwins()[d.index()]; }

    private Drug nearMissDrug(Drug d) {
        String stem = d.name().substring(0, Math.min(4, d.name().length()));
        for (Drug x : w.layout().drugs()) if (x != d && x.name().startsWith(stem)) return x;
        return null;
    }
}
