package dev.openagent.cli;

import dev.openagent.episode.Trajectory;
import dev.openagent.report.Transcript;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.UncheckedIOException;
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
        } catch (IOException e) {
            throw new Main.UserError("cannot read " + f + ": " + (e.getMessage() == null ? e : e.getMessage()));
        }
        if (episode != null && (episode < 0 || episode >= lines.size())) {
            throw new Main.UserError("--episode " + episode + " is out of range (file has " + lines.size() + " episodes)");
        }
        for (int i = 0; i < lines.size(); i++) {
            if (episode != null && i != episode) continue;
            Trajectory t;
            try {
                t = Trajectory.fromJson(lines.get(i));
            } catch (UncheckedIOException | IllegalArgumentException e) {
                throw new Main.UserError(f + " line " + (i + 1) + " is not a trajectory: " + e.getMessage());
            }
            System.out.print(Transcript.render(t, system));
            System.out.println();
        }
    }
}
