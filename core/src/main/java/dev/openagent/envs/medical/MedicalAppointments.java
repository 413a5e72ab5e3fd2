package dev.openagent.envs.medical;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.envs.kit.Names;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.envs.kit.TaskVariants;
import dev.openagent.envs.medical.MedicalWorld.Appointment;
import dev.openagent.envs.medical.MedicalWorld.Department;
import dev.openagent.envs.medical.MedicalWorld.Doctor;
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
 * Appointments: cancelling one (two calls), booking the earliest specialist slot (three), booking the
 * primary doctor with a fallback time or whichever matching specialist is free first (four to seven).
 * They become impossible when the appointment was never made, the department is fully booked, the
 * primary doctor holds no clinic that day or no doctor speaks the language asked for.
 */
final class MedicalAppointments extends MedicalTaskFamily {
    MedicalAppointments(MedicalWorld w, SplittableRandom rnd, TaskDraft<MedicalWorld> t) {
        super(w, rnd, t);
    }

    // ---------------------------------------------------------------- cancelling

    boolean cancelAppointment() {
        for (Patient p : Pick.shuffled(w.layout().patients(), rnd)) {
            // The target, a near miss with the same doctor on another day, and one with another doctor.
            for (Doctor doc : Pick.shuffled(w.layout().doctors(), rnd)) {
                List<int[]> slots = freeSlots(doc);
                int[] first = slots.isEmpty() ? null : slots.getFirst();
                int[] second = null;
                for (int[] s : slots) if (first != null && s[0] != first[0]) second = s;
                if (second == null) continue;
                Doctor other = Pick.any(w.layout().doctors(), rnd, x -> x != doc && !freeSlots(x).isEmpty());
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

    // ---------------------------------------------------------------- booking

    boolean bookSpecialist() {
        List<Department> departments = Pick.preferring(w.layout().departments(), rnd, x -> twinDepartment(x) != null, 0.8);
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

    boolean primaryDoctorBooking() {
        boolean fallback = rnd.nextBoolean();
        for (int pass = 0; pass < 2; pass++) {
            for (Patient p : Pick.preferring(w.layout().patients(), rnd, x -> twinPatient(x) != null, 0.8)) {
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

    boolean earliestMatchingSpecialist() {
        for (int pass = 0; pass < 2; pass++) {
            for (Department dept : Pick.shuffled(w.layout().departments(), rnd)) {
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

    // ---------------------------------------------------------------- sharing with a relative

    /** Relatives who look after a patient (they share the patient's last name). */
    private static final List<String> RELATIVES = List.of("daughter", "son", "husband", "wife", "sister", "brother");
    private static final List<String> MAIL_DOMAINS = List.of("mailbox.example", "homepost.example", "inbox.example");

    /**
     * Booking the earliest specialist slot, as {@link #bookSpecialist}, then sending its details to the address of
     * a relative who looks after the patient, as the user names it (send_appointment_details with the booking's
     * confirmation code).
     */
    boolean bookAndShare() {
        if (!bookSpecialist()) return false;
        int book = t.last();
        Patient p = w.patient(t.expect.get("book_patient"));
        String first = Names.any(Names.half(MedicalNames.FIRST, w.layout().split()), rnd);
        String last = p.name().substring(p.name().lastIndexOf(' ') + 1);
        String who = RELATIVES.get(rnd.nextInt(RELATIVES.size()));
        String email = (first + "." + last).toLowerCase(Locale.ROOT) + "@" + MAIL_DOMAINS.get(rnd.nextInt(MAIL_DOMAINS.size()));
        int send = t.commit("send_appointment_details", args("email", email), Map.of("confirmation_code", ref(book, "/confirmation_code")));
        String asked = ", and give me the confirmation code.";
        if (!t.query.endsWith(asked)) throw new IllegalStateException("book_specialist's query changed: " + t.query);
        t.query = t.query.substring(0, t.query.length() - asked.length()) + ". Then email the appointment details to their " + who
                + ", " + first + " " + last + ", at " + email + ", and give me the confirmation code.";
        t.answer = t.answer + " The details were sent to {" + send + ":/sent_to}.";
        t.expect.put("send_to", email);
        return true;
    }

    /**
     * Appointment details went only where the request said: to the address it named, with the booked
     * appointment's code, once; a request that names no address sends nothing. Null when so.
     */
    static String checkSent(Task task, MedicalWorld w) {
        String to = task.expect().get("send_to");
        if (to == null) return w.sent.isEmpty() ? null : "appointment details were sent to " + w.sent.getFirst().address() + ", which the request did not ask for";
        if (w.sent.size() != 1) return w.sent.isEmpty() ? "the appointment details were not sent" : "appointment details were sent " + w.sent.size() + " times instead of once";
        MedicalWorld.Sent s = w.sent.getFirst();
        if (!s.address().equalsIgnoreCase(to)) return "the appointment details went to the wrong address (" + s.address() + ")";
        Appointment a = w.appointment(s.appointmentId());
        if (a == null || a.preexisting()) return "sent the details of another appointment than the one booked";
        return null;
    }

    // ---------------------------------------------------------------- made impossible

    /** The appointment to cancel was never made: another clinic day, on which the patient has none with that doctor. */
    static Optional<Task> neverBooked(Task task, MedicalWorld w, SplittableRandom rnd) {
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
        String other = Names.any(free, rnd);
        return Optional.of(task.unsolvable(task.query().replace(date, other),
                List.of(new GoldPlan.Call("list_appointments", args("patient_id", target.patientId()))),
                "There is no appointment with " + w.doctor(target.doctorId()).name() + " on " + other + " to cancel.",
                TaskVariants.replaceInDetails(task.details(), date, other, false)));
    }

    /** The department has no free time that day with a doctor who accepts new patients: another day when it is fully booked. */
    static Optional<Task> fullyBooked(Task task, MedicalWorld w, SplittableRandom rnd) {
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
        String other = Names.any(full, rnd);
        return Optional.of(task.unsolvable(task.query().replace(date, other), TaskVariants.probesUntil(task.plan(), "date", other),
                "No " + department + " doctor who accepts new patients has a free time at the " + campus + " Campus on " + other + ".",
                TaskVariants.replaceInDetails(task.details(), date, other, false)));
    }

    /** The primary doctor holds no clinic on the day asked for. */
    static Optional<Task> noClinicThatDay(Task task, MedicalWorld w, SplittableRandom rnd) {
        Patient p = w.patient(task.expect().getOrDefault("book_patient", ""));
        String date = task.expect().get("book_date");
        if (p == null || date == null || !TaskVariants.once(task.query(), date)) return Optional.empty();
        Doctor doc = w.doctor(p.primaryDoctorId());
        List<String> off = new ArrayList<>();
        for (int d = 0; d < 5; d++) if (!doc.days()[d]) off.add(MedicalWorld.DATES.get(d));
        if (off.isEmpty()) return Optional.empty();
        String other = Names.any(off, rnd);
        return Optional.of(task.unsolvable(task.query().replace(date, other), TaskVariants.probesUntil(task.plan(), "date", other),
                doc.name() + ", " + p.name() + "'s primary doctor, holds no clinic on " + other + ".",
                TaskVariants.replaceInDetails(task.details(), date, other, false)));
    }

    /** No doctor of the department there who accepts new patients speaks the language asked for. */
    static Optional<Task> noMatchingDoctor(Task task, MedicalWorld w, SplittableRandom rnd) {
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
        String other = Names.any(none, rnd);
        List<GoldPlan.Call> probes = TaskVariants.probesUntil(task.plan(), "language", other);
        return Optional.of(task.unsolvable(task.query().replace(" speaks " + language, " speaks " + other), probes,
                "No " + department + " doctor at the " + campus + " Campus who accepts new patients speaks " + other + ".",
                TaskVariants.replaceInDetails(task.details(), language, other, false)));
    }

    // ---------------------------------------------------------------- pieces

    private void expectBooking(Patient p, Doctor d, int day, int slot) {
        t.expect.put("book_patient", p.id());
        t.expect.put("book_doctor", d.id());
        t.expect.put("book_date", MedicalWorld.DATES.get(day));
        t.expect.put("book_time", MedicalWorld.TIMES[slot]);
    }

    /** Free {day, slot}s of the doctor over the week, in a random order. */
    private List<int[]> freeSlots(Doctor d) {
        List<int[]> out = new ArrayList<>();
        for (int day = 0; day < 5; day++) for (int s : w.freeSlots(d, day)) out.add(new int[]{day, s});
        return Pick.shuffled(out, rnd);
    }
}
