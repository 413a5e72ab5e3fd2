package dev.openagent.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.export.TrainingExport;
import dev.openagent.focus.FocusedShifts;
import dev.openagent.frontier.Focus;
import dev.openagent.json.Json;
import dev.openagent.policy.ShiftSampler;
import dev.openagent.sandbox.Environment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;

@Command(name = "export", description = {
        "Write oracle demonstrations as training data for external trainers, with the tool schemas each example saw.",
        "  openai:   OpenAI fine-tuning JSONL (messages + tools)",
        "  sharegpt: ShareGPT conversations (from/value) with tools as a JSON string (LLaMA-Factory)",
        "  messages: messages + tools chat format (Hugging Face chat templates, TRL)",
        "With --alpha > 0, that fraction of the episodes runs under shifts drawn from the catalog (PAFT data), or from a frontier's",
        "focus file (--focus: the shifts that broke the agent, at the severities that broke it)."})
final class ExportCommand implements Runnable {
    @Mixin
    Options.Env env;

    @Option(names = "--format", required = true, description = "openai, sharegpt or messages.")
    String format;

    @Option(names = "--alpha", defaultValue = "0", description = "Fraction of shifted episodes (default: ${DEFAULT-VALUE}: static SFT data).")
    double alpha;

    @Option(names = "--focus", paramLabel = "FILE", description = "Draw the shifted episodes from a frontier's focus file (focus.json, "
            + "`openagent frontier`): the shifts that broke the agent, at the severities that broke it; needs --alpha > 0.")
    Path focus;

    @Option(names = "--n", required = true, description = "Number of examples.")
    int n;

    @Mixin
    Options.Seed seed;

    @Option(names = "--out", required = true, description = "JSONL file to write.")
    Path out;

    @Mixin
    Options.JsonOutput json;

    @Override
    public void run() {
        TrainingExport.Format f = TrainingExport.Format.parse(format);
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
}
