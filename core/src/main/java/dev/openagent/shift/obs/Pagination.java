package dev.openagent.shift.obs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.LayerGuide;
import dev.openagent.shift.Schemas;
import dev.openagent.shift.Shift;
import dev.openagent.shift.Sign;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Texts;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * obs.pagination: list results of read tools come a page at a time (5 / 3 / 2 items per page at severity 1-3).
 * A paged result carries {@code page}, {@code total_pages} and {@code next_page_token}; every tool the environment
 * declares read-only takes an optional {@code page_token} (documented in its schema and the system prompt) that
 * returns the next page of that earlier result. Tools that write are never paged and take no page token; an
 * environment that declares no read-only tool is left as it is.
 */
public final class Pagination extends ShiftEnv<Pagination.Episode> {
    public static final Shift SHIFT = new Shift("obs.pagination", Tier.INTERACTION, Dimension.O,
            "List results of read tools are split into pages; fetch further pages with the page_token of the previous page.",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "pages are fetched through a page parameter of a tool; commands take none"), Pagination::new)
                    .seenAs(Sign.PAGED_RESULTS, Sign.PAGING_PARAMETER_ADDED);

    static final String TOKEN = "page_token";

    private record Paged(String tool, ObjectNode full, String field, int page) {}

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        final Map<String, Paged> tokens = new HashMap<>();
        /** Tokens of further pages issued in the latest step, for the guide: tool name and token. */
        final List<String[]> issued = new ArrayList<>();
        int pageSize;
        java.util.Set<String> paged;
    }

    private Pagination(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    @Override
    protected Start begin(Start in) {
        ep.pageSize = switch (severity()) { case 1 -> 5; case 2 -> 3; default -> 2; };
        ep.paged = facts().readOnlyTools();
        if (ep.paged.isEmpty()) return in;
        List<ToolSpec> tools = new ArrayList<>();
        for (ToolSpec t : in.tools()) {
            if (Protocol.ASK_USER.equals(t.name()) || !ep.paged.contains(t.name())) {
                tools.add(t);
            } else {
                tools.add(t.withParameters(Schemas.withParam(t.parameters(), TOKEN, "string",
                        "Optional. To get the next page of an earlier result of this tool, pass its next_page_token (other arguments are then ignored).", false)));
            }
        }
        String note = "\nResults with many items are paginated (" + ep.pageSize + " items per page): a paged result has page, total_pages "
                + "and next_page_token; call the same tool with page_token set to next_page_token to get the next page.\n";
        return new Start(in.systemPrompt() + note, in.query(), tools);
    }

    @Override
    protected void newTurn() { ep.issued.clear(); }

    @Override
    protected Route route(Action.ToolCall call) {
        if (Protocol.ASK_USER.equals(call.name()) || !ep.paged.contains(call.name())) return new Forward(call);
        ObjectNode args = Texts.argsObject(call.arguments());
        if (args == null || !args.has(TOKEN)) return new Forward(call, o -> firstPage(o, call.name()));
        Paged p = ep.tokens.get(args.get(TOKEN).asText());
        if (p == null || !p.tool().equals(call.name())) {
            return new Reply(error(call, ToolError.Code.INVALID_ARGUMENTS, "unknown or expired page_token '"
                    + Texts.abbreviate(args.get(TOKEN).asText(), 40) + "' for " + call.name()));
        }
        ObjectNode next = page(p);
        return new Reply(Observation.tool(call.id(), call.name(), Json.write(next), next));
    }

    private Observation firstPage(Observation o, String tool) {
        if (o.isError() || !(o.payload() instanceof ObjectNode payload)) return o;
        for (Iterator<Map.Entry<String, JsonNode>> it = payload.fields(); it.hasNext(); ) {
            var e = it.next();
            if (e.getValue().isArray() && e.getValue().size() > ep.pageSize) {
                ObjectNode first = page(new Paged(tool, payload, e.getKey(), 1));
                return o.withPayload(first, Json.write(first));
            }
        }
        return o;
    }

    /** One page of a result; registers the token of the next page. */
    private ObjectNode page(Paged p) {
        JsonNode all = p.full().get(p.field());
        int pages = (all.size() + ep.pageSize - 1) / ep.pageSize;
        ObjectNode out = Json.object();
        for (Iterator<Map.Entry<String, JsonNode>> it = p.full().fields(); it.hasNext(); ) {
            var e = it.next();
            if (!e.getKey().equals(p.field())) {
                out.set(e.getKey(), e.getValue());
                continue;
            }
            ArrayNode slice = out.putArray(p.field());
            for (int i = (p.page() - 1) * ep.pageSize; i < Math.min(all.size(), p.page() * ep.pageSize); i++) slice.add(all.get(i));
        }
        out.put("page", p.page());
        out.put("total_pages", pages);
        if (p.page() < pages) {
            String token = "pg_" + Long.toString(rnd.nextLong() & 0xFFFFFFFFFL, 36);
            ep.tokens.put(token, new Paged(p.tool(), p.full(), p.field(), p.page() + 1));
            out.put("next_page_token", token);
            ep.issued.add(new String[]{p.tool(), token});
        } else {
            out.putNull("next_page_token");
        }
        return out;
    }

    @Override
    public Guide guide() {
        return new LayerGuide(inner.guide(), this) {
            private int fetches;

            @Override
            public Action next(Step last) {
                if (last != null && !ep.issued.isEmpty()) {
                    String[] next = ep.issued.getFirst();
                    ObjectNode args = Json.object();
                    args.put(TOKEN, next[1]);
                    return Action.CallTools.of("page_" + (fetches++), next[0], Json.write(args));
                }
                return innerNext();
            }
        };
    }
}
