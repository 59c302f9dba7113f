# Case (negative): a name spelled AgentCapabilities that resolves to an unrelated class (Widget)
from mylib.widgets import Widget as AgentCapabilities


def build_toolbar(commands: list[str]) -> AgentCapabilities:
    toolbar = AgentCapabilities(title="Commands", slash_commands=commands)
    return toolbar.create(slash_commands=commands)


def default_toolbar() -> AgentCapabilities:
    return AgentCapabilities.create(slash_commands=["help"])
