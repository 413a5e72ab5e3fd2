package dev.openagent.sandbox;

/**
 * A detail the query states that a query shift may remove: its exact span in the query, the
 * keywords a question about it mentions ('|'-separated) and what the user replies when asked.
 *
 * @param ambiguousWithout whether removing the span leaves the request matching several entities
 *                         (then it is the one {@code query.ambiguous} removes)
 */
public record Detail(String key, String span, String keywords, String reply, boolean ambiguousWithout) {}
