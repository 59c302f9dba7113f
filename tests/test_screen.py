"""The screen (engine/analysis/screen.py): a file it clears has nothing a rule reports,
and a run where no file passes it imports no LibCST."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from acp_migrate.engine.analysis import codemod
from acp_migrate.engine.analysis.prefilter import may_contain_legacy
from acp_migrate.engine.analysis.screen import may_report
from acp_migrate.rules import ALL_RULES, PYTHON_RULES

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


def test_a_file_the_screen_clears_is_one_the_full_analysis_finds_clean(monkeypatch: pytest.MonkeyPatch) -> None:
    """Over every golden input, every rule example and every Python file of this
    repository: the screen clears only what the rules, run in full, find clean."""
    sources = [(str(path.relative_to(REPOSITORY)), path.read_bytes()) for path in _python_files()]
    sources += _rule_examples()
    cleared = [(path, source) for path, source in sources if may_contain_legacy(source) and not may_report(source)]
    passed = [path for path, source in sources if may_contain_legacy(source) and may_report(source)]
    assert len(cleared) >= 20 and len(passed) >= 100  # both sides are exercised

    monkeypatch.setattr(codemod, "may_report", lambda source: True)  # the full analysis, unscreened
    wrong = []
    for path, source in cleared:
        try:
            analysis = codemod.analyze_source(source, path=path)
        except codemod.SourceError:
            continue  # an error is no finding: the screen gave the analysis a chance
        if analysis.findings or analysis.callers or analysis.needs_project or analysis.fixed_source is not None:
            wrong.append((path, [f"{f.line}: {f.code} {f.message}" for f in analysis.findings]))
    assert wrong == []


def _project_in_prose(root: Path, files: int) -> None:
    """Files that mention the field only in docstrings, comments and longer names, as a
    migrated project does (its RFC text, its new tests)."""
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
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
    assert done.stdout.split() == [str(files), "0", "0", "0"]
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    assert "acp_migrate.rules" in imported  # (the flag works)
    assert not {name for name in imported if name.split(".")[0] == "libcst"}
    assert "multiprocessing" not in imported  # no candidate: no worker either
