# Case: owned schema whose class docstring documents the field Google-style (Attributes:, typed form)
from pydantic import BaseModel, Field

from acp.schema import McpCapabilities, PromptCapabilities


class AgentCapabilities(BaseModel):
    """Capabilities the agent advertises in its initialize response.

    Attributes:
        load_session (bool): Whether the agent supports ``session/load``.
        mcp_capabilities (McpCapabilities): MCP transports the agent supports.
        prompt_capabilities (PromptCapabilities): Content accepted in prompts.
    """

    load_session: bool = Field(default=False, alias="loadSession")
    mcp_capabilities: McpCapabilities = Field(default_factory=McpCapabilities, alias="mcpCapabilities")
    prompt_capabilities: PromptCapabilities = Field(
        default_factory=PromptCapabilities, alias="promptCapabilities"
    )
