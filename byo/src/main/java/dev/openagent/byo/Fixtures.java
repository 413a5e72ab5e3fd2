package dev.openagent.byo;

import org.apache.commons.io.FileUtils;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.EnumSet;
import java.util.stream.Stream;

/**
 * The fixture folder of {@code reset.copy}: checked once at load to stay inside the environment file's folder
 * (itself and every symbolic link in it), then copied into a fresh workdir before every episode.
 */
final class Fixtures {
    private Fixtures() {}

    /**
     * The fixture folder {@code copy} names, as a real path.
     *
     * @throws BadEnvironmentFile at {@code reset.copy} when it is missing, leaves the environment file's folder,
     *                            or holds a symbolic link that does (or that is broken, or loops)
     */
    static Path folder(SourceFile src, Path dir, String copy) {
        Path given = dir.resolve(copy).normalize();
        if (!given.startsWith(dir)) {
            throw src.error("/reset/copy", "the fixtures must be inside the environment file's folder (" + dir + "); '" + copy + "' leaves it");
        }
        if (!Files.isDirectory(given)) throw src.error("/reset/copy", "no fixture folder " + given);
        Path root;
        Path real;
        try {
            root = dir.toRealPath();
            real = given.toRealPath();
        } catch (IOException e) {
            throw src.error("/reset/copy", "cannot read the fixture folder " + given + ": " + e.getMessage());
        }
        if (!real.startsWith(root)) {
            throw src.error("/reset/copy", "'" + copy + "' is a symbolic link to " + real + ", outside the environment file's folder (" + dir + ")");
        }
        try (Stream<Path> all = Files.walk(real, FileVisitOption.FOLLOW_LINKS)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                if (!Files.isSymbolicLink(p)) continue;
                Path target;
                try {
                    target = p.toRealPath();
                } catch (IOException broken) {
                    throw src.error("/reset/copy", "the fixtures hold a broken symbolic link: " + real.relativize(p));
                }
                if (!target.startsWith(root)) {
                    throw src.error("/reset/copy", "the fixtures hold a symbolic link to a place outside the environment file's folder: "
                            + real.relativize(p) + " -> " + target);
                }
            }
        } catch (UncheckedIOException e) {
            if (e.getCause() instanceof FileSystemLoopException loop) {
                throw src.error("/reset/copy", "the fixtures hold a symbolic link that loops: " + loop.getFile());
            }
            throw src.error("/reset/copy", "cannot read the fixture folder " + given + ": " + e.getCause().getMessage());
        } catch (IOException e) {
            throw src.error("/reset/copy", "cannot read the fixture folder " + given + ": " + e.getMessage());
        }
        return real;
    }

    /** Empties {@code workdir} (creating it if needed) and copies the fixtures into it ({@code fixtures} null: left empty). */
    static void refill(Path fixtures, Path workdir) throws IOException {
        if (Files.exists(workdir)) clear(workdir);
        Files.createDirectories(workdir);
        if (fixtures != null) copy(fixtures, workdir);
    }

    /** Deletes everything inside {@code dir} (not following links out of it). */
    static void clear(Path dir) throws IOException {
        // FileUtils' clean deletes subfolders too (PathUtils.cleanDirectory keeps them), and removes links, not their targets.
        FileUtils.cleanDirectory(dir.toFile());
    }

    /** Copies the fixtures, following their symbolic links (checked at load to stay inside the environment file's folder). */
    private static void copy(Path from, Path to) throws IOException {
        Files.walkFileTree(from, EnumSet.of(FileVisitOption.FOLLOW_LINKS), Integer.MAX_VALUE, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, to.resolve(from.relativize(file).toString()));
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
