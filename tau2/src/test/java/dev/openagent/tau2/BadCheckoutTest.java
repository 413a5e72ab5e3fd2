package dev.openagent.tau2;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A checkout this environment cannot use gets one line saying what and where (copies of the snapshot, broken on purpose). */
class BadCheckoutTest {
    @TempDir
    Path dir;

    /** A copy of the files the environment reads, laid out as a tau2-bench checkout. */
    private Path copy() throws IOException {
        Path from = Checkouts.shared();
        for (String f : new String[] {"db.json", "tasks.json", "split_tasks.json", "policy.md"}) {
            Path to = dir.resolve("data/tau2/domains/retail").resolve(f);
            Files.createDirectories(to.getParent());
            Files.copy(from.resolve("data/tau2/domains/retail").resolve(f), to);
        }
        Path tools = dir.resolve("src/tau2/domains/retail/tools.py");
        Files.createDirectories(tools.getParent());
        Files.copy(from.resolve("src/tau2/domains/retail/tools.py"), tools);
        return dir;
    }

    private static String loadError(Path root) {
        String m = assertThrows(BadTau2Data.class, () -> Tau2Retail.load(root)).getMessage();
        assertFalse(m.contains("\n"), "one line: " + m);
        return m;
    }

    private void editJson(Path root, String file, Consumer<com.fasterxml.jackson.databind.JsonNode> edit) throws IOException {
        Path p = root.resolve("data/tau2/domains/retail").resolve(file);
        var tree = Json.MAPPER.readTree(p.toFile());
        edit.accept(tree);
        Files.writeString(p, Json.write(tree));
    }

    @Test
    void aMissingDirectory() {
        assertEquals("tau2 directory " + dir.resolve("nope") + " does not exist (give a tau2-bench checkout with --tau2-dir or $TAU2_DATA_DIR)",
                loadError(dir.resolve("nope")));
    }

    @Test
    void aDirectoryThatIsNotACheckout() {
        assertTrue(loadError(dir).contains("is not a tau2-bench checkout: it has no data/tau2/domains/retail"), loadError(dir));
    }

    @Test
    void aCheckoutWithoutToolsPyOrWithAMissingFile() throws IOException {
        Path root = copy();
        Files.delete(root.resolve("data/tau2/domains/retail/split_tasks.json"));
        assertTrue(loadError(root).endsWith("data/tau2/domains/retail: no split_tasks.json (a tau2-bench checkout's retail domain has it)"));
        Files.copy(Checkouts.shared().resolve("data/tau2/domains/retail/split_tasks.json"), root.resolve("data/tau2/domains/retail/split_tasks.json"));
        Files.delete(root.resolve("src/tau2/domains/retail/tools.py"));
        assertTrue(loadError(root).contains("no src/tau2/domains/retail/tools.py"));
    }

    @Test
    void theDataFolderAsTau2sOwnVariableNamesIt() throws IOException {
        Path root = copy();
        assertEquals(114, Tau2Retail.load(root.resolve("data")).tasks().size());
    }

    @Test
    void malformedJson() throws IOException {
        Path root = copy();
        Files.writeString(root.resolve("data/tau2/domains/retail/tasks.json"), "[{\"id\": \"0\",");
        String m = loadError(root);
        assertTrue(m.startsWith(root.resolve("data/tau2/domains/retail/tasks.json") + ": not valid JSON: "), m);
    }

    @Test
    void aTaskNamingAToolTau2DoesNotHave() throws IOException {
        Path root = copy();
        editJson(root, "tasks.json", t -> ((ObjectNode) t.get(3).path("evaluation_criteria").path("actions").get(1)).put("name", "refund_everything"));
        String m = loadError(root);
        assertTrue(m.startsWith(root.resolve("data/tau2/domains/retail/tasks.json") + ": task 3, action 1: names the tool 'refund_everything', "
                + "which tau2's retail tools do not have (tools: calculate, cancel_pending_order,"), m);
    }

    @Test
    void aDatabaseThatDoesNotMatchTheSchema() throws IOException {
        Path root = copy();
        String db = root.resolve("data/tau2/domains/retail/db.json").toString();
        editJson(root, "db.json", t -> ((ObjectNode) t.path("orders").path("#W2611340").path("items").get(0)).put("price", "cheap"));
        assertEquals(db + ": /orders/#W2611340/items/0/price: expected a number (tau2's retail schema)", loadError(root));
        editJson(root, "db.json", t -> {
            ((ObjectNode) t.path("orders").path("#W2611340").path("items").get(0)).put("price", 47.84);
            ((ObjectNode) t.path("users").path("noah_brown_6181")).remove("email");
        });
        assertEquals(db + ": /users/noah_brown_6181: missing field 'email' (tau2's retail schema)", loadError(root));
        editJson(root, "db.json", t -> {
            ((ObjectNode) t.path("users").path("noah_brown_6181")).put("email", "noah.brown7922@example.com");
            ((ObjectNode) t.path("orders").path("#W2611340")).put("status", "lost");
        });
        assertTrue(loadError(root).startsWith(db + ": /orders/#W2611340/status: 'lost' is not one of [cancelled, delivered,"));
        editJson(root, "db.json", t -> {
            ((ObjectNode) t.path("orders").path("#W2611340")).put("status", "processed");
            ((ObjectNode) t).set("warehouses", Json.array());
        });
        assertEquals(db + ": /warehouses: unexpected key (tau2's database has products, users and orders) (tau2's retail schema)", loadError(root));
    }

    @Test
    void toolsThatDifferFromTheImplementedOnes() throws IOException {
        Path root = copy();
        Path tools = root.resolve("src/tau2/domains/retail/tools.py");
        Files.writeString(tools, Files.readString(tools).replace("def get_item_details(self, item_id: str)", "def get_item_details(self, item_id: str, color: str)"));
        assertTrue(loadError(root).endsWith("tools.py: get_item_details takes (item_id: str, color: str), but this environment implements get_item_details(item_id: str)"));
        Files.writeString(tools, Files.readString(tools).replace("def get_item_details(self, item_id: str, color: str)", "def get_thing_details(self, item_id: str)"));
        assertTrue(loadError(root).endsWith("tools.py: the retail tools differ from the ones this environment implements; not implemented here: get_thing_details; not in tools.py: get_item_details"));
    }

    @Test
    void splitsNamingTasksTheTaskFileLacks() throws IOException {
        Path root = copy();
        editJson(root, "split_tasks.json", t -> ((ArrayNode) t.get("test")).add("999"));
        assertTrue(loadError(root).endsWith("split_tasks.json: test names task '999', which tasks.json lacks"));
    }
}
