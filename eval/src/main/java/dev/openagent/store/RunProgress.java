package dev.openagent.store;

/**
 * How far a run has got in the store, whoever wrote it (shards on other machines included).
 *
 * @param stored   episodes linked to the run, infrastructure errors included
 * @param finished those that finished (anything but an infrastructure error)
 * @param scored   those of the finished that have a score (all but proxy sessions without a task)
 */
public record RunProgress(int stored, int finished, int scored) {}
