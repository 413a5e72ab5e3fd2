package dev.openagent.envs.medical;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.envs.medical.MedicalWorld.Doctor;
import dev.openagent.envs.medical.MedicalWorld.Drug;
import dev.openagent.envs.medical.MedicalWorld.Layout;
import dev.openagent.envs.medical.MedicalWorld.Patient;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Sends;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolError;
import dev.openagent.domain.DomainEnv;
import dev.openagent.shift.ShiftSpec;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.openagent.envs.EnvTesting.answerWith;
import static dev.openagent.envs.EnvTesting.assertAnswerFails;
import static dev.openagent.envs.EnvTesting.assertRewrittenAnswerFails;
import static dev.openagent.envs.EnvTesting.hasRepeats;
import static dev.openagent.envs.EnvTesting.assertEveryLayoutPosesEveryDifficulty;
import static dev.openagent.envs.EnvTesting.started;
import static dev.openagent.envs.EnvTesting.assertSameTwice;
import static dev.openagent.envs.EnvTesting.assertSplitsShareNoNames;
import static dev.openagent.envs.EnvTesting.call;
import static dev.openagent.envs.EnvTesting.json;
import static dev.openagent.envs.EnvTesting.ok;
import static dev.openagent.envs.EnvTesting.requestFor;
import static dev.openagent.envs.EnvTesting.runTampered;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MedicalTest {
    /** A started episode, made afresh for each test (JUnit makes a new instance per test). */
    private final DomainEnv<MedicalWorld> env = started(MedicalDomain.DOMAIN);

    private MedicalWorld w() { return env.world(); }

    // ---------------------------------------------------------------- generator

    @Test
    void layoutsAreDeterministicCachedAndSplitsShareNoNames() {
        assertSameTwice(() -> MedicalWorld.generate(Split.TRAIN, 99), Layout::patients, Layout::departments, Layout::drugs,
                l -> l.doctors().stream().map(Doctor::id).toList());
        assertTrue(new MedicalWorld(MedicalWorld.LAYOUTS.get(Split.TRAIN, 3), 1).layout() == new MedicalWorld(MedicalWorld.LAYOUTS.get(Split.TRAIN, 3), 2).layout(), "layouts are shared");
        assertTrue(new MedicalWorld(MedicalWorld.LAYOUTS.get(Split.TRAIN, 3), 1).appointments() != null);
        assertSplitsShareNoNames(MedicalWorld.LAYOUTS, 40, (l, names) -> {
            names.addAll(l.campuses());
            l.patients().forEach(p -> names.add(p.name()));
            l.doctors().forEach(d -> names.add(d.name()));
            l.drugs().forEach(d -> names.add(d.name()));
        });
    }

    @Test
    void worldsHaveTwinsAndNearMisses() {
        Layout l = w().layout();
        assertTrue(hasRepeats(l.patients(), Patient::name), "two patients share a name");
        long multiCampus = l.departments().stream().map(MedicalWorld.Department::name).distinct()
                .filter(n -> l.departments().stream().filter(d -> d.name().equals(n)).count() > 1).count();
        assertTrue(multiCampus >= 3, "departments exist on several campuses");
        for (Patient p : l.patients()) {
            for (String a : p.medications()) {
                for (String b : p.medications()) {
                    if (!a.equals(b)) assertNotEquals(MedicalWorld.MAJOR, w().severity(w().drug(a), w().drug(b)), "charts hold no major interaction");
                }
            }
        }
    }

    /** Every cached layout of both splits can pose a task at every difficulty (kinds fall back to siblings, never fail). */
    @Test
    void everyLayoutPosesATaskAtEveryDifficulty() {
        assertEveryLayoutPosesEveryDifficulty(MedicalWorld.LAYOUTS, (l, i) -> new MedicalWorld(l, i * 31L), MedicalTasks::generate);
    }

    // ---------------------------------------------------------------- tools

    @Test
    void findPatientNarrowsByDateOfBirth() {
        Patient p = twinned();
        JsonNode all = ok(env, "find_patient", json("name", p.name().toLowerCase()));
        assertTrue(all.get("count").asInt() >= 2);
        JsonNode one = ok(env, "find_patient", json("name", p.name(), "date_of_birth", p.dob()));
        assertEquals(1, one.get("count").asInt());
        assertEquals(p.id(), one.at("/patients/0/patient_id").asText());
        assertEquals(0, ok(env, "find_patient", json("name", "Nobody Atall")).get("count").asInt());
        assertEquals(ToolError.Code.DOMAIN, call(env, "find_patient", json("name", "  ")).error().code());
    }

    @Test
    void chartAndMedicationListAgree() {
        Patient p = withMedication();
        JsonNode chart = ok(env, "get_patient_record", json("patient_id", p.id()));
        JsonNode meds = ok(env, "get_medication_list", json("patient_id", p.id().toLowerCase()));
        assertEquals(p.primaryDoctorId(), chart.get("primary_doctor_id").asText());
        assertEquals(p.medications().size(), meds.get("count").asInt());
        assertEquals(chart.at("/current_medications/0").asText(), meds.at("/medications/0/name").asText());
        assertEquals(ToolError.Code.DOMAIN, call(env, "get_patient_record", json("patient_id", "PT-00000")).error().code());
    }

    @Test
    void departmentsAndDoctorsSearch() {
        String campus = w().layout().campuses().getFirst();
        JsonNode deps = ok(env, "list_departments", json("campus", campus.toLowerCase()));
        deps.get("departments").forEach(d -> assertEquals(campus + " Campus", d.get("campus").asText()));
        assertEquals(ToolError.Code.DOMAIN, call(env, "list_departments", json("campus", "Atlantis")).error().code());
        Doctor d = w().layout().doctors().getFirst();
        JsonNode found = ok(env, "search_doctors", json("department", d.department(), "campus", d.campus() + " Campus"));
        assertTrue(found.get("doctors").findValuesAsText("doctor_id").contains(d.id()));
        JsonNode accepting = ok(env, "search_doctors", json("accepting_new_patients", true));
        accepting.get("doctors").forEach(x -> assertTrue(x.get("accepting_new_patients").asBoolean()));
        assertEquals(ToolError.Code.INVALID_ARGUMENTS, call(env, "search_doctors", json("department", "Astrology")).error().code());
        JsonNode profile = ok(env, "get_doctor_profile", json("doctor_id", d.id()));
        assertEquals(d.hours(), profile.get("clinic_hours").asText());
    }

    @Test
    void schedulesAndOpenSlotsAgree() {
        Doctor d = w().layout().doctors().stream().filter(x -> !w().freeSlots(x, 0).isEmpty()).findFirst().orElseThrow();
        JsonNode schedule = ok(env, "get_doctor_schedule", json("doctor_id", d.id(), "date", "2027-03-01"));
        String first = schedule.at("/free_times/0").asText();
        JsonNode slots = ok(env, "find_open_slots", json("department", d.department(), "campus", d.campus(), "date", "2027-03-01"));
        boolean listed = false;
        for (JsonNode s : slots.get("slots")) listed |= s.get("doctor_id").asText().equals(d.id()) && s.get("time").asText().equals(first);
        assertTrue(listed || slots.get("slots").size() == 12, "the department view lists the doctor's first free time");
        assertEquals(ToolError.Code.DOMAIN, call(env, "get_doctor_schedule", json("doctor_id", d.id(), "date", "2027-03-06")).error().code());
    }

    @Test
    void bookingTakesTheSlotAndCancellingNeedsTheCode() {
        Patient p = w().layout().patients().getFirst();
        Doctor d = w().doctor(p.primaryDoctorId());
        int day = 0;
        while (w().freeSlots(d, day).isEmpty()) day++;
        String date = MedicalWorld.DATES.get(day);
        String time = MedicalWorld.TIMES[w().freeSlots(d, day).getFirst()];
        JsonNode booked = ok(env, "book_appointment", json("patient_id", p.id(), "doctor_id", d.id(), "date", date, "time", time));
        assertTrue(booked.get("confirmation_code").asText().startsWith("CNF-"));
        assertEquals(ToolError.Code.DOMAIN, call(env, "book_appointment", json("patient_id", p.id(), "doctor_id", d.id(), "date", date, "time", time)).error().code(),
                "the slot is taken now");
        assertFalse(ok(env, "get_doctor_schedule", json("doctor_id", d.id(), "date", date)).get("free_times").toString().contains(time));
        assertEquals(ToolError.Code.DOMAIN, call(env, "book_appointment", json("patient_id", p.id(), "doctor_id", d.id(), "date", date, "time", "09:15")).error().code());
        String id = booked.get("appointment_id").asText();
        assertEquals(1, ok(env, "list_appointments", json("patient_id", p.id())).get("count").asInt());
        assertEquals(ToolError.Code.DOMAIN, call(env, "cancel_appointment", json("appointment_id", id, "confirmation_code", "CNF-WRONG1")).error().code());
        JsonNode cancelled = ok(env, "cancel_appointment", json("appointment_id", id, "confirmation_code", booked.get("confirmation_code").asText()));
        assertTrue(cancelled.get("cancellation_reference").asText().startsWith("CXL-"));
        assertEquals(ToolError.Code.DOMAIN, call(env, "cancel_appointment", json("appointment_id", id, "confirmation_code", booked.get("confirmation_code").asText())).error().code(),
                "cannot cancel twice");
    }

    @Test
    void sendingDetailsNeedsARealCodeAndAnAddressAndIsRecorded() {
        Patient p = w().layout().patients().getFirst();
        Doctor d = w().doctor(p.primaryDoctorId());
        int day = firstFreeDay(d);
        JsonNode booked = ok(env, "book_appointment", json("patient_id", p.id(), "doctor_id", d.id(),
                "date", MedicalWorld.DATES.get(day), "time", MedicalWorld.TIMES[w().freeSlots(d, day).getFirst()]));
        String code = booked.get("confirmation_code").asText();
        assertEquals(ToolError.Code.DOMAIN, call(env, "send_appointment_details", json("confirmation_code", "CNF-WRONG1", "email", "ana@inbox.example")).error().code());
        assertEquals(ToolError.Code.DOMAIN, call(env, "send_appointment_details", json("confirmation_code", code, "email", "ana at inbox")).error().code());
        assertEquals(List.of(), w().sent(), "refused sends leave no record");
        JsonNode sent = ok(env, "send_appointment_details", json("confirmation_code", code.toLowerCase(), "email", " ana@inbox.example "));
        assertEquals("ana@inbox.example", sent.get("sent_to").asText());
        assertEquals(List.of(new MedicalWorld.Sent(booked.get("appointment_id").asText(), code, "ana@inbox.example")), w().sent());
    }

    @Test
    void sharingChecksTheAddressAndSendingUnaskedFails() {
        TaskRequest r = requestFor(env, "book_and_share", 4, Split.TEST);
        assertTrue(runTampered(env, r, a -> a).success());
        assertTrue(env.task().query().contains(env.task().expect().get("send_to")), env.task().query());
        Trajectory wrongAddress = runTampered(env, r, a -> a instanceof Action.CallTools c && c.calls().getFirst().name().equals("send_appointment_details")
                ? Action.CallTools.of("x", "send_appointment_details", c.calls().getFirst().arguments().replace("@", "@not-"))
                : a);
        assertFalse(wrongAddress.success());
        assertTrue(wrongAddress.outcome().detail().contains("wrong address"), wrongAddress.outcome().detail());
        Trajectory unsent = runTampered(env, r, a -> a instanceof Action.CallTools c && c.calls().getFirst().name().equals("send_appointment_details")
                ? new Action.Answer("Booked, code " + w().appointments().getLast().code() + ".") : a);
        assertFalse(unsent.success());
        assertTrue(unsent.outcome().detail().contains("not sent"), unsent.outcome().detail());
        // A booking that asked for no sharing fails when the details are sent anyway.
        TaskRequest b = requestFor(env, "book_specialist", 3, Split.TEST);
        Trajectory unasked = runTampered(env, b, new java.util.function.UnaryOperator<>() {
            boolean sent;

            @Override
            public Action apply(Action a) {
                if (sent || !(a instanceof Action.Answer)) return a;
                sent = true;
                return Action.CallTools.of("extra", "send_appointment_details", json("confirmation_code", w().appointments().getLast().code(), "email", "me@inbox.example"));
            }
        });
        assertFalse(unasked.success());
        assertTrue(unasked.outcome().detail().contains("did not ask for"), unasked.outcome().detail());
    }

    @Test
    void doctorsNotTakingNewPatientsOnlySeeTheirOwn() {
        Doctor closed = w().layout().doctors().stream().filter(x -> !x.acceptingNew()).filter(x -> hasFreeSlot(x)).findFirst().orElseThrow();
        Patient stranger = w().layout().patients().stream().filter(p -> !p.primaryDoctorId().equals(closed.id())).findFirst().orElseThrow();
        int day = firstFreeDay(closed);
        Observation o = call(env, "book_appointment", json("patient_id", stranger.id(), "doctor_id", closed.id(),
                "date", MedicalWorld.DATES.get(day), "time", MedicalWorld.TIMES[w().freeSlots(closed, day).getFirst()]));
        assertTrue(o.isError());
        assertTrue(o.text().contains("does not accept new patients"));
    }

    @Test
    void prescribingNeedsACheckThePrimaryDoctorAndNoMajorInteraction() {
        Patient p = withMedication();
        Drug safe = w().layout().drugs().stream().filter(d -> w().safe(p, d)).findFirst().orElseThrow();
        Drug clash = w().layout().drugs().stream().filter(d -> !w().takes(p, d) && w().worstConflict(p, d) == MedicalWorld.MAJOR).findFirst().orElse(null);
        String args = json("patient_id", p.id(), "drug_id", safe.id(), "doctor_id", p.primaryDoctorId());
        assertTrue(call(env, "prescribe_medication", args).text().contains("check_interactions"), "a check comes first");
        JsonNode check = ok(env, "check_interactions", json("patient_id", p.id(), "drug_id", safe.id()));
        assertTrue(check.get("safe_to_prescribe").asBoolean());
        String otherDoctor = w().layout().doctors().stream().map(Doctor::id).filter(id -> !id.equals(p.primaryDoctorId())).findFirst().orElseThrow();
        assertTrue(call(env, "prescribe_medication", json("patient_id", p.id(), "drug_id", safe.id(), "doctor_id", otherDoctor)).isError());
        JsonNode rx = ok(env, "prescribe_medication", args);
        assertTrue(rx.get("verification_code").asText().startsWith("VRX-"));
        assertTrue(ok(env, "get_medication_list", json("patient_id", p.id())).toString().contains(safe.name()), "the new drug is current medication");
        assertTrue(call(env, "prescribe_medication", args).isError(), "already taking it");
        if (clash != null) {
            JsonNode c = ok(env, "check_interactions", json("patient_id", p.id(), "drug_id", clash.id()));
            assertFalse(c.get("safe_to_prescribe").asBoolean());
            assertEquals("major", findMajor(c));
            assertTrue(call(env, "prescribe_medication", json("patient_id", p.id(), "drug_id", clash.id(), "doctor_id", p.primaryDoctorId()))
                    .text().contains("blocked"));
        }
        JsonNode info = ok(env, "get_drug_info", json("drug_id", safe.id()));
        assertEquals(safe.drugClass(), info.get("drug_class").asText());
        assertEquals(ToolError.Code.DOMAIN, call(env, "search_drugs", json()).error().code());
        assertEquals(1, ok(env, "search_drugs", json("name", safe.name())).get("count").asInt());
    }

    private static String findMajor(JsonNode check) {
        for (JsonNode c : check.get("conflicts")) if (c.get("severity").asText().equals("major")) return "major";
        return "none";
    }

    @Test
    void badArgumentsAreErrors() {
        assertEquals(ToolError.Code.MALFORMED_ARGUMENTS, call(env, "find_patient", "{not json").error().code());
        assertEquals(ToolError.Code.INVALID_ARGUMENTS, call(env, "find_patient", "{}").error().code());
        assertEquals(ToolError.Code.INVALID_ARGUMENTS, call(env, "find_patient", "{\"name\": 7}").error().code());
        assertEquals(ToolError.Code.INVALID_ARGUMENTS, call(env, "get_doctor_schedule", "{\"doctor_id\": \"D-1\", \"date\": \"x\", \"extra\": 1}").error().code());
        assertEquals(ToolError.Code.UNKNOWN_TOOL, call(env, "book_table", "{}").error().code());
    }

    // ---------------------------------------------------------------- checker

    @Test
    void checkerAcceptsTheOracleAndRejectsWrongAnswers() {
        TaskRequest r = requestFor(env, "current_medications", 2, Split.TEST);
        assertTrue(runTampered(env, r, a -> a).success());
        assertRewrittenAnswerFails(env, r, s -> "They take nothing.", "lacks");
    }

    @Test
    void bookingWithTheWrongDoctorOrWithoutTheCodeFails() {
        TaskRequest r = requestFor(env, "earliest_matching_specialist", 4, Split.TRAIN);
        assertRewrittenAnswerFails(env, r, s -> s.replaceAll("CNF-\\w+", ""), "confirmation code");
        // Near miss: book the first matching doctor's first free time instead of the earliest one.
        Trajectory nearMiss = runTampered(env, r, a -> {
            if (a instanceof Action.CallTools c && c.calls().getFirst().name().equals("book_appointment")) {
                Doctor other = w().layout().doctors().stream().filter(d -> !d.id().equals(env.task().expect().get("book_doctor")))
                        .filter(d -> d.acceptingNew() && hasFreeSlot(d)).findFirst().orElseThrow();
                int day = firstFreeDay(other);
                String patient = env.task().expect().get("book_patient");
                return Action.CallTools.of(c.calls().getFirst().id(), "book_appointment", json("patient_id", patient, "doctor_id", other.id(),
                        "date", MedicalWorld.DATES.get(day), "time", MedicalWorld.TIMES[w().freeSlots(other, day).getFirst()]));
            }
            return a;
        });
        assertFalse(nearMiss.success());
        assertTrue(nearMiss.outcome().detail().contains("wrong"), nearMiss.outcome().detail());
    }

    @Test
    void extraChangesAndChangesOnQuestionsFail() {
        TaskRequest r = requestFor(env, "checked_prescription", 3, Split.TEST);
        Trajectory twice = runTampered(env, r, new java.util.function.UnaryOperator<>() {
            boolean booked;

            @Override
            public Action apply(Action a) {
                if (!booked && a instanceof Action.Answer) {
                    booked = true;
                    Patient p = w().patient(env.task().expect().get("prescribe_patient"));
                    Doctor d = w().doctor(p.primaryDoctorId());
                    int day = firstFreeDay(d);
                    return Action.CallTools.of("extra", "book_appointment", json("patient_id", p.id(), "doctor_id", d.id(),
                            "date", MedicalWorld.DATES.get(day), "time", MedicalWorld.TIMES[w().freeSlots(d, day).getFirst()]));
                }
                return a;
            }
        });
        assertFalse(twice.success(), "an appointment nobody asked for");
        TaskRequest q = requestFor(env, "drug_class", 1, Split.TEST);
        env.reset(q);
        Patient p = w().layout().patients().getFirst();
        Drug d = w().layout().drugs().stream().filter(x -> w().safe(p, x)).findFirst().orElseThrow();
        ok(env, "check_interactions", json("patient_id", p.id(), "drug_id", d.id()));
        ok(env, "prescribe_medication", json("patient_id", p.id(), "drug_id", d.id(), "doctor_id", p.primaryDoctorId()));
        assertAnswerFails(env, "It is a " + env.task().mustContain().getFirst(), "read-only");
    }

    @Test
    void cancellingTheNearMissAppointmentFails() {
        TaskRequest r = requestFor(env, "cancel_appointment", 2, Split.TEST);
        env.reset(r);
        String target = env.task().expect().get("cancel");
        MedicalWorld.Appointment other = w().appointments().stream().filter(a -> !a.id().equals(target)).findFirst().orElseThrow();
        ok(env, "cancel_appointment", json("appointment_id", other.id(), "confirmation_code", other.code()));
        assertAnswerFails(env, "Cancelled.");
    }

    // ---------------------------------------------------------------- what shifts may know

    @Test
    void toolsDeclareTheirFacts() {
        EnvFacts facts = env.facts();
        assertTrue(facts.personName("find_patient", "name"));
        assertFalse(facts.personName("search_doctors", "name"), "a doctor search is not a patient's name");
        assertFalse(facts.personName("search_drugs", "name"));
        assertEquals(List.of(new EnvFacts.Prerequisite("check_interactions", "prescribe_medication")), facts.prerequisites());
        assertEquals("get_patient_record", facts.lookup("patient_id").orElseThrow().tool());
        assertEquals(Set.of("get_medication_list"), facts.alternatives().keySet());
        Set<String> readOnly = facts.readOnlyTools();
        assertEquals(11, readOnly.size(), readOnly.toString());
        assertEquals(new Sends("book_appointment", "confirmation_code", "email"), facts.tool("send_appointment_details").orElseThrow().sends());
        for (String writes : List.of("book_appointment", "cancel_appointment", "send_appointment_details", "check_interactions", "prescribe_medication")) {
            assertFalse(readOnly.contains(writes), writes);
        }
    }

    /** Each kind is made impossible in one of its own ways (the reason says which), never by removing its tools. */
    @Test
    void eachKindIsMadeImpossibleItsOwnWay() {
        String notRegistered = "No patient named .* is registered\\.";
        String outsideWeek = ".* is outside the clinic week .*";
        String noCampus = "The hospital has no .* Campus .*";
        String notInFormulary = ".* is not in the hospital's formulary\\.";
        Map<String, String> reasons = Map.ofEntries(
                Map.entry("department_location", noCampus),
                Map.entry("count_doctors", noCampus),
                Map.entry("drug_class", notInFormulary),
                Map.entry("current_medications", notRegistered),
                Map.entry("first_free_time", outsideWeek + "|" + noCampus),
                Map.entry("cancel_appointment", "There is no appointment with .* to cancel\\."),
                Map.entry("interaction_question", notInFormulary + "|" + notRegistered),
                Map.entry("book_specialist", outsideWeek + "|No .* doctor who accepts new patients has a free time .*|" + notRegistered),
                Map.entry("checked_prescription", "Blocked: .*|" + notRegistered),
                Map.entry("primary_doctor_booking", ".*'s primary doctor, holds no clinic on .*|" + notRegistered),
                Map.entry("alternative_prescription", notRegistered),
                Map.entry("earliest_matching_specialist", "No .* who accepts new patients speaks .*|" + notRegistered),
                Map.entry("book_and_share", outsideWeek + "|No .* doctor who accepts new patients has a free time .*|" + notRegistered));
        Env shifted = ShiftSpec.parseStack("task.unsolvable").apply(new DomainEnv<>(MedicalDomain.DOMAIN));
        Set<String> seen = new HashSet<>();
        for (long seed = 0; seed < 240; seed++) {
            shifted.reset(new TaskRequest(Split.TEST, seed, 1 + (int) (seed % 4)));
            String kind = shifted.task().kind();
            String reason = shifted.task().plan().answerTemplate();
            assertTrue(reason.matches(reasons.get(kind)), kind + " made impossible by: " + reason);
            seen.add(kind);
        }
        assertEquals(reasons.keySet(), seen);
    }

    /** A campus is restated as a patient's (two hops further: their primary doctor's); a drug as one a patient takes. */
    @Test
    void longerChainsGoThroughAPatientsChart() {
        Map<String, Set<String>> restated = new HashMap<>();
        for (int severity = 1; severity <= 2; severity++) {
            Env shifted = ShiftSpec.parseStack("logic.longer-chain:severity=" + severity).apply(new DomainEnv<>(MedicalDomain.DOMAIN));
            for (long seed = 0; seed < 160; seed++) {
                String query = shifted.reset(new TaskRequest(Split.TEST, seed, 1 + (int) (seed % 4))).query();
                String how = query.contains(" the home campus of ") ? "home campus"
                        : query.contains(" the campus where the primary doctor of ") ? "primary doctor's campus"
                        : query.contains("the first medication on the list of ") ? "first medication"
                        : query.matches(".*the .* that .* \\(born [-0-9]+\\) takes.*") ? "medication by class" : "ticket";
                restated.computeIfAbsent(shifted.task().kind(), k -> new HashSet<>()).add(how + (how.endsWith("campus") ? "" : "@" + severity));
            }
        }
        assertTrue(restated.get("department_location").containsAll(Set.of("home campus", "primary doctor's campus")), restated.toString());
        assertTrue(restated.get("drug_class").contains("first medication@1"), restated.toString());
        assertTrue(restated.get("interaction_question").contains("medication by class@1"), restated.toString());
        assertFalse(restated.get("drug_class").contains("medication by class@1"), "naming the class would give the answer away");
        assertEquals(Set.of("ticket@1", "ticket@2"), restated.get("current_medications"), "no campus, no drug: the generic chain");
    }

    // ---------------------------------------------------------------- helpers

    private Patient twinned() {
        List<Patient> all = w().layout().patients();
        for (Patient p : all) for (Patient q : all) if (p != q && p.name().equals(q.name())) return p;
        throw new AssertionError("no twin");
    }

    private Patient withMedication() {
        return w().layout().patients().stream().filter(p -> p.medications().size() >= 2).findFirst().orElseThrow();
    }

    private boolean hasFreeSlot(Doctor d) {
        for (int day = 0; day < 5; day++) if (!w().freeSlots(d, day).isEmpty()) return true;
        return false;
    }

    private int firstFreeDay(Doctor d) {
        for (int day = 0; day < 5; day++) if (!w().freeSlots(d, day).isEmpty()) return day;
        throw new AssertionError("no free day");
    }
}
