package dev.openagent.cli;

import dev.openagent.server.model.AgentChatPolicy;
import dev.openagent.server.model.ChatPolicy;
import dev.openagent.server.model.ModelServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

@Command(mixinStandardHelpOptions = true, name = "model", description = "Serve a built-in policy as an OpenAI-compatible endpoint: /v1/chat/completions (tools in, tool_calls out) and /v1/models (see docs/serve-model.md).")
final class ServeModelCommand implements Runnable {
    @Option(names = "--policy", required = true, description = "A trained policy directory, or a baseline agent: random[:SEED].")
    String policy;

    @Option(names = "--model-id", description = "The model id clients send (default: the directory's name, or the agent spec).")
    String modelId;

    @Mixin
    Options.Listen listen = new Options.Listen(ModelServer.Config.DEFAULT_MAX_BODY);

    @Option(names = "--port", defaultValue = "8766", description = "Port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--max-concurrent", defaultValue = "" + ModelServer.Config.DEFAULT_MAX_CONCURRENT, description = "Requests answered at once; more get 429 (default: ${DEFAULT-VALUE}).")
    int maxConcurrent;

    @Override
    public void run() {
        String id = modelId != null ? modelId : Files.isDirectory(Path.of(policy)) ? Path.of(policy).toAbsolutePath().normalize().getFileName().toString() : policy;
        ChatPolicy chat = resolve(policy, id);
        ModelServer server;
        try {
            server = ModelServer.start(chat, new ModelServer.Config(listen.host, port, listen.auth(), maxConcurrent, listen.maxBody));
        } catch (IOException e) {
            chat.close();
            throw listen.cannotListen(port, e);
        }
        listen.warnIfExposed("serve model");
        System.out.println("serve model '" + id + "' listening on " + server.baseUrl());
        System.out.flush();
        ServeCommand.serveUntilShutdown(() -> {
            server.close();
            chat.close();
        }, "serve model");
    }

    /**
     * A checkpoint directory (the built-in policy, read straight from each conversation) or a
     * baseline agent that acts only on what it is shown (replayed per request).
     */
    static ChatPolicy resolve(String spec, String id) {
        if (spec.equals("oracle")) {
            throw new Main.UserError("the oracle reads the environment's privileged state; it cannot be served as a model");
        }
        if (Files.isDirectory(Path.of(spec))) {
            try {
                return PolicyChatPolicy.load(Path.of(spec), id);
            } catch (IllegalArgumentException e) {
                throw new Main.UserError("--policy " + spec + ": " + e.getMessage());
            }
        }
        String[] parts = spec.split(":", 2);
        if (parts[0].equals("random")) {
            long seed;
            try {
                seed = parts.length > 1 ? Long.parseLong(parts[1]) : 1;
            } catch (NumberFormatException e) {
                throw new Main.UserError("--policy random:SEED needs an integer seed, not '" + parts[1] + "'");
            }
            return new AgentChatPolicy(id, Agents.resolve("random", seed));
        }
        if (spec.contains("/") || spec.contains(".")) throw new Main.UserError("--policy " + spec + ": no such directory");
        return new AgentChatPolicy(id, Agents.resolve(spec, 1));
    }
}
