"""The SDK rules on published agents' own code, installed from the package index:
hermes-agent 0.19.0 and kimi-cli 1.52.0 (each into a virtualenv on SDK 1.0, kimi's on
Python 3.13); Mini-Agent, which is not on the index, from tests/data/mini-agent
(its dependencies from the index). `fix --target-sdk 1.0` on their ACP modules: what it
rewrites runs on 1.0, what needs a person is a named finding and the exit is 1, and a
second `fix` changes nothing.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from support.sdk_venv import pyenv_python, sdk_env, sdk_python, venvs_root

pytestmark = pytest.mark.slow  # virtualenvs of hermes-agent, kimi-cli and Mini-Agent's dependencies

TARGET = "1.0.0rc3"
HERMES = "hermes-agent==0.19.0"
STABLE = "0.12.1"  # the newest release that is not a pre-release
MINI_AGENT = Path(__file__).resolve().parent / "data" / "mini-agent"
# Its dependencies as its uv.lock pins them (mcp 1.19 fails at import on a later pydantic).
MINI_AGENT_DEPENDENCIES = (
    "anthropic==0.72.1",
    "mcp==1.19.0",
    "openai==2.8.0",
    "prompt-toolkit==3.0.52",
    "pydantic==2.12.3",
    "pyyaml==6.0.3",
    "tiktoken==0.12.0",
)
CLIENT = Path(__file__).resolve().parent / "support" / "keyword_sdk_client.py"
HANG_GUARD = 60  # seconds; a guard against a hung agent, never a measure


def _fix(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "acp_migrate", "fix", "--target-sdk", "1.0", "."],
        cwd=folder,
        capture_output=True,
        text=True,
    )


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.py"))}


def _findings(output: str) -> list[tuple[str, str]]:
    """(path, code) of each finding line `path:line:column: CODE message`."""
    return [(m.group(1), m.group(2)) for m in re.finditer(r"^(\S+?):\d+:\d+: (ACP\d+)", output, re.MULTILINE)]


def _project(folder: Path, package: Path, requirement: str) -> Path:
    """`package` copied into a project stating the wheel's own requirement on the SDK."""
    shutil.copytree(package, folder / package.name)
    (folder / "pyproject.toml").write_text(
        f'[project]\nname = "agent"\nversion = "1"\ndependencies = ["{requirement}"]\n'
    )
    return folder


@pytest.fixture(scope="module")
def hermes() -> Path:
    return sdk_python(TARGET, HERMES)


def _site_packages(python: Path) -> Path:
    found = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], capture_output=True, text=True
    )
    return Path(found.stdout.strip())


# What the migrated modules do on 1.0: the hermes functions that build SDK models.
HERMES_CALLS = """
import json
from acp_adapter import permissions, tools
start = tools.build_tool_start("call-1", "terminal", {"command": "ls"})
done = tools.build_tool_complete("call-1", "terminal", "ok", {"command": "ls"})
asked = permissions._build_permission_tool_call("ls", "List")
print(json.dumps([type(m).__name__ for m in (start, done, asked)]))
"""


def test_hermes_acp_adapter_moves_to_1_0(hermes: Path, tmp_path: Path) -> None:
    installed = _site_packages(hermes) / "acp_adapter"
    project = _project(tmp_path / "hermes", installed, "agent-client-protocol==0.9.0")
    before = _tree(project)

    fixed = _fix(project)
    after = _tree(project)
    again = _fix(project)

    assert fixed.returncode == 1, fixed.stderr
    assert after != before
    # Left for a person: 0.11's model picker, in the server alone.
    assert set(_findings(fixed.stdout)) == {("acp_adapter/server.py", "ACP204")}, fixed.stdout
    assert (again.returncode, _tree(project)) == (1, after)

    env = {**sdk_env(), "PYTHONPATH": str(project)}
    migrated = subprocess.run([hermes, "-c", HERMES_CALLS], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert json.loads(migrated.stdout) == ["ToolCallStart", "ToolCallProgress", "ToolCallProgress"], migrated.stderr
    # The same calls on the code as published: `acp.start_tool_call` is gone.
    original = subprocess.run([hermes, "-c", HERMES_CALLS], cwd=tmp_path, env=sdk_env(), capture_output=True, text=True)
    assert original.returncode == 1 and "has no attribute" in original.stderr, original.stderr
    # The server fails at import on what the finding names, and on nothing fix moved.
    server = subprocess.run([hermes, "-c", "import acp_adapter.server"], env=env, capture_output=True, text=True)
    assert "cannot import name 'ModelInfo'" in server.stderr, server.stderr


def _kimi_wheel() -> Path:
    """kimi-cli 1.52.0's wheel from the package index, downloaded once (Python 3.12 only)."""
    folder = venvs_root() / "wheels"
    folder.mkdir(parents=True, exist_ok=True)
    wheel = folder / "kimi_cli-1.52.0-py3-none-any.whl"
    if not wheel.exists():
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:"]
            + ["--python-version", "3.12", "--dest", str(folder), "kimi-cli==1.52.0"],
            check=True,
            capture_output=True,
        )
    return wheel


SCHEMA_NAMES = re.compile(r"\bacp\.schema\.([A-Za-z_]\w*)")
KIMI = "kimi-cli==1.52.0"
# kimi-cli needs Python >= 3.12, but on 3.12.1 (the 3.12 here) `kimi_cli.app` fails at import:
# its typing sets `__orig_class__` on a slotted frozen dataclass and catches only
# AttributeError (3.13's catches any Exception).
KIMI_PYTHON = "3.13"
# What kimi's ACP modules do on `acp`'s release: each module imported; then ACPServer served
# with `run_agent` over a socket pair to a client on the SDK, which sends initialize and
# approves the permission an ACPSession asks (0.11 reordered `request_permission`); then
# `_expand_llm_models`, the model picker the findings name.
KIMI_RUN = """
import asyncio, importlib, json, socket, sys
import acp
from kimi_cli import logger

errors = []  # what kimi logs and swallows (it silences its loguru logger as a library)
logger.enable("kimi_cli")
logger.remove()
logger.add(lambda m: errors.append(f"{m.record['message']} {m.record['exception'].type.__name__}"), level="ERROR")
report = {"failed_imports": {}}
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except ImportError as exc:
        report["failed_imports"][name] = str(exc)
import kimi_cli.acp
from kimi_cli.acp import server, session
from kimi_cli.config import LLMModel
from kimi_cli.wire.types import ApprovalRequest, ToolCall

report["package"] = kimi_cli.acp.__path__[0]


class Client:
    asked = []

    async def request_permission(self, options, session_id, tool_call, **kwargs):
        self.asked.append([session_id, tool_call.tool_call_id, [option.option_id for option in options]])
        return acp.RequestPermissionResponse(outcome=acp.schema.AllowedOutcome(option_id="approve", outcome="selected"))


async def main():
    agent_end, client_end = socket.socketpair()
    agent_reader, agent_writer = await asyncio.open_connection(sock=agent_end)
    client_reader, client_writer = await asyncio.open_connection(sock=client_end)
    kimi = server.ACPServer()
    serving = asyncio.create_task(acp.run_agent(kimi, agent_writer, agent_reader, use_unstable_protocol=True))
    to_agent = acp.connect_to_agent(Client(), client_writer, client_reader)
    try:
        report["auth_methods"] = [m.id for m in (await to_agent.initialize(protocol_version=1)).auth_methods]
    except acp.RequestError as exc:
        report["auth_methods"] = exc.to_error_obj()

    asking = session.ACPSession("sess-1", cli=None, acp_conn=kimi.conn)
    asking._turn_state = turn = session._TurnState()
    session._current_turn_id.set(turn.id)
    called = ToolCall(id="call-1", function=ToolCall.FunctionBody(name="Shell", arguments='{"command": "ls"}'))
    turn.tool_calls["call-1"] = session._ToolCallState(called)
    request = ApprovalRequest(id="approval-1", tool_call_id="call-1", sender="Shell", action="run", description="ls")
    await asking._handle_approval_request(request)
    report.update(turn=turn.id, approval=await request.wait(), asked=Client.asked)
    serving.cancel()


asyncio.run(main())
try:
    server._expand_llm_models({"k2": LLMModel(provider="kimi", model="kimi-k2", max_context_size=1)})
except AttributeError as exc:
    report["model_picker"] = str(exc)
report["errors"] = errors
print(json.dumps(report))
"""


@pytest.fixture(scope="module")
def kimi() -> Path:
    # kimi-cli pins `agent-client-protocol==0.8.0`: installed with its dependencies, then 1.0 over the pin.
    return sdk_python(TARGET, KIMI, interpreter=pyenv_python(KIMI_PYTHON), over_pin=True)


def _run_kimi(python: Path, tree: Path, modules: list[str], cwd: Path) -> dict:
    """KIMI_RUN on the kimi_cli package in `tree` (the virtualenv's own giving its dependencies)."""
    run = subprocess.run(
        [python, "-c", KIMI_RUN, *modules],
        cwd=cwd,
        env=sdk_env(PYTHONPATH=str(tree)),
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["package"] == str(tree / "kimi_cli" / "acp")
    return report


def test_kimi_cli_acp_moves_to_1_0(kimi: Path, tmp_path: Path) -> None:
    published = tmp_path / "published"
    with zipfile.ZipFile(_kimi_wheel()) as wheel:
        wheel.extractall(published, [n for n in wheel.namelist() if n.startswith("kimi_cli/")])
    project = _project(tmp_path / "kimi", published / "kimi_cli" / "acp", "agent-client-protocol==0.8.0")

    fixed = _fix(project)
    after = _tree(project)
    again = _fix(project)

    assert fixed.returncode == 1, fixed.stderr
    assert set(_findings(fixed.stdout)) == {("acp/server.py", "ACP204")}, fixed.stdout
    assert (again.returncode, _tree(project)) == (1, after)
    # Every `acp.schema` name the migrated code reads is in 1.0's schema, but the
    # model picker's, which the findings name.
    read = {name for source in after.values() for name in SCHEMA_NAMES.findall(source.decode())}
    assert "AuthMethodAgent" in read and "AuthMethod" not in read
    check = f"import acp.schema as s; print([n for n in {sorted(read)!r} if not hasattr(s, n)])"
    missing = subprocess.run([kimi, "-c", check], env=sdk_env(), capture_output=True, text=True)
    assert missing.stdout.strip() == "['ModelInfo', 'SessionModelState']", missing.stderr

    migrated = shutil.copytree(published, tmp_path / "migrated")
    shutil.rmtree(migrated / "kimi_cli" / "acp")
    shutil.copytree(project / "acp", migrated / "kimi_cli" / "acp")
    modules = [f"kimi_cli.acp.{Path(name).stem}".removesuffix(".__init__") for name in after]
    assert len(modules) == 9
    ran = {tree: _run_kimi(kimi, tmp_path / tree, modules, tmp_path) for tree in ("published", "migrated")}

    # On 1.0 every module imports, as published too: kimi reads the SDK's names as
    # `acp.schema.X` when it calls, the annotations being lazy. What breaks, breaks at the call.
    assert ran["migrated"]["failed_imports"] == ran["published"]["failed_imports"] == {}
    # The 0.9 rename: initialize answers with the login method; as published, an error.
    assert ran["migrated"]["auth_methods"] == ["login"]
    assert ran["published"]["auth_methods"]["data"] == {"details": "module 'acp.schema' has no attribute 'AuthMethod'"}
    # The 0.11 reorder: the client is asked on the session, and its approval reaches kimi.
    turn = ran["migrated"]["turn"]
    assert ran["migrated"]["asked"] == [["sess-1", f"{turn}/call-1", ["approve", "approve_for_session", "reject"]]]
    assert (ran["migrated"]["approval"], ran["migrated"]["errors"]) == ("approve", [])
    # As published the request fails to validate before it is sent (the options as the
    # session id): kimi swallows the error and rejects every tool call, silently.
    assert ran["published"]["asked"] == []
    assert ran["published"]["approval"] == "reject"
    assert ran["published"]["errors"] == ["Error handling approval request: ValidationError"]
    # The model picker fails on the name the findings give, left for a person.
    assert ran["migrated"]["model_picker"] == "module 'acp.schema' has no attribute 'ModelInfo'"
    assert "`ModelInfo` is gone in SDK 0.11" in fixed.stdout


@pytest.fixture(scope="module")
def mini_agent_python() -> Path:
    return sdk_python(TARGET, *MINI_AGENT_DEPENDENCIES)


# Mini-Agent keeps logs under ~/.mini-agent: the server runs with a home of the test's own
# (the client hands the agent no HOME).
SERVE_AT_HOME = (
    "import os, runpy, sys; os.environ['HOME'] = sys.argv[1]; "
    "runpy.run_module('mini_agent.acp.server', run_name='__main__')"
)


def _serve_mini_agent(python: Path, project: Path, home: Path) -> dict:
    """Mini-Agent's ACP server started in `project` on `python`'s SDK and driven over stdio
    by that release's client (initialize, session/new, one prompt). Its LLM's address is a local port bound but
    never listening: the prompt's request is refused at once, with no network."""
    with socket.socket() as refusing:
        refusing.bind(("127.0.0.1", 0))
        (project / "mini_agent" / "config").mkdir(exist_ok=True)
        (project / "mini_agent" / "config" / "config.yaml").write_text(
            "api_key: never-sent\n"
            f"api_base: http://127.0.0.1:{refusing.getsockname()[1]}\n"
            "retry:\n  enabled: false\n"
            f"workspace_dir: {home / 'workspace'}\n"
            "tools:\n  enable_mcp: false\n  enable_skills: false\n"
        )
        spec = {"argv": ["-c", SERVE_AT_HOME, str(home)], "cwd": str(project), "text": "hello", "timeout": HANG_GUARD}
        done = subprocess.run(
            [python, CLIENT, json.dumps(spec)], env=sdk_env(), capture_output=True, text=True, timeout=HANG_GUARD * 4
        )
    assert done.stdout, done.stderr
    return json.loads(done.stdout)


def test_mini_agent_acp_moves_to_1_0_and_serves_on_1_0_and_0_12(mini_agent_python: Path, tmp_path: Path) -> None:
    project = shutil.copytree(MINI_AGENT, tmp_path / "mini-agent")  # its pyproject: `agent-client-protocol>=0.6.0`
    importing = [mini_agent_python, "-c", "import mini_agent.acp"]
    # As published, on 1.0: `acp.helpers` is gone.
    original = subprocess.run(importing, cwd=project, env=sdk_env(), capture_output=True, text=True)
    assert "cannot import name 'session_notification' from 'acp'" in original.stderr, original.stderr
    before = _tree(project)

    fixed = _fix(project)
    after = _tree(project)
    again = _fix(project)

    assert fixed.returncode == 1, fixed.stderr
    assert [name for name in before if after[name] != before[name]] == ["mini_agent/acp/__init__.py"]
    # Left for a person: the factory hands the agent its configuration beside the connection;
    # and the prompt handler's call of its own moved `newSession` on an unknown session,
    # whose request model 0.6.3 refused (no `mcpServers`, `cwd` None): no call means the same.
    assert set(_findings(fixed.stdout)) == {
        ("mini_agent/acp/__init__.py", "ACP222"),
        ("mini_agent/acp/__init__.py", "ACP221"),
    }, fixed.stdout
    assert "__init__.py:111:33: ACP221" in fixed.stdout and "lacks mcpServers" in fixed.stdout, fixed.stdout
    assert b"await self.newSession(NewSessionRequest(cwd=None))" in after["mini_agent/acp/__init__.py"]
    assert (again.returncode, _tree(project)) == (1, after)
    # `acp` is the SDK, not the subpackage mini_agent/acp/: its imports stay out of the project's section.
    assert b"\n\nfrom mini_agent.agent import Agent\n" in after["mini_agent/acp/__init__.py"]

    # Served on 1.0 and on what its requirement installs today.
    for python in (mini_agent_python, sdk_python(STABLE, *MINI_AGENT_DEPENDENCIES)):
        run = _serve_mini_agent(python, project, tmp_path / "home")
        assert run["failure"] is None, (python, run["failure"])
        assert run["session_id"].startswith("sess-0-"), python
        # The turn reaches the LLM, which refuses: the agent says so in an update `fix` built.
        frames = run["frames"]
        asked = next(m["id"] for d, m in frames if d == "client->agent" and m.get("method") == "session/prompt")
        answer = next(m for d, m in frames if d == "agent->client" and m.get("id") == asked and "method" not in m)
        assert answer.get("result") == {"stopReason": "refusal"}, (python, answer)
        updates = [m["params"] for d, m in frames if d == "agent->client" and m.get("method") == "session/update"]
        assert updates == [
            {
                "sessionId": run["session_id"],
                "update": {
                    "sessionUpdate": "agent_message_chunk",
                    "content": {"type": "text", "text": "Error: Connection error."},
                },
            }
        ], (python, updates)
