package dev.openagent.policy;

import java.util.List;

/**
 * One action as the policy's pointers express it. As a training target each pointer holds the
 * set of positions that are all correct (every occurrence of a gold value), and the loss
 * maximises the probability of the set; as a sampled action (RL) each set holds the one choice
 * made. The same log-probability serves both.
 */
public sealed interface Decision {

    /** Call the tool at {@code tool} of the context's tool list with these argument choices. */
    record Call(int tool, List<Arg> args) implements Decision {
        public Call {
            args = List.copyOf(args);
        }
    }

    /**
     * One parameter (index in the tool's schema). {@code present} matters only for optional
     * parameters. A value is an enum index set, or a set of spans ({@code starts[i]..ends[i]}, the
     * context tokens copied); both empty when no target value is known (then only presence is learned).
     */
    record Arg(int param, boolean present, int[] enumValues, int[] starts, int[] ends) {}

    /**
     * A final answer: each group is one piece of the answer that must be said, as the context
     * positions holding it (any one will do) and/or answer-word indices. Every context position and
     * answer word in no group is one the answer must not say.
     */
    record Answer(List<Group> groups) implements Decision {
        public Answer {
            groups = List.copyOf(groups);
        }
    }

    record Group(int[] tokens, int[] words) {}

    /** Ask the user about one of the context's topics (any of {@code topics}; empty when unknown). */
    record Ask(int[] topics) implements Decision {}

    record Refuse() implements Decision {}

    /** Index of this decision in the action pointer: tools first, then answer, ask, refuse. */
    default int actionIndex(int tools) {
        return switch (this) {
            case Call c -> c.tool();
            case Answer a -> tools;
            case Ask q -> tools + 1;
            case Refuse r -> tools + 2;
        };
    }
}
