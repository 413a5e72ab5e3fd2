#!/usr/bin/env python3
"""An OpenEnv client for `openagent serve env` that validates every server message.

Its API is OpenEnv's EnvClient's (reset(**data) and step(action) return a StepResult with
observation, reward and done; state(); close(); `async with`, or .sync() for plain code), over
the same WebSocket /ws, one session per connection; HttpSession plays the same loop over the HTTP
routes. Every message the server sends is checked against OpenEnv's own models (openenv_models.py:
the installed openenv-core, OpenEnv's types.py named by OPENENV_SRC, or their field-for-field
restatement) and against this server's observation and state shapes; anything else raises
ProtocolError. Every message the client sends is checked against the same models before it
goes. A trainer with openenv-core installed can use OpenEnv's GenericEnvClient directly instead
(docs/serve-env.md).

Needs Python 3.9+, pydantic 2 and websockets (10 or newer).

    with OpenAgentEnv("http://127.0.0.1:8765").sync() as env:
        result = env.reset(env="poi", shift="tool.semantic-rename", split="train")
        messages, tools = result.observation["messages"], result.observation["tools"]
        while not result.done:
            result = env.step(my_policy(messages, tools))   # e.g. your model's assistant message
            messages += result.observation["messages"]
        print(result.reward, result.observation["outcome"])

Run as a script, it plays episodes with the oracle's actions (the server must run with
--allow-oracle), one JSON line per episode and a summary line; exit status 0 when every
episode got reward 1.0:

    python3 openagent_env.py --url http://127.0.0.1:8765 --condition poi:none --condition household:none --episodes 3
"""

import argparse
import asyncio
import json
import os
import sys
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Dict, List, Literal, Optional

from pydantic import BaseModel, ConfigDict, ValidationError

try:
    import websockets  # noqa: F401
except ImportError:
    # Debian's python3-websockets lives outside other Pythons' paths; look there last, after
    # every package this interpreter has of its own.
    sys.path.append("/usr/lib/python3/dist-packages")
    import websockets  # noqa: F401

try:  # websockets >= 13
    from websockets.asyncio.client import connect as _ws_connect
    _HEADERS_ARG = "additional_headers"
except ImportError:  # websockets 10-12
    from websockets.client import connect as _ws_connect
    _HEADERS_ARG = "extra_headers"

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from openenv_models import MODELS  # noqa: E402

__all__ = ["OpenAgentEnv", "SyncOpenAgentEnv", "HttpSession", "StepResult", "EnvError", "ProtocolError", "MODELS"]

# What OpenEnv's own server puts in an error's data beside message and code (http_server.py), by code.
_ERROR_EXTRAS = {"VALIDATION_ERROR": {"errors"}, "CAPACITY_REACHED": {"active_sessions", "max_sessions"},
                 "FACTORY_ERROR": {"factory_name"}}


# ---- this server's own shapes (inside OpenEnv's observation and state dicts) ----

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ToolError(_Strict):
    code: str
    message: str


class StepObservation(_Strict):
    source: Literal["tool", "user", "env"]
    call_id: Optional[str]
    tool: Optional[str]
    text: str
    error: Optional[ToolError]


class Outcome(_Strict):
    success: bool
    end: Literal["answered", "refused", "step_limit", "infra_error"]
    detail: str


class OpenAgentObservation(_Strict):
    """The observation of `openagent serve env` (docs/serve-env.md): reset-only fields are optional."""
    episode_id: str
    step: int
    env: Optional[str] = None
    shift: Optional[str] = None
    interface: Optional[Literal["function-call", "text-command"]] = None
    split: Optional[Literal["train", "test"]] = None
    difficulty: Optional[int] = None
    task_id: Optional[str] = None
    task_index: Optional[int] = None
    task_seed: Optional[int] = None
    system_prompt: Optional[str] = None
    query: Optional[str] = None
    tools: Optional[List[Dict[str, Any]]] = None
    messages: List[Dict[str, Any]]
    observations: List[StepObservation]
    tool_errors: int
    outcome: Optional[Outcome]
    solvable: Optional[bool]
    oracle: Optional[Dict[str, Any]] = None


class OpenAgentState(_Strict):
    episode_id: Optional[str]
    step_count: int
    env: str
    shift: str
    split: Literal["train", "test"]
    difficulty: int
    run_seed: int
    next_task: int
    episodes: int
    task_id: Optional[str]
    done: bool
    outcome: Optional[Outcome]
    trajectory: Optional[Dict[str, Any]] = None


@dataclass
class StepResult:
    """OpenEnv's StepResult: what reset and step return."""
    observation: Dict[str, Any]
    reward: Optional[float] = None
    done: bool = False


class EnvError(RuntimeError):
    """The server answered with an error message (a WSErrorCode and a message)."""

    def __init__(self, code, message):
        super().__init__("%s: %s" % (code, message))
        self.code = code
        self.message = message


class ProtocolError(RuntimeError):
    """A server message that OpenEnv's models (or this server's documented shapes) refuse."""


def _ws_url(base_url):
    url = base_url.rstrip("/")
    if url.startswith("http://"):
        url = "ws://" + url[len("http://"):]
    elif url.startswith("https://"):
        url = "wss://" + url[len("https://"):]
    return url + "/ws"


class OpenAgentEnv:
    """Async client: one WebSocket connection, one server session."""

    def __init__(self, base_url="http://127.0.0.1:8765", token=None, connect_timeout_s=10.0,
                 message_timeout_s=60.0, max_message_size_mb=100.0):
        self.base_url = base_url.rstrip("/")
        self._ws_url = _ws_url(base_url)
        self._token = token
        self._connect_timeout = connect_timeout_s
        self._message_timeout = message_timeout_s
        self._max_size = int(max_message_size_mb * 1024 * 1024)
        self._ws = None
        self.validated = 0   # server messages checked so far
        self.sent = 0        # client messages checked so far

    async def connect(self):
        if self._ws is None:
            headers = [("Authorization", "Bearer " + self._token)] if self._token else []
            kwargs = {"max_size": self._max_size, "open_timeout": self._connect_timeout, _HEADERS_ARG: headers}
            self._ws = await _ws_connect(self._ws_url, **kwargs)
        return self

    async def _send(self, message):
        text = json.dumps(message)
        try:
            MODELS.check_outgoing(text)
        except (ValidationError, ValueError) as e:
            raise ProtocolError("a client message failed validation against %s: %s\n%s" % (MODELS.source, e, text[:500])) from None
        self.sent += 1
        await self._ws.send(text)

    async def _exchange(self, message):
        await self.connect()
        await self._send(message)
        raw = await asyncio.wait_for(self._ws.recv(), timeout=self._message_timeout)
        return self._check(raw)

    def _check(self, raw):
        """Validates one server message; returns (type, data) or raises EnvError / ProtocolError."""
        try:
            payload = json.loads(raw)
        except ValueError as e:
            raise ProtocolError("the server sent a message that is not JSON: %s" % e) from None
        kind = payload.get("type") if isinstance(payload, dict) else None
        try:
            if kind == "observation":
                data = MODELS.WSObservationResponse.model_validate(payload).data
                MODELS.StepResponse.model_validate(data)
                OpenAgentObservation.model_validate(data["observation"])
            elif kind == "state":
                data = MODELS.WSStateResponse.model_validate(payload).data
                MODELS.State.model_validate(data)
                OpenAgentState.model_validate(data)
            elif kind == "error":
                data = MODELS.WSErrorResponse.model_validate(payload).data
                code = MODELS.WSErrorCode(data.get("code")).value
                allowed = {"message", "code"} | _ERROR_EXTRAS.get(code, set())
                if not isinstance(data.get("message"), str) or not set(data) <= allowed:
                    raise ProtocolError("an error's data must hold a message, the code and what OpenEnv adds for %s (%s): %s"
                                        % (code, sorted(allowed), sorted(data)))
                self.validated += 1
                raise EnvError(code, data["message"])
            else:
                raise ProtocolError("unknown server message type %r" % (kind,))
        except (ValidationError, ValueError) as e:
            raise ProtocolError("a server message failed validation against %s: %s\n%s"
                                % (MODELS.source, e, str(raw)[:500])) from None
        self.validated += 1
        return kind, data

    def _expect(self, answer, kind):
        if answer[0] != kind:
            raise ProtocolError("expected a %s message, got %s" % (kind, answer[0]))
        return answer[1]

    async def reset(self, **data):
        """Starts an episode: env, shift, split, difficulty, task or seed, run_seed, episode_id (all optional)."""
        message = MODELS.WSResetMessage(data=data).model_dump()
        d = self._expect(await self._exchange(message), "observation")
        MODELS.ResetResponse.model_validate(d)
        return StepResult(observation=d["observation"], reward=d.get("reward"), done=d.get("done", False))

    async def step(self, action):
        """action: {"tool_calls": [...]}, {"answer": ...}, {"refuse": ...}, {"ask_user": ...}, {"command": ...},
        or an OpenAI assistant message as your model returned it."""
        message = MODELS.WSStepMessage(data=action).model_dump()
        d = self._expect(await self._exchange(message), "observation")
        return StepResult(observation=d["observation"], reward=d.get("reward"), done=d.get("done", False))

    async def state(self):
        return self._expect(await self._exchange(MODELS.WSStateMessage().model_dump()), "state")

    async def close(self):
        if self._ws is not None:
            try:
                await self._send(MODELS.WSCloseMessage().model_dump())
            except Exception:  # noqa: BLE001 - best effort: the connection may be gone
                pass
            await self._ws.close()
            self._ws = None

    async def __aenter__(self):
        return await self.connect()

    async def __aexit__(self, *exc):
        await self.close()

    def sync(self):
        return SyncOpenAgentEnv(self)

    # ---- the HTTP endpoints, each checked against OpenEnv's model ----

    def _http(self, method, path, body=None, session_id=None):
        """One HTTP request; returns the JSON answer and the response headers."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(self.base_url + path, data=data, method=method, headers={"Accept": "application/json"})
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if session_id is not None:
            req.add_header("Session-Id", session_id)
        if self._token:
            req.add_header("Authorization", "Bearer " + self._token)
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))   # loopback: never via a proxy
        with opener.open(req, timeout=self._message_timeout) as resp:
            return json.loads(resp.read().decode("utf-8")), resp.headers

    def _get(self, path):
        return self._http("GET", path)[0]

    def http_session(self):
        """A session over the HTTP routes (see HttpSession)."""
        return HttpSession(self)

    def health(self):
        return MODELS.HealthResponse.model_validate(self._get("/health"))

    def metadata(self):
        return MODELS.EnvironmentMetadata.model_validate(self._get("/metadata"))

    def schema(self):
        return MODELS.SchemaResponse.model_validate(self._get("/schema"))


class SyncOpenAgentEnv:
    """The async client on a private event loop, for plain synchronous code (like OpenEnv's SyncEnvClient)."""

    def __init__(self, client):
        self._client = client
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()

    def _run(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    @property
    def validated(self):
        return self._client.validated

    @property
    def sent(self):
        return self._client.sent

    def connect(self):
        self._run(self._client.connect())
        return self

    def reset(self, **data):
        return self._run(self._client.reset(**data))

    def step(self, action):
        return self._run(self._client.step(action))

    def state(self):
        return self._run(self._client.state())

    def close(self):
        try:
            self._run(self._client.close())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)

    def __enter__(self):
        return self.connect()

    def __exit__(self, *exc):
        self.close()


class HttpSession:
    """One session over OpenEnv's HTTP routes (POST /reset, POST /step, GET /state, POST /close),
    kept by the Session-Id header that the first reset returns. Requests and answers are checked
    as over the WebSocket: ResetRequest and StepRequest out, ResetResponse, StepResponse and State in."""

    def __init__(self, client):
        self._client = client
        self.session_id = None
        self.validated = 0
        self.sent = 0

    def _call(self, method, path, body=None):
        answer, headers = self._client._http(method, path, body, self.session_id)
        self.session_id = headers.get("Session-Id") or self.session_id
        return answer

    def _validated(self, model, answer):
        try:
            model.model_validate(answer)
        except ValidationError as e:
            raise ProtocolError("an HTTP answer failed validation against %s: %s\n%s"
                                % (MODELS.source, e, json.dumps(answer)[:500])) from None
        self.validated += 1
        return answer

    def reset(self, **data):
        _checked_request(MODELS.ResetRequest, data)
        self.sent += 1
        d = self._validated(MODELS.ResetResponse, self._call("POST", "/reset", data))
        OpenAgentObservation.model_validate(d["observation"])
        return StepResult(observation=d["observation"], reward=d.get("reward"), done=d.get("done", False))

    def step(self, action, **options):
        body = dict(options, action=action)
        _checked_request(MODELS.StepRequest, body)
        self.sent += 1
        d = self._validated(MODELS.StepResponse, self._call("POST", "/step", body))
        OpenAgentObservation.model_validate(d["observation"])
        return StepResult(observation=d["observation"], reward=d.get("reward"), done=d.get("done", False))

    def state(self):
        d = self._validated(MODELS.State, self._call("GET", "/state"))
        OpenAgentState.model_validate(d)
        return d

    def close(self):
        if self.session_id is not None:
            self._call("POST", "/close", {})
            self.session_id = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _checked_request(model, body):
    try:
        model.model_validate(body)
    except ValidationError as e:
        raise ProtocolError("a request failed validation against %s: %s" % (MODELS.source, e)) from None


def play_with_oracle(client, reset_data, max_steps=100):
    """One episode driven by the oracle action each observation carries (--allow-oracle)."""
    result = client.reset(**reset_data)
    start = result.observation
    for _ in range(max_steps):
        action = result.observation.get("oracle")
        if action is None:
            raise RuntimeError("observations carry no oracle action: start the server with --allow-oracle")
        result = client.step(action)
        if result.done:
            return start, result
    raise RuntimeError("episode did not end within %d steps" % max_steps)


def _episode_line(transport, index, start, last, state):
    return json.dumps({"transport": transport, "env": start["env"], "shift": start["shift"], "episode": index,
                       "task_id": start["task_id"], "steps": last.observation["step"], "reward": last.reward,
                       "outcome": last.observation["outcome"], "state_done": state["done"]})


def main(argv=None):
    ap = argparse.ArgumentParser(description="Play oracle episodes against `openagent serve env --allow-oracle` "
                                             "over the OpenEnv WebSocket and HTTP routes, validating every message both ways.")
    ap.add_argument("--url", default="http://127.0.0.1:8765")
    ap.add_argument("--condition", action="append", metavar="ENV:SHIFT",
                    help="an environment and a shift stack (repeatable; default: the server's defaults)")
    ap.add_argument("--split", default="train")
    ap.add_argument("--episodes", type=int, default=3, help="episodes per condition over the WebSocket")
    ap.add_argument("--http-episodes", type=int, default=1, help="episodes per condition over the HTTP routes")
    ap.add_argument("--token-env", help="name of the environment variable holding the bearer token")
    args = ap.parse_args(argv)
    token = os.environ.get(args.token_env) if args.token_env else None
    conditions = [c.split(":", 1) for c in (args.condition or [])] or [[None, None]]

    def reset_data(env_id, shift, i):
        data = {"split": args.split}
        if env_id:
            data.update(env=env_id, shift=shift or "none")
        if i == 0:
            data["task"] = 0
        return data

    client = OpenAgentEnv(args.url, token=token)
    client.health()
    client.metadata()
    client.schema()
    rewards = []
    errors = 0
    with client.sync() as env, client.http_session() as http:
        for env_id, shift in conditions:
            for i in range(args.episodes):
                start, last = play_with_oracle(env, reset_data(env_id, shift, i))
                rewards.append(last.reward)
                print(_episode_line("ws", i, start, last, env.state()), flush=True)
            for i in range(args.http_episodes):
                start, last = play_with_oracle(http, reset_data(env_id, shift, i))
                rewards.append(last.reward)
                print(_episode_line("http", i, start, last, http.state()), flush=True)
        if rewards:
            # the episode is over: one more step is a SESSION_ERROR, checked as OpenEnv's WSErrorResponse
            try:
                env.step({"answer": "again"})
                raise ProtocolError("a step after the episode ended was accepted")
            except EnvError as e:
                if e.code != "SESSION_ERROR":
                    raise ProtocolError("a step after the episode ended: %s, not SESSION_ERROR" % e.code) from None
                errors += 1
        validated = env.validated + http.validated + 3
        sent = env.sent + http.sent
    print(json.dumps({"episodes": len(rewards), "mean_reward": sum(rewards) / max(1, len(rewards)),
                      "validated_messages": validated, "sent_messages": sent, "errors_checked": errors,
                      "models": MODELS.source}), flush=True)
    return 0 if rewards and all(r == 1.0 for r in rewards) else 1


if __name__ == "__main__":
    sys.exit(main())
