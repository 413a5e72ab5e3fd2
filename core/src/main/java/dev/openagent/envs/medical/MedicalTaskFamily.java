package dev.openagent.envs.medical;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.envs.medical.MedicalWorld.Department;
import dev.openagent.envs.medical.MedicalWorld.Patient;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;

import static dev.openagent.envs.kit.TaskDraft.args;
import static dev.openagent.envs.kit.TaskDraft.require;

/**
 * What the medical task families share: the world, the random stream and the task draft of the one
 * task being generated (the families of a generator share them, so a seed gives the same task whichever
 * family poses it), and the pieces several families build their plans from.
 */
abstract sealed class MedicalTaskFamily permits MedicalQuestions, MedicalAppointments, MedicalPrescriptions {
    static final List<Integer> DAYS = List.of(0, 1, 2, 3, 4);

    final MedicalWorld w;
    final SplittableRandom rnd;
    final TaskDraft<MedicalWorld> t;

    MedicalTaskFamily(MedicalWorld w, SplittableRandom rnd, TaskDraft<MedicalWorld> t) {
        this.w = w;
        this.rnd = rnd;
        this.t = t;
    }

    /** Adds find_patient(name, date of birth); returns the patient's index in the result. */
    int findPatient(Patient p) {
        JsonNode found = t.look("find_patient", args("name", p.name(), "date_of_birth", p.dob())).get("patients");
        return require(found, "patient_id", p.id());
    }

    static String born(Patient p) { return " (born " + p.dob() + ")"; }

    void dobDetail(Patient p, String span) {
        t.detail("date_of_birth", span, "born|birth|date of birth|birthday|which patient|which one",
                p.name() + " was born on " + p.dob() + ".", twinPatient(p) != null);
    }

    Patient pickPatient(Predicate<Patient> filter) {
        for (Patient p : Pick.preferring(w.layout().patients(), rnd, x -> twinPatient(x) != null, 0.8)) if (filter.test(p)) return p;
        return null;
    }

    Patient twinPatient(Patient p) { return w.layout().patientTwins()[p.index()]; }

    Department twinDepartment(Department d) { return w.layout().departmentTwins()[d.index()]; }
}
