package dev.openagent.store;

/**
 * One evaluation run as stored: its id (a hash of the experiment, so rerunning the same
 * experiment continues the same run), a name, the experiment as JSON, and its state.
 *
 * @param planned episodes the experiment plans
 * @param status  running, complete (every planned episode scored), incomplete (errors or stopped)
 */
public record RunInfo(String id, String name, String config, String createdAt, String updatedAt, int planned,
                      String status, String note) {}
