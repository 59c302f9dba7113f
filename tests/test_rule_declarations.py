"""Rules declare themselves, and the layers do not cross.

The registry finds every `acpNNN_*` module; the engine builds the prefilter, discovery's
suffixes, check's hollowing and the configuration's codes from the rules' declarations,
without importing LibCST, and names no rule. Adding a rule is one new file
(docs/ARCHITECTURE.md, "Rules"): the last test does just that.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import acp_migrate
from acp_migrate.rulebook import RULE_MODULE
from acp_migrate.rules import ALL_RULES

PACKAGE = Path(acp_migrate.__file__).parent
RULE_FILES = sorted(p for p in (PACKAGE / "rules").glob("*.py") if RULE_MODULE.fullmatch(p.stem))


def _run(script: str, *, cwd: Path | None = None, path: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(path)} if path is not None else None
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def _imported_modules(path: Path) -> list[str]:
    """Every module an `import` anywhere in `path` names (the package imports absolutely)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0 and node.module, f"{path.name}:{node.lineno}: a relative import"
            found += [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
    return found


def test_every_rule_module_is_found() -> None:
    assert [rule.__module__.rsplit(".", 1)[1] for rule in ALL_RULES] == [path.stem for path in RULE_FILES]
    assert [rule.code for rule in ALL_RULES] == sorted(rule.code for rule in ALL_RULES)


def test_the_codes_the_shared_vocabulary_names_are_rules() -> None:
    from acp_migrate.rules import RULES_BY_CODE
    from acp_migrate.rules.shared import NOT_ADVERTISED_RULE, TEST_RULE

    assert {NOT_ADVERTISED_RULE, TEST_RULE} <= set(RULES_BY_CODE)


def test_reading_the_declarations_imports_neither_libcst_nor_pydantic() -> None:
    # What a run that parses nothing reads: the prefilter, discovery, the configuration.
    done = _run(
        """
        import sys
        from acp_migrate.rules import ALL_RULES
        from acp_migrate.engine.analysis import prefilter
        from acp_migrate.engine.execution import discover
        from acp_migrate.config import known_codes
        for rule in ALL_RULES:
            rule.code, rule.name, rule.summary, rule.fixable, rule.triggers
            rule.names_looked_up, rule.suffixes, rule.reads_vendored
        assert prefilter.TOKENS and discover.SOURCE_SUFFIXES and known_codes()
        print(sorted(m for m in sys.modules if m.split(".")[0] in ("libcst", "pydantic", "pydantic_core")))
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_no_rule_imports_another() -> None:
    for path in RULE_FILES:
        others = [
            name
            for name in _imported_modules(path)
            if any(RULE_MODULE.fullmatch(part) for part in name.split(".")) and path.stem not in name
        ]
        assert others == [], f"{path.name} imports {others}: share it through rules/shared instead"


def test_rule_modules_import_libcst_only_inside_functions() -> None:
    # The registry imports every rule module at start-up (the subprocess test above
    # checks the result; this one names the line).
    for path in RULE_FILES:
        for statement in ast.parse(path.read_text()).body:
            if isinstance(statement, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in statement.names] if isinstance(statement, ast.Import) else [statement.module]
                assert not any(str(n).split(".")[0] == "libcst" for n in names), f"{path.name}:{statement.lineno}"


NEW_RULE = '''\
"""ACP011 example-rule: a rule added by the test, as a newcomer would."""

from __future__ import annotations

from acp_migrate.rules.base import Report, Rule


class ExampleRule(Rule):
    code = "ACP012"
    name = "example-rule"
    summary = "A comment naming the new token."
    fixable = False
    triggers = (b"brand-new-token",)

    def visit_Comment(self, node) -> None:
        if "brand-new-token" in node.value:
            self.context.report(Report(node, self.code, "the new token", fixable=False))
'''


def test_adding_a_rule_is_adding_its_module(tmp_path: Path) -> None:
    copy = tmp_path / "site" / "acp_migrate"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "rules" / "acp012_example_rule.py").write_text(NEW_RULE)
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("[tool.acp-migrate]\nselect = ['ACP012']\n")
    (project / "app.py").write_text("x = 1  # brand-new-token\n")
    done = _run(
        """
        import acp_migrate
        from acp_migrate.rules import RULES_BY_CODE
        from acp_migrate.engine.analysis.prefilter import may_contain_legacy
        from acp_migrate.config import load_options
        from acp_migrate.api import check_paths

        print(acp_migrate.__file__)
        print(RULES_BY_CODE["ACP012"].__name__, may_contain_legacy(b"# brand-new-token"))
        options = load_options(["app.py"])
        print(options.settings.select, options.settings.enabled("ACP001"))
        print([(f.code, f.line, f.message) for f in check_paths(["app.py"]).findings])
        """,
        cwd=project,
        path=copy.parent,
    )
    assert done.returncode == 0, done.stderr
    where, found, selected, findings = done.stdout.splitlines()
    assert where == str(copy / "__init__.py")
    assert found == "ExampleRule True"
    assert selected == "('ACP012',) False"
    assert findings == "[('ACP012', 1, 'the new token')]"


NEW_WIRE_RULE = '''\
"""ACP115 example-wire-rule: a wire rule added by the test, as a newcomer would."""

from __future__ import annotations

from acp_migrate.probe.checks.base import Example, WireRule, finding


class ExampleWireRule(WireRule):
    code = "ACP115"
    name = "example-wire-rule"
    summary = "The agent sent a notification."
    examples = (Example('<- {"jsonrpc":"2.0","method":"x"}\\n'), Example("", flagged=False))

    @classmethod
    def check(cls, transcript):
        for frame in transcript.agent_frames():
            if frame.is_notification:
                yield finding(transcript, cls.code, "a notification", frame)
'''


def test_adding_a_wire_rule_is_adding_its_module(tmp_path: Path) -> None:
    # The same registry finds it: `acp-migrate rules` lists it, --select takes it, it runs.
    copy = tmp_path / "site" / "acp_migrate"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "probe" / "checks" / "acp115_example_wire_rule.py").write_text(NEW_WIRE_RULE)
    done = _run(
        """
        from acp_migrate.api import rule_info
        from acp_migrate.probe.checks import WIRE_RULES, enabled_codes, run_checks
        from acp_migrate.probe.wire import parse_example

        [rule] = [rule for rule in WIRE_RULES if rule.code == "ACP115"]
        print(rule_info("acp115").documentation.splitlines()[0])
        print(enabled_codes(["ACP115"]), enabled_codes(["ACP11"], ["ACP115"])[-1])
        print([f.code for f in run_checks(parse_example(rule.examples[0].before))])
        """,
        cwd=tmp_path,
        path=copy.parent,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "ACP115 example-wire-rule: a wire rule added by the test, as a newcomer would.",
        "['ACP115'] ACP114",
        "['ACP115']",
    ]
