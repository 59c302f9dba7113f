import pytest

from myagent.schema import AgentCapabilities
from acp.schema import AvailableCommand


@pytest.fixture
def command_names():
    caps = AgentCapabilities(slash_commands=[AvailableCommand(name="a", description="A")])
    names = []
    for command in caps.slash_commands:
        names.append(command.name)
    return names
