package dev.openagent.envs.medical;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.envs.kit.Names;
import dev.openagent.domain.TaskKind;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskVariants;
import dev.openagent.envs.medical.MedicalWorld.Drug;
import dev.openagent.envs.medical.MedicalWorld.Patient;
import dev.openagent.sandbox.Chain;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.GoldPlan.Ref;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

import static dev.openagent.envs.kit.TaskDraft.args;

/**
 * How medical tasks of several families are restated, as their kinds declare ({@link MedicalTasks#KINDS}):
 * made impossible by a patient who is not registered or a date outside the clinic week, or reached through
 * a longer chain via a patient's chart. The ways only one family allows are in that family.
 */
final class MedicalRestatements {
    private MedicalRestatements() {}

    private static final List<String> OUTSIDE = List.of("2027-02-26", "2027-03-06", "2027-03-07", "2027-03-08", "2027-03-09",
            "2027-03-10", "2027-03-11", "2027-03-12", "2027-03-15");

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
        return w.layout().patients().stream().anyMatch(p -> p.name().equals(name) && p.dob().equals(dob));
    }

    /** The date asked for is outside the clinic week. */
    static Optional<Task> outsideWeek(Task task, MedicalWorld w, SplittableRandom rnd) {
        String date = null;
        for (GoldPlan.Call c : task.plan().calls()) if (date == null && c.args().has("date")) date = c.args().get("date").asText();
        if (date == null || !TaskVariants.once(task.query(), date)) return Optional.empty();
        String other = Names.any(OUTSIDE, rnd);
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
        for (String c : w.layout().campuses()) if (TaskVariants.once(task.query(), " the " + c + " Campus")) campus = c;
        if (campus == null) return Optional.empty();
        String c = campus;
        Patient q = Pick.any(w.layout().patients(), rnd, p -> p.campus().equals(c) && !task.query().contains(p.name()) && !task.query().contains(p.dob()));
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
        for (Drug d : w.layout().drugs()) if (TaskVariants.once(task.query(), d.name()) && (drug == null || d.name().length() > drug.name().length())) drug = d;
        if (drug == null) return Optional.empty();
        Drug x = drug;
        Patient q = Pick.any(w.layout().patients(), rnd, p -> !task.query().contains(p.name()) && (byPosition ? p.medications().getFirst().equals(x.id())
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
