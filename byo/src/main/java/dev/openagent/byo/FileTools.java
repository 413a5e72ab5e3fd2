package dev.openagent.byo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.openagent.domain.Params;
import dev.openagent.domain.Tool;
import dev.openagent.domain.ToolFailure;
import dev.openagent.episode.InfrastructureException;
import dev.openagent.json.Json;
import io.modelcontextprotocol.spec.McpSchema;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The tools an environment file declares: from its MCP server or inline, with the facts shifts may read. */
final class FileTools {
    private FileTools() {}

    /**
     * The tools of a file: the MCP server's (listed by {@code first}, whose workdir is filled from {@code fixtures}) and
     * the inline ones, each with the facts the file declares for it; a fact naming no tool is an error at its place.
     */
    static List<Tool<Worker>> declared(SourceFile src, EnvFile file, Path fixtures, Worker first) {
        List<Tool<Worker>> out = new ArrayList<>();
        Map<String, EnvFile.ToolDecl> decls = file.tools();
        if (file.mcp() != null) {
            first.prepare(fixtures, false, false);
            List<McpSchema.Tool> listed = first.server().tools();
            if (listed.isEmpty()) throw src.error("/mcp", "the MCP server lists no tools");
            for (McpSchema.Tool t : listed) {
                EnvFile.ToolDecl d = decls.get(t.name());
                if (d != null && d.inline()) throw src.error("/tools/" + t.name(), "the MCP server already has a tool '" + t.name() + "'");
                ObjectNode schema = complete(Json.MAPPER.valueToTree(t.inputSchema() == null ? Map.of("type", "object") : t.inputSchema()));
                boolean hinted = t.annotations() != null && Boolean.TRUE.equals(t.annotations().readOnlyHint());
                String name = t.name();
                List<String> after = d == null ? List.of() : d.after();
                Tool<Worker> tool = new Tool<>(name, t.description() == null ? "" : t.description(), Params.ofSchema(schema),
                        (w, args) -> inOrder(w, name, after, () -> fromServer(w, name, args.json())));
                out.add(facts(src, tool, d, hinted));
            }
        }
        for (var e : decls.entrySet()) {
            EnvFile.ToolDecl d = e.getValue();
            if (!d.inline()) continue;
            String at = "/tools/" + e.getKey();
            if (d.description() == null) throw src.error(at, "an inline tool needs a 'description'");
            JsonNode params = d.parameters() == null ? Json.MAPPER.createObjectNode().put("type", "object").set("properties", Json.object()) : d.parameters();
            if (!params.isObject() || !"object".equals(params.path("type").asText())) {
                throw src.error(at + "/parameters", "parameters are a JSON Schema of type object");
            }
            String name = e.getKey();
            out.add(facts(src, new Tool<>(name, d.description(), Params.ofSchema(complete((ObjectNode) params)),
                    (w, args) -> inOrder(w, name, d.after(), () -> canned(d, w, args.json()))), d, false));
        }
        if (out.isEmpty()) throw src.error("", "no tools: give 'mcp' or inline tools under 'tools'");
        Set<String> names = new LinkedHashSet<>();
        out.forEach(t -> names.add(t.name()));
        for (var e : decls.entrySet()) {
            if (!names.contains(e.getKey())) {
                throw src.error("/tools/" + e.getKey(), "no tool named '" + e.getKey() + "' (tools: " + String.join(", ", names) + ")");
            }
            for (int i = 0; i < e.getValue().after().size(); i++) {
                if (!names.contains(e.getValue().after().get(i))) {
                    throw src.error("/tools/" + e.getKey() + "/after/" + i, "no tool named '" + e.getValue().after().get(i) + "'");
                }
            }
            String undoes = e.getValue().undoes();
            if (undoes != null && !names.contains(undoes)) throw src.error("/tools/" + e.getKey() + "/undoes", "no tool named '" + undoes + "'");
            EnvFile.SendsDecl sends = e.getValue().sends();
            if (sends != null && !names.contains(sends.made())) throw src.error("/tools/" + e.getKey() + "/sends/made", "no tool named '" + sends.made() + "'");
        }
        return out;
    }

    /** An object schema with its {@code properties} and {@code required} spelled out, as shifts read schemas. */
    private static ObjectNode complete(ObjectNode schema) {
        if (!schema.path("properties").isObject()) schema.set("properties", Json.object());
        if (!schema.path("required").isArray()) schema.set("required", Json.array());
        return schema;
    }

    private static Tool<Worker> facts(SourceFile src, Tool<Worker> tool, EnvFile.ToolDecl d, boolean readOnlyHint) {
        boolean readOnly = d != null && d.readOnly() != null ? d.readOnly() : readOnlyHint;
        if (readOnly) tool = tool.readOnly();
        if (d == null) return tool;
        String at = "/tools/" + tool.name();
        try {
            for (String before : d.after()) tool = tool.after(before);
            for (String p : d.personName()) tool = tool.personName(p);
            if (d.undoes() != null) tool = tool.undoes(d.undoes());
            if (d.sends() != null) {
                EnvFile.SendsDecl s = d.sends();
                if (s.made() == null || s.code() == null || s.to() == null) throw src.error(at + "/sends", "needs the keys 'made', 'code' and 'to'");
                tool = tool.sends(s.made(), s.code(), s.to());
            }
            if (d.recordOf() != null) {
                EnvFile.RecordOf r = d.recordOf();
                if (r.param() == null) throw src.error(at + "/record_of", "missing key 'param'");
                tool = tool.recordFor(r.idField() == null ? r.param() : r.idField(), r.param(), r.fields().toArray(String[]::new));
            }
        } catch (IllegalArgumentException e) {
            if (e instanceof BadEnvironmentFile) throw e;
            throw src.error(at, e.getMessage());
        }
        return tool;
    }

    /**
     * A call under the file's {@code after} rules: refused (not sent) until every tool it names succeeded in this
     * episode, as the rules the file states say; its success is noted for the tools after it.
     */
    private static JsonNode inOrder(Worker w, String tool, List<String> after, java.util.function.Supplier<JsonNode> call) {
        if (!w.checking) {
            List<String> missing = after.stream().filter(t -> !w.succeeded.contains(t)).toList();
            if (!missing.isEmpty()) {
                throw ToolFailure.domain(tool + " needs a successful call of " + String.join(" and ", missing) + " first, in this episode");
            }
        }
        JsonNode result = call.get();
        w.succeeded.add(tool);
        return result;
    }

    private static JsonNode fromServer(Worker w, String tool, ObjectNode args) {
        McpConnection.Result r;
        try {
            r = w.server().call(tool, args);
        } catch (InfrastructureException e) {
            w.broken = true;
            throw e;
        }
        if (r.error()) throw ToolFailure.domain(r.text());
        return McpConnection.value(r.text());
    }

    /** An inline tool's answer: the first {@code responses} entry whose {@code when} the arguments match, else {@code response}. */
    private static JsonNode canned(EnvFile.ToolDecl d, Worker w, ObjectNode args) {
        for (EnvFile.Canned c : d.responses()) {
            boolean match = c.when().entrySet().stream().allMatch(e -> e.getValue().equals(args.get(e.getKey())));
            if (!match) continue;
            if (c.error() != null) throw ToolFailure.domain(fill(TextNode.valueOf(c.error()), args, w).asText());
            return fill(c.response() == null ? TextNode.valueOf("") : c.response(), args, w);
        }
        if (d.response() == null) throw ToolFailure.domain("no result for these arguments");
        return fill(d.response(), args, w);
    }

    /** {@code {param}} replaced with the argument's value, and {@code {workdir}}, in every text of a canned response. */
    private static JsonNode fill(JsonNode template, ObjectNode args, Worker w) {
        JsonNode out = FileTasks.substitute(template, w.dir());
        if (out.isTextual()) {
            String s = out.asText();
            for (var f : args.properties()) s = s.replace("{" + f.getKey() + "}", f.getValue().isTextual() ? f.getValue().asText() : f.getValue().toString());
            return TextNode.valueOf(s);
        }
        return out;
    }
}
