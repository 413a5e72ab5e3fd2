#!/usr/bin/env python3
"""A client for `openagent serve env`, standard library only (urllib + json).

Copy this file next to your trainer (verl, OpenRLHF, TRL, or your own loop). The wire format is
documented in docs/serve-env.md. One EnvClient can be shared by threads: every call is one
independent HTTP request.

    client = EnvClient("http://127.0.0.1:8765")
    start = client.create(env="poi", shift="none", split="train")
    sid, messages, tools = start["session_id"], start["messages"], start["tools"]
    while True:
        action = my_policy(messages, tools)        # e.g. your model's assistant message
        result = client.step(sid, action)
        messages += result["messages"]
        if result["done"]:
            reward = result["reward"]
            break
    client.close(sid)

Run as a script, it plays episodes with the server's oracle (the server must be started with
--allow-oracle) and prints one JSON line per episode, then a summary line:

    python3 openagent_env_client.py --url http://127.0.0.1:8765 --env poi --episodes 5
"""

import argparse
import json
import os
import sys
import urllib.error
import urllib.request

__all__ = ["EnvClient", "EnvError", "run_episode", "oracle_policy"]


class EnvError(Exception):
    """The server refused a request: HTTP status, error code and message from its JSON error."""

    def __init__(self, status, code, message):
        super().__init__("%s %s: %s" % (status, code, message))
        self.status = status
        self.code = code
        self.message = message


class EnvClient:
    def __init__(self, base_url="http://127.0.0.1:8765", token=None, timeout=60.0):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        # No proxies: the server is on loopback, and an http_proxy variable must not reroute it.
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def _request(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(self.base_url + path, data=data, method=method)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with self._opener.open(req, timeout=self.timeout) as resp:
                return json.loads(resp.read().decode("utf-8"))
        except urllib.error.HTTPError as e:
            raw = e.read().decode("utf-8", "replace")
            try:
                err = json.loads(raw)["error"]
                raise EnvError(e.code, err.get("code"), err.get("message")) from None
            except (ValueError, KeyError, TypeError):
                raise EnvError(e.code, "http_error", raw[:500]) from None

    def health(self):
        return self._request("GET", "/v1/health")

    def envs(self):
        return self._request("GET", "/v1/envs")

    def create(self, env, shift="none", split="train", difficulty=0, task=None, seed=None, run_seed=1):
        """Creates a session and starts its first episode. Returns the reset payload plus session_id."""
        body = {"env": env, "shift": shift, "split": split, "difficulty": difficulty, "run_seed": run_seed}
        if task is not None:
            body["task"] = task
        if seed is not None:
            body["seed"] = seed
        return self._request("POST", "/v1/sessions", body)

    def reset(self, session_id, task=None, seed=None, split=None, difficulty=None):
        """Starts the next episode (the next task index unless task or seed is given)."""
        body = {}
        for key, value in (("task", task), ("seed", seed), ("split", split), ("difficulty", difficulty)):
            if value is not None:
                body[key] = value
        return self._request("POST", "/v1/sessions/%s/reset" % session_id, body)

    def step(self, session_id, action):
        """action: {"tool_calls": [...]} (OpenAI shape), {"answer": str}, {"refuse": str},
        {"ask_user": str}, {"command": str}, or an OpenAI assistant message as your model returned it."""
        return self._request("POST", "/v1/sessions/%s/step" % session_id, action)

    def oracle(self, session_id):
        """The oracle's next action (privileged; only when the server runs with --allow-oracle)."""
        return self._request("GET", "/v1/sessions/%s/oracle" % session_id)["action"]

    def trajectory(self, session_id):
        """The finished episode as a trajectory (task, shifts, messages, outcome, stats)."""
        return self._request("GET", "/v1/sessions/%s/trajectory" % session_id)

    def close(self, session_id):
        return self._request("DELETE", "/v1/sessions/%s" % session_id)


def run_episode(client, session_id, start, policy, max_steps=100):
    """Plays one episode: policy(messages, tools) -> action. Returns the final step result."""
    messages = list(start["messages"])
    tools = start["tools"]
    for _ in range(max_steps):
        result = client.step(session_id, policy(messages, tools))
        messages += result["messages"]
        if result["done"]:
            result["transcript"] = messages
            return result
    raise RuntimeError("episode did not end within %d steps" % max_steps)


def oracle_policy(client, session_id):
    """A policy that asks the server's oracle: for testing clients and pipelines end to end."""
    return lambda messages, tools: client.oracle(session_id)


def main(argv=None):
    ap = argparse.ArgumentParser(description="Play episodes against `openagent serve env` with the oracle.")
    ap.add_argument("--url", default="http://127.0.0.1:8765")
    ap.add_argument("--env", default="poi")
    ap.add_argument("--shift", default="none")
    ap.add_argument("--split", default="train")
    ap.add_argument("--difficulty", type=int, default=0)
    ap.add_argument("--episodes", type=int, default=3)
    ap.add_argument("--token-env", help="name of the environment variable holding the bearer token")
    args = ap.parse_args(argv)
    token = os.environ.get(args.token_env) if args.token_env else None
    client = EnvClient(args.url, token=token)

    start = client.create(env=args.env, shift=args.shift, split=args.split, difficulty=args.difficulty)
    sid = start["session_id"]
    rewards = []
    try:
        for i in range(args.episodes):
            if i > 0:
                start = client.reset(sid)
            result = run_episode(client, sid, start, oracle_policy(client, sid))
            rewards.append(result["reward"])
            print(json.dumps({"episode": i, "task_id": start["task_id"], "steps": result["info"]["step"],
                              "reward": result["reward"], "outcome": result["outcome"]}), flush=True)
    finally:
        client.close(sid)
    print(json.dumps({"episodes": len(rewards), "mean_reward": sum(rewards) / max(1, len(rewards))}), flush=True)
    return 0 if rewards and all(r == 1.0 for r in rewards) else 1


if __name__ == "__main__":
    sys.exit(main())
