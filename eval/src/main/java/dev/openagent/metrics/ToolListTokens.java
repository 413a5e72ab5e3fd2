package dev.openagent.metrics;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.openagent.chat.ChatCodec;
import dev.openagent.json.Json;
import dev.openagent.sandbox.ToolSpec;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a tool list costs in tokens: each tool as an OpenAI chat request's {@code tools} field sends it
 * ({@code {"type":"function","function":{"name","description","parameters"}}}, {@link ChatCodec#tools}), counted with
 * the o200k_base encoding (GPT-4o's; jtokkit ships it, nothing is downloaded) and summed over the list (the commas
 * between entries aside). A chat model is sent the list with every request, so an episode pays it once a turn. Other
 * models' tokenizers and chat templates differ: read the numbers as the list's size in one well-known encoding, not as
 * a bill. Counts are kept per tool, since a crowded list repeats its tools from episode to episode.
 */
public final class ToolListTokens {
    /** Thread-safe and immutable once built (jtokkit's encodings are). */
    private static final Encoding O200K = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);

    private final Map<String, Integer> byTool = new ConcurrentHashMap<>();

    /** The tokens of the list, each tool as the request sends it. */
    public int of(List<ToolSpec> tools) {
        int n = 0;
        for (ToolSpec t : tools) n += byTool.computeIfAbsent(Json.write(ChatCodec.tools(List.of(t)).get(0)), O200K::countTokensOrdinary);
        return n;
    }

    /** The tokens of a text in the same encoding. */
    public static int count(String text) { return O200K.countTokensOrdinary(text); }
}
