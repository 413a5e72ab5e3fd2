package dev.openagent.envs.medical;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.domain.TaskKind;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.envs.kit.TaskVariants;
import dev.openagent.envs.medical.MedicalWorld.Drug;
import dev.openagent.envs.medical.MedicalWorld.Patient;
import dev.openagent.sandbox.Chain;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.GoldPlan.Ref;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Predicate;

import static dev.openagent.envs.kit.TaskDraft.args;

/**
 * The medical task generator and its kinds of task. Difficulty is the number of dependent calls, with
 * constraints and a comparison at the top:
 * <ol>
 *   <li>department location, doctor count with filters, drug class (one call);</li>
 *   <li>current medication, a doctor's first free time, cancelling an appointment, an interaction question (two);</li>
 *   <li>booking the earliest specialist slot, a checked prescription by the primary doctor (three to five);</li>
 *   <li>booking the primary doctor with a fallback time, a prescription with an alternative drug when the first
 *       interacts, booking whichever matching specialist is free first (four to seven).</li>
 * </ol>
 * Patients with a namesake, doctors with a namesake on another campus, departments present on several
 * campuses and drugs sharing a name stem are preferred as targets, so a careless agent picks the wrong one.
 * The kinds are posed by their families ({@link MedicalQuestions}, {@link MedicalAppointments},
 * {@link MedicalPrescriptions}); the ways to make them impossible and to restate them that several
 * families share are here.
 */
final class MedicalTasks {
    /**
     * Every kind, each difficulty's in the order the generator shuffles them from. Any kind's campus can be
     * restated as a patient's (the restatement checks the query names one); a drug's, as one on a patient's
     * medication list, where the task names the drug.
     */
    static final List<TaskKind<MedicalWorld, MedicalTasks>> KINDS = List.of(
            kind("department_location", 1, g -> g.questions.departmentLocation())
                    .impossibleBy(MedicalQuestions::unknownCampus)
                    .longerBy(MedicalTasks::viaPatientCampus),
            kind("count_doctors", 1, g -> g.questions.countDoctors())
                    .impossibleBy(MedicalQuestions::unknownCampus)
                    .longerBy(MedicalTasks::viaPatientCampus),
            kind("drug_class", 1, g -> g.questions.drugClass())
                    .impossibleBy(MedicalQuestions::notInFormulary)
                    .longerBy(viaPatientCampusOrMedication(true)),
            kind("current_medications", 2, g -> g.questions.currentMedications())
                    .impossibleBy(MedicalTasks::notRegistered)
                    .longerBy(MedicalTasks::viaPatientCampus),
            kind("first_free_time", 2, g -> g.questions.firstFreeTime())
                    .impossibleBy(MedicalTasks::outsideWeek, MedicalQuestions::unknownCampus)
                    .longerBy(MedicalTasks::viaPatientCampus),
            kind("cancel_appointment", 2, g -> g.appointments.cancelAppointment())
                    .impossibleBy(MedicalAppointments::neverBooked)
                    .longerBy(MedicalTasks::viaPatientCampus),
            kind("interaction_question", 2, g -> g.questions.interactionQuestion())
                    .impossibleBy(MedicalQuestions::notInFormulary, MedicalTasks::notRegistered)
                    .longerBy(viaPatientCampusOrMedication(false)),
            kind("book_specialist", 3, g -> g.appointments.bookSpecialist())
                    .impossibleBy(MedicalTasks::outsideWeek, MedicalAppointments::fullyBooked, MedicalTasks::notRegistered)
                    .longerBy(MedicalTasks::viaPatientCampus),
            kind("checked_prescription", 3, g -> g.prescriptions.checkedPrescription())
                    .impossibleBy(MedicalPrescriptions::unsafeDrug, MedicalTasks::notRegistered)
                    .longerBy(viaPatientCampusOrMedication(false)),
            kind("primary_doctor_booking", 4, g -> g.appointments.primaryDoctorBooking())
                    .impossibleBy(MedicalAppointments::noClinicThatDay, MedicalTasks::notRegistered)
                    .longerBy(MedicalTasks::viaPatientCampus),
            kind("alternative_prescription", 4, g -> g.prescriptions.alternativePrescription())
                    .impossibleBy(MedicalTasks::notRegistered)
                    .longerBy(MedicalTasks::viaPatientCampus),
            kind("earliest_matching_specialist", 4, g -> g.appointments.earliestMatchingSpecialist())
                    .impossibleBy(MedicalAppointments::noMatchingDoctor, MedicalTasks::notRegistered)
                    .longerBy(MedicalTasks::viaPatientCampus));

    private static final List<String> OUTSIDE = List.of("2027-02-26", "2027-03-06", "2027-03-07", "2027-03-08", "2027-03-09",
            "2027-03-10", "2027-03-11", "2027-03-12", "2027-03-15");

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
        int difficulty = request.difficulty() == 0 ? 1 + g.rnd.nextInt(4) : request.difficulty();
        TaskKind<MedicalWorld, MedicalTasks> kind = Pick.firstPosed(kindsOf(difficulty), g.rnd, k -> k.pose().test(g),
                "medical task of difficulty " + difficulty);
        return g.t.build("medical", request, kind.name(), difficulty);
    }

    private static List<TaskKind<MedicalWorld, MedicalTasks>> kindsOf(int difficulty) {
        return KINDS.stream().filter(k -> k.difficulty() == difficulty).toList();
    }

    // ---------------------------------------------------------------- made impossible

    /**
     * The patient is not registered: the date of birth is one no patient of that name has. For the kinds
     * whose plan starts by finding the patient.
     */
    static Optional<Task> notRegistered(Task task, MedicalWorld w, SplittableRandom rnd) {
        if (task.plan().calls().isEmpty() || !task.plan().calls().getFirst().tool().equals("find_patient")) return Optional.empty();
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
    static Optional<Task> outsideWeek(Task task, MedicalWorld w, SplittableRandom rnd) {
        String date = null;
        for (GoldPlan.Call c : task.plan().calls()) if (date == null && c.args().has("date")) date = c.args().get("date").asText();
        if (date == null || !TaskVariants.once(task.query(), date)) return Optional.empty();
        String other = TaskVariants.any(OUTSIDE, rnd);
        return Optional.of(task.unsolvable(task.query().replace(date, other), TaskVariants.probesUntil(task.plan(), "date", other),
                other + " is outside the clinic week (" + MedicalWorld.DATES.getFirst() + " to " + MedicalWorld.DATES.getLast() + ").",
                TaskVariants.replaceInDetails(task.details(), date, other, false)));
    }

    // ---------------------------------------------------------------- restated through a longer chain

    /**
     * A campus becomes the campus of a patient's chart ("the home campus of Q (born D)", from two extra hops
     * "the campus where the primary doctor of Q (born D) works").
     */
    static Optional<Chain> viaPatientCampus(Task task, MedicalWorld w, SplittableRandom rnd, int extra) {
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
        return Optional.of(new Chain(query, hops, pointer, campus + " Campus", details(task, query, "campus")));
    }

    /**
     * The campus restated as a patient's; failing that, the drug the task names as one on a patient's medication
     * list: "the statin Q (born D) takes", or "the first medication on the list of Q (born D)" when naming the
     * class would give the answer away ({@code byPosition}).
     */
    static TaskKind.Restatement<MedicalWorld> viaPatientCampusOrMedication(boolean byPosition) {
        return (task, w, rnd, extra) -> viaPatientCampus(task, w, rnd, extra).or(() -> viaMedicationList(task, w, rnd, byPosition));
    }

    private static Optional<Chain> viaMedicationList(Task task, MedicalWorld w, SplittableRandom rnd, boolean byPosition) {
        Drug drug = null;
        for (Drug d : w.map.drugs()) if (TaskVariants.once(task.query(), d.name()) && (drug == null || d.name().length() > drug.name().length())) drug = d;
        if (drug == null) return Optional.empty();
        Drug x = drug;
        Patient q = Pick.any(w.map.patients(), rnd, p -> !task.query().contains(p.name()) && (byPosition ? p.medications().getFirst().equals(x.id())
                : p.medications().contains(x.id()) && p.medications().stream().filter(m -> w.drug(m).drugClass().equals(x.drugClass())).count() == 1));
        if (q == null) return Optional.empty();
        int k = q.medications().indexOf(x.id());
        String who = q.name() + " (born " + q.dob() + ")";
        String said = byPosition ? "the first medication on the list of " + who : "the " + x.drugClass() + " that " + who + " takes";
        List<GoldPlan.Call> hops = List.of(new GoldPlan.Call("find_patient", args("name", q.name(), "date_of_birth", q.dob())),
                new GoldPlan.Call("get_medication_list", args(), Map.of("patient_id", new Ref(0, "/patients/0/patient_id"))));
        String query = task.query().replace(x.name(), said);
        return Optional.of(new Chain(query, hops, "/medications/" + k + "/name", x.name(), details(task, query, "")));
    }

    private static List<Detail> details(Task task, String query, String replacedKey) {
        return task.details().stream().filter(d -> !d.key().equals(replacedKey) && query.contains(d.span())).toList();
    }
}
