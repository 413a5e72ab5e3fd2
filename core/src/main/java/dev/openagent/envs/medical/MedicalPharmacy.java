package dev.openagent.envs.medical;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.domain.Args;
import dev.openagent.domain.ToolFailure;
import dev.openagent.envs.kit.Lookup;
import dev.openagent.envs.medical.MedicalWorld.Doctor;
import dev.openagent.envs.medical.MedicalWorld.Drug;
import dev.openagent.envs.medical.MedicalWorld.Patient;
import dev.openagent.envs.medical.MedicalWorld.Prescription;
import dev.openagent.json.Json;

import java.util.List;

/** What the medical pharmacy tools do (declared with the others in {@link MedicalTools}): the formulary, interactions, prescribing. */
final class MedicalPharmacy {
    private MedicalPharmacy() {}

    static List<Drug> drugs(MedicalWorld w, String name, String drugClass) {
        return Lookup.named(w.layout().drugs(), name, Drug::lowerName, d -> drugClass == null || d.drugClass().equals(drugClass));
    }

    static ObjectNode searchDrugs(MedicalWorld w, Args a) {
        if (!a.has("name") && !a.has("drug_class")) throw ToolFailure.domain("give a name, a drug_class or both");
        List<Drug> found = drugs(w, a.string("name", null), a.string("drug_class", null));
        return Json.counted(Json.object(), "drugs", found, MedicalPharmacy::drugJson);
    }

    static ObjectNode drugJson(Drug d) {
        return Json.object("drug_id", d.id(), "name", d.name(), "drug_class", d.drugClass());
    }

    static ObjectNode drugInfo(MedicalWorld w, Args a) {
        Drug d = MedicalTools.drug(w, a.string("drug_id"));
        ObjectNode out = drugJson(d);
        out.put("form", d.form());
        out.put("standard_dose", d.dose());
        ArrayNode list = out.putArray("interacts_with");
        for (Drug other : w.layout().drugs()) {
            int s = w.severity(d, other);
            if (s == MedicalWorld.NONE) continue;
            ObjectNode o = Json.object("drug_id", other.id(), "name", other.name(), "severity", MedicalWorld.SEVERITY[s]);
            list.add(o);
        }
        return out;
    }

    static ObjectNode checkInteractions(MedicalWorld w, Args a) {
        Patient p = MedicalTools.patient(w, a.string("patient_id"));
        Drug d = MedicalTools.drug(w, a.string("drug_id"));
        w.checked.add(p.index() * 4096 + d.index());
        ObjectNode out = Json.object("patient_id", p.id(), "drug_id", d.id(), "drug_name", d.name());
        ArrayNode conflicts = out.putArray("conflicts");
        for (String id : w.medications(p)) {
            Drug m = w.drug(id);
            int s = w.severity(d, m);
            if (s == MedicalWorld.NONE) continue;
            conflicts.add(Json.object("drug_id", m.id(), "name", m.name(), "severity", MedicalWorld.SEVERITY[s]));
        }
        out.put("already_taking", w.takes(p, d));
        if (w.allergic(p, d)) out.put("allergy", d.drugClass());
        else out.putNull("allergy");
        out.put("safe_to_prescribe", w.safe(p, d));
        return out;
    }

    static ObjectNode prescribe(MedicalWorld w, Args a) {
        Patient p = MedicalTools.patient(w, a.string("patient_id"));
        Drug d = MedicalTools.drug(w, a.string("drug_id"));
        Doctor by = MedicalTools.doctor(w, a.string("doctor_id"));
        if (!w.checked.contains(p.index() * 4096 + d.index())) {
            throw ToolFailure.domain("run check_interactions for this patient and drug before prescribing");
        }
        if (!by.id().equals(p.primaryDoctorId())) {
            throw ToolFailure.domain(by.name() + " is not " + p.name() + "'s primary doctor; only the primary doctor prescribes");
        }
        if (w.takes(p, d)) throw ToolFailure.domain(p.name() + " already takes " + d.name());
        if (w.allergic(p, d)) throw ToolFailure.domain("blocked: " + p.name() + " is allergic to " + d.drugClass() + " drugs");
        if (w.worstConflict(p, d) == MedicalWorld.MAJOR) {
            throw ToolFailure.domain("blocked: " + d.name() + " has a major interaction with " + p.name() + "'s current medication");
        }
        Prescription rx = w.prescribe(p, d, by);
        ObjectNode out = Json.object("prescription_id", rx.id(), "patient_id", p.id(), "drug_id", d.id(), "drug_name", d.name(),
                "dose", d.dose(), "doctor_id", by.id(), "status", "active", "verification_code", rx.code());
        return out;
    }
}
