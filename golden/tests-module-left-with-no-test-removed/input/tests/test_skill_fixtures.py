# Case, part two: a module that keeps a test loses the fixtures only its removed tests used,
# and keeps the one a kept test asks for
import pytest

from acp.schema import AgentCapabilities


@pytest.fixture
def default_caps() -> AgentCapabilities:
    return AgentCapabilities()


@pytest.fixture
def loading_caps() -> AgentCapabilities:
    return AgentCapabilities(load_session=True)


def test_default_has_no_commands(default_caps):
    assert default_caps.slash_commands == []


def test_load_session(loading_caps):
    assert loading_caps.load_session
