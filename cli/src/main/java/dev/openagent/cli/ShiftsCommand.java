package dev.openagent.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.registry.Environments;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Environment;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftAliases;
import dev.openagent.shift.ShiftCatalog;
import dev.openagent.shift.ShiftParam;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.Optional;

@Command(name = "shifts", description = "List the shift catalog (ids, tiers, dimensions, parameters, applicability).")
final class ShiftsCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec command;

    @Mixin
    Options.JsonOutput json;

    @Option(names = "--env", description = "Also say whether each shift applies to this environment (an id, tau2:retail or an environment file), and why not.")
    String env;

    @Option(names = "--examples", description = "Print Markdown with a before/after example of each shift on --env (default poi).")
    boolean examples;

    @Option(names = "--aliases", description = "List peers' names for shifts (RoTBench, ToolSandbox, AgentDisruptBench, RobustBench-TC, "
            + "the OpenAgent paper): each alias, the spec it means and its source; --shift accepts them.")
    boolean aliases;

    @Mixin
    Options.Seed seed = new Options.Seed(7);

    @Mixin
    Options.Tau2Dir tau2 = new Options.Tau2Dir();

    @Override
    public void run() {
        if (aliases) {
            if (examples || env != null) throw new Main.UserError("--aliases lists peers' names; it takes neither --examples nor --env");
            printAliases();
            return;
        }
        Environment e = env == null ? null : Options.Env.resolve(Main.catalog(command), env, tau2.dir);
        if (examples) {
            System.out.print(ShiftExamples.markdown(e == null ? Environments.get("poi") : e, seed.value));
            return;
        }
        if (json.on) {
            ArrayNode out = Json.array();
            for (Shift s : ShiftCatalog.all()) {
                ObjectNode o = out.addObject();
                o.put("id", s.id());
                o.put("tier", s.tier().id());
                o.put("dimension", s.dimension().name());
                o.put("description", s.description());
                ArrayNode params = o.putArray("params");
                for (ShiftParam p : s.params()) {
                    ObjectNode po = params.addObject();
                    po.put("name", p.name());
                    po.put("description", p.description());
                    po.put("default", p.defaultValue());
                    p.values().forEach(po.putArray("values")::add);
                }
                if (e != null) {
                    Optional<String> why = s.notApplicable(e.info()).or(() -> e.notApplicable(s.id()));
                    o.put("env", e.id());
                    o.put("applicable", why.isEmpty());
                    why.ifPresent(w -> o.put("reason", w));
                }
            }
            json.print(out);
            return;
        }
        String tier = "";
        for (Shift s : ShiftCatalog.byTier()) {
            if (!s.tier().id().equals(tier)) {
                tier = s.tier().id();
                System.out.println(tier + ":");
            }
            String params = String.join(" ", s.params().stream().map(p -> p.name() + "=" + p.defaultValue()
                    + (p.values().isEmpty() ? "" : " (" + String.join("|", p.values()) + ")")).toList());
            System.out.printf("  %-27s %s  %s%n", s.id(), s.dimension(), s.description());
            if (!params.isEmpty()) System.out.printf("  %-27s    params: %s%n", "", params);
            if (e != null) s.notApplicable(e.info()).or(() -> e.notApplicable(s.id())).ifPresent(w -> System.out.printf("  %-27s    not applicable to %s: %s%n", "", e.id(), w));
        }
    }

    /** The alias table: alias, what it means, whose name it is and where it is defined (and how our shift differs). */
    private void printAliases() {
        if (json.on) {
            ArrayNode out = Json.array();
            for (ShiftAliases.Alias a : ShiftAliases.all()) {
                ObjectNode o = out.addObject();
                o.put("alias", a.name());
                o.put("means", a.means());
                o.put("peer", a.peer());
                o.put("source", a.source());
                o.put("note", a.note());
            }
            json.print(out);
            return;
        }
        System.out.printf("%-28s %-44s %s%n", "alias", "means", "source");
        for (ShiftAliases.Alias a : ShiftAliases.all()) {
            System.out.printf("%-28s %-44s %s: %s%n", a.name(), a.means(), a.peer(), a.source());
            if (!a.note().isEmpty()) System.out.printf("%-28s %s%n", "", "  differs: " + a.note());
        }
    }
}
