"""Case: an owned schema built by a hand-written __init__ that forwards the legacy field to
the SDK's model, and its .pyi stub declaring it: the parameter, the forwarding keyword and
the stub's field and parameter go (the stub's import only they used goes too)."""

from acp.schema import AgentCapabilities as SdkCapabilities


class AgentCapabilities(SdkCapabilities):
    def __init__(self, *, load_session: bool = False) -> None:
        super().__init__(load_session=load_session)
