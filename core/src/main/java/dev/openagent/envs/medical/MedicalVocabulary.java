package dev.openagent.envs.medical;

import dev.openagent.envs.kit.Names;
import dev.openagent.domain.Vocabulary;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskVariants;
import dev.openagent.envs.medical.MedicalWorld.Doctor;
import dev.openagent.envs.medical.MedicalWorld.Drug;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The hospital's words, as shifts read them: synonyms of the words its tool, parameter and key names
 * are made of, rewrites for paraphrasing its requests, and distracting sentences about its doctors,
 * drugs and campuses.
 */
final class MedicalVocabulary {
    private MedicalVocabulary() {}

    static final Map<String, List<String>> SYNONYMS = Map.ofEntries(
            Map.entry("patient", List.of("client", "member", "person")),
            Map.entry("patients", List.of("clients", "members", "persons")),
            Map.entry("doctor", List.of("physician", "clinician", "provider")),
            Map.entry("doctors", List.of("physicians", "clinicians", "providers")),
            Map.entry("departments", List.of("wards", "units", "clinics")),
            Map.entry("medication", List.of("medicine", "drug", "prescription")),
            Map.entry("drugs", List.of("medicines", "medications", "remedies")),
            Map.entry("drug", List.of("medicine", "medication", "remedy")),
            Map.entry("interactions", List.of("conflicts", "contraindications", "clashes")),
            Map.entry("prescribe", List.of("issue", "order", "dispense")),
            Map.entry("slots", List.of("openings", "times", "vacancies")),
            Map.entry("schedule", List.of("calendar", "agenda", "timetable")),
            Map.entry("profile", List.of("bio", "details", "card")),
            Map.entry("record", List.of("chart", "file", "history")),
            Map.entry("birth", List.of("born", "birthdate", "dob")),
            Map.entry("campus", List.of("site", "location", "facility")),
            Map.entry("accepting", List.of("taking", "admitting", "open_to")),
            Map.entry("new", List.of("fresh", "incoming", "first_time")),
            Map.entry("language", List.of("tongue", "spoken", "speaks")),
            Map.entry("reason", List.of("purpose", "motive", "cause")),
            Map.entry("confirmation", List.of("booking", "verification", "reference")));

    static final List<EnvFacts.Rewrite> PARAPHRASES = Vocabulary.rewrites(
            "\\bfront-desk phone number\\b", "reception number",
            "\\bearliest free\\b", "first available",
            "\\bcurrently taking\\b", "on at the moment",
            "\\bwith a doctor who accepts new patients\\b", "with a doctor who is taking new patients",
            "\\bgive me the confirmation code\\b", "let me know the confirmation code",
            "\\bgive me the verification code\\b", "send me the verification code",
            "\\bWhat is the cancellation reference\\?", "Please tell me the cancellation reference.",
            "\\bIf that time is taken, take the next free time that day\\b", "Should that slot be gone, book the next free one that day",
            "\\bhow severe it is\\b", "how serious each interaction is");

    static final Vocabulary<MedicalWorld> VOCABULARY = new Vocabulary<>(SYNONYMS, PARAPHRASES, MedicalVocabulary::distractions);

    /** A neighbour's doctor and a friend's drug the query does not name, and a campus's parking. */
    static List<String> distractions(Task task, MedicalWorld w, SplittableRandom rnd) {
        List<String> out = new ArrayList<>();
        Doctor doc = Pick.any(w.map.doctors(), rnd, d -> !task.query().contains(d.name()));
        if (doc != null) out.add("My neighbour sees " + doc.name() + " in " + doc.department() + " and says good things about them.");
        Drug drug = Pick.any(w.map.drugs(), rnd, d -> !task.query().contains(d.name()));
        if (drug != null) out.add("A friend of mine takes " + drug.name() + " and had no trouble with it.");
        String campus = Names.any(w.map.campuses(), rnd);
        out.add("Parking at the " + campus + " Campus was a nightmare last time.");
        return out;
    }
}
