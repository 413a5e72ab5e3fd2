package dev.openagent.store;

/**
 * How far a run has got in the store, whoever wrote it (shards on other machines included).
 *
 * @param stored episodes linked to the run, infrastructure errors included
 * @param scored those that finished (anything but an infrastructure error)
 */
public record RunProgress(int stored, int scored) {}
