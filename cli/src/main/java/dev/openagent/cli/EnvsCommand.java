package dev.openagent.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.registry.Environments;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.sandbox.Interface;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "envs", description = "List the environments.")
final class EnvsCommand implements Runnable {
    @Mixin
    Options.JsonOutput json;

    @Override
    public void run() {
        if (json.on) {
            ArrayNode out = Json.array();
            for (Environment e : Environments.all()) {
                EnvironmentInfo i = e.info();
                ObjectNode o = out.addObject();
                o.put("id", i.id());
                o.put("description", i.description());
                o.put("interface", i.iface().id());
                i.difficulties().forEach(o.putArray("difficulties")::add);
                i.tools().forEach(o.putArray("tools")::add);
            }
            json.print(out);
            return;
        }
        for (Environment e : Environments.all()) {
            EnvironmentInfo i = e.info();
            String what = i.iface() == Interface.TEXT_COMMAND ? "commands" : "tools";   // text environments list command verbs
            System.out.printf("%-10s %-13s difficulties %s, %d %s%n  %s%n  %s: %s%n", i.id(), i.iface().id(),
                    i.difficulties(), i.tools().size(), what, i.description(), what, String.join(", ", i.tools()));
        }
    }
}
