"""Run what the rewire writes: every `rewire-*` golden case's migrated agent, over stdio.

For each case, golden/<case>/expected (what `fix` produces) is copied out and its agent
is started as a subprocess (support/serve_golden.py, on the case's SDK release) and
driven by that release's client: 0.12's in this process, an older release's
(0.4.9, 0.5.0, 0.6.3) in a process on its own virtualenv (support/old_sdk_client.py). It must answer `initialize` with no slash commands; each
setup it supports (new, load, resume, fork) must leave the client with the commands the
legacy agent advertised at initialize, after the session's own list when it sends one
(docs/runtime.md: own list first, then the moved commands it lacks by name), with
nothing for the session before its setup response; closing its stdin must end it with
status 0. Only what the files cannot tell is in RUNS; a rewire case without a run fails.
Vendored cases whose agent can start run too, with the shim this release writes in place
of the stub standing for it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from acp import RequestError
from support import acp_stdio, golden_frames
from support.acp_stdio import AgentProcess, AgentProcessError
from support.golden_frames import TO_AGENT, Frame, client_list, early
from support.golden_tree import expected_tree
from support.sdk_venv import sdk_env, sdk_python

pytestmark = pytest.mark.slow  # every rewire case's migrated agent, run over stdio

REPO = Path(__file__).resolve().parents[1]
GOLDEN = REPO / "golden"
LAUNCHER = REPO / "tests" / "support" / "serve_golden.py"
OLD_CLIENT = REPO / "tests" / "support" / "old_sdk_client.py"  # the client of a release before 0.12
OLD_SDKS = ("0.4.9", "0.5.0", "0.6.3")  # each in a virtualenv of its own (support/sdk_venv.py)
CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "input").is_dir())
REWIRE_CASES = [case for case in CASES if case.startswith("rewire-")]
HANG_GUARD = 60.0  # seconds; only ends a wait that would never end
METHODS = {"new": "session/new", "load": "session/load", "resume": "session/resume", "fork": "session/fork"}
STORED = "stored-session"  # the id loaded and resumed; forks fork the new session


@dataclass(frozen=True)
class Run:
    """One agent of a case. Names are space-separated: `setups="new load"`, `moved="web"`."""

    case: str
    make: str  # builds the agent in the migrated module; `conn` in it: an SDK factory makes it
    setups: str  # driven in this order: new, load, resume, fork
    moved: str  # the commands the legacy agent advertised at initialize
    own: dict[str, str] = field(default_factory=dict)  # setup kind -> the session's own list, if it sends one
    module: str = "agent"
    path: str = ""  # the case's folder on sys.path, as installing the project puts it (`src`)
    sdk: str = "0.12"  # the suite's, else one of OLD_SDKS: the agent and its client on that release

    @property
    def id(self) -> str:
        return f"{self.case}[{self.make.split('(')[0]}]"

    def expected(self, kind: str) -> list[str]:
        own = self.own.get(kind, "").split()
        return own + [name for name in self.moved.split() if name not in own]


RUNS = (
    Run("rewire-aliased-sdk-imports", "AliasedAgent()", "new", "web", own={"new": "web"}),
    Run("rewire-attrs-define", "AttrsAgent(conn)", "new", "web"),
    Run("rewire-awaited-discovered-commands", "DiscoveringAgent()", "new load", "web"),
    Run("rewire-base-hook-other-package", "AppAgent()", "new", "web", module="app.agent"),
    Run("rewire-bind-in-on-connect-without-init", "TinyAgent()", "new", "web"),
    Run("rewire-capabilities-dict-call-in-initialize-result", "DictAgent()", "new load", "web"),
    Run("rewire-comprehension-loop-variable", "ComprehensionAgent()", "new", "web test"),
    # load: of a session it does not have (its own-list path needs the new session's cwd)
    Run(
        "rewire-dataclass-connection-field",
        "PoolAgent(client=conn)",
        "new load fork",
        "web",
        own={"new": "plan"},
        module="acp_agent",
    ),
    Run("rewire-factory-conn-in-init", "FactoryAgent(conn)", "new", "web"),
    Run("rewire-factory-lambda-stored-connection", "LambdaAgent(conn, name='lambda')", "new", "web"),
    Run("rewire-handler-aliases", "AliasAgent()", "new load resume", "web"),
    Run("rewire-helper-method-capabilities", "HelperAgent()", "new load", "web test"),
    # not fork: its fork_session is a plain function, which no SDK can await
    Run("rewire-inherited-handlers-other-module", "SkillAgent(conn)", "new load", "web", module="pool.agent"),
    Run("rewire-list-uses-initialize-parameter", "ClientAwareAgent()", "new", "web"),
    Run("rewire-merge-session-list", "MergingAgent()", "new", "review", own={"new": "help"}),
    Run("rewire-mixin-initialize-concrete-on-connect", "MixedAgent()", "new load", "web"),
    Run("rewire-module-constant-capabilities", "ConstantAgent()", "new", "web"),
    Run(
        "rewire-race-patterns",
        "RacyAgent()",
        "new load resume",
        "web",
        own={"new": "web", "load": "web", "resume": "web"},
    ),
    Run("rewire-request-object-camelcase", "OldSdkAgent(conn)", "new load", "web", sdk="0.6.3"),
    Run("rewire-run-agent", "StdioAgent()", "new", "web"),
    Run("rewire-sdk-0-4-9-example-agent", "ExampleAgent(conn)", "new load", "web test", sdk="0.4.9"),
    Run(
        "rewire-sdk-0-4-9-decorated-factory-lambda",
        "traced(lambda c: ExampleAgent(c))(conn)",
        "new load",
        "web test",
        sdk="0.4.9",
    ),
    Run(
        "rewire-sdk-0-4-9-factory-decorator-class",
        "traced(lambda c: ExampleAgent(c))(conn)",
        "new load",
        "web test",
        sdk="0.4.9",
    ),
    Run(
        "rewire-sdk-0-4-9-factory-decorator-other-module",
        "traced(lambda c: ExampleAgent(c))(conn)",
        "new load",
        "web test",
        sdk="0.4.9",
    ),
    Run(
        "rewire-sdk-0-4-9-factory-generic-decorator",
        'traced("agent")(lambda c: ExampleAgent(c))(conn)',
        "new load",
        "web test",
        sdk="0.4.9",
    ),
    Run(
        "rewire-sdk-0-4-9-factory-wraps-try-except",
        "traced(lambda c: ExampleAgent(c))(conn)",
        "new load",
        "web test",
        sdk="0.4.9",
    ),
    Run(
        "rewire-sdk-0-4-9-session-own-list",
        "NotesAgent(conn)",
        "new load",
        "web read",
        own={"load": "notes"},
        sdk="0.4.9",
    ),
    Run("rewire-sdk-0-4-9-wire-dict-result", "WireAgent(conn)", "new load", "web plan", sdk="0.4.9"),
    Run(
        "rewire-sdk-0-5-0-dataclass-client-field",
        "PoolAgent(client=conn)",
        "new load",
        "web",
        module="acp_agent",
        sdk="0.5.0",
    ),
    Run("rewire-line-length-120", "WideAgent(conn)", "new", "web"),
    Run("rewire-line-length-79", "NarrowAgent(conn)", "new", "web"),
    Run("rewire-same-class", "SkillAgent()", "new load resume fork", "web"),
    Run("rewire-slots-dataclass", "SlotsAgent(conn)", "new", "web"),
    # the subclass's own load_session, not the edited base's
    Run("rewire-subclass-overrides-handler", "AppAgent()", "new load", "web", module="app"),
    # the subclass's own on_connect, without super(): bound in initialize all the same
    Run("rewire-subclass-on-connect-without-super", "AppAgent()", "new load", "web", module="app"),
    Run("rewire-suppressed-occurrence-still-moves", "SkillAgent()", "new", "web"),
    Run("rewire-two-agent-classes", "ChatAgent()", "new", "web", module="agents"),
    Run("rewire-two-agent-classes", "CodeAgent()", "new", "test", module="agents"),
    Run("rewire-without-fork-and-load-returning-none", "PlainAgent(registry.Registry())", "new load", "web"),
    # The vendored shim, imported as fix wrote the import: absolutely, as a script, relatively.
    Run("vendored-absolute-imports", "CoderAgent()", "new", "review", module="app.agents.coder"),
    Run("vendored-script-layout", "TinyAgent()", "new", "web"),
    Run("vendored-crlf-project", "TinyAgent()", "new", "web"),
    # PEP 420 namespace packages run with `-m` (no __init__.py), and a src/ layout.
    Run("vendored-namespace-package-relative-imports", "CoderAgent()", "new", "review", module="acme.agents.coder"),
    Run("vendored-namespace-package-absolute-sibling", "CoderAgent()", "new", "review", module="acme.agents.coder"),
    Run("vendored-namespace-package-either-import", "CoderAgent()", "new", "review", module="acme.agents.coder"),
    Run("vendored-src-layout", "CoderAgent()", "new", "review", module="acme.coder.agent", path="src"),
    # The vendored copy on the old releases, with their clients.
    Run("vendored-sdk-0-6-3-request-objects", "OldSdkAgent(conn)", "new load", "web", sdk="0.6.3"),
    Run("vendored-sdk-0-4-9-factory", "ExampleAgent(conn)", "new load", "web test", sdk="0.4.9"),
    Run("vendored-sdk-0-5-0-dataclass", "PoolAgent(client=conn)", "new load", "web", module="acp_agent", sdk="0.5.0"),
)


def test_the_frames_read_as_the_client_records_them():
    assert (acp_stdio.TO_AGENT, acp_stdio.FROM_AGENT) == (golden_frames.TO_AGENT, golden_frames.FROM_AGENT)


def test_every_rewire_case_runs():
    covered = {run.case for run in RUNS}
    assert [case for case in REWIRE_CASES if case not in covered] == [], "rewire cases with no run in RUNS"
    assert sorted(covered - set(CASES)) == [], "runs in RUNS of cases golden/ does not have"
    for run in RUNS:
        inputs = "".join(p.read_text() for p in (GOLDEN / run.case / "input").rglob("*.py"))
        for name in run.moved.split():  # the table's commands are the legacy agent's own
            assert f'"{name}"' in inputs, f"{run.id}: the input names no command {name!r}"


# -- the driver --------------------------------------------------------------------


@dataclass
class Setup:
    kind: str
    request_at: int
    session_id: str


async def set_up(agent: AgentProcess, kind: str, new_session: str | None) -> Setup:
    if kind == "new":
        session_id = await agent.new_session()
    elif kind == "load":
        await agent.load_session(STORED)
        session_id = STORED
    elif kind == "resume":
        await agent.resume_session(STORED)
        session_id = STORED
    else:
        assert new_session is not None, "a fork forks the new session: drive new first"
        session_id = await agent.fork_session(new_session)
    method = METHODS[kind]
    request_at = max(i for i, (d, m) in enumerate(agent.frames) if d == TO_AGENT and m.get("method") == method)
    return Setup(kind, request_at, session_id)


async def drive(run: Run, folder: Path, python: Path, env: dict[str, str] | None) -> tuple[list[Frame], list[Setup]]:
    """Initialize, set up each session of `run.setups` in turn (each waits for its list),
    then end the agent's input and read all it wrote; return every frame and the setups."""
    setups: list[Setup] = []
    args = (str(folder / run.path), run.module, run.make)
    agent = AgentProcess(LAUNCHER, *args, python=str(python), cwd=folder, env=env, timeout=HANG_GUARD)
    async with agent:
        try:
            await agent.initialize()
            result = json.dumps(agent.result("initialize"))
            assert "slashCommands" not in result and "slash_commands" not in result, result

            new_session = None
            for kind in run.setups.split():
                setup = await set_up(agent, kind, new_session)
                new_session = setup.session_id if kind == "new" else new_session
                setups.append(setup)
                expected = run.expected(kind)

                def arrived(frames: list[Frame], setup: Setup = setup, expected: list[str] = expected) -> bool:
                    return client_list(frames, setup.request_at, setup.session_id) == expected

                try:
                    await agent.wait_for(arrived, timeout=HANG_GUARD)
                except AgentProcessError:
                    seen = client_list(agent.frames, setup.request_at, setup.session_id)
                    pytest.fail(
                        f"{kind} session {setup.session_id}: the client has {seen}, not {expected}\n"
                        f"--- agent stderr ---\n{agent.stderr}"
                    )

            # End of input: the agent must stop by itself; the client reads all it wrote.
            agent.process.stdin.write_eof()
            await asyncio.wait_for(agent.conn._conn._recv_task, HANG_GUARD)
            await asyncio.wait_for(agent.process.wait(), HANG_GUARD)
        except RequestError as exc:
            pytest.fail(f"the agent answered with an error: {exc} {exc.data}\n--- agent stderr ---\n{agent.stderr}")
        except AgentProcessError as exc:
            pytest.fail(str(exc))
    assert agent.returncode == 0, agent.stderr
    assert "Traceback" not in agent.stderr, agent.stderr
    return agent.frames, setups


def drive_old_sdk(run: Run, folder: Path) -> tuple[list[Frame], list[Setup]]:
    """The same run with the release's own client (support/old_sdk_client.py), both
    processes on that release's interpreter; return every frame and the setups."""
    spec = {
        "launcher": str(LAUNCHER),
        "folder": str(folder),
        "root": str(folder / run.path),
        "module": run.module,
        "make": run.make,
        "setups": [[kind, run.expected(kind)] for kind in run.setups.split()],
        "stored": STORED,
        "not_at_initialize": ["slashCommands", "slash_commands"],
        "timeout": HANG_GUARD,
    }
    client = subprocess.run(
        [str(sdk_python(run.sdk)), str(OLD_CLIENT), json.dumps(spec)],
        env={**sdk_env(), "PYTHONDONTWRITEBYTECODE": "1"},
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        timeout=HANG_GUARD * (len(spec["setups"]) + 3),  # a hang guard only
    )
    stderr = f"--- client and agent stderr ---\n{client.stderr}"
    assert client.returncode == 0, stderr
    outcome = json.loads(client.stdout)
    if outcome["failure"] is not None:
        pytest.fail(f"{outcome['failure']}\n{stderr}")
    assert outcome["returncode"] == 0, stderr
    assert "Traceback" not in client.stderr, stderr  # also the client's: a frame it could not read
    frames = [(direction, message) for direction, message in outcome["frames"]]
    return frames, [Setup(kind, request_at, session_id) for kind, request_at, session_id in outcome["setups"]]


@pytest.mark.parametrize("run", RUNS, ids=[run.id for run in RUNS])
def test_migrated_agent_advertises_per_session(run: Run, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder = expected_tree(GOLDEN / run.case, tmp_path / run.case)
    if run.sdk == "0.12":
        frames, setups = asyncio.run(drive(run, folder, Path(sys.executable), None))
    else:
        assert run.sdk in OLD_SDKS, run.sdk
        frames, setups = drive_old_sdk(run, folder)
    # The client logs what it could not read: the agent wrote something else than JSON-RPC on stdout.
    unread = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert unread == [], "the client could not read the agent's stdout (a print?)"

    assert [s.kind for s in setups] == run.setups.split()
    for index, setup in enumerate(setups):
        later = [s.request_at for s in setups[index + 1 :] if s.session_id == setup.session_id]
        end = later[0] if later else None  # a later setup of the same session starts over
        assert early(frames, setup.request_at, setup.session_id) == [], f"{setup.kind}: updates before the response"
        assert client_list(frames, setup.request_at, setup.session_id, end) == run.expected(setup.kind), setup.kind


# -- the old releases' runs are no formality -----------------------------------------


@pytest.mark.parametrize("sdk", OLD_SDKS)
def test_an_old_release_run_fails_at_once_when_the_agent_cannot_start(tmp_path: Path, sdk: str) -> None:
    (tmp_path / "agent.py").write_text("from acp_command_advertiser import CommandAdvertiser\n")
    with pytest.raises(pytest.fail.Exception, match="initialize: the agent exited first, with status 1") as failed:
        drive_old_sdk(Run("a-case", "Agent(conn)", "new", "web", sdk=sdk), tmp_path)
    assert "No module named 'acp_command_advertiser'" in str(failed.value)


def test_an_old_release_run_fails_at_once_on_a_list_still_at_initialize(tmp_path: Path) -> None:
    folder = tmp_path / "legacy"
    shutil.copytree(GOLDEN / "rewire-sdk-0-4-9-wire-dict-result" / "input", folder)  # before fix
    with pytest.raises(pytest.fail.Exception, match="initialize still advertises: .*slashCommands"):
        drive_old_sdk(Run("legacy", "WireAgent(conn)", "new", "web plan", sdk="0.4.9"), folder)
