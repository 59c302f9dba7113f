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


def import_circles(set_aside: frozenset[tuple[str, str]], imports: dict[str, set[str]] = RUNS) -> list[str]:
    """Circles of `imports`, each `a -> b -> ... -> a`, until every module in one is
    named (`set_aside`: imports, as (importer, imported), left out)."""
    runs = {module: {other for other in found if (module, other) not in set_aside} for module, found in imports.items()}
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


# Imports closing circles that other parts of issue 30, under way beside this one,
# remove; each goes from here with its import (the second test says when).
PENDING: dict[tuple[str, str], str] = {
    ("acp_migrate.probe.report", "acp_migrate.report.sarif"): "the probe imports nothing of the codemod",
    **{
        (module, "acp_migrate.probe.checks"): "one rule system: a wire rule imports no registry"
        for module, found in RUNS.items()
        if module.startswith("acp_migrate.probe.checks.") and "acp_migrate.probe.checks" in found
    },
}


def test_no_import_circle() -> None:
    """Of any length, lazy or for annotations only: a circle means its modules are one
    concept split apart, or one of them knows what belongs above it."""
    assert import_circles(frozenset(PENDING)) == []


def test_each_import_set_aside_still_closes_a_circle() -> None:
    for (module, imported), why in PENDING.items():
        assert imported in RUNS[module], f"{module} no longer imports {imported} ({why}): delete it from PENDING"
        assert import_circles(frozenset(PENDING) - {(module, imported)}) != [], (module, imported, why)


def test_the_circle_finder_finds_a_long_one() -> None:
    """The analysis room's type-only import of the execution's type closed this one."""
    codemod = "acp_migrate.engine.analysis.codemod"
    imports = {**RUNS, codemod: RUNS[codemod] | {"acp_migrate.engine.execution.modules"}}
    assert import_circles(frozenset(PENDING), imports) == [
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
