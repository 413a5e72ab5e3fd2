package com.example.concierge;

import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.tool.ToolCallback;

import java.util.List;
import java.util.Set;

/**
 * The concierge as first written: it gives the model only the tools the team reviewed, by name.
 * It works as long as the tools keep their names; when the guide renames them
 * ({@code search_places} becomes {@code find_venues}) it silently loses every tool. Its robustness
 * test ({@code BrittleConciergeRobustness}) catches that.
 */
public final class BrittleConcierge {
    static final Set<String> REVIEWED_TOOLS = Set.of("search_places", "get_place_details", "get_opening_hours", "get_distance",
            "find_nearby", "check_availability", "make_reservation", "find_reservations", "get_reservation", "cancel_reservation",
            "get_reviews", "list_districts", "ask_user");

    private BrittleConcierge() {}

    public static Concierge create(ChatModel model, List<ToolCallback> tools, String instructions) {
        return new Concierge(model, tools.stream().filter(t -> REVIEWED_TOOLS.contains(t.getToolDefinition().name())).toList(), instructions);
    }
}
