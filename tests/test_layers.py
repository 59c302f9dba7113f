"""The layers of docs/ARCHITECTURE.md, read off the source: who may import whom.

Every `import` counts: at module level, inside a function (a lazy import is still a
dependency), under `if TYPE_CHECKING:` (so is an annotation's); and a registry, a
package finding its modules in its folder, imports each of them.
"""

from __future__ import annotations

import ast
from collections import deque
from pathlib import Path

import acp_migrate

PACKAGE = Path(acp_migrate.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
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
        elif isinstance(node, ast.Call) and ast.unparse(node) == "pkgutil.iter_modules(__path__)":
            # a registry: the package imports the modules it finds in its folder
            found.update(_module_name(module) for module in path.parent.glob("*.py") if module != path)
    return found


MODULES = {_module_name(path): _imports(path) for path in PACKAGE.rglob("*.py")}


def _ours(imported: set[str]) -> set[str]:
    return {name for name in imported if name in MODULES}


def _runs(module: str) -> set[str]:
    """The modules that importing `module` runs: those it imports and the packages above
    them (their `__init__`), but for `module` and the packages holding it, running already."""
    imported = _ours(MODULES[module]) - {module}
    parts = module.split(".")
    holding = {".".join(parts[:end]) for end in range(1, len(parts) + 1)}
    above = {name.rsplit(".", depth)[0] for name in imported for depth in range(1, name.count(".") + 1)}
    return imported | _ours(above - holding)


RUNS = {module: _runs(module) for module in MODULES}


def _shortest_circle(start: str, runs: dict[str, set[str]]) -> list[str] | None:
    """The shortest chain of imports from `start` back to it; None: there is none."""
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        module = queue.popleft()
        for other in sorted(runs[module]):
            if other == start:
                chain = [module]
                while chain[-1] != start:
                    chain.append(came_from[chain[-1]])
                return [*reversed(chain), start]
            if other not in came_from:
                came_from[other] = module
                queue.append(other)
    return None


def import_circles(imports: dict[str, set[str]] = RUNS) -> list[str]:
    """Circles of `imports`, each `a -> b -> ... -> a`, until every module in one is named."""
    runs = imports
    circles: list[str] = []
    named: set[str] = set()
    for module in sorted(MODULES):
        circle = None if module in named else _shortest_circle(module, runs)
        if circle is not None:
            named.update(circle)
            circles.append(" -> ".join(circle))
    return circles


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


def test_no_import_circle() -> None:
    """Of any length, lazy or for annotations only: a circle means its modules are one
    concept split apart, or one of them knows what belongs above it."""
    assert import_circles() == []


def test_the_circle_finder_finds_a_long_one() -> None:
    """The analysis room's type-only import of the execution's type closed this one."""
    codemod = "acp_migrate.engine.analysis.codemod"
    imports = {**RUNS, codemod: RUNS[codemod] | {"acp_migrate.engine.execution.modules"}}
    assert import_circles(imports) == [
        (
            "acp_migrate.engine.analysis -> acp_migrate.engine.analysis.codemod"
            " -> acp_migrate.engine.execution.modules -> acp_migrate.engine.analysis"
        )
    ]


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
                if name.startswith("acp_migrate.rules.") and name.split(".")[2] not in ("base", "context", "edits")
            }
            assert named == set(), (module, named)


def test_the_rule_context_names_no_rule() -> None:
    """`FileContext` serves every rule alike: it imports no rule, and of `rules/shared/`
    only the words; a rule claims what it owns through it (`FileContext.claim`)."""
    allowed = {"acp_migrate.rules.base", "acp_migrate.rules.edits", "acp_migrate.rules.shared"}
    imported = _ours(MODULES["acp_migrate.rules.context"])
    assert {name for name in imported if name.startswith("acp_migrate.rules.") and name not in allowed} == set()


SHARED_BY_PROBE_AND_CODEMOD = {"acp_migrate.rulebook", "acp_migrate.escape", "acp_migrate.sarif"}


def test_the_probe_imports_nothing_of_the_codemod() -> None:
    """The probe, and what it shares with the codemod (the rule system, the escaping,
    the SARIF log), import nothing else of the package; typer only for the command,
    pydantic only for the protocol's schema, never LibCST or the SDK."""
    # (`python -m acp_migrate.probe` stops on signals as the command does: the entry's `stoppable`.)
    allowed = {"acp_migrate", "acp_migrate.__main__", "acp_migrate.version"} | SHARED_BY_PROBE_AND_CODEMOD
    for module, imported in MODULES.items():
        if not (module.startswith("acp_migrate.probe") or module in SHARED_BY_PROBE_AND_CODEMOD):
            continue
        outside = {name for name in _ours(imported) if not name.startswith("acp_migrate.probe")} - allowed
        assert outside == set(), (module, outside)
        packages = {name.split(".")[0] for name in imported}
        assert not packages & {"libcst", "acp"}, module
        assert "typer" not in packages or module == "acp_migrate.probe.cli", module
        assert "pydantic" not in packages or module == "acp_migrate.probe.schema", module
