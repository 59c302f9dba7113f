import pytest

from proxy.compat import strip_legacy


@pytest.fixture
def old_answer():
    return {
        "protocolVersion": 1,
        "agentCapabilities": {"loadSession": True, "slashCommands": [{"name": "web", "description": "Search"}]},
    }


def test_proxy_strips_the_legacy_key(old_answer):
    out = strip_legacy(old_answer)
    assert "slashCommands" not in out["agentCapabilities"]
    assert out["agentCapabilities"]["loadSession"] is True


def test_proxy_keeps_the_rest(old_answer):
    assert strip_legacy(old_answer)["protocolVersion"] == 1
