# Case: AvailableCommand made unused is removed; SessionMode and os, unused before the fix, are not touched
import os

from acp.schema import AgentCapabilities as SdkAgentCapabilities
from acp.schema import SessionMode


class AgentCapabilities(SdkAgentCapabilities):
    """Capabilities with the legacy command list."""
