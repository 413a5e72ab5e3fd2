package dev.openagent.sandbox;

/**
 * A tool sends what a committing tool made to an address: its parameter {@code code} takes the field of the same
 * name in {@code made}'s result (a confirmation code), its parameter {@code to} the address it goes to
 * (send_appointment_details sends book_appointment's confirmation_code to an email). An attacker may ask for the
 * code to go to their own address (obs.injection).
 *
 * @param made the committing tool whose result holds the code
 * @param code the parameter (and result field) holding the code
 * @param to   the parameter holding the address
 */
public record Sends(String made, String code, String to) {}
