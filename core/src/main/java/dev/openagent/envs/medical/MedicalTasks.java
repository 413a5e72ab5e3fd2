package dev.openagent.envs.medical;

import dev.openagent.domain.TaskKind;
import dev.openagent.envs.kit.TaskKinds;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;

/**
 * The medical task generator and its kinds of task. Difficulty is the number of dependent calls, with
 * constraints and a comparison at the top:
 * <ol>
 *   <li>department location, doctor count with filters, drug class (one call);</li>
 *   <li>current medication, a doctor's first free time, cancelling an appointment, an interaction question (two);</li>
 *   <li>booking the earliest specialist slot, a checked prescription by the primary doctor (three to five);</li>
 *   <li>booking the primary doctor with a fallback time, a prescription with an alternative drug when the first
 *       interacts, booking whichever matching specialist is free first, booking a specialist and emailing the
 *       details to a relative (four to seven).</li>
 * </ol>
 * Patients with a namesake, doctors with a namesake on another campus, departments present on several
 * campuses and drugs sharing a name stem are preferred as targets, so a careless agent picks the wrong one.
 * The kinds are posed by their families ({@link MedicalQuestions}, {@link MedicalAppointments},
 * {@link MedicalPrescriptions}); the ways to restate them that several families share are in
 * {@link MedicalRestatements}.
 */
final class MedicalTasks {
    /**
     * Every kind, each difficulty's in the order the generator shuffles them from. Any kind's campus can be
     * restated as a patient's (the restatement checks the query names one); a drug's, as one on a patient's
     * medication list, where the task names the drug.
     */
    static final TaskKinds<MedicalWorld, MedicalTasks> KINDS = new TaskKinds<>(
            kind("department_location", 1, g -> g.questions.departmentLocation())
                    .impossibleBy(MedicalQuestions::unknownCampus)
                    .longerBy(MedicalRestatements::viaPatientCampus),
            kind("count_doctors", 1, g -> g.questions.countDoctors())
                    .impossibleBy(MedicalQuestions::unknownCampus)
                    .longerBy(MedicalRestatements::viaPatientCampus),
            kind("drug_class", 1, g -> g.questions.drugClass())
                    .impossibleBy(MedicalQuestions::notInFormulary)
                    .longerBy(MedicalRestatements.viaPatientCampusOrMedication(true)),
            kind("current_medications", 2, g -> g.questions.currentMedications())
                    .impossibleBy(MedicalRestatements::notRegistered)
                    .longerBy(MedicalRestatements::viaPatientCampus),
            kind("first_free_time", 2, g -> g.questions.firstFreeTime())
                    .impossibleBy(MedicalRestatements::outsideWeek, MedicalQuestions::unknownCampus)
                    .longerBy(MedicalRestatements::viaPatientCampus),
            kind("cancel_appointment", 2, g -> g.appointments.cancelAppointment())
                    .impossibleBy(MedicalAppointments::neverBooked)
                    .longerBy(MedicalRestatements::viaPatientCampus),
            kind("interaction_question", 2, g -> g.questions.interactionQuestion())
                    .impossibleBy(MedicalQuestions::notInFormulary, MedicalRestatements::notRegistered)
                    .longerBy(MedicalRestatements.viaPatientCampusOrMedication(false)),
            kind("book_specialist", 3, g -> g.appointments.bookSpecialist())
                    .impossibleBy(MedicalRestatements::outsideWeek, MedicalAppointments::fullyBooked, MedicalRestatements::notRegistered)
                    .longerBy(MedicalRestatements::viaPatientCampus),
            kind("checked_prescription", 3, g -> g.prescriptions.checkedPrescription())
                    .impossibleBy(MedicalPrescriptions::unsafeDrug, MedicalRestatements::notRegistered)
                    .longerBy(MedicalRestatements.viaPatientCampusOrMedication(false)),
            kind("primary_doctor_booking", 4, g -> g.appointments.primaryDoctorBooking())
                    .impossibleBy(MedicalAppointments::noClinicThatDay, MedicalRestatements::notRegistered)
                    .longerBy(MedicalRestatements::viaPatientCampus),
            kind("alternative_prescription", 4, g -> g.prescriptions.alternativePrescription())
                    .impossibleBy(MedicalRestatements::notRegistered)
                    .longerBy(MedicalRestatements::viaPatientCampus),
            kind("earliest_matching_specialist", 4, g -> g.appointments.earliestMatchingSpecialist())
                    .impossibleBy(MedicalAppointments::noMatchingDoctor, MedicalRestatements::notRegistered)
                    .longerBy(MedicalRestatements::viaPatientCampus),
            kind("book_and_share", 4, g -> g.appointments.bookAndShare())
                    .impossibleBy(MedicalRestatements::outsideWeek, MedicalAppointments::fullyBooked, MedicalRestatements::notRegistered)
                    .longerBy(MedicalRestatements::viaPatientCampus));

    private final SplittableRandom rnd;
    private final TaskDraft<MedicalWorld> t;
    private final MedicalQuestions questions;
    private final MedicalAppointments appointments;
    private final MedicalPrescriptions prescriptions;

    private MedicalTasks(MedicalWorld w, long seed) {
        this.rnd = new SplittableRandom(Seeds.mix(seed, 0x3ED7A5));
        this.t = new TaskDraft<>(w, MedicalTools.ALL);
        this.questions = new MedicalQuestions(w, rnd, t);
        this.appointments = new MedicalAppointments(w, rnd, t);
        this.prescriptions = new MedicalPrescriptions(w, rnd, t);
    }

    private static TaskKind<MedicalWorld, MedicalTasks> kind(String name, int difficulty, Predicate<MedicalTasks> pose) {
        return TaskKind.of(name, difficulty, pose);
    }

    static Task generate(MedicalWorld world, TaskRequest request, long seed) {
        MedicalTasks g = new MedicalTasks(world, seed);
        return KINDS.task("medical", request, g, g.rnd, g.t);
    }

}
