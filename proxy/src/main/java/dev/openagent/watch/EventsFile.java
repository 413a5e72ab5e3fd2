package dev.openagent.watch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.UserInputException;
import dev.openagent.json.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The shifts a watch named, read back from what it wrote: the events file of {@code proxy mcp --watch-events} (one
 * event per line) or the output of {@code watch diff --json} (its {@code changes}). Each event's {@code shift} is the
 * spec its {@code reproduce} command runs ({@link Change#spec()}: the nearest shift with the parameters the evidence
 * fixes); a change outside the catalog has none and is counted, not read.
 *
 * @param specs   the distinct specs, in the order first named
 * @param events  the events read
 * @param outside the events no catalog shift reproduces
 */
public record EventsFile(List<String> specs, int events, int outside) {
    public EventsFile {
        specs = List.copyOf(specs);
    }

    /** Reads a file; anything that is not one is one line naming the file (and the line). */
    public static EventsFile read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new UserInputException("no such watch events file: " + file);
        } catch (IOException e) {
            throw new UserInputException("cannot read " + file + ": " + e.getMessage());
        }
        List<JsonNode> events = new ArrayList<>();
        JsonNode whole = tryParse(text);
        if (whole != null && whole.path("changes").isArray()) {
            whole.path("changes").forEach(events::add); // watch diff --json: one object holding the changes
        } else {
            String[] lines = text.split("\r?\n");
            for (int i = 0; i < lines.length; i++) {
                if (lines[i].isBlank()) continue;
                JsonNode e = tryParse(lines[i]);
                if (e == null) throw new UserInputException(file + " line " + (i + 1) + " is not a watch event (not JSON)");
                events.add(e);
            }
        }
        if (events.isEmpty()) throw new UserInputException(file + " holds no watch event");
        Set<String> specs = new LinkedHashSet<>();
        int outside = 0;
        for (JsonNode e : events) {
            if (!e.isObject() || !e.has("kind")) throw new UserInputException(file + " is not a watch events file (an entry without \"kind\")");
            JsonNode shift = e.path("shift");
            if (shift.isTextual() && !shift.asText().isBlank()) specs.add(shift.asText());
            else outside++;
        }
        return new EventsFile(List.copyOf(specs), events.size(), outside);
    }

    private static JsonNode tryParse(String text) {
        try {
            return Json.parse(text);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
