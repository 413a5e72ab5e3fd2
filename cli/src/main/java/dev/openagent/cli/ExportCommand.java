package dev.openagent.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.export.TrainingExport;
import dev.openagent.focus.FocusedShifts;
import dev.openagent.frontier.Focus;
import dev.openagent.json.Json;
import dev.openagent.episode.Trajectory;
import dev.openagent.policy.ShiftSampler;
import dev.openagent.proxy.SessionDemonstration;
import dev.openagent.proxy.SessionRecorder;
import dev.openagent.results.EpisodeResult;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunInfo;
import dev.openagent.sandbox.Environment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

@Command(name = "export", description = {
        "Write oracle demonstrations as training data for external trainers, with the tool schemas each example saw.",
        "  openai:   OpenAI fine-tuning JSONL (messages + tools)",
        "  sharegpt: ShareGPT conversations (from/value) with tools as a JSON string (LLaMA-Factory)",
        "  messages: messages + tools chat format (Hugging Face chat templates, TRL)",
        "With --alpha > 0, that fraction of the episodes runs under shifts drawn from the catalog (PAFT data), or from a frontier's",
        "focus file (--focus: the shifts that broke the agent, at the severity that broke it and the stronger ones).",
        "With --from-store, the demonstrations are instead the proxy sessions recorded there that their task scored a success",
        "(`proxy mcp --env FILE --task ID --store S`): the request, the agent's calls and the results it was shown, its answer."})
final class ExportCommand implements Runnable {
    @Mixin
    Options.Env env;

    @Option(names = "--format", required = true, description = "openai, sharegpt or messages.")
    String format;

    @Option(names = "--alpha", defaultValue = "0", description = "Fraction of shifted episodes (default: ${DEFAULT-VALUE}: static SFT data).")
    double alpha;

    @Option(names = "--focus", paramLabel = "FILE", description = "Draw the shifted episodes from a frontier's focus file (focus.json, "
            + "`openagent frontier`): the shifts that broke the agent, at the severities its entries list (the frontier writes the one "
            + "that broke the agent and every stronger one); needs --alpha > 0.")
    Path focus;

    @Option(names = "--n", description = "Number of examples (oracle demonstrations: required).")
    Integer n;

    @Option(names = "--from-store", paramLabel = "PATH|URL", description = "Export the proxy sessions recorded in this results store that "
            + "their task scored a success, instead of the oracle's demonstrations (docs/proxy.md, \"Sessions as training data\").")
    String fromStore;

    @Option(names = "--run", paramLabel = "ID", description = "With --from-store: only this run's sessions (default: every run a proxy recorded).")
    String run;

    @Mixin
    Options.StorePassword storePassword;

    @Mixin
    Options.Seed seed;

    @Option(names = "--out", required = true, description = "JSONL file to write.")
    Path out;

    @Mixin
    Options.JsonOutput json;

    @Override
    public void run() {
        TrainingExport.Format f = TrainingExport.Format.parse(format);
        if (fromStore != null) {
            exportSessions(f);
            return;
        }
        if (run != null) throw new Main.UserError("--run picks the run of --from-store; give --from-store too");
        if (n == null) throw new Main.UserError("--n is required: the number of oracle demonstrations to write");
        Environment e = env.environment();
        if (n < 1) throw new Main.UserError("--n must be at least 1");
        if (alpha < 0 || alpha > 1) throw new Main.UserError("--alpha must be between 0 and 1");
        if (focus != null && !(alpha > 0)) throw new Main.UserError("--focus weights the shifted episodes: give --alpha > 0 too");
        ShiftSampler shifts = focus != null ? FocusedShifts.sampler(Focus.read(focus), e.id()) : ShiftSampler.catalog(e.info());
        TrainingExport.Written w = TrainingExport.write(e, f, alpha, shifts, n, seed.value, out);
        if (json.on) {
            ObjectNode o = Json.object();
            o.put("env", env.id);
            o.put("format", f.id());
            o.put("examples", w.examples());
            o.put("shifted", w.shifted());
            o.put("out", out.toString());
            json.print(o);
        } else {
            System.out.printf("wrote %d %s examples (%d under shifts) to %s%n", w.examples(), f.id(), w.shifted(), out);
        }
    }

    /** The recorded proxy sessions that succeeded, as demonstrations; what was passed over is counted by reason. */
    private void exportSessions(TrainingExport.Format f) {
        if (n != null || alpha != 0 || focus != null) {
            throw new Main.UserError("--from-store exports recorded sessions as they are: --n, --alpha and --focus draw oracle demonstrations");
        }
        List<Trajectory> demonstrations = new ArrayList<>();
        Map<String, Integer> passedOver = new TreeMap<>();
        int sessions = 0;
        int runs = 0;
        try (ResultStore store = ResultStore.openExisting(storePassword.location(fromStore))) {
            List<RunInfo> chosen;
            if (run != null) {
                RunInfo r = store.run(run).orElseThrow(() -> new Main.UserError("no run '" + run + "' in " + fromStore));
                if (!SessionRecorder.recordedByProxy(r)) throw new Main.UserError("run '" + run + "' was not recorded by `proxy mcp`: it holds no sessions");
                chosen = List.of(r);
            } else {
                chosen = store.runs().stream().filter(SessionRecorder::recordedByProxy).toList();
            }
            for (RunInfo r : chosen) {
                runs++;
                for (EpisodeResult episode : store.episodes(r.id())) {
                    sessions++;
                    Trajectory t = episode.trajectory();
                    Optional<String> why = SessionDemonstration.refusal(t);
                    if (why.isPresent()) passedOver.merge(why.get(), 1, Integer::sum);
                    else demonstrations.add(SessionDemonstration.of(t).orElseThrow());
                }
            }
        }
        if (runs == 0) throw new Main.UserError(fromStore + " holds no run recorded by `proxy mcp` (record one with proxy mcp --store)");
        TrainingExport.write(demonstrations, f, out);
        if (json.on) {
            ObjectNode o = Json.object();
            o.put("from_store", fromStore);
            o.put("format", f.id());
            o.put("runs", runs);
            o.put("sessions", sessions);
            o.put("examples", demonstrations.size());
            ObjectNode skipped = o.putObject("passed_over");
            passedOver.forEach(skipped::put);
            o.put("out", out.toString());
            json.print(o);
        } else {
            System.out.printf("wrote %s from %s (%s) to %s%n", count(demonstrations.size(), f.id() + " example"), count(sessions, "recorded session"),
                    count(runs, "proxy run"), out);
            passedOver.forEach((why, count) -> System.out.printf("  passed over %d: %s%n", count, why));
        }
    }

    private static String count(int n, String what) { return n + " " + what + (n == 1 ? "" : "s"); }
}
