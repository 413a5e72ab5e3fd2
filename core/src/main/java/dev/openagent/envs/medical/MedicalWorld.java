package dev.openagent.envs.medical;

import dev.openagent.envs.kit.Codes;
import dev.openagent.envs.kit.EpisodeWorld;
import dev.openagent.envs.kit.Layouts;
import dev.openagent.envs.kit.Names;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Split;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The medical world of one episode: a cached, immutable {@link Layout} of campuses, departments,
 * doctors with weekly clinic hours, patients with their medication and allergies, and a drug
 * formulary with interactions; plus this episode's appointments, prescriptions and interaction checks.
 */
public final class MedicalWorld extends EpisodeWorld<MedicalWorld.Layout> {
    static final List<String> DATES = List.of("2027-03-01", "2027-03-02", "2027-03-03", "2027-03-04", "2027-03-05");
    static final List<String> DAYS = List.of("monday", "tuesday", "wednesday", "thursday", "friday");
    /** Slot i of a day starts at TIMES[i]: half-hour slots from 00:00. */
    static final String[] TIMES = new String[48];

    static {
        for (int i = 0; i < 48; i++) TIMES[i] = String.format(Locale.ROOT, "%02d:%02d", i / 2, (i % 2) * 30);
    }

    static final int NONE = 0;
    static final int MODERATE = 1;
    static final int MAJOR = 2;
    static final String[] SEVERITY = {"none", "moderate", "major"};

    public record Department(String name, String campus, String location, String phone, int index) {}

    /** A doctor: clinic days (Monday = 0) and hours as half-hour slot indices [firstSlot, endSlot). */
    public record Doctor(String id, String name, String department, String campus, List<String> languages,
                         boolean acceptingNew, boolean[] days, int firstSlot, int endSlot, int index, String lowerName) {
        boolean inClinic(int day, int slot) { return days[day] && slot >= firstSlot && slot < endSlot; }

        String hours() { return TIMES[firstSlot] + "-" + TIMES[endSlot]; }
    }

    public record Patient(String id, String name, String dob, String campus, String primaryDoctorId, List<String> allergies,
                          List<String> medications, int index, String lowerName) {}

    public record Drug(String id, String name, String drugClass, String dose, String form, int index, String lowerName) {}

    /**
     * The immutable part of a world; {@code severity[i][j]} is the interaction of drugs i and j. The twin arrays
     * (precomputed near misses) give, by an entity's index, another entity of the same name, or null.
     */
    public record Layout(long seed, Split split, List<String> campuses, List<Department> departments, List<Doctor> doctors,
                         List<Patient> patients, List<Drug> drugs, Map<String, Doctor> doctorById,
                         Map<String, Patient> patientById, Map<String, Drug> drugById, byte[][] severity,
                         Patient[] patientTwins, Doctor[] doctorTwins, Department[] departmentTwins) {}

    public record Appointment(String id, String patientId, String doctorId, int day, int slot, String reason, String code,
                              String status, boolean preexisting, String cancellation) {
        Appointment cancelled(String reference) {
            return new Appointment(id, patientId, doctorId, day, slot, reason, code, "cancelled", preexisting, reference);
        }

        boolean active() { return status.equals("booked"); }
    }

    public record Prescription(String id, String patientId, String drugId, String doctorId, String code) {}

    /** Appointment details sent to an address (send_appointment_details): which appointment, by its code, to whom. */
    public record Sent(String appointmentId, String code, String address) {}

    /** Layouts cached per split (tests build worlds on a chosen one). */
    static final Layouts<Layout> LAYOUTS = new Layouts<>(256, 0x3ED1CA1L, MedicalWorld::generate);


    final List<Appointment> appointments = new ArrayList<>();
    final List<Prescription> prescriptions = new ArrayList<>();
    final List<Sent> sent = new ArrayList<>();
    /** patient index * 4096 + drug index of every interaction check made in this episode: prescribing needs one. */
    final Set<Integer> checked = new HashSet<>();

    MedicalWorld(Layout map, long episodeSeed) {
        super(map, episodeSeed);
    }

    public static MedicalWorld of(Split split, long episodeSeed) {
        return new MedicalWorld(LAYOUTS.of(split, episodeSeed), episodeSeed);
    }


    public List<Appointment> appointments() { return List.copyOf(appointments); }

    public List<Prescription> prescriptions() { return List.copyOf(prescriptions); }

    public List<Sent> sent() { return List.copyOf(sent); }

    Doctor doctor(String id) { return map.doctorById().get(id); }

    Patient patient(String id) { return map.patientById().get(id); }

    Drug drug(String id) { return map.drugById().get(id); }

    // ---------------------------------------------------------------- schedules

    /** Whether a slot was booked before this episode: a fixed function of the layout, doctor and slot. */
    boolean prebooked(Doctor d, int day, int slot) {
        long h = Seeds.mix(map.seed() ^ 0x5C4ED, d.index() * 1_000L + day * 64L + slot);
        return (h >>> 40) % 100 < 52;
    }

    boolean free(Doctor d, int day, int slot) {
        if (!d.inClinic(day, slot) || prebooked(d, day, slot)) return false;
        for (Appointment a : appointments) {
            if (a.day() == day && a.slot() == slot && a.doctorId().equals(d.id()) && a.active()) return false;
        }
        return true;
    }

    /** Free slots of a doctor on a day, earliest first. */
    List<Integer> freeSlots(Doctor d, int day) {
        List<Integer> out = new ArrayList<>();
        if (!d.days()[day]) return out;
        for (int s = d.firstSlot(); s < d.endSlot(); s++) if (free(d, day, s)) out.add(s);
        return out;
    }

    boolean patientBusy(Patient p, int day, int slot) {
        for (Appointment a : appointments) {
            if (a.day() == day && a.slot() == slot && a.patientId().equals(p.id()) && a.active()) return true;
        }
        return false;
    }

    /** Whether the patient may be booked with the doctor: the doctor takes new patients or is their primary doctor. */
    static boolean mayBook(Patient p, Doctor d) {
        return d.acceptingNew() || d.id().equals(p.primaryDoctorId());
    }

    Appointment book(Patient p, Doctor d, int day, int slot, String reason, boolean preexisting) {
        Appointment a = new Appointment(newId("AP-", 10000, this::appointment), p.id(), d.id(), day, slot, reason,
                Codes.next(codes, "CNF", 6), "booked", preexisting, null);
        appointments.add(a);
        return a;
    }

    Appointment appointment(String id) {
        for (Appointment a : appointments) if (a.id().equalsIgnoreCase(id)) return a;
        return null;
    }

    String cancel(Appointment a) {
        String reference = Codes.next(codes, "CXL", 6);
        appointments.replaceAll(x -> x == a ? a.cancelled(reference) : x);
        return reference;
    }

    /** The appointment with this confirmation code (null: none). */
    Appointment byCode(String code) {
        for (Appointment a : appointments) if (a.code().equalsIgnoreCase(code)) return a;
        return null;
    }

    // ---------------------------------------------------------------- medication

    /** Drug ids the patient currently takes: the chart plus prescriptions made in this episode. */
    List<String> medications(Patient p) {
        if (prescriptions.isEmpty()) return p.medications();
        List<String> out = new ArrayList<>(p.medications());
        for (Prescription rx : prescriptions) if (rx.patientId().equals(p.id())) out.add(rx.drugId());
        return out;
    }

    int severity(Drug a, Drug b) { return map.severity()[a.index()][b.index()]; }

    /** The worst interaction of a drug with the patient's current medication (NONE when there is none). */
    int worstConflict(Patient p, Drug candidate) {
        int worst = NONE;
        for (String id : medications(p)) worst = Math.max(worst, severity(candidate, drug(id)));
        return worst;
    }

    boolean allergic(Patient p, Drug d) { return p.allergies().contains(d.drugClass()); }

    boolean takes(Patient p, Drug d) { return medications(p).contains(d.id()); }

    /** The tool's rule: no major interaction, no allergy, not already taken. */
    boolean safe(Patient p, Drug d) {
        return worstConflict(p, d) < MAJOR && !allergic(p, d) && !takes(p, d);
    }

    Prescription prescribe(Patient p, Drug d, Doctor by) {
        Prescription rx = new Prescription(newId("RX-", 100000, id -> prescription(id)), p.id(), d.id(), by.id(),
                Codes.next(codes, "VRX", 6));
        prescriptions.add(rx);
        return rx;
    }

    private Prescription prescription(String id) {
        for (Prescription rx : prescriptions) if (rx.id().equals(id)) return rx;
        return null;
    }

    private String newId(String prefix, int base, java.util.function.Function<String, Object> existing) {
        while (true) {
            String id = prefix + (base + codes.nextInt(base * 9));
            if (existing.apply(id) == null) return id;
        }
    }

    static int day(String date) { return DATES.indexOf(date); }

    /** "09:30" -> 19, or -1 when the text is not a half-hour time. */
    static int slot(String time) {
        if (time.length() != 5 || time.charAt(2) != ':') return -1;
        int h1 = time.charAt(0) - '0';
        int h2 = time.charAt(1) - '0';
        if (h1 < 0 || h1 > 2 || h2 < 0 || h2 > 9) return -1;
        int hour = h1 * 10 + h2;
        String minutes = time.substring(3);
        if (hour > 23 || !(minutes.equals("00") || minutes.equals("30"))) return -1;
        return hour * 2 + (minutes.equals("30") ? 1 : 0);
    }

    /** "Northside", "northside campus" and "Northside Campus" name the same campus; null if none. */
    String campus(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.endsWith(" campus")) t = t.substring(0, t.length() - 7).strip();
        for (String c : map.campuses()) if (c.toLowerCase(Locale.ROOT).equals(t)) return c;
        return null;
    }

    // ---------------------------------------------------------------- generation

    static Layout generate(Split split, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<String> campuses = Names.distinct(Names.half(MedicalNames.CAMPUSES, split), 3, rnd);
        List<String> first = Names.half(MedicalNames.FIRST, split);
        List<String> last = Names.half(MedicalNames.LAST, split);

        // Departments: family medicine everywhere, six or seven specialties per campus, most of them on several campuses.
        List<Department> departments = new ArrayList<>();
        Set<String> phones = new HashSet<>();
        List<String> common = Names.distinct(MedicalNames.SPECIALTIES, 5, rnd);
        for (String campus : campuses) {
            List<String> here = new ArrayList<>();
            here.add(MedicalNames.FAMILY_MEDICINE);
            for (String s : common) if (rnd.nextDouble() < 0.85) here.add(s);
            List<String> rest = new ArrayList<>(MedicalNames.SPECIALTIES);
            rest.removeAll(here);
            while (here.size() < 7) here.add(rest.remove(rnd.nextInt(rest.size())));
            for (String dept : here) {
                String phone;
                do phone = "555-" + (1000 + rnd.nextInt(9000)); while (!phones.add(phone));
                String location = "Level " + (1 + rnd.nextInt(6)) + ", " + Names.any(MedicalNames.WINGS, rnd);
                departments.add(new Department(dept, campus, location, phone, departments.size()));
            }
        }

        // Doctors: two or three per department and campus; some share a full name with a doctor elsewhere.
        List<Doctor> doctors = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (Department dept : departments) {
            int n = dept.name().equals(MedicalNames.FAMILY_MEDICINE) ? 3 : 2 + rnd.nextInt(2);
            for (int i = 0; i < n; i++) {
                String name = null;
                if (rnd.nextDouble() < 0.22 && !doctors.isEmpty()) {
                    Doctor twin = doctors.get(rnd.nextInt(doctors.size()));
                    if (!twin.campus().equals(dept.campus())) name = twin.name();
                }
                while (name == null || nameTaken(doctors, name, dept.campus())) {
                    name = "Dr. " + Names.any(first, rnd) + " " + Names.any(last, rnd);
                }
                String id;
                do id = "D-" + (1000 + rnd.nextInt(9000)); while (!ids.add(id));
                List<String> languages = new ArrayList<>(List.of("English"));
                for (int k = 0; k < 2; k++) {
                    if (rnd.nextDouble() < 0.45) {
                        String l = MedicalNames.LANGUAGES.get(1 + rnd.nextInt(MedicalNames.LANGUAGES.size() - 1));
                        if (!languages.contains(l)) languages.add(l);
                    }
                }
                boolean[] days = new boolean[5];
                int count = 0;
                while (count < 3 + rnd.nextInt(2)) {
                    int d = rnd.nextInt(5);
                    if (!days[d]) {
                        days[d] = true;
                        count++;
                    }
                }
                int[][] shifts = {{16, 24}, {18, 26}, {26, 34}, {18, 32}, {17, 29}};
                int[] shift = shifts[rnd.nextInt(shifts.length)];
                doctors.add(new Doctor(id, name, dept.name(), dept.campus(), List.copyOf(languages), rnd.nextDouble() < 0.72,
                        days, shift[0], shift[1], doctors.size(), name.toLowerCase(Locale.ROOT)));
            }
        }

        // Drugs: two per class; stems are sometimes reused so names nearly match.
        List<String> stems = new ArrayList<>(Names.half(MedicalNames.DRUG_STEMS, split));
        List<String> usedStems = new ArrayList<>();
        List<Drug> drugs = new ArrayList<>();
        Set<String> drugNames = new HashSet<>();
        for (int c = 0; c < MedicalNames.CLASSES.size(); c++) {
            for (int k = 0; k < 2; k++) {
                String name = null;
                while (name == null || drugNames.contains(name)) {
                    String stem = !usedStems.isEmpty() && rnd.nextDouble() < 0.4 ? Names.any(usedStems, rnd)
                            : stems.isEmpty() ? Names.any(usedStems, rnd) : stems.remove(rnd.nextInt(stems.size()));
                    if (!usedStems.contains(stem)) usedStems.add(stem);
                    name = stem + Names.any(MedicalNames.DRUG_SUFFIXES, rnd);
                }
                drugNames.add(name);
                String id;
                do id = "DR-" + (100 + rnd.nextInt(900)); while (!ids.add(id));
                drugs.add(new Drug(id, name, MedicalNames.CLASSES.get(c), MedicalNames.DOSES.get(c), MedicalNames.FORMS.get(c),
                        drugs.size(), name.toLowerCase(Locale.ROOT)));
            }
        }
        byte[][] severity = new byte[drugs.size()][drugs.size()];
        for (Drug a : drugs) {
            for (Drug b : drugs) {
                if (a == b) continue;
                int s = a.drugClass().equals(b.drugClass()) ? MAJOR : NONE;
                for (String[] pair : MedicalNames.CLASS_INTERACTIONS) {
                    if ((pair[0].equals(a.drugClass()) && pair[1].equals(b.drugClass()))
                            || (pair[1].equals(a.drugClass()) && pair[0].equals(b.drugClass()))) {
                        s = Math.max(s, pair[2].equals("major") ? MAJOR : MODERATE);
                    }
                }
                severity[a.index()][b.index()] = (byte) s;
            }
        }
        for (int k = 0; k < 6; k++) {  // drug-specific moderate interactions beyond the class rules
            int a = rnd.nextInt(drugs.size());
            int b = rnd.nextInt(drugs.size());
            if (a != b && severity[a][b] == NONE) severity[a][b] = severity[b][a] = MODERATE;
        }

        // Patients: some share a full name with another patient (told apart by date of birth).
        List<Patient> patients = new ArrayList<>();
        List<Doctor> family = doctors.stream().filter(d -> d.department().equals(MedicalNames.FAMILY_MEDICINE)).toList();
        for (int i = 0; i < 64; i++) {
            String name = null;
            if (rnd.nextDouble() < 0.3 && !patients.isEmpty()) name = patients.get(rnd.nextInt(patients.size())).name();
            if (name == null) name = Names.any(first, rnd) + " " + Names.any(last, rnd);
            String dob;
            final String n = name;
            do {
                dob = String.format(Locale.ROOT, "%d-%02d-%02d", 1940 + rnd.nextInt(70), 1 + rnd.nextInt(12), 1 + rnd.nextInt(28));
                final String b = dob;
                if (patients.stream().noneMatch(p -> p.name().equals(n) && p.dob().equals(b))) break;
            } while (true);
            String id;
            do id = "PT-" + (10000 + rnd.nextInt(90000)); while (!ids.add(id));
            Doctor primary = family.get(rnd.nextInt(family.size()));
            List<String> allergies = rnd.nextDouble() < 0.3 ? List.of(Names.any(MedicalNames.ALLERGY_CLASSES, rnd)) : List.of();
            List<Drug> meds = new ArrayList<>();
            int want = 1 + rnd.nextInt(4);
            for (int tries = 0; meds.size() < want && tries < 40; tries++) {
                Drug d = drugs.get(rnd.nextInt(drugs.size()));
                if (allergies.contains(d.drugClass()) || meds.contains(d)) continue;
                boolean clash = false;
                for (Drug m : meds) clash |= severity[d.index()][m.index()] == MAJOR;
                if (!clash) meds.add(d);
            }
            patients.add(new Patient(id, name, dob, primary.campus(), primary.id(), allergies, meds.stream().map(Drug::id).toList(), i,
                    name.toLowerCase(Locale.ROOT)));
        }
        // Lists are kept in the order the search tools return them, so searches filter without sorting.
        doctors.sort(Comparator.comparing(Doctor::name).thenComparing(Doctor::campus));
        patients.sort(Comparator.comparing(Patient::name).thenComparing(Patient::dob));
        drugs.sort(Comparator.comparing(Drug::name));
        Map<String, Doctor> doctorById = new HashMap<>();
        doctors.forEach(d -> doctorById.put(d.id(), d));
        Map<String, Patient> patientById = new HashMap<>();
        patients.forEach(p -> patientById.put(p.id(), p));
        Map<String, Drug> drugById = new HashMap<>();
        drugs.forEach(d -> drugById.put(d.id(), d));
        Patient[] patientTwins = new Patient[patients.size()];
        for (Patient p : patients) for (Patient q : patients) if (p != q && p.name().equals(q.name())) patientTwins[p.index()] = q;
        Doctor[] doctorTwins = new Doctor[doctors.size()];
        for (Doctor d : doctors) for (Doctor e : doctors) if (d != e && d.name().equals(e.name())) doctorTwins[d.index()] = e;
        Department[] departmentTwins = new Department[departments.size()];
        for (Department d : departments) for (Department e : departments) if (d != e && d.name().equals(e.name())) departmentTwins[d.index()] = e;
        return new Layout(seed, split, List.copyOf(campuses), List.copyOf(departments), List.copyOf(doctors), List.copyOf(patients),
                List.copyOf(drugs), Map.copyOf(doctorById), Map.copyOf(patientById), Map.copyOf(drugById), severity,
                patientTwins, doctorTwins, departmentTwins);
    }

    private static boolean nameTaken(List<Doctor> doctors, String name, String campus) {
        for (Doctor d : doctors) if (d.name().equals(name) && d.campus().equals(campus)) return true;
        return false;
    }
}
