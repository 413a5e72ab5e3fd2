package dev.openagent.envs.medical;

import java.util.List;

/**
 * Vocabulary and name pools of the medical domain. Departments, drug classes and languages are the
 * domain's fixed vocabulary; campus, doctor, patient and drug names are pools split by parity
 * (see {@link dev.openagent.envs.kit.Names}), so train and test worlds share none of them.
 */
final class MedicalNames {
    private MedicalNames() {}

    static final String FAMILY_MEDICINE = "Family Medicine";

    static final List<String> SPECIALTIES = List.of(
            "Cardiology", "Dermatology", "Neurology", "Orthopedics", "Pediatrics", "Endocrinology",
            "Gastroenterology", "Pulmonology", "Ophthalmology", "Rheumatology", "Urology", "Psychiatry");

    /** Every department id (the enum of the department parameters). */
    static final List<String> DEPARTMENTS = java.util.stream.Stream.concat(
            java.util.stream.Stream.of(FAMILY_MEDICINE), SPECIALTIES.stream()).toList();

    static final List<String> LANGUAGES = List.of("English", "Spanish", "French", "Mandarin", "Arabic", "Hindi", "Portuguese");

    static final List<String> WINGS = List.of("East Wing", "West Wing", "North Wing", "South Wing", "Tower A", "Tower B");

    static final List<String> CAMPUSES = List.of(
            "Northside", "Harborview", "Elm Park", "Westbrook", "Riverbend", "Lakeshore", "Hillview", "Southgate",
            "Maple Grove", "Cedar Point", "Stonegate", "Bayfront", "Ashwood", "Kingsbridge", "Fairview", "Larchmont");

    static final List<String> FIRST = List.of(
            "Amara", "Bastian", "Celia", "Dmitri", "Esther", "Felix", "Gloria", "Hamid", "Ines", "Julian", "Kavya", "Leon",
            "Mirela", "Nadia", "Oskar", "Priya", "Rafael", "Selma", "Tobias", "Ursula", "Viktor", "Wanda", "Xavier", "Yusuf",
            "Zora", "Adele", "Bruno", "Carmen", "Dario", "Elif", "Gideon", "Hana", "Ivo", "Jasmin", "Kofi", "Lena",
            "Mateo", "Noor", "Otto", "Pilar");

    static final List<String> LAST = List.of(
            "Okafor", "Lindgren", "Moreno", "Takahashi", "Kowalczyk", "Haddad", "Brennan", "Castillo", "Novak", "Fischer",
            "Ibrahim", "Jansen", "Kaur", "Laurent", "Mendes", "Nakamura", "Osei", "Petrova", "Quintero", "Rossi",
            "Sandoval", "Tiwari", "Ulrich", "Varga", "Weller", "Yilmaz", "Zeller", "Abbott", "Bauer", "Chowdhury",
            "Delgado", "Eriksen", "Farouk", "Greco", "Holm", "Iyer", "Jovanovic", "Keller", "Lund", "Marsh");

    /** Drug name stems; a drug's name is a stem plus a suffix, so stems shared by two drugs make near misses. */
    static final List<String> DRUG_STEMS = List.of(
            "Cardi", "Velo", "Neuri", "Tamo", "Derma", "Pulmo", "Zora", "Gastri", "Osteo", "Hepa", "Vaso", "Lipo",
            "Glyca", "Thyra", "Arthro", "Myco", "Seda", "Brava", "Quina", "Nexa", "Corva", "Lumo", "Riva", "Solva",
            "Tesa", "Ulva", "Xyla", "Preva", "Onda", "Ebra", "Fenda", "Halo", "Ivra", "Jexa", "Kora", "Mira");

    static final List<String> DRUG_SUFFIXES = List.of("lex", "lin", "pril", "zole", "mab", "tide", "fen", "dol", "stat", "zine", "vant", "cor");

    /** Drug classes with a typical dose text. */
    static final List<String> CLASSES = List.of(
            "beta blocker", "ACE inhibitor", "statin", "anticoagulant", "antibiotic", "antifungal", "antihistamine",
            "proton pump inhibitor", "SSRI antidepressant", "NSAID pain reliever", "corticosteroid", "antidiabetic",
            "thyroid hormone", "anticonvulsant", "bronchodilator");

    static final List<String> DOSES = List.of(
            "50 mg once daily", "10 mg once daily", "20 mg at night", "5 mg twice daily", "500 mg three times daily",
            "150 mg once daily", "10 mg once daily", "40 mg before breakfast", "20 mg once daily", "400 mg as needed",
            "5 mg once daily", "850 mg twice daily", "75 mcg once daily", "300 mg twice daily", "2 puffs as needed");

    static final List<String> FORMS = List.of("tablet", "capsule", "tablet", "tablet", "capsule", "capsule", "tablet",
            "capsule", "tablet", "tablet", "tablet", "tablet", "tablet", "capsule", "inhaler");

    /** Class pairs that interact, with their severity (symmetric). Two drugs of one class are a major duplicate therapy. */
    static final List<String[]> CLASS_INTERACTIONS = List.of(
            new String[]{"anticoagulant", "NSAID pain reliever", "major"},
            new String[]{"beta blocker", "bronchodilator", "major"},
            new String[]{"statin", "antifungal", "major"},
            new String[]{"anticoagulant", "antibiotic", "moderate"},
            new String[]{"SSRI antidepressant", "NSAID pain reliever", "moderate"},
            new String[]{"ACE inhibitor", "NSAID pain reliever", "moderate"},
            new String[]{"antidiabetic", "corticosteroid", "moderate"},
            new String[]{"anticonvulsant", "antifungal", "moderate"},
            new String[]{"thyroid hormone", "proton pump inhibitor", "moderate"},
            new String[]{"antihistamine", "SSRI antidepressant", "moderate"},
            new String[]{"anticonvulsant", "anticoagulant", "major"});

    /** Classes a patient may be allergic to. */
    static final List<String> ALLERGY_CLASSES = List.of("antibiotic", "NSAID pain reliever", "antihistamine", "anticonvulsant");

    static final List<String> REASONS = List.of("follow-up", "new symptoms", "routine check", "test results", "referral");
}
