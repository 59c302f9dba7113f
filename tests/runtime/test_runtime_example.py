"""The documented example agent works as documented, over stdio."""

from __future__ import annotations

import re
from typing import Any

import pytest

from acp import text_block
from runtime_harness import REPO, open_subprocess

pytestmark = pytest.mark.slow  # the example agent over stdio

EXAMPLE = REPO / "examples" / "shim_agent" / "agent.py"
DOC = REPO / "docs" / "runtime.md"

WEB = {"name": "web", "description": "Search the web for information", "input": {"hint": "query to search for"}}
TEST = {"name": "test", "description": "Run tests for the current project"}
PLAN = {"name": "plan", "description": "Create a detailed implementation plan", "input": {"hint": "what to plan"}}
RESET = {"name": "reset", "description": "Forget this session's extra commands"}


def test_docs_show_the_tested_example() -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    assert EXAMPLE.read_text() in blocks


def test_example_agent_over_stdio(aio: Any) -> None:
    async def scenario() -> dict[str, Any]:
        h = await open_subprocess(1, script=EXAMPLE)
        try:
            new, rid = await h.call("session/new", h.conn.new_session(cwd="/", mcp_servers=[]))
            sid = new.session_id
            for text in ["hello", "again", "/reset"]:
                await h.conn.prompt(session_id=sid, prompt=[text_block(text)])
            _, load_rid = await h.call("session/load", h.conn.load_session(cwd="/", session_id=sid, mcp_servers=[]))
            await h.conn.prompt(session_id=sid, prompt=[text_block("sync")])  # barrier behind the load follow-up
            await h.conn.close_session(session_id=sid)
            return {"h": h, "sid": sid, "rid": rid, "load_rid": load_rid}
        finally:
            await h.close()

    out = aio.run(scenario())
    h, sid = out["h"], out["sid"]
    assert h.version == 1
    new_index, new_response = h.response(out["rid"])
    assert "availableCommands" not in new_response["result"]  # v1: it follows instead
    updates = h.updates(sid)
    assert updates[0][0] > new_index
    assert [commands for _, commands in updates] == [
        [WEB, TEST],  # follow-up after session/new
        [WEB, TEST, PLAN, RESET],  # first prompt; the second changes nothing
        [WEB, TEST],  # /reset
        [WEB, TEST],  # re-advertised after session/load
        [WEB, TEST, PLAN, RESET],  # "sync" prompt
    ]
    assert updates[3][0] > h.response(out["load_rid"])[0]
