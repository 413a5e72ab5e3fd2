package dev.openagent.byo;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

/**
 * An environment file as written (YAML or JSON; docs/bring-your-own.md lists every key). Keys are snake_case
 * in the file. Validation beyond the shape of the keys is {@link EnvLoader}'s.
 *
 * @param id           the environment id used in reports
 * @param rules        added to the system prompt, like a built-in environment's rules
 * @param mcp          where the tools come from (absent: only inline tools)
 * @param reset        what a fresh {@code {workdir}} holds before every episode
 * @param tools        per-tool facts by the tool's name, and inline tools (those with a {@code response})
 * @param tasks        the JSONL task file, relative to this file
 * @param synonyms     word -> alternatives, for the renaming shifts
 * @param paraphrases  [regex, replacement] pairs, for query.paraphrase
 * @param distractions irrelevant sentences about this environment, for query.redundant
 * @param maxSteps     turns before an episode is cut off (default 30)
 */
record EnvFile(String id, String description, String rules, Mcp mcp, Reset reset, Map<String, ToolDecl> tools, String tasks,
               Map<String, List<String>> synonyms, List<List<String>> paraphrases, List<String> distractions, Integer maxSteps) {
    EnvFile {
        tools = tools == null ? Map.of() : tools;
        synonyms = synonyms == null ? Map.of() : synonyms;
        paraphrases = paraphrases == null ? List.of() : paraphrases;
        distractions = distractions == null ? List.of() : distractions;
    }

    /**
     * An MCP server: a command started once per worker over stdio, or the URL of a Streamable HTTP endpoint.
     *
     * @param env            environment variables for the command ({@code {workdir}} and {@code {dir}} are replaced)
     * @param timeoutSeconds longest wait for one request before the server counts as hung (default 30)
     * @param restart        start a new server process for every episode instead of once per worker
     */
    record Mcp(List<String> command, String url, Map<String, String> env, Integer timeoutSeconds, Boolean restart) {
        Mcp {
            env = env == null ? Map.of() : env;
        }
    }

    /** @param copy a folder (relative to this file) copied into a fresh {@code {workdir}} before every episode */
    record Reset(String copy) {}

    /**
     * What a tool declares. The facts ({@code read_only}, {@code after}, {@code record_of}, {@code person_name}, {@code undoes}, {@code sends}) apply to
     * any tool; {@code description}, {@code parameters} and {@code response}/{@code responses} declare an inline tool.
     */
    record ToolDecl(Boolean readOnly, List<String> after, RecordOf recordOf, List<String> personName, String undoes, SendsDecl sends,
                    String description, JsonNode parameters, JsonNode response, List<Canned> responses) {
        ToolDecl {
            after = after == null ? List.of() : after;
            personName = personName == null ? List.of() : personName;
            responses = responses == null ? List.of() : responses;
        }

        boolean inline() { return response != null || !responses.isEmpty(); }
    }

    /**
     * The tool returns the record of the entity whose id it takes as {@code param}.
     *
     * @param idField the name results give that id under (default: {@code param})
     * @param fields  the fields the record holds
     */
    record RecordOf(String param, String idField, List<String> fields) {
        RecordOf {
            fields = fields == null ? List.of() : fields;
        }
    }

    /**
     * The tool sends the code {@code made} returned to an address.
     *
     * @param made the committing tool whose result holds the code
     * @param code this tool's parameter taking the code (the field of the same name in {@code made}'s result)
     * @param to   this tool's parameter taking the address
     */
    record SendsDecl(String made, String code, String to) {}

    /** An inline tool's answer to calls whose arguments hold these values ({@code when}; empty: any call). */
    record Canned(Map<String, JsonNode> when, JsonNode response, String error) {
        Canned {
            when = when == null ? Map.of() : when;
        }
    }
}
