package dev.openagent.cli;

import dev.openagent.episode.Message;
import dev.openagent.policy.Checkpoint;
import dev.openagent.policy.Policy;
import dev.openagent.policy.View;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.server.model.ChatPolicy;
import dev.openagent.server.model.ChatTranscript;

import java.nio.file.Path;
import java.util.List;

/**
 * The built-in policy (a checkpoint directory, as {@code openagent train --out} writes) as a chat
 * policy. Each request is read into the policy's {@link View}, exactly what {@code --agent policy:DIR}
 * has read at the same point of an episode: the request and the rules of the system prompt, the
 * tools the request offers (names, descriptions and schemas as sent), and every earlier assistant
 * turn with the tool results and user replies that followed it. One greedy forward pass gives the
 * next action, which goes back as {@code tool_calls}, an {@code ask_user} call, or content (answer,
 * refusal). Stateless between requests; {@link Policy#act} is synchronized, so concurrent requests
 * take turns on the one network. (It lives in the CLI, which sees both the server and the
 * trainer, so that the server does not depend on the trainer.)
 *
 * <p>What the endpoint cannot carry: whether a tool result was an error is read from its text
 * ({@code Error [CODE]: ...}); a shift that rewrites an error as a success-looking payload
 * ({@code obs.nonstandard-feedback}) hides that from the served policy, as it does from any model.
 */
record PolicyChatPolicy(String id, Policy policy) implements ChatPolicy {

    /**
     * Loads a checkpoint directory.
     *
     * @throws IllegalArgumentException when {@code dir} is not a policy checkpoint
     */
    static PolicyChatPolicy load(Path dir, String id) {
        return new PolicyChatPolicy(id, Checkpoint.load(dir));
    }

    @Override
    public Message respond(List<Message> messages, List<ToolSpec> tools) {
        ChatTranscript transcript = ChatTranscript.of(messages, tools);
        View view = View.start(transcript.start());
        for (ChatTranscript.Turn turn : transcript.turns()) view = view.after(turn.action(), turn.step());
        return transcript.reply(policy.act(List.of(view), null).getFirst().action());
    }

    @Override
    public void close() { policy.close(); }
}
