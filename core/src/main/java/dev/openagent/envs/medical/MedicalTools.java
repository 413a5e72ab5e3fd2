package dev.openagent.envs.medical;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.envs.medical.MedicalWorld.Appointment;
import dev.openagent.envs.medical.MedicalWorld.Department;
import dev.openagent.envs.medical.MedicalWorld.Doctor;
import dev.openagent.envs.medical.MedicalWorld.Drug;
import dev.openagent.envs.medical.MedicalWorld.Patient;
import dev.openagent.envs.kit.Lookup;
import dev.openagent.json.Json;
import dev.openagent.domain.Args;
import dev.openagent.domain.Param;
import dev.openagent.domain.Params;
import dev.openagent.domain.Tool;
import dev.openagent.domain.ToolFailure;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The medical tools. Several overlap on purpose: a patient's chart and their medication list,
 * one doctor's schedule and a department's open slots, a drug's monograph and a patient-specific
 * interaction check; only the descriptions say which one a request needs. Beside each tool, what shifts
 * may know of it: whether it only looks things up, the record it returns by id, the parameter holding a
 * person's name, another path to what it does ({@link MedicalPaths}), the tool that must come before it.
 */
final class MedicalTools {
    private MedicalTools() {}

    static final Param PATIENT_ID = Param.string("patient_id", "Patient id as returned by find_patient, e.g. PT-12345.");
    static final Param DOCTOR_ID = Param.string("doctor_id", "Doctor id, e.g. D-1234.");
    static final Param DRUG_ID = Param.string("drug_id", "Drug id from the formulary, e.g. DR-512.");
    static final Param DATE = Param.string("date", "Clinic date as YYYY-MM-DD (Monday 2027-03-01 to Friday 2027-03-05).");
    static final Param TIME = Param.string("time", "Start time as HH:MM on the half hour, 24-hour clock.");
    static final Param DEPARTMENT = Param.oneOf("department", "Department (medical specialty).", MedicalNames.DEPARTMENTS);
    static final Param CAMPUS = Param.string("campus", "Hospital campus name, e.g. 'Northside Campus'.");

    static final List<Tool<MedicalWorld>> ALL = List.of(
            new Tool<>("find_patient",
                    "Look up patients by name (full or partial), optionally narrowed by date of birth. Returns patient ids, "
                            + "names, dates of birth and home campus. Several patients can share a name.",
                    Params.of(Param.string("name", "Patient name or part of it."),
                            Param.string("date_of_birth", "Date of birth as YYYY-MM-DD.").optional()),
                    MedicalTools::findPatient)
                    .readOnly().personName("name"),
            new Tool<>("get_patient_record",
                    "A patient's chart: date of birth, home campus, primary doctor, allergies and current medications (names only).",
                    Params.of(PATIENT_ID), MedicalTools::patientRecord)
                    .readOnly().recordOf("patient_id", "name", "date_of_birth", "home_campus"),
            new Tool<>("get_medication_list",
                    "A patient's current medications with drug class, dose and drug ids.",
                    Params.of(PATIENT_ID), MedicalTools::medicationList)
                    .readOnly().orVia(MedicalPaths.MEDICATIONS_VIA_CHART),
            new Tool<>("list_departments",
                    "Departments of the hospital with campus, location (level and wing) and front-desk phone number.",
                    Params.of(CAMPUS.describedAs("Only departments of this campus; omit for every campus.").optional()),
                    MedicalTools::departments)
                    .readOnly(),
            new Tool<>("search_doctors",
                    "Find doctors by department, campus, name, spoken language or whether they accept new patients. "
                            + "Returns doctor ids, names, departments, campuses, languages and the new-patient flag.",
                    Params.of(DEPARTMENT.optional(), CAMPUS.optional(),
                            Param.string("name", "Doctor name or part of it.").optional(),
                            Param.oneOf("language", "A language the doctor speaks.", MedicalNames.LANGUAGES).optional(),
                            Param.bool("accepting_new_patients", "Only doctors who accept (true) or do not accept (false) new patients.").optional()),
                    MedicalTools::searchDoctors)
                    .readOnly(),
            new Tool<>("get_doctor_profile",
                    "One doctor's profile: department, campus, languages, weekly clinic days and clinic hours, new-patient flag.",
                    Params.of(DOCTOR_ID), MedicalTools::doctorProfile)
                    .readOnly().recordOf("doctor_id", "name", "department", "campus"),
            new Tool<>("get_doctor_schedule",
                    "Free 30-minute appointment times of one doctor on one date, earliest first.",
                    Params.of(DOCTOR_ID, DATE), MedicalTools::doctorSchedule)
                    .readOnly(),
            new Tool<>("find_open_slots",
                    "Free 30-minute appointment times across all doctors of a department at a campus on a date, earliest "
                            + "first (at most 12), each with the doctor's id and new-patient flag.",
                    Params.of(DEPARTMENT, CAMPUS, DATE,
                            Param.bool("accepting_new_patients", "Only doctors who accept new patients (true).").optional()),
                    MedicalTools::findOpenSlots)
                    .readOnly(),
            new Tool<>("book_appointment",
                    "Book a 30-minute appointment for a patient with a doctor at a free time. Doctors who do not accept new "
                            + "patients only see patients they are the primary doctor of. Returns the appointment id and its confirmation code.",
                    Params.of(PATIENT_ID, DOCTOR_ID, DATE, TIME,
                            Param.oneOf("reason", "Reason for the visit.", MedicalNames.REASONS).optional()),
                    MedicalTools::bookAppointment),
            new Tool<>("list_appointments",
                    "A patient's appointments this week: appointment id, doctor, department, campus, date, time and status.",
                    Params.of(PATIENT_ID), MedicalTools::listAppointments)
                    .readOnly(),
            new Tool<>("cancel_appointment",
                    "Cancel an appointment. Needs its id and the confirmation code given when it was booked. Returns a cancellation reference.",
                    Params.of(Param.string("appointment_id", "Appointment id, e.g. AP-12345."),
                            Param.string("confirmation_code", "Confirmation code of the appointment.")),
                    MedicalTools::cancelAppointment).undoes("book_appointment"),
            new Tool<>("send_appointment_details",
                    "Email an appointment's details (doctor, department, campus, date, time, confirmation code) to an address, "
                            + "for example a caregiver's. Needs the appointment's confirmation code.",
                    Params.of(Param.string("confirmation_code", "Confirmation code of the appointment."),
                            Param.string("email", "The address to send the details to.")),
                    MedicalTools::sendAppointmentDetails).sends("book_appointment", "confirmation_code", "email"),
            new Tool<>("search_drugs",
                    "Search the formulary by drug name (full or partial) or drug class. Returns drug ids, names and classes.",
                    Params.of(Param.string("name", "Drug name or part of it.").optional(),
                            Param.oneOf("drug_class", "Drug class.", MedicalNames.CLASSES).optional()),
                    MedicalPharmacy::searchDrugs)
                    .readOnly(),
            new Tool<>("get_drug_info",
                    "A drug's monograph: class, form, standard dose and every formulary drug it is known to interact with.",
                    Params.of(DRUG_ID), MedicalPharmacy::drugInfo)
                    .readOnly().recordOf("drug_id", "name", "drug_class"),
            // Not read-only: the check is recorded, and prescribing needs it.
            new Tool<>("check_interactions",
                    "Check one drug against a specific patient's current medications and allergies. Required before "
                            + "prescribing that drug to that patient. Lists conflicts with their severity (moderate or major).",
                    Params.of(PATIENT_ID, DRUG_ID), MedicalPharmacy::checkInteractions),
            new Tool<>("prescribe_medication",
                    "Prescribe a drug to a patient. The prescriber must be the patient's primary doctor, and check_interactions "
                            + "must have been run for this patient and drug; blocked on a major interaction or an allergy. "
                            + "Returns the prescription id and its verification code.",
                    Params.of(PATIENT_ID, DRUG_ID, DOCTOR_ID.describedAs("Prescribing doctor's id.")),
                    MedicalPharmacy::prescribe)
                    .after("check_interactions"));

    // ---------------------------------------------------------------- lookups shared with the task generator

    static Patient patient(MedicalWorld w, String id) { return Lookup.byId(w.layout().patientById(), id, "patient"); }

    static Doctor doctor(MedicalWorld w, String id) { return Lookup.byId(w.layout().doctorById(), id, "doctor"); }

    static Drug drug(MedicalWorld w, String id) { return Lookup.byId(w.layout().drugById(), id, "drug in the formulary"); }

    static int day(String date) {
        int day = MedicalWorld.day(date.strip());
        if (day < 0) throw ToolFailure.domain("date '" + date + "' is not a clinic day: clinics run Monday "
                + MedicalWorld.DATES.getFirst() + " to Friday " + MedicalWorld.DATES.getLast());
        return day;
    }

    static String campus(MedicalWorld w, String text) {
        String c = w.campus(text);
        if (c == null) throw ToolFailure.domain("unknown campus '" + text + "' (campuses: " + String.join(", ", w.layout().campuses()) + ")");
        return c;
    }

    /** Doctors a search returns, ordered by name then campus (the layout's order). */
    static List<Doctor> doctors(MedicalWorld w, String department, String campus, String name, String language, Boolean accepting) {
        return Lookup.named(w.layout().doctors(), name, Doctor::lowerName, d -> (department == null || d.department().equals(department))
                && (campus == null || d.campus().equals(campus)) && (language == null || d.languages().contains(language))
                && (accepting == null || d.acceptingNew() == accepting));
    }

    /** A free slot of some doctor, for find_open_slots. */
    record Slot(int slot, Doctor doctor) {}

    private static final Comparator<Slot> SLOT_ORDER =
            Comparator.comparingInt(Slot::slot).thenComparing(s -> s.doctor().name()).thenComparing(s -> s.doctor().id());

    static List<Slot> openSlots(MedicalWorld w, String department, String campus, int day, boolean onlyAccepting) {
        List<Slot> out = new ArrayList<>();
        for (Doctor d : w.layout().doctors()) {
            if (!d.department().equals(department) || !d.campus().equals(campus)) continue;
            if (onlyAccepting && !d.acceptingNew()) continue;
            for (int s : w.freeSlots(d, day)) out.add(new Slot(s, d));
        }
        out.sort(SLOT_ORDER);
        return out.size() > 12 ? out.subList(0, 12) : out;
    }

    // ---------------------------------------------------------------- behaviours

    private static ObjectNode findPatient(MedicalWorld w, Args a) {
        if (a.string("name").isBlank()) throw ToolFailure.domain("name is empty");
        String dob = a.has("date_of_birth") ? a.string("date_of_birth").strip() : null;
        List<Patient> found = Lookup.named(w.layout().patients(), a.string("name"), Patient::lowerName, p -> dob == null || p.dob().equals(dob));
        return Json.counted(Json.object(), "patients", found, p -> Json.object("patient_id", p.id(), "name", p.name(),
                "date_of_birth", p.dob(), "home_campus", p.campus() + " Campus"));
    }

    private static ObjectNode patientRecord(MedicalWorld w, Args a) {
        Patient p = patient(w, a.string("patient_id"));
        Doctor primary = w.doctor(p.primaryDoctorId());
        ObjectNode out = Json.object("patient_id", p.id(), "name", p.name(), "date_of_birth", p.dob(),
                "home_campus", p.campus() + " Campus", "primary_doctor_id", primary.id(), "primary_doctor_name", primary.name());
        ArrayNode allergies = out.putArray("allergies");
        p.allergies().forEach(allergies::add);
        ArrayNode meds = out.putArray("current_medications");
        for (String id : w.medications(p)) meds.add(w.drug(id).name());
        return out;
    }

    private static ObjectNode medicationList(MedicalWorld w, Args a) {
        Patient p = patient(w, a.string("patient_id"));
        ObjectNode out = Json.object();
        out.put("patient_id", p.id());
        ArrayNode meds = out.putArray("medications");
        for (String id : w.medications(p)) {
            Drug d = w.drug(id);
            ObjectNode o = Json.object("drug_id", d.id(), "name", d.name(), "drug_class", d.drugClass(), "dose", d.dose());
            meds.add(o);
        }
        out.put("count", meds.size());
        return out;
    }

    private static ObjectNode departments(MedicalWorld w, Args a) {
        String campus = a.has("campus") ? campus(w, a.string("campus")) : null;
        ObjectNode out = Json.object();
        ArrayNode list = out.putArray("departments");
        for (Department d : w.layout().departments()) {
            if (campus != null && !d.campus().equals(campus)) continue;
            ObjectNode o = Json.object("department", d.name(), "campus", d.campus() + " Campus", "location", d.location(),
                    "phone", d.phone());
            list.add(o);
        }
        return out;
    }

    private static ObjectNode searchDoctors(MedicalWorld w, Args a) {
        String campus = a.has("campus") ? campus(w, a.string("campus")) : null;
        Boolean accepting = a.has("accepting_new_patients") ? a.bool("accepting_new_patients", true) : null;
        List<Doctor> found = doctors(w, a.string("department", null), campus, a.string("name", null), a.string("language", null), accepting);
        return Json.counted(Json.object(), "doctors", found, MedicalTools::doctorJson);
    }

    private static ObjectNode doctorJson(Doctor d) {
        ArrayNode langs = Json.array();
        d.languages().forEach(langs::add);
        return Json.object("doctor_id", d.id(), "name", d.name(), "department", d.department(), "campus", d.campus() + " Campus",
                "languages", langs, "accepting_new_patients", d.acceptingNew());
    }

    private static ObjectNode doctorProfile(MedicalWorld w, Args a) {
        Doctor d = doctor(w, a.string("doctor_id"));
        ObjectNode out = doctorJson(d);
        ArrayNode days = out.putArray("clinic_days");
        for (int i = 0; i < 5; i++) if (d.days()[i]) days.add(MedicalWorld.DAYS.get(i));
        out.put("clinic_hours", d.hours());
        return out;
    }

    private static ObjectNode doctorSchedule(MedicalWorld w, Args a) {
        Doctor d = doctor(w, a.string("doctor_id"));
        int day = day(a.string("date"));
        ObjectNode out = Json.object("doctor_id", d.id(), "date", MedicalWorld.DATES.get(day), "in_clinic", d.days()[day]);
        ArrayNode free = out.putArray("free_times");
        for (int s : w.freeSlots(d, day)) free.add(MedicalWorld.TIMES[s]);
        return out;
    }

    private static ObjectNode findOpenSlots(MedicalWorld w, Args a) {
        String department = a.string("department");
        String campus = campus(w, a.string("campus"));
        int day = day(a.string("date"));
        List<Slot> slots = openSlots(w, department, campus, day, a.bool("accepting_new_patients", false));
        ObjectNode out = Json.object("department", department, "campus", campus + " Campus", "date", MedicalWorld.DATES.get(day));
        ArrayNode list = out.putArray("slots");
        for (Slot s : slots) {
            ObjectNode o = Json.object("time", MedicalWorld.TIMES[s.slot()], "doctor_id", s.doctor().id(),
                    "doctor_name", s.doctor().name(), "accepting_new_patients", s.doctor().acceptingNew());
            list.add(o);
        }
        return out;
    }

    private static ObjectNode bookAppointment(MedicalWorld w, Args a) {
        Patient p = patient(w, a.string("patient_id"));
        Doctor d = doctor(w, a.string("doctor_id"));
        int day = day(a.string("date"));
        int slot = MedicalWorld.slot(a.string("time").strip());
        if (slot < 0) throw ToolFailure.domain("time must be HH:MM on the half hour, got '" + a.string("time") + "'");
        if (!d.inClinic(day, slot)) {
            throw ToolFailure.domain(d.name() + " has no clinic at " + MedicalWorld.TIMES[slot] + " on " + MedicalWorld.DATES.get(day));
        }
        if (!w.free(d, day, slot)) throw ToolFailure.domain("that time is already taken; use get_doctor_schedule for free times");
        if (!MedicalWorld.mayBook(p, d)) {
            throw ToolFailure.domain(d.name() + " does not accept new patients and is not " + p.name() + "'s primary doctor");
        }
        if (w.patientBusy(p, day, slot)) throw ToolFailure.domain(p.name() + " already has an appointment at that time");
        Appointment ap = w.book(p, d, day, slot, a.string("reason", "follow-up"), false);
        ObjectNode out = appointmentJson(w, ap);
        out.put("confirmation_code", ap.code());
        return out;
    }

    private static ObjectNode appointmentJson(MedicalWorld w, Appointment ap) {
        Doctor d = w.doctor(ap.doctorId());
        ObjectNode o = Json.object("appointment_id", ap.id(), "patient_id", ap.patientId(), "doctor_id", d.id(), "doctor_name", d.name(),
                "department", d.department(), "campus", d.campus() + " Campus", "date", MedicalWorld.DATES.get(ap.day()),
                "time", MedicalWorld.TIMES[ap.slot()], "status", ap.status());
        return o;
    }

    private static ObjectNode listAppointments(MedicalWorld w, Args a) {
        Patient p = patient(w, a.string("patient_id"));
        ObjectNode out = Json.object();
        out.put("patient_id", p.id());
        ArrayNode list = out.putArray("appointments");
        for (Appointment ap : w.appointments) if (ap.patientId().equals(p.id())) list.add(appointmentJson(w, ap));
        out.put("count", list.size());
        return out;
    }

    private static ObjectNode cancelAppointment(MedicalWorld w, Args a) {
        Appointment ap = w.appointment(a.string("appointment_id").strip());
        if (ap == null) throw ToolFailure.domain("no appointment with id '" + a.string("appointment_id") + "'");
        if (!ap.code().equalsIgnoreCase(a.string("confirmation_code").strip())) {
            throw ToolFailure.domain("confirmation code does not match appointment " + ap.id());
        }
        if (!ap.active()) throw ToolFailure.domain("appointment " + ap.id() + " is already cancelled");
        String reference = w.cancel(ap);
        ObjectNode out = Json.object("appointment_id", ap.id(), "status", "cancelled", "cancellation_reference", reference);
        return out;
    }

    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s.]+");

    private static ObjectNode sendAppointmentDetails(MedicalWorld w, Args a) {
        String code = a.string("confirmation_code").strip();
        Appointment ap = w.byCode(code);
        if (ap == null) throw ToolFailure.domain("no appointment with confirmation code '" + a.string("confirmation_code") + "'");
        String email = a.string("email").strip();
        if (!EMAIL.matcher(email).matches()) throw ToolFailure.domain("'" + a.string("email") + "' is not an email address");
        w.sent.add(new MedicalWorld.Sent(ap.id(), ap.code(), email));
        return Json.object("appointment_id", ap.id(), "sent_to", email, "status", "sent");
    }
}
