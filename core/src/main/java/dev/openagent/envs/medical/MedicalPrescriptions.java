package dev.openagent.envs.medical;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.envs.kit.TaskVariants;
import dev.openagent.envs.medical.MedicalWorld.Drug;
import dev.openagent.envs.medical.MedicalWorld.Patient;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.GoldPlan.Ref;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

import static dev.openagent.envs.kit.TaskDraft.args;
import static dev.openagent.envs.kit.TaskDraft.ref;
import static dev.openagent.envs.kit.TaskDraft.require;

/**
 * Prescriptions by the patient's primary doctor after an interaction check: one drug (three to five
 * calls), or a second drug when the first interacts (up to seven). A drug the patient must not get
 * (a major interaction, an allergy) makes the request impossible.
 */
final class MedicalPrescriptions extends MedicalTaskFamily {
    MedicalPrescriptions(MedicalWorld w, SplittableRandom rnd, TaskDraft<MedicalWorld> t) {
        super(w, rnd, t);
    }

    // ---------------------------------------------------------------- prescribing

    boolean checkedPrescription() {
        boolean wantClean = rnd.nextDouble() < 0.8;   // mostly no interaction at all; sometimes a moderate one the tool allows
        for (int pass = 0; pass < 2; pass++) {
            for (Patient p : Pick.preferring(w.layout().patients(), rnd, x -> twinPatient(x) != null, 0.8)) {
                for (Drug d : Pick.shuffled(w.layout().drugs(), rnd)) {
                    if (!w.safe(p, d) || (pass == 0 && (w.worstConflict(p, d) == MedicalWorld.NONE) != wantClean)) continue;
                    prescriptionPlan(p, List.of(d));
                    return true;
                }
            }
        }
        return false;
    }

    boolean alternativePrescription() {
        boolean wantInteraction = rnd.nextDouble() < 0.65;
        for (int pass = 0; pass < 2; pass++) {
            for (Patient p : Pick.preferring(w.layout().patients(), rnd, x -> twinPatient(x) != null, 0.8)) {
                if (p.medications().isEmpty()) continue;
                for (Drug first : Pick.shuffled(w.layout().drugs(), rnd)) {
                    if (w.takes(p, first) || w.allergic(p, first)) continue;
                    boolean interacts = w.worstConflict(p, first) != MedicalWorld.NONE;
                    if (pass == 0 && interacts != wantInteraction) continue;
                    Drug second = Pick.any(w.layout().drugs(), rnd, x -> x != first && w.safe(p, x) && w.worstConflict(p, x) == MedicalWorld.NONE);
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

    // ---------------------------------------------------------------- made impossible

    /** The drug asked for must not be prescribed: a major interaction with the patient's medication, or an allergy. */
    static Optional<Task> unsafeDrug(Task task, MedicalWorld w, SplittableRandom rnd) {
        Patient p = w.patient(task.expect().getOrDefault("prescribe_patient", ""));
        Drug d = w.drug(task.expect().getOrDefault("prescribe_drug", ""));
        if (p == null || d == null || !TaskVariants.once(task.query(), d.name())) return Optional.empty();
        for (Drug x : Pick.shuffled(w.layout().drugs(), rnd)) {
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
            int k = MedicalPharmacy.drugs(w, x.name(), null).indexOf(x);
            refs.put("drug_id", new Ref(drug.call(), "/drugs/" + k + "/drug_id"));
        }
        return refs;
    }
}
