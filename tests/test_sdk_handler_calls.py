"""The calls of the handlers ACP221 moves (golden/move-0-7-handler-*): what a second run
of fix still names, and the receivers it cannot tell, which it leaves to ACP223 or alone."""

from __future__ import annotations

from pathlib import Path

from acp_migrate.engine.analysis.codemod import analyze_source
from acp_migrate.engine.execution.modules import in_memory_modules
from acp_migrate.sdk import Target
from acp_migrate.settings import RuleSettings

LEFT = Path(__file__).resolve().parents[1] / "golden" / "move-0-7-handler-calls-left-to-a-person"
ON_1_0 = RuleSettings(sdk=Target("1.0.0", "0.6.3", "the test"))

AGENT = b"""\
from acp import Agent, NewSessionRequest, NewSessionResponse


class EchoAgent(Agent):
    async def newSession(self, params: NewSessionRequest) -> NewSessionResponse:
        return NewSessionResponse(sessionId=params.cwd)
"""


def _findings(files: dict[str, bytes]) -> list[str]:
    return [
        f"{name}:{finding.line}: {finding.code}{'' if finding.fixable else ' (left)'}"
        for name, source in files.items()
        for finding in analyze_source(
            source, path=name, fix=False, modules=in_memory_modules(files, name), settings=ON_1_0
        ).findings
    ]


def _fixed(source: bytes) -> bytes:
    analysis = analyze_source(source, path="agent.py", settings=ON_1_0)
    return analysis.fixed_source if analysis.fixed_source is not None else source


def test_a_second_run_still_names_the_calls_the_first_left() -> None:
    # The handler is `new_session` by then: a call of `newSession` on its class still fails.
    fixed = {path.name: path.read_bytes() for path in sorted((LEFT / "expected").glob("*.py"))}
    listed = [line.strip() for line in (LEFT / "findings.txt").read_text().splitlines() if line.strip()]
    assert _findings(fixed) == [f"{line} (left)" for line in listed]


def test_a_receiver_bound_twice_is_not_told_apart() -> None:
    source = AGENT + (
        b"\n\nasync def warm_up(other):\n"
        b"    agent = EchoAgent()\n"
        b"    agent = other\n"
        b"    return await agent.newSession(request)\n"
    )
    assert _findings({"agent.py": source}) == ["agent.py:5: ACP221"]


def test_a_connection_of_a_class_of_the_module_is_left_to_acp223() -> None:
    # The module's own connection class defines no handler: its call is the SDK's method.
    source = AGENT + (
        b"\n\nclass Connection(ClientSideConnection):\n"
        b"    pass\n"
        b"\n\nasync def open_session():\n"
        b"    conn = Connection()\n"
        b'    return await conn.newSession(NewSessionRequest(cwd="/", mcpServers=[]))\n'
    )
    assert _findings({"agent.py": source}) == ["agent.py:5: ACP221", "agent.py:15: ACP223"]
    assert b'await conn.new_session(cwd="/", mcp_servers=[])' in _fixed(source)


def test_a_subclass_calling_the_handler_it_inherits_calls_the_moved_one() -> None:
    source = AGENT + (
        b"\n\nclass LoggedAgent(EchoAgent):\n"
        b"    async def fresh(self):\n"
        b'        return await self.newSession(NewSessionRequest(cwd="/", mcpServers=[]))\n'
    )
    fixed = _fixed(source)
    assert b'return await self.new_session(cwd="/", mcp_servers=[])\n' in fixed
    assert b"async def new_session(self, cwd, **kwargs)" in fixed


def test_a_call_passing_no_request_is_named() -> None:
    source = AGENT + b"\n    async def again(self):\n        return await self.newSession()\n"
    assert _findings({"agent.py": source}) == ["agent.py:5: ACP221", "agent.py:9: ACP221 (left)"]
