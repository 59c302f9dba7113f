"""Fixtures for the runtime tests; the harness itself is in runtime_harness.py."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # also under --import-mode=importlib

from runtime_harness import Harness, LoopThread, open_memory, open_socket, open_subprocess  # noqa: E402


@pytest.fixture(scope="session")
def aio() -> Any:
    runner = LoopThread()
    yield runner
    runner.close()


@pytest.fixture(scope="session")
def subprocess_agents(aio: LoopThread) -> Any:
    """One stdio agent process per protocol version, shared by all tests."""
    started: dict[int, Harness] = {}

    def get(version: int) -> Harness:
        if version not in started:
            started[version] = aio.run(open_subprocess(version))
        return started[version]

    yield get
    for harness in started.values():
        aio.run(harness.close())


@pytest.fixture
def harness(aio: LoopThread, subprocess_agents: Any) -> Any:
    """``harness(transport, version)`` -> connected Harness, closed after the test."""
    opened: list[Harness] = []

    def make(transport: str, version: int = 1, **agent_kwargs: Any) -> Harness:
        if transport == "subprocess":
            if not agent_kwargs:
                return subprocess_agents(version)  # shared, with defaults
            assert set(agent_kwargs) == {"bind"}, "a subprocess agent takes only bind="
            h = aio.run(open_subprocess(version, args=(f"--bind={agent_kwargs['bind']}",)))
            opened.append(h)
            return h
        opener = open_memory if transport == "memory" else open_socket
        h = aio.run(opener(version, **agent_kwargs))
        opened.append(h)
        return h

    yield make
    for h in opened:
        aio.run(h.close())


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The "subprocess" transport runs the agent over stdio: slow, as every real agent is.
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("transport") == "subprocess":
            item.add_marker(pytest.mark.slow)
