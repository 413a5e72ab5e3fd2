package dev.openagent.tau2;

import dev.openagent.json.Json;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reading tool declarations from a tools.py as tau2 shows them (a file of our own, in tau2's style). */
class ToolDocsTest {
    private static final String TOOLS = """
            class ShopTools(ToolKitBase):
                def _helper(self, x: str) -> str:
                    \"""Not a tool.\"""
                    return x

                @is_tool(ToolType.READ)
                def look_up(self, box_id: str) -> Box:
                    \"""Look up a box by its id. If it is missing,
                    an error comes back instead.

                    Args:
                        box_id: The box id, such as 'B-1'. Be careful
                            that ids are case sensitive.

                    Returns:
                        Box: the box.

                    Raises:
                        ValueError: If the box is not found.
                    \"""
                    return self._get(box_id)

                @is_tool(ToolType.WRITE)
                def move_boxes(
                    self,
                    box_ids: List[str],
                    address1: str,
                ) -> str:
                    \"""
                    Move boxes.

                    Args:
                        box_ids: The boxes to move.
                        address1: Where to.
                    \"""
                    return "ok"

                # @is_tool(ToolType.THINK)
                # def ponder(self, thought: str) -> str:

                @is_tool(ToolType.READ)
                def count_all(self) -> str:
                    \"""Count every box.\"""
                    return "0"
            """;

    @Test
    void readsTheDecoratedMethodsWithTau2sDescriptionsAndPydanticsSchemas() {
        Map<String, ToolDocs.Doc> docs = ToolDocs.read(TOOLS, "tools.py");
        assertEquals(List.of("look_up", "move_boxes", "count_all"), List.copyOf(docs.keySet()));

        ToolDocs.Doc look = docs.get("look_up");
        assertEquals("READ", look.kind());
        // tau2 shows the first line, a blank line, then the rest of the text before the first section.
        assertEquals("Look up a box by its id. If it is missing,\n\nan error comes back instead.", look.description());
        assertEquals("{\"properties\":{\"box_id\":{\"description\":\"The box id, such as 'B-1'. Be careful\\nthat ids are case sensitive.\","
                + "\"title\":\"Box Id\",\"type\":\"string\"}},\"required\":[\"box_id\"],\"title\":\"parameters\",\"type\":\"object\"}", Json.write(look.schema()));

        ToolDocs.Doc move = docs.get("move_boxes");
        assertEquals("WRITE", move.kind());
        assertEquals("Move boxes.", move.description());
        assertEquals("{\"properties\":{\"box_ids\":{\"description\":\"The boxes to move.\",\"items\":{\"type\":\"string\"},\"title\":\"Box Ids\",\"type\":\"array\"},"
                + "\"address1\":{\"description\":\"Where to.\",\"title\":\"Address1\",\"type\":\"string\"}},\"required\":[\"box_ids\",\"address1\"],"
                + "\"title\":\"parameters\",\"type\":\"object\"}", Json.write(move.schema()));

        // No parameters: pydantic leaves "required" out.
        assertEquals("{\"properties\":{},\"title\":\"parameters\",\"type\":\"object\"}", Json.write(docs.get("count_all").schema()));
        assertFalse(docs.containsKey("ponder"));
        assertFalse(docs.containsKey("_helper"));
    }

    @Test
    void cleansDocstringsAsInspectDoes() {
        assertEquals("First.\n\nSecond\n  indented", ToolDocs.cleandoc("  First.\n\n    Second\n      indented\n    "));
        assertEquals("Address1", ToolDocs.title("address1"));
        assertEquals("New Item Ids", ToolDocs.title("new_item_ids"));
    }

    @Test
    void aDeclarationItCannotFollowIsOneLine() {
        BadTau2Data e = assertThrows(BadTau2Data.class, () -> ToolDocs.read("""
                    @is_tool(ToolType.READ)
                    def look_up(self, box_id) -> Box:
                        \"""Look.\"""
                """, "x/tools.py"));
        assertEquals("x/tools.py:2: parameter 'box_id' of look_up has no type annotation", e.getMessage());
        assertTrue(assertThrows(BadTau2Data.class, () -> ToolDocs.read("""
                    @is_tool(ToolType.READ)
                    def look_up(self, when: datetime) -> Box:
                        \"""Look.\"""
                """, "x/tools.py").get("look_up").schema()).getMessage().contains("datetime"));
    }
}
