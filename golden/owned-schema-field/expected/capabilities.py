# Case: owned schema: field, its attribute docstring and the comment above it go; Field and AvailableCommand imports too
from __future__ import annotations

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from acp.schema.prompt import PromptCapabilities


class AgentCapabilities(BaseModel):
    """Capabilities supported by the agent."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

    load_session: bool = False
    """Whether the agent supports `session/load`."""

    prompt_capabilities: PromptCapabilities = PromptCapabilities()
    """Prompt content types the agent accepts."""
