# Case: owned schema whose class docstring documents the field Google-style (Attributes:, typed form)
from pydantic import BaseModel, Field

from acp.schema import AvailableCommand, McpCapabilities, PromptCapabilities


class AgentCapabilities(BaseModel):
    """Capabilities the agent advertises in its initialize response.

    Attributes:
        load_session (bool): Whether the agent supports ``session/load``.
        slash_commands (list[AvailableCommand]): Commands users can invoke
            with a leading slash, advertised once at initialize.
        mcp_capabilities (McpCapabilities): MCP transports the agent supports.
        prompt_capabilities (PromptCapabilities): Content accepted in prompts.
    """

    load_session: bool = Field(default=False, alias="loadSession")
    slash_commands: list[AvailableCommand] = Field(default_factory=list, alias="slashCommands")
    mcp_capabilities: McpCapabilities = Field(default_factory=McpCapabilities, alias="mcpCapabilities")
    prompt_capabilities: PromptCapabilities = Field(
        default_factory=PromptCapabilities, alias="promptCapabilities"
    )
