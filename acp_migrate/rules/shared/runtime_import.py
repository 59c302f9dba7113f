"""The import of the runtime shim's `CommandAdvertiser` in a rewired module, written as
the module writes its own imports, and the vendored copy beside it. Not a rule: the
rewire asks it.

Where the copy is vendored (the default) it sits next to the module. A module that
imports its own package absolutely (`from app.agents.tools import ...` in
`app/agents/`) gets `from app.agents.acp_command_advertiser import ...`, which works
however the package is run (`python -m`, namespace packages, `src/` layouts); one in a
package that imports relatively gets `from .acp_command_advertiser import ...`; a
script's own folder is on `sys.path`, so a script imports it plainly.
"""

from __future__ import annotations

import os
from pathlib import PurePath

import libcst as cst

from acp_migrate.engine.analysis.imports import FIRST_PARTY, LOCAL
from acp_migrate.engine.analysis.vendor import VENDORED_FILE, VENDORED_MODULE, is_vendored, vendored_source
from acp_migrate.rules.context import FileContext
from acp_migrate.rules.shared import ADVERTISER_CLASS
from acp_migrate.settings import VENDORED


class NoImportSection(Exception):
    """The module has no import section to add the runtime import to."""


def runtime_import(context: FileContext) -> tuple[str, int | None] | None:
    """(module, isort section) the advertiser is imported from, None when the module
    imports it already; raises NoImportSection before any edit is registered."""
    if ADVERTISER_CLASS in context.imports.bindings:
        return None
    if not any(
        isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], (cst.Import, cst.ImportFrom))
        for statement in _before_first_definition(context.module)
    ):
        raise NoImportSection
    runtime = context.settings.runtime_import
    if runtime != VENDORED:
        return runtime, None
    package = _own_package(context)
    if package is not None:
        return f"{package}.{VENDORED_MODULE}", FIRST_PARTY
    in_package = context.modules is not None and context.modules(".", None) is not None
    return ("." + VENDORED_MODULE, LOCAL) if in_package else (VENDORED_MODULE, FIRST_PARTY)


def add_runtime_import(context: FileContext, runtime: tuple[str, int | None]) -> None:
    """`from <runtime> import CommandAdvertiser` into the import block, in isort order
    (engine/analysis/imports.py); in vendored mode, with the shim's file beside the module."""
    module, section = runtime
    context.add_import(module, ADVERTISER_CLASS, section)
    style = context.settings.style  # the copy is written in the project's style
    if context.settings.runtime_import == VENDORED:
        context.add_companion(VENDORED_FILE, vendored_source(style=style))
    elif (target := _project_target(context, context.settings.runtime_import)) is not None:
        context.add_companion(target, vendored_source(style=style))


def _own_package(context: FileContext) -> str | None:
    """The dotted package of the module, when the module imports a module of its own
    folder by an absolute name (`from app.agents.tools import x` in `app/agents/`)."""
    if context.modules is None or context.path is None:
        return None
    folder = PurePath(os.path.abspath(context.path)).parent
    for statement in _before_first_definition(context.module):
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.ImportFrom) and not small.relative and small.module is not None:
                dotted = cst.Module([]).code_for_node(small.module)
                package, _, _ = dotted.rpartition(".")
                found = context.modules(dotted, None) if package else None
                if found is not None and PurePath(os.path.abspath(found[0])).parent == folder:
                    return package
    return None


def _project_target(context: FileContext, runtime: str) -> str | None:
    """Where, relative to the module's folder, a `runtime-import` naming a module of the
    project wants the shim written: its package is in the project and the module is not
    there yet (or is a vendored copy). None: an installed module, imported as it is."""
    package, _, name = runtime.rpartition(".")
    if not package or context.modules is None or context.path is None:
        return None
    found = context.modules(package, None)
    if found is None or os.path.basename(found[0]) != "__init__.py":
        return None
    target = os.path.join(os.path.dirname(found[0]), name + ".py")
    existing = context.modules(runtime, None)
    if existing is not None and (existing[0] != target or not is_vendored(existing[1])):
        return None  # a module of the project's own (or a package): import it
    importer = (
        os.path.dirname(os.path.abspath(context.path)) if os.path.isabs(found[0]) else os.path.dirname(context.path)
    )
    return os.path.relpath(target, importer or ".")


def _before_first_definition(module: cst.Module) -> list[cst.BaseStatement]:
    statements = []
    for statement in module.body:
        if isinstance(statement, (cst.ClassDef, cst.FunctionDef)):
            break
        statements.append(statement)
    return statements
