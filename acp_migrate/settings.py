"""Settings the rules read (one file's analysis). The `[tool.acp-migrate]` file
configuration builds one of these; defaults fit the official Python SDK."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class SetupHandlers(BaseModel):
    """Method names of the session setup handlers on an agent class."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    new: tuple[str, ...] = ("new_session",)
    load: tuple[str, ...] = ("load_session",)
    resume: tuple[str, ...] = ("resume_session",)
    fork: tuple[str, ...] = ("fork_session",)


class RuleSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    # Where migrated code imports the runtime shim from (projects may vendor it).
    runtime_import: str = "acp_migrate.runtime"
    # The protocol version migrated servers target (1: SDK 0.12.x; 2: newer drafts).
    # No rule reads it yet: the generated code defers to the version negotiated at run time.
    target_protocol: Literal[1, 2] = 1
    setup_handlers: SetupHandlers = Field(default_factory=SetupHandlers)
    # Rule codes to run: all when `select` is empty; `ignore` wins.
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    def enabled(self, code: str) -> bool:
        if code in self.ignore:
            return False
        return not self.select or code in self.select


DEFAULT_SETTINGS = RuleSettings()
