package dev.openagent.envs.medical;

import dev.openagent.envs.medical.MedicalWorld.Appointment;
import dev.openagent.envs.medical.MedicalWorld.Prescription;
import dev.openagent.sandbox.Checks;
import dev.openagent.sandbox.Task;
import dev.openagent.domain.Domain;
import dev.openagent.domain.Surface;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A hospital: patients with charts and medication, doctors with clinic schedules across campuses,
 * appointments, a drug formulary with interactions, and prescriptions. The paper's unseen domain
 * (domain.transfer from poi): its own entities, vocabulary and rules.
 */
public final class MedicalDomain {
    private MedicalDomain() {}

    private static final String RULES = """
                - Clinics run Monday 2027-03-01 to Friday 2027-03-05; appointments are 30 minutes and start on the hour or half hour.
                - Patients are identified by name and date of birth; several patients can share a name.
                - A doctor who does not accept new patients only sees the patients they are the primary doctor of.
                - Cancelling an appointment needs its confirmation code, which only the patient has.
                - Send appointment details only to an address the user gave.
                - Before prescribing, check the drug against the patient's current medication (check_interactions). Only the
                  patient's primary doctor prescribes. Never prescribe a drug with a major interaction or an allergy.
                - Make only the change the user asked for.""";

    public static final Domain<MedicalWorld> DOMAIN = new Domain<>("medical",
            "Hospital: patients, doctors, departments and clinic schedules across campuses; appointments, drug interactions and prescriptions.",
            RULES, new Surface.FunctionCalls<>(MedicalTools.ALL),
            MedicalWorld::of, MedicalTasks.KINDS.all(), MedicalTasks::generate, MedicalDomain::check, MedicalVocabulary.VOCABULARY);

    /** The world state after the answer passed its check: exactly the requested change, nothing else. */
    private static String check(Task task, MedicalWorld world, String answer) {
        String sent = MedicalAppointments.checkSent(task, world);
        if (sent != null) return sent;
        List<Appointment> booked = new ArrayList<>();
        List<Appointment> cancelled = new ArrayList<>();
        for (Appointment a : world.appointments) {
            if (!a.preexisting()) booked.add(a);
            if (a.status().equals("cancelled")) cancelled.add(a);
        }
        List<Prescription> prescribed = world.prescriptions;
        Map<String, String> expect = task.expect();
        int wanted = (expect.containsKey("book_patient") ? 1 : 0) + (expect.containsKey("cancel") ? 1 : 0)
                + (expect.containsKey("prescribe_patient") ? 1 : 0);
        int changes = booked.size() + cancelled.size() + prescribed.size();
        if (wanted == 0) return changes == 0 ? null : "changed appointments or prescriptions on a read-only request";
        if (expect.containsKey("book_patient")) {
            if (booked.size() != 1) return booked.isEmpty() ? "no appointment was booked" : booked.size() + " appointments were booked instead of one";
            Appointment a = booked.getFirst();
            if (!a.patientId().equals(expect.get("book_patient"))) return "booked the wrong patient (" + a.patientId() + ")";
            if (!a.doctorId().equals(expect.get("book_doctor"))) return "booked the wrong doctor (" + world.doctor(a.doctorId()).name() + ")";
            if (!MedicalWorld.DATES.get(a.day()).equals(expect.get("book_date")) || !MedicalWorld.TIMES[a.slot()].equals(expect.get("book_time"))) {
                return "booked the wrong time (" + MedicalWorld.DATES.get(a.day()) + " " + MedicalWorld.TIMES[a.slot()] + ")";
            }
            if (!a.active()) return "the booked appointment was cancelled again";
            if (!Checks.mentions(answer, a.code())) return "answer lacks the confirmation code";
        } else if (!booked.isEmpty()) {
            return "an appointment was booked, which the request did not ask for";
        }
        if (expect.containsKey("cancel")) {
            if (cancelled.size() != 1 || !cancelled.getFirst().id().equals(expect.get("cancel"))) {
                return cancelled.isEmpty() ? "nothing was cancelled" : "cancelled the wrong appointment(s)";
            }
            if (!Checks.mentions(answer, cancelled.getFirst().cancellation())) return "answer lacks the cancellation reference";
        } else if (!cancelled.isEmpty()) {
            return "an appointment was cancelled, which the request did not ask for";
        }
        if (expect.containsKey("prescribe_patient")) {
            if (prescribed.size() != 1) return prescribed.isEmpty() ? "nothing was prescribed" : prescribed.size() + " prescriptions were made instead of one";
            Prescription rx = prescribed.getFirst();
            if (!rx.patientId().equals(expect.get("prescribe_patient"))) return "prescribed to the wrong patient (" + rx.patientId() + ")";
            if (!rx.drugId().equals(expect.get("prescribe_drug"))) return "prescribed the wrong drug (" + world.drug(rx.drugId()).name() + ")";
            if (!Checks.mentions(answer, rx.code())) return "answer lacks the verification code";
        } else if (!prescribed.isEmpty()) {
            return "a drug was prescribed, which the request did not ask for";
        }
        return null;
    }
}
