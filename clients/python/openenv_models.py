"""OpenEnv's wire models, for validating every message of `openagent serve env` both ways.

The models are OpenEnv's own (src/openenv/core/env_server/types.py of huggingface/OpenEnv, formerly
meta-pytorch/OpenEnv; openenv-core 0.2.x) whenever they can be had:

1. `openenv.core.env_server.types`, when openenv-core is installed (pip install openenv-core);
2. else the file OPENENV_SRC names: an OpenEnv checkout (its src/openenv/core/env_server/types.py),
   a folder holding types.py (this project's tests use ../shared/peers/openenv/), or the file
   itself. It needs only pydantic 2 and the standard library of Python 3.10 or newer;
3. else the restatement below: the same models, field for field (names, types, defaults,
   constraints, extra="forbid"/"allow"), so that the client runs with pydantic alone. `SOURCE`
   says which one was loaded. `python3 openenv_models.py --compare` checks the restatement
   against the file OPENENV_SRC names and prints every difference (exit 1 when there is one);
   server/.../PythonClientTest runs it, so the restatement cannot drift unnoticed.

Only the models that cross the wire are used: the WebSocket messages both ways (and their union,
WSIncomingMessage), the HTTP request and response bodies, State, EnvironmentMetadata,
SchemaResponse, HealthResponse and the two enums.
"""

import importlib.util
import os
import sys
from enum import Enum
from typing import Annotated, Any, Dict, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

__all__ = ["load", "compare", "MODELS", "SOURCE"]


class _Restated:
    """OpenEnv's models restated (the fallback); see the module docstring."""

    class HealthStatus(str, Enum):
        HEALTHY = "healthy"
        UNHEALTHY = "unhealthy"
        DEGRADED = "degraded"

    class WSErrorCode(str, Enum):
        INVALID_JSON = "INVALID_JSON"
        UNKNOWN_TYPE = "UNKNOWN_TYPE"
        VALIDATION_ERROR = "VALIDATION_ERROR"
        EXECUTION_ERROR = "EXECUTION_ERROR"
        CAPACITY_REACHED = "CAPACITY_REACHED"
        FACTORY_ERROR = "FACTORY_ERROR"
        SESSION_ERROR = "SESSION_ERROR"

    class ResetRequest(BaseModel):
        model_config = ConfigDict(extra="allow")
        seed: Optional[int] = Field(default=None, ge=0)
        episode_id: Optional[str] = Field(default=None, max_length=255)

    class ResetResponse(BaseModel):
        model_config = ConfigDict(extra="forbid")
        observation: Dict[str, Any] = Field(...)
        reward: Optional[float] = Field(default=None)
        done: bool = Field(default=False)

    class StepRequest(BaseModel):
        model_config = ConfigDict(extra="allow")
        action: Dict[str, Any] = Field(...)
        timeout_s: Optional[float] = Field(default=None, gt=0)
        request_id: Optional[str] = Field(default=None, max_length=255)

    class StepResponse(BaseModel):
        model_config = ConfigDict(extra="forbid")
        observation: Dict[str, Any] = Field(...)
        reward: Optional[float] = Field(default=None)
        done: bool = Field(default=False)

    class State(BaseModel):
        model_config = ConfigDict(extra="allow", validate_assignment=True, arbitrary_types_allowed=True)
        episode_id: Optional[str] = Field(default=None)
        step_count: int = Field(default=0, ge=0)

    class BaseMessage(BaseModel):
        model_config = ConfigDict(extra="forbid", validate_assignment=True)

    class EnvironmentMetadata(BaseMessage):
        name: str
        description: str
        readme_content: Optional[str] = None
        version: Optional[str] = None
        author: Optional[str] = None
        documentation_url: Optional[str] = None

    class SchemaResponse(BaseMessage):
        action: Dict[str, Any]
        observation: Dict[str, Any]
        state: Dict[str, Any]

    class WSResetMessage(BaseMessage):
        type: Literal["reset"] = "reset"
        data: Dict[str, Any] = Field(default_factory=dict)

    class WSStepMessage(BaseMessage):
        type: Literal["step"] = "step"
        data: Dict[str, Any] = Field(...)

    class WSStateMessage(BaseMessage):
        type: Literal["state"] = "state"

    class WSCloseMessage(BaseMessage):
        type: Literal["close"] = "close"

    class WSObservationResponse(BaseModel):
        model_config = ConfigDict(extra="forbid")
        type: Literal["observation"] = "observation"
        data: Dict[str, Any]

    class WSStateResponse(BaseModel):
        model_config = ConfigDict(extra="forbid")
        type: Literal["state"] = "state"
        data: Dict[str, Any]

    class WSErrorResponse(BaseModel):
        model_config = ConfigDict(extra="forbid")
        type: Literal["error"] = "error"
        data: Dict[str, Any]


# HealthResponse uses the enum, and the union the WebSocket messages: declared after the class body.
class _HealthResponse(_Restated.BaseMessage):
    status: _Restated.HealthStatus = _Restated.HealthStatus.HEALTHY


_Restated.HealthResponse = _HealthResponse
_Restated.WSIncomingMessage = Annotated[
    _Restated.WSResetMessage | _Restated.WSStepMessage | _Restated.WSStateMessage | _Restated.WSCloseMessage,
    Field(discriminator="type"),
]

ENUMS = ["HealthStatus", "WSErrorCode"]
MODEL_NAMES = ["ResetRequest", "ResetResponse", "StepRequest", "StepResponse", "State", "EnvironmentMetadata",
               "SchemaResponse", "HealthResponse", "WSResetMessage", "WSStepMessage", "WSStateMessage", "WSCloseMessage",
               "WSObservationResponse", "WSStateResponse", "WSErrorResponse"]
NAMES = ENUMS + MODEL_NAMES + ["WSIncomingMessage"]


class Models:
    """The model classes by name, and where they came from."""

    def __init__(self, source, module):
        self.source = source
        for name in NAMES:
            setattr(self, name, getattr(module, name))
        self.incoming = TypeAdapter(self.WSIncomingMessage)

    def check_outgoing(self, text):
        """Validates a client message as sent (its JSON text) against WSIncomingMessage, and its data
        against the HTTP request model of the same action (ResetRequest, StepRequest); returns the message."""
        message = self.incoming.validate_json(text)
        if message.type == "reset":
            self.ResetRequest.model_validate(message.data)
        elif message.type == "step":
            self.StepRequest.model_validate({"action": message.data})
        return message


def _from_package():
    try:
        from openenv.core.env_server import types  # type: ignore
    except ImportError:
        return None
    return Models("openenv-core (installed package)", types)


def types_file(path):
    """OpenEnv's types.py given a checkout, a folder holding types.py, or the file itself."""
    for candidate in (os.path.join(path, "src", "openenv", "core", "env_server", "types.py"),
                      os.path.join(path, "types.py"), path):
        if os.path.isfile(candidate):
            return os.path.abspath(candidate)
    raise FileNotFoundError("OPENENV_SRC=%s: neither an OpenEnv checkout, nor a folder with types.py, nor the file" % path)


def _module(path):
    spec = importlib.util.spec_from_file_location("openenv_types_from_file", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load():
    """OpenEnv's models: the installed package, else the file OPENENV_SRC names, else the restatement."""
    models = _from_package()
    if models is not None:
        return models
    root = os.environ.get("OPENENV_SRC")
    if root:
        path = types_file(root)
        return Models("OpenEnv's " + path, _module(path))
    return Models("restated in clients/python/openenv_models.py (openenv-core not installed, OPENENV_SRC not set)", _Restated)


def _shape(schema):
    """A JSON Schema without the words (description, title, examples): what validation depends on."""
    if isinstance(schema, dict):
        return {k: _shape(v) for k, v in schema.items() if k not in ("description", "title", "examples")}
    if isinstance(schema, list):
        return [_shape(v) for v in schema]
    return schema


def _config(model):
    return {k: v for k, v in model.model_config.items() if k != "json_schema_extra"}


def compare(upstream):
    """Every difference between the restatement and `upstream` (a module or namespace holding OpenEnv's
    models): enum values; per model its JSON Schema (fields, types, defaults, constraints, required,
    extra keys) and its configuration; the incoming union. An empty list when they agree."""
    drift = []
    for name in ENUMS:
        ours = [e.value for e in getattr(_Restated, name)]
        theirs = [e.value for e in getattr(upstream, name)]
        if ours != theirs:
            drift.append("%s: values %s, upstream %s" % (name, ours, theirs))
    for name in MODEL_NAMES:
        ours, theirs = getattr(_Restated, name), getattr(upstream, name)
        a, b = _shape(ours.model_json_schema()), _shape(theirs.model_json_schema())
        for field in sorted(set(a.get("properties", {})) | set(b.get("properties", {}))):
            fa, fb = a.get("properties", {}).get(field), b.get("properties", {}).get(field)
            if fa != fb:
                drift.append("%s.%s: restated %s, upstream %s" % (name, field, fa, fb))
        rest_a = {k: v for k, v in a.items() if k != "properties"}
        rest_b = {k: v for k, v in b.items() if k != "properties"}
        if rest_a != rest_b:
            drift.append("%s: restated %s, upstream %s" % (name, rest_a, rest_b))
        if _config(ours) != _config(theirs):
            drift.append("%s: configuration restated %s, upstream %s" % (name, _config(ours), _config(theirs)))
    union = _shape(TypeAdapter(_Restated.WSIncomingMessage).json_schema())
    if union != _shape(TypeAdapter(upstream.WSIncomingMessage).json_schema()):
        drift.append("WSIncomingMessage: the union of client messages differs")
    return drift


MODELS = load()
SOURCE = MODELS.source


def main(argv):
    if argv != ["--compare"]:
        print("usage: OPENENV_SRC=PATH python3 openenv_models.py --compare", file=sys.stderr)
        return 2
    root = os.environ.get("OPENENV_SRC")
    if not root:
        print("set OPENENV_SRC to an OpenEnv checkout, a folder with types.py, or the file", file=sys.stderr)
        return 2
    path = types_file(root)
    drift = compare(_module(path))
    for line in drift:
        print(line)
    print("%d difference(s) between the restatement and %s (%d models, %d enums, the incoming union)"
          % (len(drift), path, len(MODEL_NAMES), len(ENUMS)))
    return 1 if drift else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
