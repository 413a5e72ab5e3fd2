package dev.openagent.oracle;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/** What was sent for one step: the tool as shown, the arguments as sent, the ids of every call made for it. */
record Sent(String tool, ObjectNode args, List<String> ids) {}
