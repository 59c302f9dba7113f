"""ACP222 moves an agent's `__init__(self, conn)` to `on_connect`: the other
constructions passing the connection (a test's `EchoAgent(mock_conn)`, a subclass's
`super().__init__(conn)`) move with it, or are named for a person. The golden case's own
tests run with pytest on SDK 0.6.3 before `fix` and on 1.0 after it, and the migrated
agent serves a prompt over stdio on 1.0."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from support.sdk_venv import sdk_env, sdk_python
from test_golden import GOLDEN, _fix_all, _settings

from acp_migrate.engine.analysis.codemod import analyze_source
from acp_migrate.engine.execution.modules import in_memory_modules
from test_sdk_move_runs import TARGET, drive, echoed

CASE = GOLDEN / "move-0-7-agent-built-with-its-connection-in-tests"
PYTEST = "pytest==9.0.1"
PASSED = re.compile(r"^tests/\S+?\.py::(\S+) PASSED", re.MULTILINE)

AGENT = b"""\
import asyncio

from acp import Agent, AgentSideConnection, stdio_streams


class EchoAgent(Agent):
    def __init__(self, conn: AgentSideConnection) -> None:
        self._conn = conn


async def main() -> None:
    reader, writer = await stdio_streams()
    AgentSideConnection(lambda conn: EchoAgent(conn), writer, reader)
    await asyncio.Event().wait()
"""


def _pytest(version: str, folder: Path) -> tuple[int, set[str], str]:
    done = subprocess.run(
        [str(sdk_python(version, PYTEST)), "-m", "pytest", "-p", "no:cacheprovider", "-v", "tests"],
        cwd=folder,
        env={**sdk_env(), "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return done.returncode, set(PASSED.findall(done.stdout)), done.stdout + done.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    ("case", "tests"),
    [(CASE, 3), (GOLDEN / "move-0-7-agent-built-with-a-bare-mock-in-tests", 2)],  # the second names no connection class
    ids=lambda value: getattr(value, "name", str(value)),
)
def test_the_case_s_tests_pass_on_0_6_3_before_fix_and_on_1_0_after(tmp_path: Path, case: Path, tests: int) -> None:
    before, after = tmp_path / "before", tmp_path / "after"
    shutil.copytree(case / "input", before)
    shutil.copytree(case / "expected", after)
    code, passed_before, output = _pytest("0.6.3", before)
    assert code == 0 and len(passed_before) == tests, output
    code, passed_after, output = _pytest(TARGET, after)
    assert code == 0, output
    assert passed_after == passed_before


@pytest.mark.slow
def test_the_tests_with_the_construction_left_as_it_was_fail_on_1_0(tmp_path: Path) -> None:
    # What fix did before: the agent moved, the test's `EchoAgent(mock)` left.
    shutil.copytree(CASE / "expected", tmp_path / "left")
    test = tmp_path / "left" / "tests" / "test_agent.py"
    source = test.read_text()
    moved = "agent = EchoAgent()\n    agent.on_connect(AsyncMock(spec=AgentSideConnection))"
    assert moved in source
    test.write_text(source.replace(moved, "agent = EchoAgent(AsyncMock(spec=AgentSideConnection))"))
    code, _, output = _pytest(TARGET, tmp_path / "left")
    assert code == 1 and "TypeError" in output, output


@pytest.mark.slow
def test_the_migrated_agent_serves_a_prompt_on_1_0() -> None:
    run = drive(TARGET, CASE / "expected" / "agent.py", text="hello")
    assert run["failure"] is None, run["failure"]
    assert echoed(run) == ["hello"]


def _fixed(files: dict[str, bytes]) -> tuple[dict[str, bytes], list[str]]:
    outputs, remaining = _fix_all(files, _settings(CASE))
    return outputs, [f"{f.path}:{f.line}: {f.code} {f.message}" for f in remaining]


def test_a_construction_in_an_expression_is_named_for_a_person() -> None:
    agent = AGENT + b"\n\ndef make_for_tests(conn):\n    return EchoAgent(conn)\n"
    outputs, remaining = _fixed({"agent.py": agent})
    assert b"    return EchoAgent(conn)\n" in outputs["agent.py"]
    assert b"def on_connect(self" in outputs["agent.py"]
    assert len(remaining) == 1 and remaining[0].startswith("agent.py:18: ACP222 `EchoAgent(conn)`"), remaining


def test_a_test_importing_the_class_builds_it_then_hands_it_the_connection() -> None:
    test = b"""\
from acp import AgentSideConnection
from agent import EchoAgent


class Holder:
    def setup(self, mock):
        self.agent = EchoAgent(mock)
        conn = EchoAgent(conn)
"""
    outputs, remaining = _fixed({"agent.py": AGENT, "tests/test_agent.py": test})
    assert outputs["tests/test_agent.py"] == test.replace(
        b"self.agent = EchoAgent(mock)\n", b"self.agent = EchoAgent()\n        self.agent.on_connect(mock)\n"
    )
    # `conn = EchoAgent(conn)`: `conn.on_connect(conn)` would hand the agent itself
    assert [r.split(" `")[0] for r in remaining] == ["tests/test_agent.py:8: ACP222"]


def test_a_construction_of_a_class_whose_factory_stays_is_left() -> None:
    # The factory does more than forward: ACP222 leaves it, `__init__(self, conn)` stays.
    kept = AGENT.replace(b"lambda conn: EchoAgent(conn)", b"lambda conn: EchoAgent(Tracing(conn))")
    test = b"from acp import AgentSideConnection\nfrom agent import EchoAgent\n\nagent = EchoAgent(object())\n"
    outputs, _ = _fixed({"agent.py": kept, "tests/test_agent.py": test})
    assert b"def __init__(self, conn" in outputs["agent.py"]
    assert outputs["tests/test_agent.py"] == test


def test_check_reads_the_constructions_fix_moves_in_definitions_naming_no_connection() -> None:
    # check hollows definitions holding no legacy token; these construct the agent.
    agent = AGENT + b"\n\ndef make_for_tests(conn):\n    agent = EchoAgent(conn)\n    return agent\n"
    test = b"""\
from unittest.mock import AsyncMock

from acp import AgentSideConnection
from agent import EchoAgent


def connection():
    return AsyncMock(spec=AgentSideConnection)


def test_the_agent_is_made():
    agent = EchoAgent(connection())
    assert agent
"""
    files = {"agent.py": agent, "tests/test_agent.py": test}
    settings = _settings(CASE)

    def findings(fix: bool) -> list[str]:
        return [
            f"{f.path}:{f.line}: {f.code} {f.message}"
            for name, source in files.items()
            for f in analyze_source(
                source, path=name, fix=fix, modules=in_memory_modules(files, name), settings=settings
            ).findings
        ]

    constructions = [f for f in findings(fix=True) if "takes its connection in `on_connect" in f]
    assert [f.split(" `")[0] for f in constructions] == ["agent.py:18: ACP222", "tests/test_agent.py:12: ACP222"]
    assert findings(fix=False) == findings(fix=True)


def test_a_client_s_constructions_and_a_subclass_in_another_file_move_too() -> None:
    client = b"""\
from acp import Client, ClientSideConnection


class ExampleClient(Client):
    def __init__(self, conn) -> None:
        self._conn = conn


def connect(writer, reader):
    return ClientSideConnection(lambda conn: ExampleClient(conn), writer, reader)
"""
    loud = b"""\
from acp import ClientSideConnection
from client import ExampleClient


class LoudClient(ExampleClient):
    def __init__(self, conn, volume) -> None:
        super().__init__(conn)
        self.volume = volume


spare = ExampleClient(None)
"""
    outputs, remaining = _fixed({"client.py": client, "loud.py": loud})
    assert b"connect_to_agent(ExampleClient(), writer, reader)" in outputs["client.py"]
    assert outputs["loud.py"] == loud.replace(
        b"super().__init__(conn)\n", b"super().__init__()\n        self.on_connect(conn)\n"
    ).replace(b"spare = ExampleClient(None)\n", b"spare = ExampleClient()\nspare.on_connect(None)\n")
    assert remaining == []
