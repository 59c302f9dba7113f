# Case: module-level capabilities constants fix cannot tie to one agent class (imported by another module; used outside initialize too): kept with a TODO, ACP005 says why
from acp.schema import AgentCapabilities, AvailableCommand

SKILLS = [AvailableCommand(name="web", description="Search the web")]

CAPABILITIES = AgentCapabilities(load_session=True, slash_commands=SKILLS)
