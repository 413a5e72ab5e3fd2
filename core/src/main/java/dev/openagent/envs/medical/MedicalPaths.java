package dev.openagent.envs.medical;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Alternative;
import dev.openagent.sandbox.GoldPlan;

import java.util.List;
import java.util.Set;

import static dev.openagent.envs.kit.TaskDraft.args;

/** Other paths to what a medical tool does, for when the tool is gone; each is declared on its tool in {@link MedicalTools}. */
final class MedicalPaths {
    private MedicalPaths() {}

    /** A medication list: the chart's medication names, then each drug's formulary entry (id, class, dose). */
    static final Alternative MEDICATIONS_VIA_CHART = new Alternative(Set.of("get_patient_record", "search_drugs", "get_drug_info"),
            MedicalPaths::nextForMedications, MedicalPaths::medicationList);

    /** The chart, then per medication name a formulary search and the found drug's entry. */
    private static GoldPlan.Call nextForMedications(ObjectNode args, List<JsonNode> results) {
        if (results.isEmpty()) return new GoldPlan.Call("get_patient_record", args("patient_id", args.path("patient_id").asText("")));
        JsonNode names = results.getFirst().path("current_medications");
        int done = results.size() - 1;
        if (done >= 2 * names.size()) return null;
        if (done % 2 == 0) return new GoldPlan.Call("search_drugs", args("name", names.get(done / 2).asText()));
        String name = names.get(done / 2).asText();
        for (JsonNode d : results.getLast().path("drugs")) {
            if (d.path("name").asText().equals(name)) return new GoldPlan.Call("get_drug_info", args("drug_id", d.path("drug_id").asText()));
        }
        return new GoldPlan.Call("get_drug_info", args("drug_id", ""));
    }

    /** What get_medication_list gives, from the drug entries the path fetched. */
    private static JsonNode medicationList(ObjectNode args, List<JsonNode> results) {
        ObjectNode out = Json.object();
        out.put("patient_id", args.path("patient_id").asText(""));
        ArrayNode meds = out.putArray("medications");
        for (int i = 2; i < results.size(); i += 2) {
            JsonNode info = results.get(i);
            meds.add(Json.object("drug_id", info.path("drug_id").asText(), "name", info.path("name").asText(),
                    "drug_class", info.path("drug_class").asText(), "dose", info.path("standard_dose").asText()));
        }
        out.put("count", meds.size());
        return out;
    }
}
