"""Case: hypothesis round trips through the JSON text (`json.loads(caps.model_dump_json())`),
one reading `data["slashCommands"]` from that local dict: named and removed by design."""

import json

from acp.schema import AvailableCommand
from hypothesis import given
from hypothesis import strategies as st

from myagent.schema import AgentCapabilities

commands = st.lists(st.builds(AvailableCommand, name=st.text(min_size=1), description=st.text()), max_size=3)


@given(st.booleans())
def test_load_session_round_trip(load):
    data = json.loads(AgentCapabilities(load_session=load).model_dump_json(by_alias=True))
    assert AgentCapabilities.model_validate(data).load_session is load


def test_old_json_with_slash_commands_still_validates():
    """Old JSON with `slashCommands` still validates, without the field (RFC-0032)."""
    commands = [{"name": "plan", "description": "Create a plan"}]
    caps = AgentCapabilities.model_validate({"slashCommands": commands})
    assert not hasattr(caps, "slash_commands")
