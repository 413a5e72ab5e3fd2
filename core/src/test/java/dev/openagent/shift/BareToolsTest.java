package dev.openagent.shift;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * tool.bare, on every function-call environment at every severity: the tool list keeps its names and schemas and
 * loses its descriptions (severity 2 also the parameters', 3 every description and title in the schemas), and an
 * agent that picks tools by what their descriptions say has nothing left to pick by. (Mutations tried: keeping the
 * tool descriptions at severity 1, 8 failures; severity 3 stripping only what severity 2 does, 4.) That the view
 * check still solves every task, by the tools' names, is ShiftOracleTest's.
 */
class BareToolsTest {
    static Stream<Arguments> envsAndSeverities() {
        return ShiftsBiteTest.functionCall().stream().flatMap(e -> Stream.of(1, 2, 3).map(s -> Arguments.of(e, s)));
    }

    @ParameterizedTest(name = "{0} severity {1}")
    @MethodSource("envsAndSeverities")
    void descriptionsAreGoneNamesAndSchemasStay(String envId, int severity) {
        Env plain = Environments.get(envId).create();
        Env bare = ShiftSpec.parseStack("tool.bare:severity=" + severity).apply(Environments.get(envId).create());
        for (int i = 0; i < 10; i++) {
            TaskRequest request = new TaskRequest(i % 2 == 0 ? Split.TEST : Split.TRAIN, 500 + i, 0);
            Start before = plain.reset(request);
            Start after = bare.reset(request);
            assertEquals(before.tools().stream().map(ToolSpec::name).toList(), after.tools().stream().map(ToolSpec::name).toList(),
                    "names and their order stay");
            for (int t = 0; t < before.tools().size(); t++) {
                ToolSpec was = before.tools().get(t);
                ToolSpec is = after.tools().get(t);
                if (was.name().equals(Protocol.ASK_USER)) {
                    assertEquals(was, is, "ask_user is a protocol tool");
                    continue;
                }
                assertFalse(was.description().isBlank(), "the static tool has a description to remove");
                assertEquals("", is.description(), is.name() + "'s description is gone");
                assertEquals(withoutDescriptions(was.parameters(), severity), is.parameters(), is.name() + "'s schema at severity " + severity);
                if (severity == 3) assertTrue(is.parameters().findValues("description").stream().noneMatch(JsonNode::isTextual), "no description left");
            }
            assertEquals(before.systemPrompt(), after.systemPrompt());
            assertEquals(before.query(), after.query());
        }
    }

    /**
     * An agent that chooses each tool of the static plan by the words of its static description finds nothing to
     * choose by under the shift: no shown tool's description holds a single word of any static description.
     */
    @ParameterizedTest(name = "{0} severity {1}")
    @MethodSource("envsAndSeverities")
    void anAgentChoosingByDescriptionsHasNothingToChooseBy(String envId, int severity) {
        Env plain = Environments.get(envId).create();
        Env bare = ShiftSpec.parseStack("tool.bare:severity=" + severity).apply(Environments.get(envId).create());
        TaskRequest request = new TaskRequest(Split.TEST, 77, 0);
        Start before = plain.reset(request);
        Start after = bare.reset(request);
        for (ToolSpec was : before.tools()) {
            if (was.name().equals(Protocol.ASK_USER)) continue;
            Set<String> words = words(was.description());
            for (ToolSpec is : after.tools()) {
                if (is.name().equals(Protocol.ASK_USER)) continue;
                Set<String> held = words(is.description());
                held.retainAll(words);
                assertTrue(held.isEmpty(), is.name() + " still describes " + was.name() + ": " + held);
            }
        }
    }

    /** The static schema as the shift should show it, written here from the shift's documentation. */
    private static JsonNode withoutDescriptions(JsonNode schema, int severity) {
        JsonNode out = schema.deepCopy();
        if (severity == 1) return out;
        if (severity == 2) {
            out.path("properties").forEach(p -> ((com.fasterxml.jackson.databind.node.ObjectNode) p).remove("description"));
            return out;
        }
        drop(out, false);
        return out;
    }

    private static void drop(JsonNode node, boolean namesHere) {
        if (node instanceof com.fasterxml.jackson.databind.node.ObjectNode o) {
            if (!namesHere) o.remove(List.of("description", "title", "enumDescriptions", "markdownDescription"));
            for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                drop(o.get(k), !namesHere && (k.equals("properties") || k.equals("$defs") || k.equals("definitions")));
            }
        } else if (node.isArray()) {
            node.forEach(n -> drop(n, false));
        }
    }

    private static Set<String> words(String text) {
        Set<String> out = new HashSet<>();
        for (String w : text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) if (w.length() > 2) out.add(w);
        return out;
    }
}
