package dev.openagent.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;

/** The values that what was shown labels, as the view solver reads them for a parameter, a page or a token. */
final class LabelReader {
    private final View view;
    /** How field names shown compare with the names descriptions and protocols give. */
    private final Names names;
    /** The source the instructions call authoritative, where they name one. */
    private final String authority;

    LabelReader(View view, Names names, String authority) {
        this.view = view;
        this.names = names;
        this.authority = authority;
    }

    /**
     * The value a text labels for a parameter: under the parameter's own name, else under a name its description
     * gives ("The confirmation_id of the pending result." under {@code cnfirmation_id}).
     */
    String labelFor(String text, String param, String description) {
        // By the description where there is one: a name can lie (tools and parameters that traded names), a
        // description does not. By the name only where nothing describes the parameter.
        if (description.isBlank()) return lastLabel(text, param);
        String v = null;
        for (Labels.Label l : labelsOf(text)) {
            if (l.key().length() > 2 && mentioned(description, l.key()) && !l.value().isEmpty() && !l.value().equals("null")) v = l.value();
        }
        return v;
    }

    /** The last value a text labels with this name (from the authoritative source's part where there is one). */
    String lastLabel(String text, String name) {
        return Labels.last(authoritativePart(text), name);
    }

    /**
     * The labelled values of a text, read from the authoritative source's part where the instructions name one
     * and the text lists what several sources say ("the 'registry' source is authoritative").
     */
    List<Labels.Label> labelsOf(String text) {
        return Labels.of(authoritativePart(text));
    }

    private String authoritativePart(String text) {
        if (authority == null) return text;
        // A JSON result that lists its sources: the authoritative source's entry, read as JSON (a record's own
        // "source" field, as a tau2 payment method has, is not where the next source starts).
        if (text.stripLeading().startsWith("{")) {
            try {
                for (JsonNode e : Json.MAPPER.readTree(text).path("sources")) {
                    if (authority.equalsIgnoreCase(e.path("source").asText())) return Json.write(e);
                }
            } catch (com.fasterxml.jackson.core.JsonProcessingException notJson) {
                // another rendering: by the source labels below
            }
        }
        Matcher m = Answers.SOURCE.matcher(text);
        List<int[]> starts = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        while (m.find()) {
            starts.add(new int[]{m.start()});
            sources.add(m.group(1));
        }
        for (int i = 0; i < sources.size(); i++) {
            if (!sources.get(i).equalsIgnoreCase(authority)) continue;
            int end = i + 1 < starts.size() ? starts.get(i + 1)[0] : text.length();
            return text.substring(starts.get(i)[0], end);
        }
        return text;
    }

    /** The value a text labels with a name the description gives as a name (with '_' or in camelCase). */
    String labelNamed(String text, String description) {
        String v = null;
        for (Labels.Label l : labelsOf(text)) {
            if (Names.words(l.key()).size() < 2 || l.value().isEmpty() || l.value().equals("null")) continue;
            if (mentioned(description, l.key())) v = l.value();
        }
        return v;
    }

    /** Whether a description mentions a field by this shown name ("the confirmation_id of" names {@code confirmationId}). */
    boolean mentioned(String description, String key) {
        for (String w : description.split("[^A-Za-z0-9_]+")) if (!w.isEmpty() && names.same(key, w)) return true;
        return false;
    }

    /** The latest value any text shown labels with this name. */
    String labeled(String name) {
        List<View.Shown> all = view.all();
        for (int i = all.size() - 1; i >= 0 && all.get(i).turn() > 0; i--) {
            String v = lastLabel(all.get(i).text(), name);
            if (v != null) return v;
        }
        return null;
    }

    /** The latest value any answer labels with a name the description mentions. */
    String labeledAsDescribed(String description) {
        List<View.Shown> all = view.all();
        for (int i = all.size() - 1; i >= 0 && all.get(i).turn() > 0; i--) {
            String v = null;
            for (Labels.Label l : labelsOf(all.get(i).text())) {
                if (mentioned(description, l.key()) && !l.value().isEmpty() && !l.value().equals("null")) v = l.value();
            }
            if (v != null) return v;
        }
        return null;
    }

    /** The token of the next page an answer gives for a page parameter: the label naming it with "next", else the parameter's own name. */
    String pageToken(String answer, String param, String description) {
        List<Labels.Label> labels = labelsOf(answer).stream()
                .filter(l -> !l.value().isEmpty() && !l.value().equals("null") && !l.value().equals("None")).toList();
        for (Labels.Label l : labels) {
            String k = Labels.norm(l.key());
            if (k.contains("next") && k.contains("page")) return l.value();
        }
        // A field the page parameter's description names ("pass its next_page_token"), however the result renamed it.
        for (Labels.Label l : labels) if (Names.words(l.key()).size() > 1 && mentioned(description, l.key())) return l.value();
        return labels.stream().filter(l -> names.same(l.key(), param)).map(Labels.Label::value).reduce((a, b) -> b).orElse(null);
    }
}
