package com.example.concierge;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.tool.AiServiceTool;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderResult;

import java.util.Set;

/**
 * The concierge as first written: it offers the model only the tools the team reviewed, by name.
 * It works as long as the tools keep their names; when the guide renames them
 * ({@code search_places} becomes {@code find_venues}) it silently loses every tool. Its robustness
 * test ({@code BrittleConciergeRobustness}) catches that.
 */
public final class BrittleConcierge {
    static final Set<String> REVIEWED_TOOLS = Set.of("search_places", "get_place_details", "get_opening_hours", "get_distance",
            "find_nearby", "check_availability", "make_reservation", "find_reservations", "get_reservation", "cancel_reservation",
            "get_reviews", "list_districts", "ask_user");

    private BrittleConcierge() {}

    public static Concierge create(ChatModel model, ToolProvider tools, String instructions) {
        return Concierge.create(model, reviewedOnly(tools), instructions);
    }

    static ToolProvider reviewedOnly(ToolProvider tools) {
        return request -> {
            ToolProviderResult.Builder reviewed = ToolProviderResult.builder();
            for (AiServiceTool tool : tools.provideTools(request).aiServiceTools()) {
                if (REVIEWED_TOOLS.contains(tool.name())) reviewed.add(tool);
            }
            return reviewed.build();
        };
    }
}
