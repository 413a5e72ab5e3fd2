package dev.openagent.shift;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Peers' names (issue 38): each family reads as its spec in catalog ids, once, and bad uses are refused in one line. */
class ShiftAliasesTest {

    /** The alias is written out as the spec, and reads as the same conditions as the spec written by hand. */
    private static void means(String alias, String spec) {
        assertEquals(spec, ShiftSpec.canonical(alias), alias);
        assertEquals(ShiftSpec.expand(spec), ShiftSpec.expand(alias), alias);
    }

    @Test
    void rotBenchLevelsAreKindsOfNameNoiseAndUnionComposesThem() {
        means("clean", "none");
        assertEquals(List.of(ShiftStack.NONE), ShiftSpec.expand("clean"));
        means("slight", "tool.name-noise:severity=2");
        means("medium", "tool.identity-erasure:severity=2");
        means("heavy", "tool.semantic-trap:severity=3");
        means("union", "tool.name-noise:severity=2+tool.identity-erasure:severity=2+tool.semantic-trap:severity=3");
        assertEquals(3, ShiftSpec.expand("union").getFirst().layers().size());
        means("Heavy", "tool.semantic-trap:severity=3");
    }

    @Test
    void toolSandboxAugmentationsAreRenamingsBareToolsAndDistractors() {
        means("tool_name_scrambled", "tool.identity-erasure:severity=1");
        means("TOOL_NAME_SCRAMBLED", "tool.identity-erasure:severity=1");
        means("arg_name_scrambled", "tool.identity-erasure:severity=2");
        means("tool_description_scrambled", "tool.bare:severity=1");
        means("arg_description_scrambled", "tool.bare:severity=2");
        means("3_distraction_tools", "tool.distractors:severity=1");
        means("10_distraction_tools", "tool.distractors:severity=3");
    }

    @Test
    void agentDisruptBenchDisruptionsAreTheInteractionTiersFaults() {
        for (String transient_ : List.of("timeout", "http_429", "http_500", "http_502", "http_503", "intermittent")) means(transient_, "obs.runtime-error");
        means("malformed_json", "obs.malformed-output");
        means("truncated", "obs.malformed-output");
        means("missing_fields", "obs.missing-values");
        means("schema_drift", "obs.schema-drift");
        means("auth_expiry", "obs.auth-expiry");
        means("http_401", "obs.auth-expiry");
        means("cascading", "obs.cascading-failure");
    }

    @Test
    void robustBenchTcPerturbationsAreQueryAndToolListShifts() {
        means("realistic_typos", "query.noise");
        means("query_paraphrase", "query.paraphrase");
        means("paraphrase_parameter_description", "tool.schema-noise:severity=1");
        means("redundant", "tool.distractors:severity=1");
    }

    @Test
    void theOpenAgentAuthorsNamesAreTheirShifts() {
        Map<String, String> names = Map.ofEntries(Map.entry("query-rewrite", "query.paraphrase"), Map.entry("ambiguous-request", "query.ambiguous"),
                Map.entry("underspecified-request", "query.underspecified"), Map.entry("redundant-request", "query.redundant"),
                Map.entry("renamed-tools", "tool.identity-erasure"), Map.entry("tool-name-noise", "tool.name-noise"),
                Map.entry("semantic-renaming", "tool.semantic-rename"), Map.entry("noisy-schemas", "tool.schema-noise"),
                Map.entry("distractor-tools", "tool.distractors"), Map.entry("changed-verification-codes", "action.verification-change"),
                Map.entry("missing-values", "obs.missing-values"), Map.entry("non-standard-feedback", "obs.nonstandard-feedback"),
                Map.entry("runtime-errors", "obs.runtime-error"), Map.entry("tool-redirection", "obs.redirect"),
                Map.entry("logic-inversion", "logic.inversion"), Map.entry("poi-to-medical", "domain.transfer:to=medical"));
        names.forEach(ShiftAliasesTest::means);
        means("query rewrite", "query.paraphrase");
        means("Non_Standard feedback", "obs.nonstandard-feedback");
    }

    @Test
    void aSeverityWordIsTheSeverityOnAnyShiftThatHasOne() {
        means("tool.name-noise:heavy", "tool.name-noise:severity=3");
        means("tool.name-noise:slight", "tool.name-noise:severity=1");
        means("obs.format:format=xml,medium", "obs.format:format=xml,severity=2");
        means("obs.format:moderate + tool.bare:HEAVY ; none", "obs.format:severity=2+tool.bare:severity=3; none");
        assertEquals("tool.bare:severity=3", ShiftSpec.parseStack("tool.bare:heavy").label());
    }

    @Test
    void aSpecWithoutAliasesComesBackAsItWasGiven() {
        for (String spec : List.of(" obs.format:format=xml + tool.semantic-rename ;none", "static", "all", "tier:perception", "none",
                "tool.name-noise:severity=3", "query.noise+obs.pagination")) {
            assertSame(spec, ShiftSpec.canonical(spec), spec);
        }
    }

    @Test
    void aliasesComposeAndJoinLikeIds() {
        means("slight+obs.format:format=xml", "tool.name-noise:severity=2+obs.format:format=xml");
        means("clean;heavy;tier:reasoning", "none;tool.semantic-trap:severity=3;tier:reasoning");
        means("union + malformed_json", "tool.name-noise:severity=2+tool.identity-erasure:severity=2+tool.semantic-trap:severity=3+obs.malformed-output");
    }

    @Test
    void badUsesAreRefusedInOneLine() {
        assertEquals("'heavy' is RoTBench's name for tool.semantic-trap:severity=3 and takes no parameters "
                + "(write tool.semantic-trap:key=value to set them)", refusal(() -> ShiftSpec.expand("heavy:severity=1")));
        assertEquals("'union' is RoTBench's name for tool.name-noise:severity=2+tool.identity-erasure:severity=2+tool.semantic-trap:severity=3 "
                + "and takes no parameters (write tool.name-noise:key=value to set them)", refusal(() -> ShiftSpec.parseStack("union:heavy")));
        assertEquals("'clean' is the static environment (RoTBench, AgentDisruptBench, RobustBench-TC): it does not compose with '+'",
                refusal(() -> ShiftSpec.expand("slight+clean")));
        assertEquals("unknown shift 'sligth'; did you mean slight? (see `openagent shifts` and `openagent shifts --aliases`)",
                refusal(() -> ShiftSpec.expand("sligth")));
        assertEquals("unknown shift 'tool_name_scrambld'; did you mean tool_name_scrambled, arg_name_scrambled? (see `openagent shifts` and `openagent shifts --aliases`)",
                refusal(() -> ShiftSpec.expand("tool_name_scrambld")));
        assertEquals("unknown shift 'tool.name_noise'; did you mean tool.name-noise, tool-name-noise? (see `openagent shifts` and "
                + "`openagent shifts --aliases`)", refusal(() -> ShiftSpec.expand("tool.name_noise")));
        assertEquals("unknown shift 'teleportation' (see `openagent shifts` and `openagent shifts --aliases`)",
                refusal(() -> ShiftSpec.expand("teleportation")));
        assertEquals("logic.inversion has no parameter 'severity' (it takes none)", refusal(() -> ShiftSpec.expand("logic.inversion:heavy")));
        assertEquals("shift parameter 'xml' is not key=value (nor a severity word: heavy, medium, moderate, slight)",
                refusal(() -> ShiftSpec.expand("obs.format:xml")));
    }

    private static String refusal(Supplier<?> parse) {
        String m = assertThrows(IllegalArgumentException.class, parse::get).getMessage();
        assertEquals(1, m.lines().count(), m);
        return m;
    }

    @Test
    void docsListEveryAliasWithWhatItMeans() throws Exception {
        String docs = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "shifts.md"));
        for (ShiftAliases.Alias a : ShiftAliases.all()) {
            assertTrue(docs.contains("| `" + a.name() + "` | `" + a.means() + "` | " + a.peer() + " |"), a.name() + " is in docs/shifts.md's table");
        }
    }

    /**
     * Every alias, in every spelling the lookup accepts, reads as stacks of the catalog's own shifts, written out once:
     * its canonical text holds no alias, reads back to the same conditions, and the labels the store keeps read back too.
     */
    @Test
    void everyAliasResolvesToCatalogShiftsOnce() {
        Set<String> names = new HashSet<>();
        for (ShiftAliases.Alias a : ShiftAliases.all()) {
            assertTrue(names.add(a.name()), a.name());
            assertFalse(a.source().isBlank(), a.name());
            assertFalse(a.peer().isBlank(), a.name());
            assertEquals(a.means(), ShiftSpec.canonical(a.means()), a.name() + " means a spec in catalog ids");
            for (String spelling : List.of(a.name(), a.name().toUpperCase(Locale.ROOT), a.name().replace('_', ' '), a.name().replace('-', '_'))) {
                String canonical = ShiftSpec.canonical(spelling);
                assertEquals(a.means(), canonical, spelling);
                List<ShiftStack> stacks = ShiftSpec.expand(spelling);
                assertEquals(ShiftSpec.expand(canonical), stacks, spelling);
                for (ShiftStack s : stacks) {
                    for (ShiftStack.Layer l : s.layers()) assertSame(ShiftCatalog.get(l.shift().id()), l.shift(), spelling);
                    assertEquals(List.of(s), ShiftSpec.expand(s.label()), "the label of " + spelling + " reads back");
                }
            }
            for (Shift s : ShiftCatalog.all()) assertFalse(a.name().equalsIgnoreCase(s.id()), a.name() + " hides a shift id");
        }
    }
}
