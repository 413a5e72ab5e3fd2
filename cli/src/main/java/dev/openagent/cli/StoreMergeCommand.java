package dev.openagent.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.store.RunInfo;
import dev.openagent.store.StoreLocation;
import dev.openagent.store.StoreMerge;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(mixinStandardHelpOptions = true, name = "merge", sortOptions = false,
        description = {"Merge results stores into one: the stores of shards run without a shared database, say.",
                "Runs, episodes and cached model replies are copied; merging again changes nothing. An episode both stores",
                "finished with different outcomes keeps the target's and is reported as a conflict (exit code 1).",
                "Sources are only read; a source that is not a results store, or is damaged, is refused (exit code 2) and",
                "an SQLite target is left as it was whenever a merge fails."})
final class StoreMergeCommand implements Callable<Integer> {
    static final int CONFLICTS = 1;

    @Parameters(paramLabel = "STORE", arity = "1..*", description = "Stores to merge from (files, or postgresql:// URLs).")
    List<String> sources;

    @Option(names = "--into", paramLabel = "STORE", required = true, description = "The store to merge into (created when missing).")
    String into;

    @Mixin
    Options.StorePassword password;

    @Mixin
    Options.JsonOutput json;

    @Override
    public Integer call() {
        StoreLocation target = password.location(into);
        List<StoreLocation> from = new ArrayList<>();
        for (String s : sources) {
            StoreLocation l = password.location(s);
            if (StoreMerge.same(l, target)) throw new Main.UserError(s + " is both a source and the target (--into)");
            if (!l.exists()) throw new Main.UserError("no results store at " + s);
            from.add(l);
        }
        StoreMerge.Result r = StoreMerge.mergeInto(from, target);
        if (json.on) {
            ObjectNode o = Json.object();
            o.put("into", target.toString());
            o.put("runs_added", r.runsAdded()).put("runs_joined", r.runsJoined());
            o.put("episodes_added", r.episodesAdded()).put("episodes_present", r.episodesPresent()).put("responses_added", r.responsesAdded());
            ArrayNode c = o.putArray("conflicts");
            for (StoreMerge.Conflict x : r.conflicts()) {
                c.addObject().put("episode", x.episodeId()).put("source", x.source()).put("kept", x.kept()).put("other", x.other());
            }
            r.runConflicts().forEach(o.putArray("run_conflicts")::add);
            ArrayNode runs = o.putArray("runs");
            for (RunInfo run : r.runs()) runs.addObject().put("id", run.id()).put("status", run.status().id()).put("planned", run.planned());
            json.print(o);
        } else {
            System.out.printf("merged %d store(s) into %s: %d run(s) added, %d joined; %d episode(s) added, %d already there; %d cached repl%s added%n",
                    from.size(), target, r.runsAdded(), r.runsJoined(), r.episodesAdded(), r.episodesPresent(), r.responsesAdded(),
                    r.responsesAdded() == 1 ? "y" : "ies");
            for (RunInfo run : r.runs()) System.out.printf("  run %s: %s (%d planned)%n", run.id(), run.status(), run.planned());
            for (StoreMerge.Conflict x : r.conflicts()) {
                System.out.printf("conflict: episode %s from %s: kept %s; %s had %s%n", x.episodeId(), x.source(), x.kept(), x.source(), x.other());
            }
            for (String run : r.runConflicts()) System.out.println("conflict: run " + run);
        }
        return r.conflicts().isEmpty() && r.runConflicts().isEmpty() ? 0 : CONFLICTS;
    }
}
