package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The same seed gives byte-identical trajectory files across separate JVM runs. Within one JVM
 * this cannot fail for the reason it matters: the iteration order of {@code Map.of} / {@code Set.of}
 * is salted once per JVM, so only two processes can show an order leaking into the output.
 */
class ReproducibilityTest {
    @TempDir
    Path dir;

    @Test
    void twoProcessesWithTheSameSeedWriteIdenticalTrajectories() throws Exception {
        // poi and medical have gold-plan calls whose arguments come from several earlier results.
        for (String env : List.of("poi", "medical", "household", "retail", "travel")) {
            assertSameInTwoProcesses(env, out -> List.of("run", "--env", env, "--agent", "oracle", "--shift", "all", "--tasks", "6",
                    "--seed", "4", "--out", out.toString()), out -> out.resolve("trajectories.jsonl"));
        }
        assertSameInTwoProcesses("random", out -> List.of("run", "--env", "retail", "--agent", "random", "--shift", "obs.format;tool.name-noise",
                "--tasks", "10", "--seed", "4", "--out", out.toString()), out -> out.resolve("trajectories.jsonl"));
    }

    @Test
    void twoProcessesExportTheSameExamples() throws Exception {
        assertSameInTwoProcesses("export", out -> List.of("export", "--format", "openai", "--env", "travel", "--alpha", "0.5", "--n", "30",
                "--seed", "3", "--out", out.resolve("sft.jsonl").toString()), out -> out.resolve("sft.jsonl"));
    }

    /** eval's summary (less its run id and what differs per invocation) and every stored trajectory. */
    @Test
    void twoProcessesEvaluateTheSameEpisodes() throws Exception {
        List<JsonNode> summaries = new java.util.ArrayList<>();
        List<java.util.Map<String, dev.openagent.results.EpisodeResult>> stores = new java.util.ArrayList<>();
        for (int i = 1; i <= 2; i++) {
            Path out = dir.resolve("eval-" + i);
            Files.createDirectories(out);
            byte[] stdout = freshJvm(out, List.of("eval", "--agent", "oracle,random", "--env", "poi,travel", "--shift", "obs.format",
                    "--tasks", "5", "--seed", "2", "--store", out.resolve("runs.db").toString(), "--json", "--no-progress"));
            summaries.add(EvalKillTest.comparable(dev.openagent.json.Json.parse(new String(stdout, java.nio.charset.StandardCharsets.UTF_8))));
            stores.add(EvalKillTest.episodes(out.resolve("runs.db")));
        }
        assertEquals(summaries.get(0), summaries.get(1));
        assertEquals(stores.get(0).keySet(), stores.get(1).keySet());
        for (String key : stores.get(0).keySet()) {
            assertEquals(stores.get(0).get(key).trajectory(), stores.get(1).get(key).trajectory(), key);
        }
    }

    /** Seeded training in two processes writes the same weights. */
    @Test
    void twoProcessesTrainTheSameWeights() throws Exception {
        assertSameInTwoProcesses("train", out -> List.of("train", "--method", "sft", "--env", "poi", "--steps", "4", "--seed", "9", "--eval", "0",
                "--out", out.resolve("policy").toString()), out -> out.resolve("policy").resolve("weights.bin"));
    }

    private void assertSameInTwoProcesses(String name, java.util.function.Function<Path, List<String>> args,
                                          java.util.function.UnaryOperator<Path> file) throws Exception {
        byte[][] bytes = new byte[2][];
        for (int i = 0; i < 2; i++) {
            Path out = dir.resolve(name + "-" + (i + 1));
            Files.createDirectories(out);
            freshJvm(out, args.apply(out));
            bytes[i] = Files.readAllBytes(file.apply(out));
        }
        assertTrue(bytes[0].length > 0);
        assertArrayEquals(bytes[0], bytes[1], name + ": two processes with the same seed differ");
    }

    /** Runs the command in a new JVM; returns its standard output (standard error goes to OUT/stderr.log). */
    private static byte[] freshJvm(Path out, List<String> args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new java.util.ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectError(out.resolve("stderr.log").toFile()).start();
        p.getOutputStream().close();
        byte[] stdout = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(240, TimeUnit.SECONDS), args + " did not finish");
        assertEquals(0, p.exitValue(), args + ": " + Files.readString(out.resolve("stderr.log")));
        return stdout;
    }
}
