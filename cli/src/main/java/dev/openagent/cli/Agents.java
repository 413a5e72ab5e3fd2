package dev.openagent.cli;

import dev.openagent.agent.GullibleAgent;
import dev.openagent.oracle.OracleAgent;
import dev.openagent.agent.RandomAgent;
import dev.openagent.agent.openai.ChatEndpoint;
import dev.openagent.agent.openai.OpenAiAgent;
import dev.openagent.agent.openai.OpenAiConfig;
import dev.openagent.agent.openai.ResponseCache;
import dev.openagent.agent.openai.RetryPolicy;
import dev.openagent.agent.openai.ToolProtocol;
import dev.openagent.episode.Agent;
import dev.openagent.oracle.ViewSolver;
import dev.openagent.policy.Checkpoint;
import dev.openagent.policy.PolicyAgent;
import dev.openagent.run.AgentSpec;
import dev.openagent.run.EvalAgent;
import dev.openagent.run.RunControl;
import dev.openagent.sandbox.Seeds;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Resolves {@code --agent} specs. The CLI sees every module, so agent kinds from all of them meet here. */
final class Agents {
    private Agents() {}

    static final String KNOWN = "oracle, view, random, gullible, openai, policy:DIR";

    /** {@code policy:DIR}: the built-in policy saved in DIR (by {@code openagent train --out DIR}). */
    static final String POLICY = "policy:";

    static Agent resolve(String spec, long seed) {
        if (spec.startsWith(POLICY)) {
            String dir = spec.substring(POLICY.length());
            if (dir.isBlank()) throw new Main.UserError("policy:DIR needs a checkpoint directory (as `openagent train --out` writes)");
            return PolicyAgent.load(Path.of(dir));
        }
        return switch (spec) {
            case "oracle" -> new OracleAgent();
            case ViewSolver.NAME -> new ViewSolver();
            case "random" -> new RandomAgent(seed);
            case "gullible" -> new GullibleAgent();
            case "openai" -> throw new Main.UserError("the openai agent is configured by `openagent eval` (--base-url, --model, ...)");
            default -> throw new Main.UserError("unknown agent '" + spec + "' (known: " + KNOWN + ")");
        };
    }

    /** Where model agents of a run keep their responses and spend their budget; endpoints opened are added to {@code opened}. */
    record RunContext(ResponseCache cache, boolean readCache, RunControl control, List<AutoCloseable> opened) {
        /** Closes the endpoints opened (HTTP clients, at exit). */
        void close() {
            for (AutoCloseable c : opened) {
                try {
                    c.close();
                } catch (Exception ignored) {
                    // closing HTTP clients at exit
                }
            }
        }
    }

    /**
     * An agent as {@code openagent eval} runs it: its label, the settings hashed into its episodes'
     * identity, and its instance per trial.
     */
    static EvalAgent forEval(AgentSpec spec, long seed, RunContext ctx) {
        if (spec.kind().equals("openai")) {
            OpenAiConfig config = openAiConfig(spec);
            ChatEndpoint endpoint = new ChatEndpoint(config, ctx.cache(), ctx.readCache(), ctx.control(), ChatEndpoint.Sleeper.REAL);
            ctx.opened().add(endpoint);
            OpenAiAgent agent = new OpenAiAgent(endpoint);
            return new EvalAgent(config.label(), config.identity(), agent::forTrial);
        }
        if (spec.baseUrl() != null || spec.model() != null) {
            throw new Main.UserError("agent '" + spec.kind() + "' takes no base URL or model (those are for openai)");
        }
        if (spec.kind().equals(ViewSolver.NAME)) {
            throw new Main.UserError("the view solver validates shifts: use `openagent validate --view` or `openagent run --agent view`");
        }
        long agentSeed = spec.seed() != null ? spec.seed() : seed;
        Agent first = resolve(spec.kind(), agentSeed); // fails early on an unknown kind
        Map<String, Object> identity = new LinkedHashMap<>();
        identity.put("kind", spec.kind());
        identity.put("seed", agentSeed);
        if (spec.kind().startsWith(POLICY)) identity.put("checkpoint", Checkpoint.fingerprint(Path.of(spec.kind().substring(POLICY.length()))));
        String label = spec.label() == null ? spec.kind() : spec.label();
        // A policy decodes greedily and is safe to share across threads: one loaded network serves every episode (a network per
        // episode held its native memory until exit, about 4 MB each). Trial 0 of the others is the agent `run --seed S` would
        // make; later trials get derived seeds.
        if (first instanceof PolicyAgent) return new EvalAgent(label, identity, trial -> first);
        return new EvalAgent(label, identity, trial -> resolve(spec.kind(), trial == 0 ? agentSeed : Seeds.mix(agentSeed, trial)));
    }

    static OpenAiConfig openAiConfig(AgentSpec spec) {
        if (spec.baseUrl() == null) throw new Main.UserError("--agent openai needs --base-url (e.g. http://127.0.0.1:8000/v1)");
        if (spec.model() == null) throw new Main.UserError("--agent openai needs --model");
        String keyVar = spec.apiKeyEnv() == null ? "OPENAI_API_KEY" : spec.apiKeyEnv();
        String key = System.getenv(keyVar);
        if (spec.apiKeyEnv() != null && (key == null || key.isBlank())) {
            throw new Main.UserError("the API key variable " + keyVar + " is not set");
        }
        String template = spec.systemPrompt();
        if (spec.systemPromptFile() != null) {
            try {
                template = Files.readString(Path.of(spec.systemPromptFile()));
            } catch (IOException e) {
                throw new Main.UserError("cannot read the system prompt template " + spec.systemPromptFile() + ": " + e.getMessage());
            }
        }
        URI url;
        try {
            url = URI.create(spec.baseUrl().strip());
        } catch (IllegalArgumentException e) {
            throw new Main.UserError("--base-url is not a URL: " + spec.baseUrl());
        }
        RetryPolicy retry = spec.retries() == null ? RetryPolicy.DEFAULT : RetryPolicy.DEFAULT.withMaxRetries(spec.retries());
        Duration timeout = spec.timeoutSeconds() == null ? null : Duration.ofMillis((long) (spec.timeoutSeconds() * 1000));
        return new OpenAiConfig(url, spec.model(), key,
                spec.toolProtocol() == null ? ToolProtocol.NATIVE : ToolProtocol.parse(spec.toolProtocol()),
                spec.temperature(), spec.maxTokens(), spec.seed(), template, timeout, retry, spec.label());
    }
}
