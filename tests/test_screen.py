"""The screen (engine/analysis/screen.py): a file it clears has nothing a rule reports,
and a run where no file passes it imports no LibCST."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.command import run_acp_migrate

from acp_migrate.engine.analysis import codemod
from acp_migrate.engine.analysis.prefilter import may_contain_legacy
from acp_migrate.engine.analysis.screen import may_report
from acp_migrate.rules import ALL_RULES, CENSUS_RULES, PYTHON_RULES
from acp_migrate.rules.base import NOT_HASATTR, SCREEN_CONTEXTS
from acp_migrate.sdk import Target
from acp_migrate.settings import RuleSettings

REPOSITORY = Path(__file__).resolve().parent.parent

# Each holds the legacy field as a construct some rule could report on.
PASSED = {
    "keyword": "f(slash_commands=[])\n",
    "attribute": "caps.slash_commands\n",
    "name": "slashCommands = 1\n",
    "dict key": "x = {'slashCommands': []}\n",
    "string": 'getattr(caps, "slash_commands")\n',
    "parameter": "def create(slash_commands=None): ...\n",
    "annotated field": "class Caps:\n    slash_commands: list = []\n",
    "import": "from schema import slash_commands\n",
    "global": "def f():\n    global slash_commands\n",
    "raw string": "x = r'slash_commands'\n",
    "the TODO marker": "# acp-migrate: TODO: advertise `c` per session\n",
    "a syntax error": "def f(:\n    slash_commands\n",
    "decorator": "@register(slash_commands=[])\ndef f():\n    pass\n",
    "decorated class": "@dataclass(\n    slash_commands=1,\n)\nclass A:\n    x = 1\n\n\nclass B:\n    y = 2\n",
    "escaped string": '"""About slash_commands."""\n\n\nx = getattr(caps, "slash\\x5fcommands")\n',
    "continued string": '"""About slash_commands."""\n\n\nx = getattr(caps, "slash_\\\ncommands")\n',
    "deep in a class": "class A:\n    def f(self):\n        if x:\n            return {\n                'slashCommands': 1}\n",
    "the TODO marker in a string": "x = '# acp-migrate: TODO'\n",
}

# The tokens are there, but only in prose or inside longer words.
CLEARED = {
    "docstring": '"""Advertise slash_commands per session, not at initialize."""\n',
    "comment": "x = 1  # slashCommands went with RFC-0032\n",
    "longer identifier": "def test_initialize_has_no_slash_commands(): ...\n",
    "longer string": "print('the slash_commands field was removed')\n",
    "f-string": "print(f'{x} slash_commands')\n",
    "bytes": "x = b'slash_commands'\n",
    # CPython's constant is the whole string; the rules read a SimpleString, never a part.
    "implicit concatenation": "x = {'slash_commands' 'x': 1}\n",
}


SCHEMA = "from acp.schema import AgentCapabilities, InitializeResponse\n\n\n"
OWNED = "from myagent.schema import AgentCapabilities\n\n\n"

# A migrated project's tests: the field only where every rule declares it no site
# (`Rule.screen_harmless`): assertions of its absence, old JSON given to `model_validate`.
HARMLESS = {
    "not hasattr": SCHEMA + 'def test_caps():\n    assert not hasattr(AgentCapabilities(), "slash_commands")\n',
    "not hasattr, parenthesized": SCHEMA
    + 'def test_caps(caps: AgentCapabilities):\n    assert not (hasattr(caps, "slash_commands"))\n',
    "not in": SCHEMA
    + 'def test_caps():\n    assert "slashCommands" not in AgentCapabilities().model_dump(by_alias=True)\n',
    "not in a local dump": SCHEMA
    + 'def test_json():\n    data = AgentCapabilities().model_dump(mode="json")\n    assert "slash_commands" not in data\n',
    "old JSON given to model_validate": SCHEMA
    + 'def test_old():\n    caps = AgentCapabilities.model_validate({"slashCommands": []})\n    assert caps\n',
    "old JSON nested in what model_validate is given": SCHEMA
    + 'def test_old():\n    InitializeResponse.model_validate({"agentCapabilities": {"slashCommands": []}})\n',
    "old JSON in a local given to model_validate": SCHEMA
    + "def test_old():\n"
    + '    json_data = {"load_session": False, "slash_commands": [{"name": "a", "description": "b"}]}\n'
    + "    caps = AgentCapabilities.model_validate(json_data)\n"
    + '    assert not hasattr(caps, "slash_commands")\n',
    "old JSON at module level": SCHEMA
    + 'OLD = {"slashCommands": []}\n\n\ndef test_old():\n    assert AgentCapabilities.model_validate_json(OLD)\n',
    "an owned schema's old-JSON test": OWNED
    + "class TestCompat:\n"
    + "    def test_old_json_with_slash_commands_still_validates(self):\n"
    + '        caps = AgentCapabilities.model_validate({"slashCommands": [{"name": "a", "description": "b"}]})\n'
    + '        assert not hasattr(caps, "slash_commands")\n'
    + '        assert "slash_commands" not in caps.model_dump()\n',
    # A generated client's helper named like the field (issue 32): its name, its own attribute.
    "a helper named like the field": "class ChatApi:\n"
    + "    def __init__(self, client):\n"
    + "        self.client = client\n"
    + "        self.slash_commands = {}\n"
    + "\n"
    + "    def slash_commands(self, guild_id, **kwargs):\n"
    + '        return self.client.call("/guilds/{guild_id}/commands", guild_id=guild_id, **kwargs)\n'
    + "\n"
    + "    @classmethod\n"
    + "    def registered(cls, api):\n"
    + "        return len(cls.slash_commands) + len(api.client.known)\n"
    + "\n"
    + "\n"
    + "class slash_commands:  # noqa: N801\n"
    + "    pass\n",
}

# Each holds a harmless use and, beside it or instead of it, a site some rule reports.
BESIDE_HARMLESS = {
    "hasattr asserted": SCHEMA
    + 'def test_caps(caps: AgentCapabilities):\n    assert hasattr(caps, "slash_commands")\n',
    "not hasattr, then a read": SCHEMA
    + 'def test_caps(caps: AgentCapabilities):\n    assert not hasattr(caps, "slash_commands")\n'
    + "    assert caps.slash_commands == []\n",
    "not getattr": SCHEMA + 'def test_caps(caps: AgentCapabilities):\n    assert not getattr(caps, "slash_commands")\n',
    "in": SCHEMA + 'def test_caps(caps: AgentCapabilities):\n    assert "slashCommands" in caps.model_dump()\n',
    "not in, then a key read": SCHEMA
    + "def test_caps(caps: AgentCapabilities):\n    data = caps.model_dump()\n"
    + '    assert "slashCommands" not in data\n    assert data["slashCommands"] == []\n',
    "old JSON, then the keyword": SCHEMA
    + 'def build():\n    AgentCapabilities.model_validate({"slashCommands": []})\n'
    + "    return AgentCapabilities(slash_commands=[])\n",
    "a local given to model_validate and spread into the factory": SCHEMA
    + 'def build():\n    kwargs = {"slash_commands": []}\n    AgentCapabilities.model_validate(kwargs)\n'
    + "    return AgentCapabilities(**kwargs)\n",
    "a local given to model_validate and placed under agentCapabilities": SCHEMA
    + 'def build():\n    caps = {"slashCommands": []}\n    AgentCapabilities.model_validate(caps)\n'
    + '    return {"agentCapabilities": caps}\n',
    "old JSON nested in a local": SCHEMA
    + 'def build():\n    old = {"agentCapabilities": {"slashCommands": []}}\n    return InitializeResponse.model_validate(old)\n',
    # A method's own attribute, but its first parameter holds capabilities (annotated,
    # rebound), or the name read is the module's.
    "self annotated as capabilities": SCHEMA
    + "class Holder:\n    def commands(self: AgentCapabilities):\n        return self.slash_commands\n",
    "self rebound to capabilities": SCHEMA
    + "class Holder:\n    def commands(self):\n        self = AgentCapabilities()\n        return self.slash_commands\n",
    "a module's `self`": SCHEMA
    + "self = AgentCapabilities()\n\n\nclass Holder:\n    def commands(me):\n        return self.slash_commands\n",
    "a helper beside the keyword": HARMLESS["a helper named like the field"]
    + "\n\n"
    + SCHEMA
    + "CAPS = AgentCapabilities(load_session=True, slash_commands=[])\n",
    # ACP008 removes the first test and looks for an old-JSON test before writing its own.
    "an owned schema's old-JSON test beside a test of the field": HARMLESS["an owned schema's old-JSON test"]
    + "\n\ndef test_default():\n    assert AgentCapabilities().slash_commands == []\n",
}


@pytest.mark.parametrize("source", HARMLESS.values(), ids=HARMLESS.keys())
def test_the_screen_clears_the_field_where_every_rule_declares_it_no_site(source: str) -> None:
    assert may_contain_legacy(source.encode())
    assert not may_report(source.encode())


@pytest.mark.parametrize("source", BESIDE_HARMLESS.values(), ids=BESIDE_HARMLESS.keys())
def test_a_site_beside_a_harmless_use_passes_the_screen_and_is_reported(source: str) -> None:
    assert may_report(source.encode())
    found = [codemod.analyze_source(source.encode(), path=path).findings for path in ("tests/test_x.py", "agent.py")]
    assert any(found)  # (the full analysis reports it: the screen must pass it)


# Near misses: like a harmless use, but outside its context as the screen knows it.
PASSED |= {
    "hasattr with a keyword": 'assert not hasattr(caps, "slash_commands", x=1)\n',
    "not in, chained": 'assert "slashCommands" not in a not in b\n',
    "a dict given to another call": 'json.dumps({"slashCommands": []})\n',
    "a dict spread into model_validate": 'Caps.model_validate(**{"slash_commands": []})\n',
    "a local given to model_validate, in a class body": 'class T:\n    OLD = {"slashCommands": []}\n    Caps.model_validate(OLD)\n',
    "a global given to model_validate": 'def f():\n    global old\n    old = {"slashCommands": []}\n    Caps.model_validate(old)\n',
    "a local given to model_validate, also a parameter": 'def f(old):\n    old = {"slashCommands": []}\n    Caps.model_validate(old)\n',
    "a local used otherwise too": 'def f():\n    old = {"slashCommands": []}\n    Caps.model_validate(old)\n    print(old)\n',
    "a helper called by its name": "def slash_commands():\n    return []\n\n\nprint(slash_commands())\n",
    "a function's first parameter": "def commands(self):\n    return self.slash_commands\n",
    "a method's first parameter, in a nested function": (
        "class A:\n    def f(self):\n        def g():\n            return self.slash_commands\n"
    ),
    "a method's first parameter, in a lambda": "class A:\n    def f(self):\n        return lambda: self.slash_commands\n",
    "a method's first parameter, bound elsewhere": (
        "class A:\n    def f(self):\n        return self.slash_commands\n\n\nfor self in x:\n    pass\n"
    ),
    "a method's first parameter, also a lambda's": (
        "class A:\n    def f(self):\n        return self.slash_commands\n\n\ng = lambda self: 1\n"
    ),
    "an attribute of an attribute": "class A:\n    def f(self):\n        return self.caps.slash_commands\n",
}


def test_a_context_clears_only_where_every_triggered_rule_declares_it(monkeypatch: pytest.MonkeyPatch) -> None:
    source = HARMLESS["not hasattr"].encode()
    assert not may_report(source)
    declaring = [rule for rule in PYTHON_RULES if rule.screen_words and NOT_HASATTR in rule.screen_harmless]
    assert len(declaring) >= 2
    monkeypatch.setattr(declaring[0], "screen_harmless", declaring[0].screen_harmless - {NOT_HASATTR})
    assert may_report(source + b"\n")  # (another object: the screen's last answer is not reused)


def test_a_rule_declaring_other_words_leaves_the_contexts_of_this_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # (ACP010 is such a rule: its word is `CommandAdvertiser`, which a migrated test may hold too)
    source = HARMLESS["not hasattr"].encode()
    other = next(rule for rule in PYTHON_RULES if rule.screen_words and rule.is_candidate(source))
    monkeypatch.setattr(other, "screen_words", frozenset({"CommandAdvertiser"}))
    monkeypatch.setattr(other, "screen_harmless", frozenset())
    assert not may_report(source + b"\n")
    assert may_report(source + b"\nCommandAdvertiser()\n")  # (its own word still counts)


SPY_TEST = (
    "import asyncio\n"
    "from unittest import mock\n"
    "\n"
    "from notes.agent import NotesAgent\n"
    "\n"
    "\n"
    "class TestNotes:\n"
    "    def test_commands_read_once_at_initialize(self):\n"
    "        agent = NotesAgent()\n"
    '        with mock.patch.object(NotesAgent, "get_commands", wraps=agent.get_commands) as spy:\n'
    "            asyncio.run(agent.initialize(protocol_version=1))\n"
    "        assert {counter}.call_count == 1\n"
)


@pytest.mark.parametrize(("counter", "reported"), [("spy", True), ("self", False)], ids=["the spy's", "the test's own"])
def test_a_test_methods_own_attribute_asserts_no_spys_calls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counter: str, reported: bool
) -> None:
    # ACP008 declares OWN_ATTRIBUTE for its words too: `self.call_count` is the test's own.
    shutil.copytree(REPOSITORY / "golden/tests-spy-on-command-getter/input", tmp_path, dirs_exist_ok=True)
    source = SPY_TEST.format(counter=counter)
    (tmp_path / "tests/test_spy.py").write_text(source)
    assert may_report(source.encode()) is reported

    monkeypatch.setattr(codemod, "may_report", lambda source, sdk=None: True)  # the full analysis, unscreened
    output = run_acp_migrate("check", ".", cwd=tmp_path, text=True).stdout
    assert ("tests/test_spy.py:10:" in output) is reported, output


def test_the_rules_declare_only_contexts_the_screen_knows() -> None:
    for rule in ALL_RULES:
        assert rule.screen_harmless <= SCREEN_CONTEXTS, rule.code
        assert not rule.screen_harmless or rule.screen_words, rule.code  # (a context of no word)


@pytest.mark.parametrize("source", PASSED.values(), ids=PASSED.keys())
def test_the_screen_passes_every_construct_a_rule_reports(source: str) -> None:
    assert may_report(source.encode())


@pytest.mark.parametrize("source", CLEARED.values(), ids=CLEARED.keys())
def test_the_screen_clears_the_tokens_in_prose(source: str) -> None:
    assert may_contain_legacy(source.encode())
    assert not may_report(source.encode())


def test_a_rule_declaring_no_words_passes_every_file_holding_its_triggers() -> None:
    unscreened = [rule for rule in PYTHON_RULES if rule.screen_words is None]
    assert {rule.code for rule in unscreened} >= {"ACP007", "ACP009"}  # comments: not in CPython's tree
    for rule in unscreened:
        for token in rule.triggers:
            assert may_report(b'"""' + token + b'"""\n')


def _python_files() -> list[Path]:
    golden = sorted((REPOSITORY / "golden").glob("*/input/**/*.py*"))
    own = [
        path
        for folder in ("acp_migrate", "tests", "examples", "bench", "docs")
        for path in sorted((REPOSITORY / folder).rglob("*.py*"))
        if ".venv" not in path.parts
    ]
    return [path for path in golden + own if path.suffix in (".py", ".pyi") and path.is_file()]


def _rule_examples() -> list[tuple[str, bytes]]:
    found = []
    for rule in ALL_RULES:
        if ".py" not in rule.suffixes:
            continue
        for index, example in enumerate(rule.examples):
            for name, code in (("before", example.before), ("after", example.after), ("resolved", example.resolved)):
                if code is not None:
                    found.append((example.path or f"{rule.code}_{index}_{name}.py", code.encode()))
    return found


CENSUS_CODES = {rule.code for rule in CENSUS_RULES}


@pytest.mark.slow  # the full analysis of every file of this repository the screen clears
@pytest.mark.parametrize("sdk", [None, Target("1.0.0", None, "every SDK rule")], ids=["no-target", "target-1.0"])
def test_a_file_the_screen_clears_is_one_the_full_analysis_finds_clean(
    monkeypatch: pytest.MonkeyPatch, sdk: Target | None
) -> None:
    """Over every golden input, every rule example and every Python file of this
    repository: the screen clears only what the rules, run in full, find clean, with no
    SDK target and with one every SDK rule runs for."""
    sources = [(str(path.relative_to(REPOSITORY)), path.read_bytes()) for path in _python_files()]
    sources += _rule_examples()
    # The harmless uses, in a test file (ACP008 reads it) and in another.
    sources += [(f"tests/test_{i}.py", code.encode()) for i, code in enumerate(HARMLESS.values())]
    sources += [(f"harmless_{i}.py", code.encode()) for i, code in enumerate(HARMLESS.values())]
    cleared = [(path, source) for path, source in sources if may_contain_legacy(source) and not may_report(source, sdk)]
    passed = [path for path, source in sources if may_contain_legacy(source) and may_report(source, sdk)]
    assert len(cleared) >= 20 and len(passed) >= 100  # both sides are exercised

    monkeypatch.setattr(codemod, "may_report", lambda source, sdk=None: True)  # the full analysis, unscreened
    wrong = []
    for path, source in cleared:
        try:
            analysis = codemod.analyze_source(source, path=path, settings=RuleSettings(sdk=sdk))
        except codemod.SourceError:
            continue  # an error is no finding: the screen gave the analysis a chance
        # The census reads every candidate, screened or not (it needs no LibCST).
        findings = [f for f in analysis.findings if f.code not in CENSUS_CODES]
        if findings or analysis.callers or analysis.needs_project or analysis.fixed_source is not None:
            wrong.append((path, [f"{f.line}: {f.code} {f.message}" for f in findings]))
    assert wrong == []


def _project_in_prose(root: Path, files: int) -> None:
    """Files that mention the field only in docstrings, comments and longer names, as a
    migrated project does (its RFC text), and tests asserting its absence (its new tests)."""
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (root / "tests").mkdir()
    for index, code in enumerate(HARMLESS.values()):
        (root / "tests" / f"test_absent_{index}.py").write_text(code)
    for index in range(files):
        (root / f"module_{index:02}.py").write_text(
            '"""Commands are advertised per session; `slash_commands` is gone (RFC-0032)."""\n'
            "\n"
            "\n"
            "def test_initialize_has_no_slash_commands():  # slashCommands neither\n"
            f"    assert {index} == {index}\n"
        )


@pytest.mark.parametrize("mode", ["check", "fix"])
@pytest.mark.parametrize("files", [3, 40], ids=["small run", "big run"])
def test_a_run_where_no_file_passes_the_screen_imports_no_libcst(tmp_path: Path, mode: str, files: int) -> None:
    project = tmp_path / "project"
    _project_in_prose(project, files)
    script = (
        "from acp_migrate.engine.execution import runner\n"
        f"result = runner.run({mode!r}, [{str(project)!r}], workers=2)\n"
        "print(len(result.files), len(result.findings), len(result.errors), sum(f.changed for f in result.files))\n"
    )
    # -X importtime: every import of every process (forked workers inherit it) on stderr.
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=project,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(files + len(HARMLESS)), "0", "0", "0"]
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    assert "acp_migrate.rules" in imported  # (the flag works)
    assert not {name for name in imported if name.split(".")[0] == "libcst"}
    assert "multiprocessing" not in imported  # no candidate: no worker either
