package dev.openagent.oracle;

import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.sandbox.DelegatingEnv;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.ShiftRecord;
import dev.openagent.sandbox.Start;
import dev.openagent.shift.Allowance;
import dev.openagent.shift.ShiftCatalog;
import dev.openagent.shift.ShiftStack;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The view-only solver: carries out a task from what the agent is shown, never from a shift's own state. It knows
 * the task in the world's terms (its gold plan, as the request means it) and the world's own tools, and must:
 * choose each tool by the shown descriptions (a name only where no description says what the tool does), find every argument value in what was shown (the
 * request, the instructions, the user's answers, earlier results as rendered), read results in their shifted form,
 * and act on what errors and notices say (retry, use the named replacement, renew, confirm, fetch the next page,
 * complete a hold, ask the user). A {@link WorldTap} tells it which values are true and whether the world received
 * each call a plan step intends; shifts may declare knowledge from outside the episode ({@link Allowance}), and it
 * applies exactly those.
 * <p>
 * Where it cannot take a step it ends the episode with an answer that starts with {@link #FAILED} and names what
 * was missing: that is the finding {@code validate --view} reports.
 */
public final class ViewSolver implements Agent {
    /** Its agent id ({@code --agent view}). */
    public static final String NAME = "view";

    /** How a failed view check's final answer starts. */
    public static final String FAILED = "VIEW CHECK: ";

    private final boolean allowancesHonoured;

    public ViewSolver() {
        this(true);
    }

    /** A solver that applies no transformation at all, whatever the shifts declare (tests of the allowances). */
    static ViewSolver withoutAllowances() {
        return new ViewSolver(false);
    }

    private ViewSolver(boolean allowancesHonoured) {
        this.allowancesHonoured = allowancesHonoured;
    }

    @Override
    public String name() { return NAME; }

    /** A fresh world under the stack, watched by a tap: the environment the view solver runs in. */
    public static Env watched(ShiftStack stack, Env world) {
        WorldTap[] tap = new WorldTap[1];
        Env env = stack.apply(world, w -> tap[0] = new WorldTap(w));
        return new Watched(env, tap[0]);
    }

    /** A stack with its tap: passes everything through. */
    static final class Watched extends DelegatingEnv {
        final WorldTap tap;

        Watched(Env env, WorldTap tap) {
            super(env);
            this.tap = tap;
        }
    }

    @Override
    public AgentSession begin(Start start, Env env) {
        if (!(env instanceof Watched w)) {
            throw new IllegalArgumentException("the view solver runs on environments made by ViewSolver.watched(stack, world)");
        }
        return new ViewSession(start, w, allowances(env));
    }

    /** What the view solver found missing in an episode it ran (its final answer), or empty when it did not give up. */
    public static Optional<String> finding(dev.openagent.episode.Trajectory t) {
        for (int i = t.messages().size() - 1; i >= 0; i--) {
            dev.openagent.episode.Message m = t.messages().get(i);
            if (!"assistant".equals(m.role()) || m.content() == null) continue;
            int at = m.content().indexOf(FAILED);
            return at < 0 ? Optional.empty() : Optional.of(m.content().substring(at + FAILED.length()));
        }
        return Optional.empty();
    }

    /** Whether the view solver solved an episode: it succeeded without giving up (whatever its last words). */
    public static boolean solved(dev.openagent.episode.Trajectory t) {
        return t.success() && finding(t).isEmpty();
    }

    /** The allowances the shifts of an environment's stack declare (none for a solver that may use none). */
    private Set<Allowance> allowances(Env env) {
        Set<Allowance> out = EnumSet.noneOf(Allowance.class);
        if (!allowancesHonoured) return out;
        for (ShiftRecord r : env.spec().shifts()) {
            try {
                out.addAll(ShiftCatalog.get(r.id()).allowances());
            } catch (IllegalArgumentException outsideTheCatalog) {
                // a test's own shift: declares nothing
            }
        }
        return out;
    }
}
