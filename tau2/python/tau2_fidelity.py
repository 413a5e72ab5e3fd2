#!/usr/bin/env python3
"""Checks OpenAgent's tau2-retail episodes against tau2-bench's own Python environment.

  tau2_fidelity.py TAU2_DIR TRAJECTORIES.jsonl [...] [--require-success] [--dump FILE]

For every episode in the trajectory files (`openagent run --env tau2:retail --out DIR` writes them; each line's
task_id ends with '/' and tau2's task id, and its db_changes holds the records the episode changed), this replays
the task's gold actions in tau2's own retail environment (loaded from the checkout by tau2_replay.py) and compares
tau2's final database with the episode's, field by field: the records tau2's replay changed against db.json and
the records the episode changed must be the same records with the same values. Prints one line per task and a
summary; exits 1 when any database differs (or an episode failed, when --require-success). --dump writes tau2's
replay (every gold action's response, the changes, the database as loaded) to FILE as JSON, for further checks.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tau2_replay  # noqa: E402


def diff(path, a, b, out, limit=5):
    """Field-by-field differences of two JSON values (numbers by value), as 'path: ours (tau2: theirs)'."""
    if len(out) >= limit:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(dict.fromkeys(list(a) + list(b))):
            diff(f"{path}/{k}", a.get(k, "<absent>"), b.get(k, "<absent>"), out, limit)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            diff(f"{path}/{i}", x, y, out, limit)
    elif not (a == b and type(a) is type(b)) and not (isinstance(a, (int, float)) and isinstance(b, (int, float))
                                                      and not isinstance(a, bool) and not isinstance(b, bool) and a == b):
        out.append(f"{path or '/'}: {json.dumps(a)[:100]} (tau2: {json.dumps(b)[:100]})")


def fields(changes):
    """How many leaf fields the changed records hold (what the comparison looked at)."""
    def count(v):
        if isinstance(v, dict):
            return sum(count(x) for x in v.values())
        if isinstance(v, list):
            return sum(count(x) for x in v) if v else 1
        return 1
    return count(changes)


def main(argv):
    argv = list(argv)
    dump = None
    if "--dump" in argv:
        i = argv.index("--dump")
        dump = argv[i + 1]
        del argv[i:i + 2]
    args = [a for a in argv[1:] if not a.startswith("--")]
    if len(args) < 2:
        sys.exit(__doc__)
    root, files = args[0], args[1:]
    require_success = "--require-success" in argv
    episodes = []
    for f in files:
        with open(f, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    t = json.loads(line)
                    if t.get("env") == "tau2-retail":
                        episodes.append(t)
    if not episodes:
        sys.exit("tau2_fidelity: no tau2-retail episode in " + ", ".join(files))
    ids = sorted({t["task_id"].rsplit("/", 1)[1] for t in episodes}, key=lambda x: (len(x), x))
    initial = {} if dump else None
    replayed = tau2_replay.replay_tasks(root, set(ids), initial)
    if dump:
        with open(dump, "w", encoding="utf-8") as fh:
            json.dump({"tasks": replayed, "initial": initial}, fh, separators=(",", ":"))
    tau2 = {t["id"]: t for t in replayed}
    same, differ, failed, compared = 0, 0, 0, 0
    for t in sorted(episodes, key=lambda t: (len(t["task_id"].rsplit("/", 1)[1]), t["task_id"].rsplit("/", 1)[1], t["task_id"])):
        tid = t["task_id"].rsplit("/", 1)[1]
        ours = t.get("db_changes")
        if ours is None:
            print(f"task {tid:>3}: the episode has no db_changes")
            differ += 1
            continue
        theirs = tau2[tid]["db_changes"]
        d = []
        diff("", ours, theirs, d)
        records = sum(len(v) for v in theirs.values())
        compared += fields(theirs)
        ok = t["outcome"]["success"]
        if not ok:
            failed += 1
        if d:
            differ += 1
            print(f"task {tid:>3}: DIFFERENT ({records} record(s) changed by tau2)")
            for x in d:
                print("    " + x)
        else:
            same += 1
            print(f"task {tid:>3}: same final database ({records} record(s) changed, {fields(theirs)} fields)"
                  + ("" if ok else f"; episode FAILED: {t['outcome']['detail']}"))
    print(f"{len(episodes)} episodes over {len(ids)} tasks: final database equal to tau2's replay field by field in {same}, "
          f"different in {differ} ({compared} fields compared); episodes failed: {failed}")
    sys.exit(1 if differ or (require_success and failed) else 0)


if __name__ == "__main__":
    main(sys.argv)
