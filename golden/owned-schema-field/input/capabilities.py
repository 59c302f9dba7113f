# Case: owned schema: field, its attribute docstring and the comment above it go; Field and AvailableCommand imports too
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from acp.schema.commands import AvailableCommand
from acp.schema.prompt import PromptCapabilities


class AgentCapabilities(BaseModel):
    """Capabilities supported by the agent."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

    load_session: bool = False
    """Whether the agent supports `session/load`."""

    # RFC-0016: skills are exposed as slash commands at initialize
    slash_commands: list[AvailableCommand] = Field(default_factory=list)
    """Slash commands the agent supports.

    Sent with the initialize response.
    """

    prompt_capabilities: PromptCapabilities = PromptCapabilities()
    """Prompt content types the agent accepts."""
