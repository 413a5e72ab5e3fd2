package dev.openagent.agent.openai;

import dev.openagent.chat.ChatCompletion;
import dev.openagent.sandbox.Action;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TextToolCallsTest {
    private static ChatCompletion.Call only(String text) {
        List<ChatCompletion.Call> calls = TextToolCalls.parse(text);
        assertEquals(1, calls.size(), "one call in: " + text);
        return calls.getFirst();
    }

    @Test
    void readsToolCallTags() {
        List<ChatCompletion.Call> calls = TextToolCalls.parse("""
                I will look both up.
                <tool_call>
                {"name": "get_place_details", "arguments": {"place_id": "P1"}}
                </tool_call>
                <tool_call>{"name": "get_reviews", "arguments": "{\\"place_id\\": \\"P2\\"}"}</tool_call>""");
        assertEquals(2, calls.size());
        assertEquals("get_place_details", calls.get(0).name());
        assertEquals("{\"place_id\":\"P1\"}", calls.get(0).arguments());
        assertEquals("{\"place_id\": \"P2\"}", calls.get(1).arguments(), "string arguments are kept verbatim");
    }

    @Test
    void anUnclosedTagStillCounts() {
        assertEquals("search_places", only("<tool_call>{\"name\": \"search_places\", \"arguments\": {}}").name());
    }

    @Test
    void malformedJsonInsideTagsStaysACallSoTheEnvironmentCanSayWhy() {
        ChatCompletion.Call c = only("<tool_call>{\"name\": \"search_places\", \"arguments\": {\"city\": \"Oslo\"</tool_call>");
        assertEquals("search_places", c.name());
        assertTrue(c.arguments().startsWith("{\"city\": \"Oslo\""), c.arguments());
        assertEquals("", only("<tool_call>call the search please</tool_call>").name());
    }

    @Test
    void readsFencedJsonAndBareJsonWithOtherShapes() {
        assertEquals("search_places", only("```json\n{\"name\": \"search_places\", \"parameters\": {\"city\": \"Oslo\"}}\n```").name());
        assertEquals("{\"city\":\"Oslo\"}", only("```\n{\"function\": {\"name\": \"s\", \"arguments\": {\"city\": \"Oslo\"}}}\n```").arguments());
        assertEquals("list_districts", only("{\"name\": \"list_districts\", \"arguments\": {\"city\": \"Oslo\"}}").name());
        assertEquals("x", only("Calling now: {\"tool\": \"x\", \"args\": {}} and waiting.").name());
        assertEquals(2, TextToolCalls.parse("[{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {}}]").size());
    }

    @Test
    void plainAnswersAndAnswersQuotingJsonAreNotCalls() {
        assertTrue(TextToolCalls.parse("The rating is 4.5.").isEmpty());
        assertTrue(TextToolCalls.parse("Here is the record: {\"name\": \"Cafe Blue\", \"rating\": 4.5}").isEmpty());
        assertTrue(TextToolCalls.parse("").isEmpty());
        assertTrue(TextToolCalls.parse("Use braces { like this").isEmpty());
    }

    @Test
    void renderedCallsParseBack() {
        String rendered = TextToolCalls.render("get_reviews", "{\"place_id\":\"P9\"}");
        ChatCompletion.Call c = only(rendered);
        assertEquals("get_reviews", c.name());
        assertEquals("{\"place_id\":\"P9\"}", c.arguments());
        assertEquals("not json", only(TextToolCalls.render("x", "not json")).arguments());
    }

    @Test
    void textCommandEnvironmentsTakeTheTextAsTheCommand() {
        assertEquals(new Action.Command("go to kitchen"), OpenAiAgent.command("go to kitchen\n"));
        assertEquals(new Action.Command("look"), OpenAiAgent.command("```\nlook\n```"));
        assertEquals(new Action.Answer("the key is in the drawer"), OpenAiAgent.command("FINAL ANSWER: the key is in the drawer"));
        assertInstanceOf(Action.Refuse.class, OpenAiAgent.command("CANNOT COMPLETE: there is no kitchen"));
    }
}
