package dev.openagent.tau2;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A tau2-bench checkout (a clone of sierra-research/tau2-bench, or the snapshot in {@code ../shared/peers/tau2-bench})
 * and the files of one of its domains this environment reads: {@code data/tau2/domains/D/} (db.json, tasks.json,
 * split_tasks.json, policy.md) and {@code src/tau2/domains/D/tools.py} (the tools' names, parameters and
 * descriptions). The directory may also be the checkout's {@code data} folder, as tau2's own {@code TAU2_DATA_DIR}
 * names it. Nothing from it is copied: it is read at load time.
 */
public record Tau2Checkout(Path root, String domain, Path data, Path tools) {
    /** Where the snapshot of tau2-bench sits beside this repository (as CI has it). */
    public static final String SHARED = "../shared/peers/tau2-bench";
    /** The environment variable tau2 itself reads for its data directory; a checkout's root is accepted too. */
    public static final String ENV_VAR = "TAU2_DATA_DIR";

    /**
     * The directory to read: {@code option} ({@code --tau2-dir}) if given, else {@code envValue} ($TAU2_DATA_DIR) if
     * set, else {@link #SHARED} beside the working directory or beside one of its parents (the repository's root, from
     * a module's folder), else {@link #SHARED} as written (which {@link #at} then says is missing).
     */
    public static Path choose(String option, String envValue) {
        if (option != null && !option.isBlank()) return Path.of(option);
        if (envValue != null && !envValue.isBlank()) return Path.of(envValue);
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve(SHARED).normalize();
            if (Files.isDirectory(candidate)) return candidate;
        }
        return Path.of(SHARED);
    }

    /**
     * The checkout at {@code dir} (its root, or its {@code data} folder) for {@code domain}.
     *
     * @throws BadTau2Data naming what is missing
     */
    public static Tau2Checkout at(Path dir, String domain) {
        Path d = dir.toAbsolutePath().normalize();
        if (!Files.isDirectory(d)) {
            throw new BadTau2Data("tau2 directory " + dir + " does not exist (give a tau2-bench checkout with --tau2-dir or $" + ENV_VAR + ")");
        }
        Path root;
        if (Files.isDirectory(d.resolve("data/tau2/domains").resolve(domain))) root = d;
        else if (Files.isDirectory(d.resolve("tau2/domains").resolve(domain))) root = d.getParent();
        else {
            throw new BadTau2Data("tau2 directory " + dir + " is not a tau2-bench checkout: it has no data/tau2/domains/" + domain
                    + " (nor tau2/domains/" + domain + ", for a data folder)");
        }
        Path data = root.resolve("data/tau2/domains").resolve(domain);
        for (String f : new String[] {"db.json", "tasks.json", "split_tasks.json", "policy.md"}) {
            if (!Files.isRegularFile(data.resolve(f))) throw new BadTau2Data(data + ": no " + f + " (a tau2-bench checkout's " + domain + " domain has it)");
        }
        Path tools = root.resolve("src/tau2/domains").resolve(domain).resolve("tools.py");
        if (!Files.isRegularFile(tools)) {
            throw new BadTau2Data(root + ": no src/tau2/domains/" + domain + "/tools.py (the tools' names, parameters and descriptions are read from it)");
        }
        return new Tau2Checkout(root, domain, data, tools);
    }

    /** A file of the domain's data folder as JSON; one line naming the file when it cannot be read or parsed. */
    JsonNode json(String file) {
        Path p = data.resolve(file);
        try {
            return Json.MAPPER.readTree(p.toFile());
        } catch (JsonProcessingException e) {
            throw new BadTau2Data(p + ": not valid JSON: " + e.getOriginalMessage() + " (line " + e.getLocation().getLineNr() + ")");
        } catch (IOException e) {
            throw new BadTau2Data(p + ": cannot read: " + e.getMessage());
        }
    }

    /** A text file: the domain's policy, or its tools.py. */
    String text(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new BadTau2Data(p + ": cannot read: " + e.getMessage());
        }
    }
}
