"""The layers of docs/ARCHITECTURE.md, read off the source: who may import whom.

Every `import` counts, at module level or inside a function (a lazy import is still a
dependency); those under `if TYPE_CHECKING:` are annotations only and do not.
"""

from __future__ import annotations

import ast
from pathlib import Path

import acp_migrate

PACKAGE = Path(acp_migrate.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only.update(id(child) for statement in node.body for child in ast.walk(statement))
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            found.add(base)
            # `from acp_migrate.engine.execution import runner` imports the module `runner`
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


MODULES = {_module_name(path): _imports(path) for path in PACKAGE.rglob("*.py")}


def _ours(imported: set[str]) -> set[str]:
    return {name for name in imported if name in MODULES}


def _importers_of(prefix: str, among: str) -> dict[str, set[str]]:
    return {
        module: {name for name in _ours(imported) if name == prefix or name.startswith(prefix + ".")}
        for module, imported in MODULES.items()
        if module.startswith(among)
    }


def test_output_formats_read_results_not_the_engine_or_the_rules() -> None:
    for layer in ("acp_migrate.engine", "acp_migrate.rules"):
        assert {m: found for m, found in _importers_of(layer, "acp_migrate.report").items() if found} == {}


def test_the_runtime_shim_imports_nothing_of_the_codemod() -> None:
    for module, imported in MODULES.items():
        if module.startswith("acp_migrate.runtime"):
            outside = {name for name in _ours(imported) if not name.startswith("acp_migrate.runtime")}
            assert outside <= {"acp_migrate"}, (module, outside)
            assert not {name.split(".")[0] for name in imported} & {"libcst", "typer"}, module


def test_no_two_modules_import_each_other() -> None:
    """Not even lazily: a cycle means two modules are one concept split in two."""
    cycles = sorted(
        (module, other)
        for module, imported in MODULES.items()
        for other in _ours(imported)
        if module < other and module in _ours(MODULES.get(other, set())) and other != module
    )
    assert cycles == []


def test_the_engine_rooms_meet_at_one_entry() -> None:
    """Execution asks the analysis only through `engine.analysis` (its __init__); the
    analysis reads no file, starts no process: it imports nothing of the execution."""
    for module, imported in MODULES.items():
        if module.startswith("acp_migrate.engine.execution"):
            inner = {name for name in _ours(imported) if name.startswith("acp_migrate.engine.analysis.")}
            assert inner == set(), (module, inner)
        if module.startswith("acp_migrate.engine.analysis"):
            outward = {name for name in _ours(imported) if name.startswith("acp_migrate.engine.execution")}
            assert outward == set(), (module, outward)


def test_the_engine_names_no_rule() -> None:
    for module, imported in MODULES.items():
        if module.startswith("acp_migrate.engine"):
            named = {
                name
                for name in _ours(imported)
                if name.startswith("acp_migrate.rules.") and name.split(".")[2] not in ("base", "context")
            }
            assert named == set(), (module, named)


SHARED_BY_PROBE_AND_CODEMOD = {"acp_migrate.rulebook", "acp_migrate.escape", "acp_migrate.sarif"}


def test_the_probe_imports_nothing_of_the_codemod() -> None:
    """The probe, and what it shares with the codemod (the rule system, the escaping,
    the SARIF log), import nothing else of the package; typer only for the command,
    pydantic only for the protocol's schema, never LibCST or the SDK."""
    # (`python -m acp_migrate.probe` stops on signals as the command does: the entry's `stoppable`.)
    allowed = {"acp_migrate", "acp_migrate.__main__"} | SHARED_BY_PROBE_AND_CODEMOD
    for module, imported in MODULES.items():
        if not (module.startswith("acp_migrate.probe") or module in SHARED_BY_PROBE_AND_CODEMOD):
            continue
        outside = {name for name in _ours(imported) if not name.startswith("acp_migrate.probe")} - allowed
        assert outside == set(), (module, outside)
        packages = {name.split(".")[0] for name in imported}
        assert not packages & {"libcst", "acp"}, module
        assert "typer" not in packages or module == "acp_migrate.probe.cli", module
        assert "pydantic" not in packages or module == "acp_migrate.probe.schema", module
