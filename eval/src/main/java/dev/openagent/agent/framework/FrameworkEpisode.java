package dev.openagent.agent.framework;

import dev.openagent.chat.ChatCodec;
import dev.openagent.episode.Conversation;
import dev.openagent.episode.InfrastructureException;
import dev.openagent.episode.Message;
import dev.openagent.episode.Usage;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.ToolSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * One episode as a {@link FrameworkAgent} runs it. The agent reads what it is given
 * ({@link #systemPrompt}, {@link #query}, {@link #tools}); its framework adapter reports each model
 * call ({@link #beforeModelCall}, {@link #modelReplied}, {@link #modelFailed}) and executes each
 * tool call through {@link #call}.
 *
 * <p>Every tool call the model makes reaches the sandbox exactly once and in order: the calls of one
 * model reply are one turn of the episode, run when the framework executes the first of them (the
 * others are answered from that turn), or, when the framework never executes them (a tool name its
 * registry does not know, a tool that returns directly), before the next model call, the final answer
 * or the crash that follows. A call the agent makes on its own (not from a model reply) is a turn
 * of its own. Safe to call from several threads (frameworks that execute tools concurrently).
 */
public final class FrameworkEpisode {
    /** Model calls one episode may make; past this the agent is stopped as looping (an agent error). */
    public static final int MAX_MODEL_CALLS = 100;

    private final Env env;
    private final Start start;
    private final Conversation conversation;
    private final TranscriptRecorder transcript = new TranscriptRecorder();
    private final ReentrantLock lock = new ReentrantLock();

    /** The tool calls of the model's last reply, until they have run. */
    private List<Call> pending = List.of();
    /** The calls of the last turn that ran, with their observations. */
    private List<Call> ran = List.of();
    private Outcome outcome;
    private Usage usage = Usage.NONE;
    private int modelCalls;
    private int turns;
    /** The last model failure, cleared by a later successful call: an infrastructure error when the episode ends. */
    private String modelFailure;

    /** One tool call: the id the framework knows it by, and the id it has in the sandbox (unique within its turn). */
    private static final class Call {
        final String frameworkId;
        final String name;
        final String arguments;
        String id;
        Observation observation;
        boolean answered;

        Call(String frameworkId, String name, String arguments) {
            this.frameworkId = frameworkId == null ? "" : frameworkId;
            this.name = name == null ? "" : name;
            this.arguments = arguments == null ? "" : arguments;
        }

        /** By id when both have one; else by name and arguments (frameworks whose tools never see the id; blank arguments are "{}" to some). */
        boolean matches(String id, String name, String arguments) {
            if (answered) return false;
            if (id != null && !id.isBlank() && !frameworkId.isBlank()) return frameworkId.equals(id);
            return this.name.equals(name == null ? "" : name) && args(this.arguments).equals(args(arguments));
        }

        private static String args(String a) { return a == null || a.isBlank() ? "{}" : a; }
    }

    FrameworkEpisode(Env env, Start start) {
        this.env = env;
        this.start = start;
        this.conversation = new Conversation(start, env.info().iface());
    }

    /** What the agent is shown at the start: system prompt, request and tools. */
    public Start start() { return start; }

    /** The sandbox's system prompt: how to ask the user, answer and refuse, then the service's rules (shifts may add to them). */
    public String systemPrompt() { return start.systemPrompt(); }

    /** The user's request, as the agent's first user message should carry it. */
    public String query() { return start.query(); }

    /** The tools as this episode shows them (renamed, reworded, with distractors... under shifts), {@code ask_user} included. */
    public List<ToolSpec> tools() { return start.tools(); }

    /**
     * For framework adapters, before each model call: runs the last reply's calls that never ran.
     *
     * @throws EpisodeOver once the sandbox has ended the episode
     * @throws IllegalStateException past {@link #MAX_MODEL_CALLS} calls (the agent loops without acting)
     */
    public void beforeModelCall() {
        lock.lock();
        try {
            runPending();
            ensureOpen();
            if (++modelCalls > MAX_MODEL_CALLS) {
                throw new IllegalStateException("the agent called its model more than " + MAX_MODEL_CALLS + " times in one episode");
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * For framework adapters: one model call, between {@link #beforeModelCall} and, when it throws,
     * {@link #modelFailed} (whose exception it throws).
     */
    public <T> T modelCall(Supplier<T> call) {
        beforeModelCall();
        try {
            return call.get();
        } catch (RuntimeException e) {
            throw modelFailed(e);
        }
    }

    /**
     * For framework adapters, after each model call: records the exchange and makes the reply's tool
     * calls the pending turn.
     *
     * @param request every message the framework sent, as chat messages
     * @param tools   the names of the tools the request offered
     */
    public void modelReplied(List<Message> request, List<String> tools, Message reply, Usage spent) {
        lock.lock();
        try {
            transcript.exchange(request, tools, reply);
            usage = usage.plus(spent);
            modelFailure = null;
            List<Call> calls = new ArrayList<>();
            if (reply.toolCalls() != null) {
                for (Message.ToolCall c : reply.toolCalls()) calls.add(new Call(c.id(), c.function().name(), c.function().arguments()));
            }
            pending = List.copyOf(calls);
        } finally {
            lock.unlock();
        }
    }

    /**
     * For framework adapters, when the model call threw: the episode becomes an infrastructure error
     * (unless a later call succeeds). Throw what this returns.
     */
    public InfrastructureException modelFailed(RuntimeException e) {
        lock.lock();
        try {
            modelFailure = "model call failed: " + AgentCrash.describe(e);
            return new InfrastructureException(modelFailure, e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * For framework adapters: executes one tool call in the sandbox and returns what came back (an
     * error observation for an unknown tool, bad arguments and the like, never an exception).
     *
     * @param id the call's id as the model gave it (blank when it gave none)
     * @throws EpisodeOver when the sandbox has ended the episode
     */
    public Observation call(String id, String name, String arguments) {
        lock.lock();
        try {
            Call c = find(ran, id, name, arguments);
            if (c == null) {
                c = find(pending, id, name, arguments);
                if (c != null) {
                    runPending();
                } else {
                    ensureOpen();
                    c = new Call(id, name, arguments);
                    run(List.of(c));
                }
            }
            if (c.observation == null) ensureOpen(); // the episode ended before this call could run
            c.answered = true;
            return c.observation;
        } finally {
            lock.unlock();
        }
    }

    /** Whether the sandbox has ended the episode. */
    public boolean over() {
        lock.lock();
        try {
            return outcome != null;
        } finally {
            lock.unlock();
        }
    }

    /** Usage reported by the model calls so far. */
    public Usage usage() {
        lock.lock();
        try {
            return usage;
        } finally {
            lock.unlock();
        }
    }

    // --- the episode's end, for FrameworkEpisodes ---

    /** The agent returned its final message. */
    void finish(String text) {
        lock.lock();
        try {
            if (modelFailure != null) return;
            runPending();
            if (outcome != null) return;
            Step s = step(Protocol.finalText(text));
            if (!s.done()) throw new IllegalStateException("the environment did not end the episode on a final answer");
        } finally {
            lock.unlock();
        }
    }

    /** The agent (or its adapter) gave up because something outside its control failed. */
    void infrastructureFailed(InfrastructureException e) {
        lock.lock();
        try {
            if (modelFailure == null) modelFailure = e.getMessage();
        } finally {
            lock.unlock();
        }
    }

    /** The agent's own code threw. */
    void crash(Throwable t) {
        lock.lock();
        try {
            transcript.error(AgentCrash.describe(t));
            if (modelFailure != null) return;
            runPending();
            if (outcome == null) step(AgentCrash.ending(t));
        } finally {
            lock.unlock();
        }
    }

    /** The outcome: an infrastructure error when the last model call failed, else the sandbox's. */
    Outcome outcome() {
        lock.lock();
        try {
            if (modelFailure != null) return new Outcome(false, Outcome.End.INFRA_ERROR, modelFailure);
            if (outcome == null) throw new IllegalStateException("the episode has not ended");
            return outcome;
        } finally {
            lock.unlock();
        }
    }

    Conversation conversation() { return conversation; }

    AgentTranscript transcript() {
        lock.lock();
        try {
            return transcript.build();
        } finally {
            lock.unlock();
        }
    }

    // --- turns ---

    private void ensureOpen() {
        if (outcome != null) throw new EpisodeOver(outcome.detail().isBlank() ? outcome.end().name() : outcome.detail());
    }

    private static Call find(List<Call> calls, String id, String name, String arguments) {
        for (Call c : calls) if (c.matches(id, name, arguments)) return c;
        return null;
    }

    private void runPending() {
        if (pending.isEmpty()) return;
        List<Call> calls = pending;
        pending = List.of();
        if (outcome == null) run(calls);
    }

    /** One turn: the calls as one action (see {@link ModelReplies#toolCalls}). */
    private void run(List<Call> calls) {
        List<String> ids = ModelReplies.uniqueIds(calls.stream().map(c -> c.frameworkId).toList(), ++turns);
        for (int i = 0; i < calls.size(); i++) calls.get(i).id = ids.get(i);
        ran = calls;
        Action action = ChatCodec.toolCallsAction(calls.stream().map(c -> new Action.ToolCall(c.id, c.name, c.arguments)).toList());
        List<Observation> obs = step(action).observations();
        for (int i = 0; i < calls.size(); i++) {
            Call c = calls.get(i);
            // a question's answer is the user's reply (no call id); a tool result answers its call id
            c.observation = obs.stream().filter(o -> action instanceof Action.AskUser || c.id.equals(o.callId())).findFirst()
                    .orElse(i < obs.size() ? obs.get(i) : Observation.tool(c.id, c.name, "", null));
        }
    }

    private Step step(Action action) {
        conversation.add(action);
        Step s = env.step(action);
        conversation.add(s);
        if (s.done()) outcome = s.outcome();
        return s;
    }
}
