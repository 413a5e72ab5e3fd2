"""OpenEnv's wire models, for validating every message of `openagent serve env`.

The models are OpenEnv's own (meta-pytorch/OpenEnv, openenv-core 0.2.x,
src/openenv/core/env_server/types.py) whenever they can be had:

1. `openenv.core.env_server.types`, when openenv-core is installed (pip install openenv-core);
2. else the file `src/openenv/core/env_server/types.py` of an OpenEnv checkout named by the
   environment variable OPENENV_SRC (it needs only pydantic);
3. else the restatement below: the same models, field for field (names, types, defaults,
   constraints, extra="forbid"/"allow"), for machines where neither is available (this
   project's CI has no PyPI). `SOURCE` says which one was loaded.

Only the models that cross the wire are used: the WebSocket messages both ways, the HTTP
request and response bodies, State, EnvironmentMetadata, SchemaResponse, HealthResponse and
the two enums.
"""

import importlib.util
import os
from enum import Enum
from typing import Any, Dict, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["load", "SOURCE"]


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


# HealthResponse uses the enum, so it is declared after the class body.
class _HealthResponse(_Restated.BaseMessage):
    status: _Restated.HealthStatus = _Restated.HealthStatus.HEALTHY


_Restated.HealthResponse = _HealthResponse

NAMES = ["HealthStatus", "WSErrorCode", "ResetRequest", "ResetResponse", "StepRequest", "StepResponse", "State",
         "EnvironmentMetadata", "SchemaResponse", "HealthResponse", "WSResetMessage", "WSStepMessage",
         "WSStateMessage", "WSCloseMessage", "WSObservationResponse", "WSStateResponse", "WSErrorResponse"]


class Models:
    """The model classes by name, and where they came from."""

    def __init__(self, source, module):
        self.source = source
        for name in NAMES:
            setattr(self, name, getattr(module, name))


def _from_package():
    try:
        from openenv.core.env_server import types  # type: ignore
    except ImportError:
        return None
    return Models("openenv-core (installed package)", types)


def _from_checkout(root):
    path = os.path.join(root, "src", "openenv", "core", "env_server", "types.py")
    if not os.path.isfile(path):
        raise FileNotFoundError("OPENENV_SRC=%s: no %s" % (root, path))
    spec = importlib.util.spec_from_file_location("openenv_types_from_checkout", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return Models("OpenEnv checkout " + path, module)


def load():
    """OpenEnv's models: the installed package, else OPENENV_SRC's file, else the restatement."""
    models = _from_package()
    if models is not None:
        return models
    root = os.environ.get("OPENENV_SRC")
    if root:
        return _from_checkout(root)
    return Models("restated in clients/python/openenv_models.py (openenv-core not installed)", _Restated)


MODELS = load()
SOURCE = MODELS.source
