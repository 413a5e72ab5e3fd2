package dev.openagent.junit;

import dev.openagent.registry.Catalog;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.agent.framework.AgentTranscript;
import dev.openagent.agent.framework.AgentCrash;
import dev.openagent.agent.framework.FrameworkAgent;
import dev.openagent.episode.Agent;
import dev.openagent.json.Json;
import dev.openagent.report.Reports;
import dev.openagent.results.EpisodeResult;
import dev.openagent.sandbox.Interface;
import dev.openagent.store.RunInfo;
import dev.openagent.store.RunStatus;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ModifierSupport;
import org.junit.platform.commons.support.ReflectionSupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs an {@link AgentRobustness} test's episodes before the test method, writes the report, prints
 * the per-shift table and hands the method its {@link RobustnessResult}. Reports go to
 * {@code target/openagent/<TestClass>/<method>/} (the system property {@code openagent.reports}
 * moves the root).
 */
public final class AgentRobustnessExtension implements BeforeTestExecutionCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(AgentRobustnessExtension.class);
    private static final String RESULT = "result";

    @Override
    public void beforeTestExecution(ExtensionContext context) {
        Method method = context.getRequiredTestMethod();
        AgentRobustness a = AnnotationSupport.findAnnotation(method, AgentRobustness.class).orElseThrow();
        String where = "@AgentRobustness on " + context.getRequiredTestClass().getSimpleName() + "." + method.getName() + "()";
        RobustnessPlan plan;
        RobustnessRunner.Subject subject;
        // The test's catalog: annotations name built-in environments, so it loads nothing and has nothing to close later.
        try (Catalog catalog = new Catalog()) {
            plan = RobustnessPlan.of(catalog, a);
            subject = subject(context, a.agent());
            if (subject instanceof RobustnessRunner.Framework && plan.conditions().getFirst().environment().info().iface() != Interface.FUNCTION_CALL) {
                throw new IllegalArgumentException(plan.env() + " is a text-command environment; framework agents act through tools, so they need a function-call environment");
            }
        } catch (IllegalArgumentException e) {
            throw new RobustnessConfigurationException(where + ": " + e.getMessage());
        }
        Path dir = Path.of(System.getProperty("openagent.reports", "target/openagent"))
                .resolve(context.getRequiredTestClass().getSimpleName()).resolve(method.getName());
        RobustnessResult result = new RobustnessResult(subject.name(), plan, RobustnessRunner.run(plan, subject), dir);
        write(result, plan, context.getRequiredTestClass().getSimpleName() + "." + method.getName());
        System.out.print(result.table());
        System.out.flush();
        context.getStore(NAMESPACE).put(RESULT, result);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RobustnessResult.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getStore(NAMESPACE).get(RESULT, RobustnessResult.class);
    }

    /** The {@link AgentUnderTest} to run: the only one of the class, or the one named. */
    private static RobustnessRunner.Subject subject(ExtensionContext context, String wanted) {
        Class<?> type = context.getRequiredTestClass();
        List<Member> members = new ArrayList<>();
        members.addAll(AnnotationSupport.findAnnotatedMethods(type, AgentUnderTest.class, HierarchyTraversalMode.TOP_DOWN));
        members.addAll(AnnotationSupport.findAnnotatedFields(type, AgentUnderTest.class));
        if (members.isEmpty()) {
            throw new IllegalArgumentException("no @AgentUnderTest in " + type.getSimpleName()
                    + ": annotate a method or field that gives an Agent or a FrameworkAgent");
        }
        List<String> names = members.stream().map(AgentRobustnessExtension::name).toList();
        Member chosen;
        if (wanted.isBlank()) {
            if (members.size() > 1) throw new IllegalArgumentException(type.getSimpleName() + " has several @AgentUnderTest (" + String.join(", ", names)
                    + "): name one with @AgentRobustness(agent = \"...\")");
            chosen = members.getFirst();
        } else {
            int i = names.indexOf(wanted);
            if (i < 0) throw new IllegalArgumentException("no @AgentUnderTest named '" + wanted + "' in " + type.getSimpleName() + " (there are: " + String.join(", ", names) + ")");
            chosen = members.get(i);
        }
        Object value = value(chosen, context.getTestInstance().orElse(null));
        return switch (value) {
            case FrameworkAgent f -> new RobustnessRunner.Framework(f);
            case Agent ag -> new RobustnessRunner.HarnessAgent(ag);
            case null -> throw new IllegalArgumentException("@AgentUnderTest " + name(chosen) + " gave null");
            default -> throw new IllegalArgumentException("@AgentUnderTest " + name(chosen) + " gave a " + value.getClass().getName()
                    + ", not an Agent or a FrameworkAgent");
        };
    }

    private static String name(Member m) {
        AgentUnderTest a = m instanceof Method method ? method.getAnnotation(AgentUnderTest.class) : ((Field) m).getAnnotation(AgentUnderTest.class);
        return a.value().isBlank() ? m.getName() : a.value();
    }

    private static Object value(Member m, Object instance) {
        Object target = ModifierSupport.isStatic(m) ? null : instance;
        if (m instanceof Method method && method.getParameterCount() != 0) {
            throw new IllegalArgumentException("@AgentUnderTest method " + method.getName() + " must take no parameters");
        }
        try {
            return switch (m) {
                case Method method -> ReflectionSupport.invokeMethod(method, target);
                case Field field -> ReflectionSupport.tryToReadFieldValue(field, target).get();
                default -> throw new IllegalStateException("not a method or field: " + m);
            };
        } catch (Exception e) {
            Throwable cause = e instanceof InvocationTargetException ite && ite.getCause() != null ? ite.getCause() : e;
            throw new IllegalArgumentException("@AgentUnderTest " + name(m) + " threw " + AgentCrash.describe(cause));
        }
    }

    /** report.md, report.html, summary.json and trajectories.jsonl (each trajectory with the agent's own transcript). */
    private static void write(RobustnessResult result, RobustnessPlan plan, String name) {
        String now = Instant.now().toString();
        boolean complete = result.episodes().stream().noneMatch(EpisodeResult::infraError);
        RunInfo run = new RunInfo(name, name, plan.describe(result.agent()), now, now, result.episodes().size(),
                complete ? RunStatus.COMPLETE : RunStatus.INCOMPLETE, null);
        Reports.write(result.reportDir(), run, result.episodes(), Reports.DEFAULT_MAX_TRANSCRIPTS, result.transcripts());
        StringBuilder lines = new StringBuilder();
        for (EpisodeResult e : result.episodes()) {
            if (e.trajectory() == null) continue;
            ObjectNode line = Json.MAPPER.valueToTree(e.trajectory());
            AgentTranscript own = result.transcript(e);
            if (!own.isEmpty()) line.set("agent_transcript", own.toJson());
            lines.append(Json.write(line)).append('\n');
        }
        try {
            Files.writeString(result.reportDir().resolve("trajectories.jsonl"), lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + result.reportDir().resolve("trajectories.jsonl") + ": " + e.getMessage(), e);
        }
    }
}
