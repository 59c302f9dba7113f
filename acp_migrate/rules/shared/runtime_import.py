"""The import of the runtime shim's `CommandAdvertiser` in a rewired module, written as
the module writes its own imports, and the vendored copy beside it. Not a rule: the
rewire asks it.

Where the copy is vendored (the default) it sits next to the module, and the import
must resolve however the module is run:

- a module that imports a module of its own top package absolutely (`from
  app.agents.tools import ...` or `from app.commands import ...` in `app/agents/`)
  gets `from app.agents.acp_command_advertiser import ...`: it runs with the folder
  above `app` on `sys.path` (`python -m`, an install, a `src/` layout), `__init__.py`
  or not (PEP 420 namespace packages);
- a module of a package gets `from .acp_command_advertiser import ...`: its folder
  has an `__init__.py`, it imports relatively (only a package's module can, a
  namespace package's too), or it sits in a folder below a `src/` layout's root;
- otherwise it is a script, whose own folder is on `sys.path`: a plain import.

- a module in a folder of the project without `__init__.py` that imports nothing of
  its project (outside `src/`) may be either: a namespace package's module run with
  `python -m`, or a script. Nothing in its files tells, so it gets both, the relative
  import first and the plain one where that fails (`ImportError`: no parent package).
  A module beside the project's `pyproject.toml` (`setup.cfg`, `setup.py`, `.git`),
  or named by no folder, is a script.
"""

from __future__ import annotations

import os
from pathlib import PurePath

import libcst as cst

from acp_migrate.rules.context import FileContext
from acp_migrate.rules.edits import FIRST_PARTY, LOCAL
from acp_migrate.rules.shared import ADVERTISER_CLASS
from acp_migrate.settings import VENDORED
from acp_migrate.vendor import VENDORED_FILE, VENDORED_MODULE, is_vendored, vendored_source

# How far up from the module a namespace package's folder is looked for (as for imports,
# engine/execution/modules.py).
MAX_ANCESTORS = 8
# The files that mark a project's root (a `src/` layout's source root sits beside one).
PROJECT_FILES = ("pyproject.toml", "setup.cfg", "setup.py")
# The isort section of an import that may be relative or plain (`_either_import`).
EITHER = -1


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
    if _in_package(context):
        return "." + VENDORED_MODULE, LOCAL
    return VENDORED_MODULE, EITHER if _maybe_namespace_module(context) else FIRST_PARTY


def add_runtime_import(context: FileContext, runtime: tuple[str, int | None]) -> None:
    """`from <runtime> import CommandAdvertiser` into the import block, in isort order
    (engine/analysis/imports.py); in vendored mode, with the shim's file beside the module."""
    module, section = runtime
    if section == EITHER:
        imports = [
            statement
            for statement in _before_first_definition(context.module)
            if isinstance(statement, cst.SimpleStatementLine)
            and isinstance(statement.body[0], (cst.Import, cst.ImportFrom))
        ]
        context.insert_after(imports[-1], [_either_import(module)])
    else:
        context.add_import(module, ADVERTISER_CLASS, section)
    # The copy is written in the project's style, with the line endings of its module.
    shim = vendored_source(style=context.settings.style, newline=context.module.default_newline)
    if context.settings.runtime_import == VENDORED:
        context.add_companion(VENDORED_FILE, shim)
    elif (target := _project_target(context, context.settings.runtime_import)) is not None:
        context.add_companion(target, shim)


def _either_import(module: str) -> cst.BaseStatement:
    statement = cst.parse_statement(
        f"try:\n    from .{module} import {ADVERTISER_CLASS}\n"
        f"except ImportError:  # run as a script\n    from {module} import {ADVERTISER_CLASS}\n"
    )
    return statement.with_changes(leading_lines=[cst.EmptyLine()])


def _maybe_namespace_module(context: FileContext) -> bool:
    """A module in a folder below the project's root (no project file beside it), not
    directly in a `src/` layout's root (a top-level module there)."""
    if context.path is None:
        return False
    if not os.path.isfile(context.path):  # a project held in memory, named from its root
        return PurePath(context.path).parts[:-1] not in ((), ("src",))
    folder = PurePath(os.path.abspath(context.path)).parent
    if _is_src_root(folder):
        return False
    return not any(os.path.exists(folder / name) for name in (*PROJECT_FILES, ".git"))


def _own_package(context: FileContext) -> str | None:
    """The dotted package of the module, when it imports a module of the project by an
    absolute name whose top package holds the module (`from app.commands import x` in
    `app/agents/`: `app.agents`), `__init__.py` files or not."""
    if context.modules is None or context.path is None:
        return None
    folder = PurePath(os.path.abspath(context.path)).parent
    for dotted in _absolute_imports(context.module):
        found = context.modules(dotted, None)
        if found is None:
            continue
        parts = dotted.split(".")
        module_file = PurePath(os.path.abspath(found[0]))
        # `a.b.c` is `R/a/b/c.py` or `R/a/b/c/__init__.py`: R is the folder on sys.path.
        levels = len(parts) + (module_file.name == "__init__.py")
        if len(module_file.parents) <= levels:
            continue
        root = module_file.parents[levels - 1]
        if folder != root / parts[0] and root / parts[0] not in folder.parents:
            continue
        package = folder.relative_to(root).parts
        if all(part.isidentifier() for part in package):
            return ".".join(package)
    return None


def _in_package(context: FileContext) -> bool:
    """Whether the module is run as a module of a package (imported relatively)."""
    if _imports_relatively(context.module):
        return True  # a script cannot import relatively; `python -m` of a namespace package can
    if context.modules is not None and context.modules(".", None) is not None:
        return True  # its folder's __init__.py
    return context.path is not None and _below_src_root(context.path)


def _below_src_root(path: str) -> bool:
    """Whether the module sits in a package folder of a `src/` layout, below a folder
    `src` that is the project's source root: on disk, a `src` whose parent holds the
    project's pyproject.toml, setup.cfg or setup.py (`~/src/proj/agent.py` is a script);
    for a project held in memory, named from its root, `src/` first in the path. A
    module directly in `src/` is a top-level module, imported plainly."""
    if not os.path.isfile(path):
        parts = PurePath(path).parts[:-1]
        return len(parts) >= 2 and parts[0] == "src"
    folder = PurePath(os.path.abspath(path)).parent
    return any(_is_src_root(above) for above in folder.parents)


def _is_src_root(folder: PurePath) -> bool:
    """A folder `src` beside the project's pyproject.toml, setup.cfg or setup.py."""
    return folder.name == "src" and any(os.path.isfile(folder.parent / name) for name in PROJECT_FILES)


def _absolute_imports(module: cst.Module) -> list[str]:
    """The dotted modules the import section names absolutely (`from a.b import c`: `a.b`)."""
    names = []
    for statement in _before_first_definition(module):
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.ImportFrom) and not small.relative and small.module is not None:
                names.append(cst.Module([]).code_for_node(small.module))
            elif isinstance(small, cst.Import):
                names += [cst.Module([]).code_for_node(alias.name) for alias in small.names]
    return names


def _imports_relatively(module: cst.Module) -> bool:
    return any(
        isinstance(small, cst.ImportFrom) and small.relative
        for statement in _before_first_definition(module)
        if isinstance(statement, cst.SimpleStatementLine)
        for small in statement.body
    )


def _project_target(context: FileContext, runtime: str) -> str | None:
    """Where, relative to the module's folder, a `runtime-import` naming a module of the
    project wants the shim written: its package is in the project (a namespace package
    too) and the module is not there yet (or is a vendored copy). None: an installed
    module, imported as it is."""
    package, _, name = runtime.rpartition(".")
    if not package or context.modules is None or context.path is None:
        return None
    folder = _package_folder(context, package)
    if folder is None:
        return None
    target = os.path.join(folder, name + ".py")
    existing = context.modules(runtime, None)
    if existing is not None and (
        os.path.normpath(existing[0]) != os.path.normpath(target) or not is_vendored(existing[1])
    ):
        return None  # a module of the project's own (or a package): import it
    importer = (
        os.path.dirname(os.path.abspath(context.path)) if os.path.isabs(folder) else os.path.dirname(context.path)
    )
    return os.path.relpath(target, importer or ".")


def _package_folder(context: FileContext, package: str) -> str | None:
    """The folder of the project's package `package`, found as the module would import it."""
    assert context.modules is not None and context.path is not None
    found = context.modules(package, None)
    if found is not None:
        return os.path.dirname(found[0]) if os.path.basename(found[0]) == "__init__.py" else None
    # A PEP 420 namespace package has no __init__.py to read: its folder on disk, looked
    # for as an absolute import is, from the module's folder up.
    if not os.path.isfile(context.path):
        return None
    start = PurePath(os.path.abspath(context.path)).parent
    for above in (start, *start.parents)[:MAX_ANCESTORS]:
        candidate = above.joinpath(*package.split("."))
        if os.path.isdir(candidate):
            return str(candidate)
    return None


def _before_first_definition(module: cst.Module) -> list[cst.BaseStatement]:
    statements = []
    for statement in module.body:
        if isinstance(statement, (cst.ClassDef, cst.FunctionDef)):
            break
        statements.append(statement)
    return statements
