"""The documented example agent works as documented, over stdio with the SDK's client."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # support/

from support.acp_stdio import FROM_AGENT, AgentProcess, response_to

pytestmark = pytest.mark.slow  # the example agent over stdio

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "shim_agent" / "agent.py"

WEB = {"name": "web", "description": "Search the web for information", "input": {"hint": "query to search for"}}
TEST = {"name": "test", "description": "Run tests for the current project"}
PLAN = {"name": "plan", "description": "Create a detailed implementation plan", "input": {"hint": "what to plan"}}
RESET = {"name": "reset", "description": "Forget this session's extra commands"}


def test_the_runtime_doc_shows_the_tested_example() -> None:
    blocks = re.findall(r"```python\n(.*?)```", (REPO / "docs" / "runtime.md").read_text(), flags=re.DOTALL)
    assert EXAMPLE.read_text() in blocks


def test_example_agent_over_stdio() -> None:
    async def scenario() -> tuple[AgentProcess, str]:
        async with AgentProcess(EXAMPLE, env={"PYTHONPATH": str(REPO)}) as agent:
            await agent.initialize(protocol_version=1)
            sid = await agent.new_session()
            for text in ["hello", "again", "/reset"]:
                await agent.prompt(sid, text)
            await agent.load_session(sid)
            await agent.prompt(sid, "sync")
            await agent.close_session(sid)
            await agent.drain()
        return agent, sid

    agent, sid = asyncio.run(scenario())
    frames = [message for direction, message in agent.frames if direction == FROM_AGENT]
    assert "availableCommands" not in response_to(agent.frames, "session/new")["result"]
    assert agent.command_updates()[sid] == [
        [WEB, TEST],  # after session/new
        [WEB, TEST, PLAN, RESET],  # first prompt; the second changes nothing
        [WEB, TEST],  # /reset
        [WEB, TEST],  # re-advertised after session/load
        [WEB, TEST, PLAN, RESET],  # "sync" prompt
    ]
    updates = [i for i, m in enumerate(frames) if (m.get("params") or {}).get("update", {}).get("availableCommands")]
    for method, nth in (("session/new", 0), ("session/load", 3)):
        assert frames.index(response_to(agent.frames, method)) < updates[nth]
