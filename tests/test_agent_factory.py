"""An SDK 0.4-0.6 agent made by a wrapped factory (`AgentSideConnection(traced(lambda conn:
Agent(conn)), ...)`): the rewire binds the advertiser to the connection the agent keeps,
so it moves the commands only when the wrapper is proven to hand the agent that
connection (rules/shared/agent_factory.py), and otherwise exits 1 naming the wrapper.

The refused golden cases (golden/todo-sdk-0-4-9-factory-*) each lost commands when
migrated before: a tracing proxy failed `bind`, and so `initialize`; an agent cached
across connections left every later connection without commands (two connections in
one process: support/two_connections.py gives the second `null`). The migrated ones
run over stdio in tests/test_golden_runs.py, and here serve two connections in one
process with one factory.

The factory may be in the module serving the agent (`server.py`, the wrapper in
`tracing.py` or a package): the project decision reads it there, for `fix agent.py`
alone too, and the agent is migrated or refused as if the factory were in its module.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from support.command import run_acp_migrate
from support.golden_tree import expected_tree
from support.sdk_venv import sdk_env, sdk_python

from acp_migrate.engine.analysis.codemod import analyze_source
from acp_migrate.engine.execution.modules import in_memory_modules
from acp_migrate.settings import RuleSettings

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
REFUSED = sorted(p.name for p in GOLDEN.glob("todo-sdk-0-4-9-factory-*"))
SETTINGS = RuleSettings(runtime_import="acp_migrate.runtime")
FACTORY = "traced(lambda conn: ExampleAgent(conn))"  # how the refused golden cases make their agent
HANG_GUARD = 60.0  # seconds; only ends a wait that would never end

AGENT = """\
import functools
import logging

from acp import AgentSideConnection
from acp.schema import AgentCapabilities, AvailableCommand, InitializeResponse

COMMANDS = [AvailableCommand(name="web", description="Search the web")]
{wrapper}

class ExampleAgent:
    def __init__(self, conn: AgentSideConnection) -> None:
        self._conn = conn

    async def initialize(self, params):
        return InitializeResponse(
            protocolVersion=params.protocolVersion,
            agentCapabilities=AgentCapabilities(slashCommands=COMMANDS),
        )


def serve(writer, reader):
    return AgentSideConnection({factory}, writer, reader)
"""

PASS_THROUGH = """
def traced(factory):
    def make(conn):
        logging.info("agent made")
        return factory(conn)

    return make
"""


def wrapped_by(inner: str) -> str:
    """A module-level `traced` whose inner function has the body `inner`."""
    body = "".join(f"        {line}\n" if line else "\n" for line in inner.splitlines())
    return f"\ndef traced(factory):\n    def make(conn):\n{body}\n    return make\n"


PROVEN = {
    "pass-through": (PASS_THROUGH, "traced(lambda conn: ExampleAgent(conn))"),
    "wraps, try, result returned": (
        "\ndef traced(factory):\n    @functools.wraps(factory)\n    def make(conn):\n        try:\n"
        "            agent = factory(conn)\n        except Exception:\n"
        '            logging.exception("failed")\n            raise\n        return agent\n\n    return make\n',
        "traced(lambda conn: ExampleAgent(conn))",
    ),
    "the class itself": (PASS_THROUGH, "traced(ExampleAgent)"),
    "wrapped twice": (PASS_THROUGH, "traced(traced(lambda conn: ExampleAgent(conn)))"),
    "partial": ("", 'functools.partial(ExampleAgent, name="x")'),
    "a class calling it": (
        "\nclass traced:\n    def __init__(self, factory):\n        self.factory = factory\n"
        "        functools.update_wrapper(self, factory)\n        self.made = 0\n\n"
        "    def __call__(self, conn):\n        self.made += 1\n        return self.factory(conn)\n",
        "traced(ExampleAgent)",
    ),
    "generic, in a span": (
        "\ndef traced(factory):\n    @functools.wraps(factory)\n    def wrapper(*args, **kwargs):\n"
        '        with logging_span("agent"):\n            return factory(*args, **kwargs)\n\n    return wrapper\n',
        "traced(lambda conn: ExampleAgent(conn))",
    ),
    "a decorator made with a name": (
        "\ndef traced(name):\n    def decorator(factory):\n        def make(conn):\n"
        '            logging.info("making %s", name)\n            return factory(conn)\n\n'
        "        return make\n\n    return decorator\n",
        'traced("agent")(lambda conn: ExampleAgent(conn))',
    ),
    "a name assigned it": (PASS_THROUGH + "\n\nmake_agent = traced(ExampleAgent)\n", "make_agent"),
    "a factory setting up its agent": (
        "\nmade = []\n\n\ndef make_agent(conn):\n    agent = ExampleAgent(conn)\n    made.append(agent)\n"
        "    return agent\n",
        "make_agent",
    ),
    # SDK 0.7+ give `AgentSideConnection` the agent itself: no factory to prove.
    "an agent": ("", "ExampleAgent(None)"),
    "an agent a function makes": (
        "\nSETTINGS = {}\n\n\ndef make_agent(settings):\n    return ExampleAgent(settings)\n",
        "make_agent(SETTINGS)",
    ),
    "an agent given a class": ("\nclass Store:\n    pass\n", "ExampleAgent(Store)"),
    "decorated factory function": (
        PASS_THROUGH + "\n\n@traced\ndef make_agent(conn):\n    return ExampleAgent(conn)\n",
        "make_agent",
    ),
}

REFUSED_WRAPPERS = {
    "hands a proxy": (wrapped_by("return factory(Proxy(conn))"), "traced(lambda conn: ExampleAgent(conn))"),
    "logs the connection": (
        wrapped_by('logging.info("on %r", conn)\nreturn factory(conn)'),
        "traced(lambda conn: ExampleAgent(conn))",
    ),
    "returns None on failure": (
        wrapped_by("try:\n    return factory(conn)\nexcept Exception:\n    return None"),
        "traced(lambda conn: ExampleAgent(conn))",
    ),
    "edits the agent": (
        wrapped_by("agent = factory(conn)\nagent.tracer = None\nreturn agent"),
        "traced(lambda conn: ExampleAgent(conn))",
    ),
    "keeps the agent": (
        "\nmade = []\n" + wrapped_by("agent = factory(conn)\nmade.append(agent)\nreturn agent"),
        "traced(lambda conn: ExampleAgent(conn))",
    ),
    "caches in a global": (
        "\n_agent = None\n" + wrapped_by("global _agent\n_agent = factory(conn)\nreturn _agent"),
        "traced(lambda conn: ExampleAgent(conn))",
    ),
    "cached inner function": (
        "\ndef traced(factory):\n    @functools.lru_cache(maxsize=1)\n    def make(conn):\n"
        "        return factory(conn)\n\n    return make\n",
        "traced(lambda conn: ExampleAgent(conn))",
    ),
    "cached factory function": (
        "\n@functools.lru_cache(maxsize=1)\ndef make_agent(conn):\n    return ExampleAgent(conn)\n",
        "make_agent",
    ),
    "returns another function": (
        "\ndef traced(factory):\n    def make(conn):\n        return factory(conn)\n\n    return factory\n",
        "traced(lambda conn: ExampleAgent(conn))",
    ),
    "a class keeping the agent": (
        "\nclass traced:\n    def __init__(self, factory):\n        self.factory = factory\n        self.agent = None\n\n"
        "    def __call__(self, conn):\n        if self.agent is None:\n            self.agent = self.factory(conn)\n"
        "        return self.agent\n",
        "traced(lambda conn: ExampleAgent(conn))",
    ),
    "a class swapping the factory": (
        "\nclass traced:\n    def __init__(self, factory):\n        self.factory = factory\n\n"
        "    def __call__(self, conn):\n        return self.factory(conn)\n\n"
        "    def swap(self, other):\n        self.factory = other\n",
        "traced(lambda conn: ExampleAgent(conn))",
    ),
    "a name assigned it": (
        wrapped_by("return factory(Proxy(conn))") + "\n\nmake_agent = traced(ExampleAgent)\n",
        "make_agent",
    ),
    "a lambda handing a proxy": ("", "lambda conn: ExampleAgent(Proxy(conn))"),
    "a factory handing a proxy": (
        "\ndef make_agent(conn):\n    return ExampleAgent(Proxy(conn))\n",
        "make_agent",
    ),
    "a factory keeping its agent": (
        "\n_agent = None\n\n\ndef make_agent(conn):\n    global _agent\n    if _agent is None:\n"
        "        _agent = ExampleAgent(conn)\n    return _agent\n",
        "make_agent",
    ),
    "a factory returning another agent": (
        "\ndef make_agent(conn):\n    agent = ExampleAgent(conn)\n    agent = Traced(agent)\n    return agent\n",
        "make_agent",
    ),
    "generic, adding an argument": (
        "\ndef traced(factory):\n    def wrapper(*args, **kwargs):\n"
        "        return factory(*args, tracer=None, **kwargs)\n\n    return wrapper\n",
        "traced(lambda conn, tracer=None: ExampleAgent(conn))",
    ),
    "a decorator made with a name, handing a proxy": (
        "\ndef traced(name):\n    def decorator(factory):\n        def make(conn):\n"
        "            return factory(Proxy(conn))\n\n        return make\n\n    return decorator\n",
        'traced("agent")(lambda conn: ExampleAgent(conn))',
    ),
    "decorator factory": (
        "\ndef traced(name):\n    return lambda factory: factory\n",
        'traced("agent")(lambda conn: ExampleAgent(conn))',
    ),
    "imported": ("\nfrom tracing_kit import traced\n", "traced(lambda conn: ExampleAgent(conn))"),
    "attribute": ("\nimport tracing_kit\n", "tracing_kit.traced(lambda conn: ExampleAgent(conn))"),
}

# What the refusal names: the factory as `AgentSideConnection` (or the name it goes
# through) gets it, and the wrapper; by default `traced`, wrapping the factory given.
WRAPPED = "is wrapped by `{}`"
NAMED = {
    "a lambda handing a proxy": (None, "does more than hand the agent its connection"),
    **{
        shape: (None, "does more than make the agent with its connection and return it")
        for shape in ("a factory handing a proxy", "a factory keeping its agent", "a factory returning another agent")
    },
    "cached factory function": (None, WRAPPED.format("functools.lru_cache(maxsize=1)")),
    "decorator factory": (None, WRAPPED.format('traced("agent")')),
    "a decorator made with a name, handing a proxy": (None, WRAPPED.format('traced("agent")')),
    "attribute": (None, WRAPPED.format("tracing_kit.traced")),
    "a name assigned it": ("traced(ExampleAgent)", WRAPPED.format("traced")),
}


def analyse(wrapper: str, factory: str):
    source = AGENT.format(wrapper=wrapper, factory=factory).encode()
    return analyze_source(source, path="agent.py", settings=SETTINGS)


@pytest.mark.parametrize("shape", PROVEN)
def test_a_proven_wrapper_moves_the_commands(shape: str) -> None:
    analysis = analyse(*PROVEN[shape])
    assert analysis.remaining == []
    fixed = analysis.fixed_source.decode()
    assert "self.command_advertiser.bind(self._conn)" in fixed and "slashCommands" not in fixed


@pytest.mark.parametrize("shape", REFUSED_WRAPPERS)
def test_any_other_wrapper_keeps_the_commands_and_names_it(shape: str) -> None:
    wrapper, factory = REFUSED_WRAPPERS[shape]
    analysis = analyse(wrapper, factory)
    [left] = analysis.remaining
    shown, named = NAMED.get(shape, (None, WRAPPED.format("traced")))
    assert left.code == "ACP005"
    assert f"the agent factory `{shown or factory}` {named}" in left.message
    assert "check that the shim is bound to the connection that serves the session" in left.message
    assert "slashCommands=COMMANDS" in analysis.fixed_source.decode()  # still advertised: nothing lost


@pytest.mark.parametrize(
    ("tracing", "proven"),
    [(PASS_THROUGH, True), (wrapped_by("return factory(Proxy(conn))"), False)],
    ids=["pass-through", "proxy"],
)
def test_a_wrapper_in_another_module_of_the_project_is_read_there(tracing: str, proven: bool) -> None:
    source = AGENT.format(wrapper="\nfrom tracing import traced\n", factory="traced(ExampleAgent)").encode()
    files = {"agent.py": source, "tracing.py": ("import logging\n" + tracing).encode()}
    analysis = analyze_source(source, path="agent.py", modules=in_memory_modules(files, "agent.py"), settings=SETTINGS)
    assert (analysis.remaining == []) is proven
    assert ("slashCommands" in analysis.fixed_source.decode()) is not proven


@pytest.mark.parametrize("case", REFUSED)
def test_fix_exits_1_naming_the_wrapper(case: str, tmp_path: Path) -> None:
    project = tmp_path / case
    shutil.copytree(GOLDEN / case / "input", project)
    fixed = run_acp_migrate("fix", ".", cwd=project, text=True)
    assert fixed.returncode == 1, fixed.stdout + fixed.stderr
    source = (GOLDEN / case / "input" / "agent.py").read_text().splitlines()
    assert f"agent.py:{_slash_line(source)}:" in fixed.stdout
    assert f"the agent factory `{FACTORY}` is wrapped by `traced`" in fixed.stdout
    assert not (project / "acp_command_advertiser.py").exists()
    assert "slashCommands=COMMANDS" in (project / "agent.py").read_text()


def _slash_line(source: list[str]) -> int:
    return next(i for i, line in enumerate(source, 1) if "slashCommands=" in line)


def test_the_refused_cases_are_there() -> None:
    assert len(REFUSED) == 3


TWO_CONNECTIONS = Path(__file__).resolve().parent / "support" / "two_connections.py"
MIGRATED = sorted(p.name for p in GOLDEN.glob("rewire-sdk-0-4-9-*factory*"))


@pytest.mark.slow
@pytest.mark.parametrize("case", MIGRATED)
def test_a_migrated_agent_made_through_a_wrapper_advertises_on_every_connection(case: str, tmp_path: Path) -> None:
    """One factory serving two connections in one process, as a server accepting them
    does: the wrapper proven, each connection's agent is its own and advertises on it."""
    folder = expected_tree(GOLDEN / case, tmp_path / case)
    factory = re.search(r"AgentSideConnection\((.*), writer, reader\)", (folder / "agent.py").read_text())[1]
    assert serve_two_connections(folder, "agent", factory) == [["web", "test"], ["web", "test"]]


def serve_two_connections(folder: Path, module: str, factory: str) -> list[list[str] | None]:
    """The commands each of two connections' sessions got, served on SDK 0.4.9 by one
    `factory` evaluated in `module` (support/two_connections.py)."""
    spec = {"root": str(folder), "module": module, "factory": factory, "timeout": HANG_GUARD}
    served = subprocess.run(
        [str(sdk_python("0.4.9")), str(TWO_CONNECTIONS), json.dumps(spec)],
        env={**sdk_env(), "PYTHONDONTWRITEBYTECODE": "1"},
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        timeout=HANG_GUARD * 3,  # a hang guard only
    )
    assert served.returncode == 0, served.stderr
    return json.loads(served.stdout)["lists"]


def test_an_agent_migrated_before_is_reported_where_it_binds() -> None:
    """Code migrated by hand or by an earlier release: `check` says the bound connection
    is not proven (ACP010), where a proven wrapper leaves it silent."""
    migrated = (
        AGENT.replace("from acp.schema", "from acp_migrate.runtime import CommandAdvertiser\nfrom acp.schema")
        .replace(
            "        self._conn = conn\n", "        self._conn = conn\n        self.advertiser = CommandAdvertiser()\n"
        )
        .replace(
            "            agentCapabilities=AgentCapabilities(slashCommands=COMMANDS),\n",
            "            agentCapabilities=AgentCapabilities(),\n",
        )
        .replace(
            "    async def initialize(self, params):\n",
            "    async def initialize(self, params):\n"
            "        self.advertiser.bind(self._conn)\n        self.advertiser.advertise(COMMANDS)\n",
        )
    )
    findings = {}
    for shape, (wrapper, factory) in {
        "proven": PROVEN["pass-through"],
        "proxy": REFUSED_WRAPPERS["hands a proxy"],
    }.items():
        source = migrated.format(wrapper=wrapper, factory=factory)
        analysis = analyze_source(source.encode(), path="agent.py", fix=False, settings=SETTINGS)
        findings[shape] = [(f.line, f.code, f.message) for f in analysis.findings]
        bind_line = source.splitlines().index("        self.advertiser.bind(self._conn)") + 1
    assert findings["proven"] == []
    [(line, code, message)] = findings["proxy"]
    assert (line, code) == (bind_line, "ACP010")
    assert message.startswith(
        f"`self.advertiser` is bound to the connection the agent was made with, but the agent factory `{FACTORY}`"
        " is wrapped by `traced`"
    )


# The agent in one module, the factory in the module serving it (server.py) and the
# wrapper in a third (tracing.py), or outside the project.
CACHING_AGENT = (GOLDEN / "todo-sdk-0-4-9-factory-caches-agent" / "input" / "agent.py").read_text()
CACHING_TRACED = CACHING_AGENT[CACHING_AGENT.index("_agents = {}") : CACHING_AGENT.index("COMMANDS = [")]
SPLIT_AGENT = CACHING_AGENT.replace(CACHING_TRACED, "")
SPLIT_AGENT = SPLIT_AGENT[: SPLIT_AGENT.index("async def main")].rstrip() + "\n"
SERVER = """\
import asyncio

from acp import AgentSideConnection, stdio_streams

from agent import ExampleAgent
from {tracing} import traced


async def main() -> None:
    reader, writer = await stdio_streams()
    AgentSideConnection({factory}, writer, reader)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main())
"""
SPLIT = {
    "pass-through": ("import logging\n" + PASS_THROUGH, "tracing"),
    "caching": ("import logging\n\n" + CACHING_TRACED, "tracing"),
    "third-party": (None, "tracing_kit"),
}


def split_project(folder: Path, shape: str, server: str = SERVER, factory: str = FACTORY) -> Path:
    tracing, module = SPLIT[shape]
    folder.mkdir()
    (folder / "agent.py").write_text(SPLIT_AGENT)
    (folder / "server.py").write_text(server.format(tracing=module, factory=factory))
    if tracing is not None:
        (folder / "tracing.py").write_text(tracing)
    return folder


def _factory_line(folder: Path) -> int:
    return next(i for i, line in enumerate((folder / "server.py").read_text().splitlines(), 1) if FACTORY in line)


@pytest.mark.parametrize("shape", SPLIT)
@pytest.mark.parametrize("paths", [["."], ["agent.py"]], ids=["whole tree", "agent.py alone"])
def test_a_factory_in_the_module_serving_the_agent_is_proven_or_refused(
    shape: str, paths: list[str], tmp_path: Path
) -> None:
    """`fix agent.py` (the pre-commit hook) reads server.py as the whole tree's run does."""
    project = split_project(tmp_path / "project", shape)
    checked = run_acp_migrate("check", *paths, cwd=project, text=True)
    fixed = run_acp_migrate("fix", *paths, cwd=project, text=True)
    proven = shape == "pass-through"
    assert fixed.returncode == (0 if proven else 1), fixed.stdout + fixed.stderr
    assert checked.returncode == 1  # the legacy list, fixable or not
    assert ("`fix` cannot move it" in checked.stdout) is not proven
    agent = (project / "agent.py").read_text()
    assert ("slashCommands=COMMANDS" not in agent) is proven
    if proven:
        assert "self.command_advertiser.bind(self._conn)" in agent
        return
    todo = "        # acp-migrate: TODO: advertise `COMMANDS` per session (acp-migrate rules ACP005)\n"
    assert agent.replace(todo, "", 1) == SPLIT_AGENT  # only the TODO, as in the one-file cases
    assert not (project / "acp_command_advertiser.py").exists()
    where = f"agent.py:{_slash_line(SPLIT_AGENT.splitlines())}:"
    named = f"server.py:{_factory_line(project)} makes the agent: the agent factory `{FACTORY}` is wrapped by `traced`"
    for output in (checked.stdout, fixed.stdout):
        assert [line for line in output.splitlines() if line.startswith(where) and named in line], output


@pytest.mark.parametrize("shape", ["pass-through", "caching"])
def test_a_subclass_made_in_the_module_serving_the_agent_is_its_agent(shape: str, tmp_path: Path) -> None:
    server = SERVER.replace("\n\nasync def main", "\n\nclass TracedAgent(ExampleAgent):\n    pass\n\n\nasync def main")
    project = split_project(tmp_path / "project", shape, server, "traced(lambda conn: TracedAgent(conn))")
    fixed = run_acp_migrate("fix", "agent.py", cwd=project, text=True)
    assert fixed.returncode == (0 if shape == "pass-through" else 1), fixed.stdout + fixed.stderr
    assert ("slashCommands=COMMANDS" in (project / "agent.py").read_text()) is (shape == "caching")


def test_an_agent_class_no_file_makes_is_migrated_as_before(tmp_path: Path) -> None:
    """Its factory is not in the project (a plugin host makes it): nothing to prove."""
    project = split_project(tmp_path / "project", "caching")
    (project / "server.py").unlink()
    fixed = run_acp_migrate("fix", ".", cwd=project, text=True)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "slashCommands=COMMANDS" not in (project / "agent.py").read_text()


@pytest.mark.slow
def test_an_agent_migrated_with_its_factory_in_another_module_advertises_on_every_connection(tmp_path: Path) -> None:
    project = split_project(tmp_path / "project", "pass-through")
    fixed = run_acp_migrate("fix", ".", cwd=project, text=True)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert serve_two_connections(project, "server", FACTORY) == [["web", "test"], ["web", "test"]]


@pytest.mark.parametrize(
    ("code", "reads"),
    [
        # What gather_factories follows: imports, definitions, assignments, bases.
        ("from agent import Agent\nAgentSideConnection(traced(lambda conn: Agent(conn)), w, r)", True),
        ("from agent import Agent\nclass Traced(Agent): ...\nAgentSideConnection(lambda c: Traced(c), w, r)", True),
        ("from agent import Agent\ndef make(conn):\n    return Agent(conn)\nAgentSideConnection(make, w, r)", True),
        (
            "from agents import build\nfactory = build()\nAgentSideConnection(to_agent=factory, writer=w, reader=r)",
            True,
        ),
        ("class Server:\n    def serve(self, w, r):\n        AgentSideConnection(self.make, w, r)", True),
        ("for factory in FACTORIES:\n    AgentSideConnection(factory, w, r)", True),
        # What it would find nothing in: an SDK's own parameter, a test's local agent.
        ("def serve(to_agent, w, r):\n    return AgentSideConnection(to_agent, w, r)", False),
        ("class TestAgent: ...\nAgentSideConnection(lambda _conn: TestAgent(), w, r)", False),
        ("class Local: ...\ndef make(conn):\n    return Local()\nAgentSideConnection(make, w, r)", False),
        ("def serve(agent, w, r):\n    factory = lambda conn: agent\n    AgentSideConnection(factory, w, r)", False),
        ("from acp import AgentSideConnection\nclass AgentSideConnection2(AgentSideConnection): ...", False),
    ],
)
def test_only_a_module_whose_factories_may_make_another_modules_agent_is_parsed(code: str, reads: bool) -> None:
    import ast

    from acp_migrate.rules.shared.agent_factory import may_make_agents_elsewhere

    assert may_make_agents_elsewhere(ast.parse(code)) is reads
