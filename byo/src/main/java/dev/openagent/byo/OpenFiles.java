package dev.openagent.byo;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;

/**
 * The files of a folder that server processes hold open (a SQLite database, a log they append to), read from
 * Linux's {@code /proc/PID/fd}. A file replaced under an open handle is not the file the server reads and writes
 * (SQLite then refuses every write: SQLITE_READONLY_DBMOVED), so such a server is restarted around a reset.
 * Elsewhere (no {@code /proc}) nothing is found.
 */
public final class OpenFiles {
    private OpenFiles() {}

    /** The files under {@code dir} (as real paths, relative to it) that any of {@code processes} holds open, sorted. */
    public static List<String> under(List<ProcessHandle> processes, Path dir) {
        Path root;
        try {
            root = dir.toRealPath();
        } catch (IOException e) {
            return List.of();
        }
        TreeSet<String> out = new TreeSet<>();
        for (ProcessHandle p : processes) {
            Path fds = Path.of("/proc", Long.toString(p.pid()), "fd");
            if (!Files.isDirectory(fds)) continue;
            try (DirectoryStream<Path> all = Files.newDirectoryStream(fds)) {
                for (Path fd : all) {
                    Path target;
                    try {
                        target = Files.readSymbolicLink(fd);
                    } catch (IOException | UnsupportedOperationException gone) {
                        continue;   // closed meanwhile, or not ours to read
                    }
                    // A deleted file still open reads as "PATH (deleted)": it was under the folder all the same.
                    String text = target.toString().replaceFirst(" \\(deleted\\)$", "");
                    if (text.startsWith(root + "/")) out.add(root.relativize(Path.of(text)).toString());
                }
            } catch (IOException | SecurityException ended) {
                // the process ended meanwhile
            }
        }
        return List.copyOf(out);
    }
}
