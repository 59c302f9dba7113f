"""The runtime tests import their helpers (fake_connection) from this folder."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also under --import-mode=importlib


@pytest.fixture
def fork_acp(monkeypatch: pytest.MonkeyPatch) -> tuple[type, type]:
    """The project's `acp.connection` is AgentPool's fork (fake_connection.py), which the
    vendored file checks connections against: (ForkConnection, ForkAgentSideConnection)."""
    from fake_connection import ForkAgentSideConnection, ForkConnection

    fork = types.ModuleType("acp.connection")
    fork.Connection = ForkConnection
    monkeypatch.setitem(sys.modules, "acp.connection", fork)
    return ForkConnection, ForkAgentSideConnection
