#!/usr/bin/env python3
"""Replays the gold actions of every retail task of a tau2-bench checkout in tau2's own Python environment.

Used by the tau2 module's fidelity test and benchmark (docs/tau2.md): nothing here re-implements tau2; it
loads tau2's retail environment from the checkout and calls it. tau2's package __init__ (which imports its
runner, model clients and audio stack) is bypassed, and the few third-party modules the retail environment
imports but never uses on this path (loguru, dotenv, toml, deepdiff, addict, docstring_parser when absent) are
stubbed.

  tau2_replay.py replay TAU2_DIR [--tasks ID,ID] [--initial]   one JSON object on stdout: per task, every gold
                                                                action's response and the final database's
                                                                changes against db.json ({table: {id: record or
                                                                null}}); --initial adds the loaded database
  tau2_replay.py bench TAU2_DIR --rounds N                       steps per second of the gold actions (JSON)
  tau2_replay.py schemas TAU2_DIR                                the tools as tau2 shows them to an agent (needs
                                                                the real docstring_parser)

Needs python3 >= 3.10 with pydantic 2.
"""
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import time
import types


class _Anything:
    """Stands for any attribute, call or instance of a stubbed module."""

    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        return _Anything()

    def __getattr__(self, name):
        return _Anything()

    def __bool__(self):
        return False


class _AnyType(type):
    """A stubbed class: its attributes are stubs too (logger.warning(...)), and it can be subclassed."""

    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Anything()


class _StubModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _AnyType(name, (_Anything,), {})


class _StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Answers imports of the listed top-level modules (and their submodules) with stubs."""

    def __init__(self, names):
        self.names = set(names)

    def find_spec(self, fullname, path, target=None):
        if fullname.split(".")[0] in self.names:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        m = _StubModule(spec.name)
        m.__path__ = []
        return m

    def exec_module(self, module):
        if module.__name__ == "dotenv":
            module.load_dotenv = lambda *a, **k: False


def _missing(name):
    try:
        return importlib.util.find_spec(name) is None
    except (ImportError, ValueError):
        return True


_LOADED = {}


def load_tau2(root):
    """tau2's retail environment module and toolkit classes, from the checkout at root (loaded once per process)."""
    if root in _LOADED:
        return _LOADED[root]
    src = os.path.join(root, "src", "tau2")
    data = os.path.join(root, "data")
    if not os.path.isfile(os.path.join(src, "domains", "retail", "tools.py")):
        sys.exit(f"tau2_replay: {root} has no src/tau2/domains/retail/tools.py")
    os.environ["TAU2_DATA_DIR"] = data
    stubs = [n for n in ("loguru", "dotenv", "toml", "deepdiff", "addict", "docstring_parser", "yaml") if _missing(n)]
    sys.meta_path.insert(0, _StubFinder(stubs))
    # The package itself, without running its __init__ (which imports the runner and model clients).
    pkg = types.ModuleType("tau2")
    pkg.__path__ = [src]
    sys.modules["tau2"] = pkg
    import tau2.domains.retail.environment as env_module
    from tau2.data_model.message import ToolCall
    from tau2.domains.retail.data_model import RetailDB
    _LOADED[root] = (env_module, ToolCall, RetailDB, stubs)
    return _LOADED[root]


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def changes(initial, final):
    """{table: {id: record or None}}: the records whose final value differs from the initial one."""
    out = {}
    for table in initial:
        a, b = initial[table], final[table]
        diff = {k: b.get(k) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)}
        if diff:
            out[table] = diff
    return out


def replay_tasks(root, only=None, initial=None):
    """Each task's gold actions replayed on a fresh environment: its responses and the database changes they leave."""
    env_module, ToolCall, RetailDB, _ = load_tau2(root)
    domain = os.path.join(root, "data", "tau2", "domains", "retail")
    raw = read_json(os.path.join(domain, "db.json"))
    tasks = read_json(os.path.join(domain, "tasks.json"))
    first = RetailDB.model_validate(raw).model_dump()
    if initial is not None:
        initial.update(first)
    out = []
    for task in tasks:
        if only and task["id"] not in only:
            continue
        env = env_module.get_environment(db=RetailDB.model_validate(raw))
        responses = []
        for i, action in enumerate(task["evaluation_criteria"]["actions"] or []):
            call = ToolCall(id=f"call_{i}", name=action["name"], arguments=action["arguments"], requestor="assistant")
            msg = env.get_response(call)
            responses.append({"name": action["name"], "error": msg.error, "content": msg.content})
        final = env.tools.db.model_dump()
        out.append({"id": task["id"], "responses": responses, "db_changes": changes(first, final), "db_hash": env.get_db_hash()})
    return out


def replay(root, only, with_initial):
    initial = {} if with_initial else None
    tasks = replay_tasks(root, only, initial)
    out = {"tasks": tasks}
    if with_initial:
        out["initial"] = initial
    json.dump(out, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


def bench(root, rounds):
    """Steps per second: every task's gold actions through Environment.get_response, as an agent's calls go,
    on a fresh environment per task (its database validated again from the parsed db.json, as tau2 loads it), timed
    apart from the resets."""
    env_module, ToolCall, RetailDB, _ = load_tau2(root)
    domain = os.path.join(root, "data", "tau2", "domains", "retail")
    raw = read_json(os.path.join(domain, "db.json"))
    tasks = read_json(os.path.join(domain, "tasks.json"))
    calls = [[ToolCall(id=f"call_{i}", name=a["name"], arguments=a["arguments"], requestor="assistant")
              for i, a in enumerate(t["evaluation_criteria"]["actions"] or [])] for t in tasks]
    step_seconds, reset_seconds, steps, resets = 0.0, 0.0, 0, 0
    for _ in range(rounds):
        for task_calls in calls:
            t0 = time.process_time()
            env = env_module.get_environment(db=RetailDB.model_validate(raw))
            t1 = time.process_time()
            for c in task_calls:
                env.get_response(c)
            t2 = time.process_time()
            reset_seconds += t1 - t0
            step_seconds += t2 - t1
            steps += len(task_calls)
            resets += 1
    json.dump({"steps": steps, "step_cpu_seconds": step_seconds, "steps_per_second": steps / step_seconds,
               "resets": resets, "reset_cpu_seconds": reset_seconds, "resets_per_second": resets / reset_seconds},
              sys.stdout)
    sys.stdout.write("\n")


def schemas(root):
    env_module, _, _, stubs = load_tau2(root)
    if "docstring_parser" in stubs:
        sys.exit("tau2_replay: schemas needs the docstring_parser package")
    env = env_module.get_environment()
    json.dump({t.name: t.openai_schema["function"] for t in env.get_tools()}, sys.stdout, indent=1)
    sys.stdout.write("\n")


def main(argv):
    if len(argv) < 3 or argv[1] not in ("replay", "bench", "schemas"):
        sys.exit(__doc__)
    root = argv[2]
    rest = argv[3:]
    if argv[1] == "replay":
        only = set()
        if "--tasks" in rest:
            only = set(rest[rest.index("--tasks") + 1].split(","))
        replay(root, only, "--initial" in rest)
    elif argv[1] == "bench":
        rounds = int(rest[rest.index("--rounds") + 1]) if "--rounds" in rest else 3
        bench(root, rounds)
    else:
        schemas(root)


if __name__ == "__main__":
    main(sys.argv)
