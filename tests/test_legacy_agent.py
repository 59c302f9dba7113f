"""The bundled legacy agent: slash commands at initialize, none per session."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from support.acp_stdio import FROM_AGENT, TO_AGENT, AgentProcess

pytestmark = pytest.mark.slow  # the example agent over stdio

AGENT = Path(__file__).resolve().parents[1] / "examples" / "legacy_agent" / "agent.py"

EXPECTED_COMMANDS = [
    {"name": "web", "description": "Search the web for information", "input": {"hint": "query to search for"}},
    {"name": "test", "description": "Run tests for the current project"},
    {
        "name": "plan",
        "description": "Create a detailed implementation plan",
        "input": {"hint": "description of what to plan"},
    },
]


def test_legacy_agent_advertises_skills_at_initialize_and_sessions_their_own_list(tmp_path: Path) -> None:
    asyncio.run(_drive_every_session_path(tmp_path))


async def _drive_every_session_path(tmp_path: Path) -> None:
    async with AgentProcess(AGENT, cwd=tmp_path) as agent:
        init = await agent.initialize()
        assert init.agent_capabilities.load_session is True

        # The SDK model drops the legacy field; the raw frame carries it.
        assert not hasattr(init.agent_capabilities, "slash_commands")
        caps = agent.result("initialize")["agentCapabilities"]
        assert caps["slashCommands"] == EXPECTED_COMMANDS
        assert caps["loadSession"] is True
        assert {"resume", "fork", "close"} <= caps["sessionCapabilities"].keys()

        sid = await agent.new_session()
        assert await agent.load_session(sid) is not None
        await agent.load_session("unknown-session-id")
        await agent.resume_session(sid)
        forked = await agent.fork_session(sid)
        assert forked != sid

        assert (await agent.prompt(sid, "hello")).stop_reason == "end_turn"
        assert (await agent.prompt(forked, "/web agent client protocol")).stop_reason == "end_turn"
        await agent.cancel(sid)
        await agent.close_session(forked)
        await agent.close_session(sid)
        await agent.drain()  # every late notification read

        replies = [u["update"]["content"]["text"] for u in agent.session_updates(kind="agent_message_chunk")]
        assert replies == ["echo: hello", "ran /web with 'agent client protocol'"]

        # Every request got a successful response, in wire order.
        methods = [msg["method"] for d, msg in agent.frames if d == TO_AGENT and "id" in msg]
        assert methods == [
            "initialize",
            "session/new",
            "session/load",
            "session/load",
            "session/resume",
            "session/fork",
            "session/prompt",
            "session/prompt",
            "session/close",
            "session/close",
        ]
        responses = [msg for d, msg in agent.frames if d == FROM_AGENT and "method" not in msg]
        assert len(responses) == len(methods)
        assert all("result" in msg for msg in responses)
        assert agent.frames[0][0] == TO_AGENT and agent.frames[1][1]["id"] == agent.frames[0][1]["id"]

        # Legacy state: the skills only at initialize; the new session's own list alone
        # (a complete replacement: a client sees /help, not the skills) and nothing for
        # the loaded, resumed or forked ones.
        assert {
            session: [[c["name"] for c in update] for update in updates]
            for session, updates in agent.command_updates().items()
        } == {sid: [["help"]]}

    assert agent.returncode == 0, agent.stderr
