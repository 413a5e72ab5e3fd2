package dev.openagent.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.report.Transcript;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

@Command(name = "show", description = "Print trajectories (a JSONL file, as `run --out` writes) as readable transcripts.")
final class ShowCommand implements Runnable {
    @Parameters(index = "0", description = "Trajectory file (.jsonl) or a directory holding trajectories.jsonl.")
    Path file;

    @Option(names = "--episode", description = "Only the episode at this 0-based line.")
    Integer episode;

    @Option(names = "--system", description = "Also print the system prompt.")
    boolean system;

    @Override
    public void run() {
        Path f = Files.isDirectory(file) ? file.resolve("trajectories.jsonl") : file;
        List<String> lines;
        try {
            lines = Files.readAllLines(f, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).toList();
        } catch (CharacterCodingException e) {
            throw new Main.UserError(f + " is not a text file (show reads trajectories.jsonl as `run --out` writes it)");
        } catch (IOException e) {
            throw new Main.UserError("cannot read " + f + ": " + (e.getMessage() == null ? e : e.getMessage()));
        }
        if (episode != null && (episode < 0 || episode >= lines.size())) {
            throw new Main.UserError("--episode " + episode + " is out of range (file has " + lines.size() + " episodes)");
        }
        for (int i = 0; i < lines.size(); i++) {
            if (episode != null && i != episode) continue;
            System.out.print(Transcript.render(trajectory(f, i + 1, lines.get(i)), system));
            System.out.println();
        }
    }

    /** One line as a trajectory; a line that is not one is an error naming the line, not the JSON parser's report. */
    private static Trajectory trajectory(Path f, int line, String text) {
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new Main.UserError(f + " line " + line + " is not a trajectory: it is not JSON (show reads trajectories.jsonl as `run --out` writes it)");
        }
        try {
            if (node.isObject() && node.has("messages")) return Json.MAPPER.treeToValue(node, Trajectory.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            // falls through to the error below
        }
        throw new Main.UserError(f + " line " + line + " is not a trajectory: it is JSON, but not an episode as `run --out` writes one");
    }
}
