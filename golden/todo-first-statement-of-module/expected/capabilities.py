# Case: the module's first statement keeps its legacy list with a TODO; LibCST holds the comments above it in the module's header, where a second run must find the TODO (it added another)


# acp-migrate: TODO: advertise `SKILLS` per session (acp-migrate rules ACP005)
CAPABILITIES = AgentCapabilities(load_session=True, slash_commands=SKILLS)
