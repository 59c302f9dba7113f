"""The backward-compatibility test RFC-0032 makes a blocking condition: where the
project owns its schema and the run removes its field, old JSON with `slashCommands`
must still validate, without the field. `fix` puts
`test_old_json_with_slash_commands_still_validates` in place of the first test (or
class) it removes whole; once per file, not when the file already has a test
validating old JSON with the key, and not when the run keeps the schema's field (a
caller is left, `FileContext.schema_kept_by`, or the run does not cover the schema's
module, `ProjectFacts.run_paths`), where it would assert what is not so.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import libcst as cst

from acp_migrate.cst.walk import walk
from acp_migrate.rules.shared import CAPABILITY_CLASSES, INITIALIZE_CLASSES, LEGACY_KEYS, REMOVE
from acp_migrate.rules.shared.kinds import CONSTRUCTORS
from acp_migrate.rules.shared.legacy_tests.syntax import class_body
from acp_migrate.rules.shared.syntax import string_value

if TYPE_CHECKING:
    from acp_migrate.rules.shared.legacy_tests.view import PlannedTests

COMPAT_TEST = "test_old_json_with_slash_commands_still_validates"
# Where the official SDK's schema classes are imported from: a test file importing
# them from anywhere else tests a schema the project owns.
OFFICIAL_SCHEMA_MODULES = frozenset({"acp", "acp.schema"})


def owned_schema(tests: PlannedTests) -> tuple[str, str] | None:
    """(local name, `caps` or `init`) of a schema class the file imports from a module
    other than the official SDK's."""
    found: dict[str, str] = {}
    for local, qualified in tests.imports.bindings.items():
        module, _, name = qualified.rpartition(".")
        if module and module not in OFFICIAL_SCHEMA_MODULES and local in tests.module_mentions:
            if name in CAPABILITY_CLASSES:
                found.setdefault("caps", local)
            elif name in INITIALIZE_CLASSES:
                found.setdefault("init", local)
    if "caps" in found:
        return found["caps"], "caps"
    if "init" in found:
        return found["init"], "init"
    return None


def compat_anchor(tests: PlannedTests) -> cst.CSTNode | None:
    """The first test or class fix removes whole, where the compatibility test goes;
    None when none is needed (nothing removed whole, the schema is the SDK's or keeps
    its field this run, or the file already has one)."""
    if owned_schema(tests) is None or tests.context.schema_kept_by() or _schema_outside_run(tests):
        return None
    anchor = None
    for statement in tests.module.body:
        if isinstance(statement, cst.FunctionDef) and statement in tests.plans:
            plan = tests.plans[statement]
            if plan.fate == REMOVE and tests.removes(plan):
                anchor = statement
        elif isinstance(statement, cst.ClassDef) and statement in tests.classes:
            class_plan = tests.classes[statement]
            if tests.removes_class(class_plan):
                anchor = statement
            else:
                anchor = next((t.function for t in class_plan.tests if t.fate == REMOVE and tests.removes(t)), None)
        if anchor is not None:
            break
    if anchor is None or _has_compat_test(tests):
        return None
    return anchor


def _schema_outside_run(tests: PlannedTests) -> bool:
    """The owned schema's module is a file of the project the run does not cover
    (`fix tests` alone): it keeps its field."""
    project, modules, schema = tests.context.project, tests.context.modules, owned_schema(tests)
    if project is None or not project.run_paths or modules is None or schema is None:
        return False
    module = tests.imports.bindings[schema[0]].rpartition(".")[0]
    found = modules(module, None)
    if found is None:
        return False  # not a file of the project: nothing says the run leaves it
    path = os.path.abspath(found[0])
    return not any(path == run or path.startswith(run.rstrip(os.sep) + os.sep) for run in project.run_paths)


def compat_test(tests: PlannedTests, anchor: cst.CSTNode) -> cst.FunctionDef:
    local, kind = owned_schema(tests) or ("AgentCapabilities", "caps")
    indent = tests.module.default_indent
    newline = tests.module.default_newline
    # Short lines, one call each: what formatters leave as it is at any line length.
    q = tests.context.settings.style.quote
    lines = [f"commands = [{{{q}name{q}: {q}plan{q}, {q}description{q}: {q}Create a plan{q}}}]"]
    if kind == "caps":
        owner = "caps"
        lines.append(f"caps = {local}.model_validate({{{q}slashCommands{q}: commands}})")
    else:
        owner = "response.agent_capabilities"
        lines += [
            f"capabilities = {{{q}slashCommands{q}: commands}}",
            f"old = {{{q}protocolVersion{q}: 1, {q}agentCapabilities{q}: capabilities}}",
            f"response = {local}.model_validate(old)",
        ]
    method = anchor in tests.owner
    code = newline.join(
        [
            f"def {COMPAT_TEST}({'self' if method else ''}):",
            f'{indent}"""Old JSON with `slashCommands` still validates, without the field (RFC-0032)."""',
            *(indent + line for line in lines),
            f"{indent}assert not hasattr({owner}, {q}slash_commands{q})",
            "",
        ]
    )
    function = cst.parse_statement(code, config=tests.module.config_for_parsing)
    assert isinstance(function, cst.FunctionDef)
    kept = list(anchor.leading_lines)
    while kept and kept[-1].comment is not None:  # comments attached to what goes
        kept.pop()
    return function.with_changes(leading_lines=kept)


def _has_compat_test(tests: PlannedTests) -> bool:
    removed = tests.removed_nodes()
    for statement in tests.module.body:
        if isinstance(statement, cst.FunctionDef) and statement.name.value == COMPAT_TEST:
            return True
        for member in class_body(statement) if isinstance(statement, cst.ClassDef) else ():
            if isinstance(member, cst.FunctionDef) and member.name.value == COMPAT_TEST:
                return True
    for plan in tests.plans.values():
        if plan.function in removed or tests.owner.get(plan.function) in removed:
            continue
        finder = _OldJson()
        walk(plan.function.body, finder)
        if finder.validates and finder.legacy_dict:
            return True
    return False


class _OldJson(cst.CSTVisitor):
    """A test that validates old JSON holding the legacy key."""

    def __init__(self) -> None:
        self.validates = False
        self.legacy_dict = False

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in CONSTRUCTORS - {"create"}:
            self.validates = True

    def visit_DictElement(self, node: cst.DictElement) -> None:
        if string_value(node.key) in LEGACY_KEYS:
            self.legacy_dict = True
