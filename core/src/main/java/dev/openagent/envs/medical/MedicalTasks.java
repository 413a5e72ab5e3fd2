package dev.openagent.envs.medical;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.envs.medical.MedicalWorld.Appointment;
import dev.openagent.envs.medical.MedicalWorld.Department;
import dev.openagent.envs.medical.MedicalWorld.Doctor;
import dev.openagent.envs.medical.MedicalWorld.Drug;
import dev.openagent.envs.medical.MedicalWorld.Patient;
import dev.openagent.sandbox.GoldPlan.Ref;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Predicate;

import static dev.openagent.envs.kit.TaskDraft.args;
import static dev.openagent.envs.kit.TaskDraft.ref;
import static dev.openagent.envs.kit.TaskDraft.require;

/**
 * The medical task generator. Difficulty is the number of dependent calls, with constraints and a
 * comparison at the top:
 * <ol>
 *   <li>department location, doctor count with filters, drug class (one call);</li>
 *   <li>current medication, a doctor's first free time, cancelling an appointment, an interaction question (two);</li>
 *   <li>booking the earliest specialist slot, a checked prescription by the primary doctor (three to five);</li>
 *   <li>booking the primary doctor with a fallback time, a prescription with an alternative drug when the first
 *       interacts, booking whichever matching specialist is free first (four to seven).</li>
 * </ol>
 * Patients with a namesake, doctors with a namesake on another campus, departments present on several
 * campuses and drugs sharing a name stem are preferred as targets, so a careless agent picks the wrong one.
 */
final class MedicalTasks {
    static final Map<Integer, List<String>> KINDS = Map.of(
            1, List.of("department_location", "count_doctors", "drug_class"),
            2, List.of("current_medications", "first_free_time", "cancel_appointment", "interaction_question"),
            3, List.of("book_specialist", "checked_prescription"),
            4, List.of("primary_doctor_booking", "alternative_prescription", "earliest_matching_specialist"));

    private static final List<Integer> DAYS = List.of(0, 1, 2, 3, 4);

    private final MedicalWorld w;
    private final SplittableRandom rnd;
    private final TaskDraft<MedicalWorld> t;

    private MedicalTasks(MedicalWorld w, long seed) {
        this.w = w;
        this.rnd = new SplittableRandom(Seeds.mix(seed, 0x3ED7A5));
        this.t = new TaskDraft<>(w, MedicalTools.ALL);
    }

    static Task generate(MedicalWorld world, TaskRequest request, long seed) {
        MedicalTasks g = new MedicalTasks(world, seed);
        int difficulty = request.difficulty() == 0 ? 1 + g.rnd.nextInt(4) : request.difficulty();
        String kind = Pick.firstPosed(KINDS.get(difficulty), g.rnd, g::pose, "medical task of difficulty " + difficulty);
        return g.t.build("medical", request, kind, difficulty);
    }

    /** Sets up a task of this kind; false (having changed nothing) when the world cannot pose it. */
    private boolean pose(String kind) {
        return switch (kind) {
            case "department_location" -> departmentLocation();
            case "count_doctors" -> countDoctors();
            case "drug_class" -> drugClass();
            case "current_medications" -> currentMedications();
            case "first_free_time" -> firstFreeTime();
            case "cancel_appointment" -> cancelAppointment();
            case "interaction_question" -> interactionQuestion();
            case "book_specialist" -> bookSpecialist();
            case "checked_prescription" -> checkedPrescription();
            case "primary_doctor_booking" -> primaryDoctorBooking();
            case "alternative_prescription" -> alternativePrescription();
            case "earliest_matching_specialist" -> earliestMatchingSpecialist();
            default -> throw new IllegalStateException(kind);
        };
    }

    // ---------------------------------------------------------------- level 1

    private boolean departmentLocation() {
        Department d = Pick.preferring(w.map.departments(), rnd, x -> twinDepartment(x) != null, 0.8).getFirst();
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

    private boolean countDoctors() {
        // Departments where the language filter changes the count (it matters), with a language someone there speaks.
        for (Department d : Pick.shuffled(w.map.departments(), rnd)) {
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

    private boolean drugClass() {
        Drug d = Pick.preferring(w.map.drugs(), rnd, x -> nearMissDrug(x) != null, 0.8).getFirst();
        JsonNode r = t.look("search_drugs", args("name", d.name())).get("drugs");
        int k = require(r, "drug_id", d.id());
        t.query = "What class of drug is " + d.name() + "?";
        t.answer = d.name() + " belongs to the drug class {0:/drugs/" + k + "/drug_class}.";
        t.must.add(d.drugClass());
        Drug near = nearMissDrug(d);
        if (near != null && !near.drugClass().equals(d.drugClass())) t.mustNot.add(near.drugClass());
        return true;
    }

    // ---------------------------------------------------------------- level 2

    private boolean currentMedications() {
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

    private boolean firstFreeTime() {
        for (Doctor d : Pick.preferring(w.map.doctors(), rnd, x -> twinDoctor(x) != null, 0.8)) {
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

    private boolean cancelAppointment() {
        for (Patient p : Pick.shuffled(w.map.patients(), rnd)) {
            // The target, a near miss with the same doctor on another day, and one with another doctor.
            for (Doctor doc : Pick.shuffled(w.map.doctors(), rnd)) {
                List<int[]> slots = freeSlots(doc);
                int[] first = slots.isEmpty() ? null : slots.getFirst();
                int[] second = null;
                for (int[] s : slots) if (first != null && s[0] != first[0]) second = s;
                if (second == null) continue;
                Doctor other = Pick.any(w.map.doctors(), rnd, x -> x != doc && !freeSlots(x).isEmpty());
                Appointment target = w.book(p, doc, first[0], first[1], "follow-up", true);
                w.book(p, doc, second[0], second[1], "test results", true);
                if (other != null) {
                    int[] third = freeSlots(other).getFirst();
                    if (!w.patientBusy(p, third[0], third[1])) w.book(p, other, third[0], third[1], "routine check", true);
                }
                JsonNode list = t.look("list_appointments", args("patient_id", p.id())).get("appointments");
                int k = require(list, "appointment_id", target.id());
                t.commit("cancel_appointment", args("confirmation_code", target.code()),
                        Map.of("appointment_id", ref(0, "/appointments/" + k + "/appointment_id")));
                String date = MedicalWorld.DATES.get(first[0]);
                t.query = "Please cancel my appointment with " + doc.name() + " on " + date + ". My patient id is " + p.id()
                        + " and the confirmation code is " + target.code() + ". What is the cancellation reference?";
                t.answer = "Appointment {0:/appointments/" + k + "/appointment_id} on " + date + " is cancelled. Cancellation reference: {1:/cancellation_reference}.";
                t.expect.put("cancel", target.id());
                t.detail("date", " on " + date, "date|day|when|which appointment|which one", "The one on " + date + ".", true);
                return true;
            }
        }
        return false;
    }

    private boolean interactionQuestion() {
        boolean wantConflict = rnd.nextDouble() < 0.7;
        for (int pass = 0; pass < 2; pass++) {
            for (Patient p : Pick.preferring(w.map.patients(), rnd, x -> twinPatient(x) != null, 0.8)) {
                if (p.medications().isEmpty()) continue;
                for (Drug d : Pick.shuffled(w.map.drugs(), rnd)) {
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

    // ---------------------------------------------------------------- level 3

    private boolean bookSpecialist() {
        List<Department> departments = Pick.preferring(w.map.departments(), rnd, x -> twinDepartment(x) != null, 0.8);
        for (Department dept : departments) {
            if (dept.name().equals(MedicalNames.FAMILY_MEDICINE)) continue;
            for (int day : Pick.shuffled(DAYS, rnd)) {
                List<MedicalTools.Slot> slots = MedicalTools.openSlots(w, dept.name(), dept.campus(), day, true);
                if (slots.isEmpty()) continue;
                Patient p = pickPatient(x -> true);
                MedicalTools.Slot first = slots.getFirst();
                String date = MedicalWorld.DATES.get(day);
                String at = " at the " + dept.campus() + " Campus";
                int k = findPatient(p);
                t.look("find_open_slots", args("department", dept.name(), "campus", dept.campus() + " Campus", "date", date,
                        "accepting_new_patients", true));
                int book = t.commit("book_appointment", args("date", date), Map.of(
                        "patient_id", ref(0, "/patients/" + k + "/patient_id"),
                        "doctor_id", ref(1, "/slots/0/doctor_id"), "time", ref(1, "/slots/0/time")));
                String born = born(p);
                t.query = "Book " + p.name() + born + " into the earliest free " + dept.name() + " appointment" + at + " on " + date
                        + " with a doctor who accepts new patients, and give me the confirmation code.";
                t.answer = "Booked " + p.name() + " with {" + book + ":/doctor_name} on " + date + " at {" + book
                        + ":/time}. Confirmation code: {" + book + ":/confirmation_code}.";
                expectBooking(p, first.doctor(), day, first.slot());
                dobDetail(p, born);
                t.detail("campus", at, "campus|where|which one|location|site|hospital", "At the " + dept.campus() + " Campus.", twinDepartment(dept) != null);
                t.detail("date", " on " + date, "date|day|when", "On " + date + ".", false);
                return true;
            }
        }
        return false;
    }

    private boolean checkedPrescription() {
        boolean wantClean = rnd.nextDouble() < 0.8;   // mostly no interaction at all; sometimes a moderate one the tool allows
        for (int pass = 0; pass < 2; pass++) {
            for (Patient p : Pick.preferring(w.map.patients(), rnd, x -> twinPatient(x) != null, 0.8)) {
                for (Drug d : Pick.shuffled(w.map.drugs(), rnd)) {
                    if (!w.safe(p, d) || (pass == 0 && (w.worstConflict(p, d) == MedicalWorld.NONE) != wantClean)) continue;
                    prescriptionPlan(p, List.of(d));
                    return true;
                }
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- level 4

    private boolean primaryDoctorBooking() {
        boolean fallback = rnd.nextBoolean();
        for (int pass = 0; pass < 2; pass++) {
            for (Patient p : Pick.preferring(w.map.patients(), rnd, x -> twinPatient(x) != null, 0.8)) {
                Doctor doc = w.doctor(p.primaryDoctorId());
                for (int day : Pick.shuffled(DAYS, rnd)) {
                    List<Integer> free = w.freeSlots(doc, day);
                    if (free.isEmpty()) continue;
                    List<Integer> taken = new ArrayList<>();
                    for (int s = doc.firstSlot(); s < free.getLast(); s++) if (!free.contains(s)) taken.add(s);
                    boolean useFallback = fallback && pass == 0;
                    if (useFallback && taken.isEmpty()) continue;
                    int requested = useFallback ? taken.get(rnd.nextInt(taken.size())) : free.get(rnd.nextInt(free.size()));
                    int j = 0;
                    while (free.get(j) < requested) j++;
                    String date = MedicalWorld.DATES.get(day);
                    int k = findPatient(p);
                    t.look("get_patient_record", args(), Map.of("patient_id", ref(0, "/patients/" + k + "/patient_id")));
                    t.look("get_doctor_schedule", args("date", date), Map.of("doctor_id", ref(1, "/primary_doctor_id")));
                    int book = t.commit("book_appointment", args("date", date), Map.of(
                            "patient_id", ref(0, "/patients/" + k + "/patient_id"),
                            "doctor_id", ref(1, "/primary_doctor_id"), "time", ref(2, "/free_times/" + j)));
                    String born = born(p);
                    String time = MedicalWorld.TIMES[requested];
                    t.query = "Book " + p.name() + born + " with their primary doctor on " + date + " at " + time
                            + ". If that time is taken, take the next free time that day. I need the confirmation code.";
                    t.answer = "Booked " + p.name() + " with {" + book + ":/doctor_name} on " + date + " at {" + book
                            + ":/time}. Confirmation code: {" + book + ":/confirmation_code}.";
                    expectBooking(p, doc, day, free.get(j));
                    dobDetail(p, born);
                    t.detail("date", " on " + date, "date|day|when", "On " + date + ".", false);
                    t.detail("time", " at " + time, "time|hour|when|what time", "At " + time + ".", false);
                    return true;
                }
            }
        }
        return false;
    }

    private boolean alternativePrescription() {
        boolean wantInteraction = rnd.nextDouble() < 0.65;
        for (int pass = 0; pass < 2; pass++) {
            for (Patient p : Pick.preferring(w.map.patients(), rnd, x -> twinPatient(x) != null, 0.8)) {
                if (p.medications().isEmpty()) continue;
                for (Drug first : Pick.shuffled(w.map.drugs(), rnd)) {
                    if (w.takes(p, first) || w.allergic(p, first)) continue;
                    boolean interacts = w.worstConflict(p, first) != MedicalWorld.NONE;
                    if (pass == 0 && interacts != wantInteraction) continue;
                    Drug second = Pick.any(w.map.drugs(), rnd, x -> x != first && w.safe(p, x) && w.worstConflict(p, x) == MedicalWorld.NONE);
                    if (second == null) continue;
                    prescriptionPlan(p, interacts ? List.of(first, second) : List.of(first));
                    String born = born(p);
                    t.query = p.name() + born + " should start " + first.name() + ". If " + first.name()
                            + " interacts with any of their current medications, even moderately, prescribe " + second.name()
                            + " instead. Their primary doctor is the prescriber; give me the verification code.";
                    return true;
                }
            }
        }
        return false;
    }

    private boolean earliestMatchingSpecialist() {
        for (int pass = 0; pass < 2; pass++) {
            for (Department dept : Pick.shuffled(w.map.departments(), rnd)) {
                if (dept.name().equals(MedicalNames.FAMILY_MEDICINE)) continue;
                for (String language : Pick.shuffled(MedicalNames.LANGUAGES.subList(1, MedicalNames.LANGUAGES.size()), rnd)) {
                    List<Doctor> matching = MedicalTools.doctors(w, dept.name(), dept.campus(), null, language, true);
                    if (matching.isEmpty() || (pass == 0 && matching.size() < 2)) continue;
                    for (int day : Pick.shuffled(DAYS, rnd)) {
                        // The matching doctor with the earliest free time; ties make the request ambiguous, so skip them.
                        Doctor best = null;
                        int bestSlot = Integer.MAX_VALUE;
                        boolean tie = false;
                        for (Doctor d : matching) {
                            List<Integer> free = w.freeSlots(d, day);
                            if (free.isEmpty()) continue;
                            if (free.getFirst() < bestSlot) {
                                best = d;
                                bestSlot = free.getFirst();
                                tie = false;
                            } else if (free.getFirst() == bestSlot) {
                                tie = true;
                            }
                        }
                        if (best == null || tie) continue;
                        bookMatching(dept, language, day, matching, best, bestSlot);
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private void bookMatching(Department dept, String language, int day, List<Doctor> matching, Doctor best, int bestSlot) {
        Patient p = pickPatient(x -> true);
        String date = MedicalWorld.DATES.get(day);
        String at = " at the " + dept.campus() + " Campus";
        int k = findPatient(p);
        JsonNode found = t.look("search_doctors", args("department", dept.name(), "campus", dept.campus() + " Campus",
                "language", language, "accepting_new_patients", true)).get("doctors");
        int bestCall = -1;
        int bestIndex = -1;
        for (int i = 0; i < found.size(); i++) {
            JsonNode schedule = t.look("get_doctor_schedule", args("date", date), Map.of("doctor_id", ref(1, "/doctors/" + i + "/doctor_id")));
            if (schedule.get("doctor_id").asText().equals(best.id())) {
                bestCall = t.last();
                bestIndex = i;
            }
        }
        int book = t.commit("book_appointment", args("date", date), Map.of(
                "patient_id", ref(0, "/patients/" + k + "/patient_id"),
                "doctor_id", ref(1, "/doctors/" + bestIndex + "/doctor_id"), "time", ref(bestCall, "/free_times/0")));
        String born = born(p);
        t.query = "Book " + p.name() + born + " with a " + dept.name() + " doctor" + at + " who speaks " + language
                + " and accepts new patients: whichever of them has the earliest free time on " + date
                + ". Tell me the doctor, the time and the confirmation code.";
        t.answer = "Booked " + p.name() + " with {" + book + ":/doctor_name} on " + date + " at {" + book
                + ":/time}. Confirmation code: {" + book + ":/confirmation_code}.";
        expectBooking(p, best, day, bestSlot);
        dobDetail(p, born);
        t.detail("campus", at, "campus|where|which one|location|site|hospital", "At the " + dept.campus() + " Campus.", false);
        t.detail("language", " who speaks " + language, "language|speak|speaks", "They should speak " + language + ".", false);
        if (matching.size() != found.size()) throw new IllegalStateException("search_doctors disagrees with the generator");
    }

    // ---------------------------------------------------------------- pieces

    /**
     * find_patient, the chart (for the primary doctor), then for each candidate drug in turn a formulary
     * search and an interaction check; the last candidate is prescribed.
     */
    private void prescriptionPlan(Patient p, List<Drug> candidates) {
        int k = findPatient(p);
        Ref patient = ref(0, "/patients/" + k + "/patient_id");
        t.look("get_patient_record", args(), Map.of("patient_id", patient));
        Ref drug = null;
        for (Drug d : candidates) {
            JsonNode found = t.look("search_drugs", args("name", d.name())).get("drugs");
            drug = ref(t.last(), "/drugs/" + require(found, "drug_id", d.id()) + "/drug_id");
            t.look("check_interactions", args(), Map.of("patient_id", patient, "drug_id", drug));
        }
        Drug chosen = candidates.getLast();
        int rx = t.commit("prescribe_medication", args(), Map.of("patient_id", patient, "drug_id", drug, "doctor_id", ref(1, "/primary_doctor_id")));
        String born = born(p);
        t.query = p.name() + born + " needs " + chosen.name() + ". After checking it against their current medication, have their "
                + "primary doctor prescribe it and give me the verification code.";
        t.answer = "Prescribed {" + rx + ":/drug_name} ({" + rx + ":/dose}) to " + p.name() + ". Verification code: {" + rx
                + ":/verification_code}.";
        t.expect.put("prescribe_patient", p.id());
        t.expect.put("prescribe_drug", chosen.id());
        t.expect.put("prescribe_doctor", p.primaryDoctorId());
        dobDetail(p, born);
    }

    private void expectBooking(Patient p, Doctor d, int day, int slot) {
        t.expect.put("book_patient", p.id());
        t.expect.put("book_doctor", d.id());
        t.expect.put("book_date", MedicalWorld.DATES.get(day));
        t.expect.put("book_time", MedicalWorld.TIMES[slot]);
    }

    /** Adds find_patient(name, date of birth); returns the patient's index in the result. */
    private int findPatient(Patient p) {
        JsonNode found = t.look("find_patient", args("name", p.name(), "date_of_birth", p.dob())).get("patients");
        return require(found, "patient_id", p.id());
    }

    private static String born(Patient p) { return " (born " + p.dob() + ")"; }

    private void dobDetail(Patient p, String span) {
        t.detail("date_of_birth", span, "born|birth|date of birth|birthday|which patient|which one",
                p.name() + " was born on " + p.dob() + ".", twinPatient(p) != null);
    }

    private Patient pickPatient(Predicate<Patient> filter) {
        for (Patient p : Pick.preferring(w.map.patients(), rnd, x -> twinPatient(x) != null, 0.8)) if (filter.test(p)) return p;
        return null;
    }

    /** Free {day, slot}s of the doctor over the week, in a random order. */
    private List<int[]> freeSlots(Doctor d) {
        List<int[]> out = new ArrayList<>();
        for (int day = 0; day < 5; day++) for (int s : w.freeSlots(d, day)) out.add(new int[]{day, s});
        return Pick.shuffled(out, rnd);
    }

    private Patient twinPatient(Patient p) { return w.map.patientTwins()[p.index()]; }

    private Doctor twinDoctor(Doctor d) { return w.map.doctorTwins()[d.index()]; }

    private Department twinDepartment(Department d) { return w.map.departmentTwins()[d.index()]; }

    private Drug nearMissDrug(Drug d) {
        String stem = d.name().substring(0, Math.min(4, d.name().length()));
        for (Drug x : w.map.drugs()) if (x != d && x.name().startsWith(stem)) return x;
        return null;
    }
}
