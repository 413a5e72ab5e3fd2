package dev.openagent.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.watch.Change;
import dev.openagent.watch.Snapshot;
import dev.openagent.watch.SurfaceDiff;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(mixinStandardHelpOptions = true, name = "diff",
        description = "Compare two snapshots of a server's surface (`watch record`) and name each change in the catalog's terms: its tier, the "
                + "nearest shift ids and the spec to run `eval --shift` under. Exit 0: no drift; 1: drift; 2: bad input.")
final class WatchDiffCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "BEFORE", description = "The snapshot before (the baseline).")
    Path before;

    @Parameters(index = "1", paramLabel = "AFTER", description = "The snapshot after.")
    Path after;

    @Option(names = "--json", description = "Print {\"changes\": [{kind, tool, tier, shift, shifts, detail, evidence, reproduce}]} instead of one line per change.")
    boolean json;

    @Override
    public Integer call() {
        Snapshot was = Snapshot.read(before), is = Snapshot.read(after);
        List<Change> changes = SurfaceDiff.between(was, is);
        if (json) {
            ObjectNode out = Json.object("before", before.toString(), "after", after.toString());
            changes.forEach(c -> out.withArray("changes").add(c.toJson()));
            if (changes.isEmpty()) out.putArray("changes");
            System.out.println(Json.pretty(out));
        } else if (changes.isEmpty()) {
            System.out.println("no drift: " + was.tools().size() + " tools, the same surface");
        } else {
            System.out.println(changes.size() + (changes.size() == 1 ? " change" : " changes") + " from " + before + " to " + after + ":");
            changes.forEach(c -> System.out.println("  " + c.line()));
        }
        return changes.isEmpty() ? 0 : 1;
    }
}
