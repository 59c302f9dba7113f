"""What a run decides about the whole project, reading files outside its paths.

Before it writes a file that depends on it: may a schema the project owns lose the
legacy field? And what do the rules read in other files for it (`Rule.gathers`: the
factory that makes an agent, in the module serving it)?

Only when no caller that passes or reads the field is left after the run. A caller is left
when it is suppressed, deselected, cannot be fixed, or lies outside the run (in the
project root, but not among the files given: `fix schema.py` alone, as the pre-commit
hook runs it). Files whose analysis needs this decision (`SourceAnalysis.needs_project`)
are analysed first without it and written only once it is made (`runner.run`).

After it has written: which tests outside the run assert the behaviour its code has
left (`tests_left_behind`)? A run fixing only `agent.py` stops advertising its
commands at `initialize`; a test elsewhere asserting that list then fails. Each one
that may run the migrated code (its imports, and its conftests', reach it) is
named with exit 1 (its test rule's finding), in that run and in every later run of
the migrated file alone, so a one-file run never leaves failing tests behind silently.

The project root is the configuration's folder, else the nearest folder above the
first path that holds `.git` or `pyproject.toml`, else the first path's folder.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from acp_migrate.engine.analysis import analyze_source, gather_facts, gathers_in, is_vendored, needs_libcst
from acp_migrate.engine.execution.discover import DiscoveryOptions, iter_files
from acp_migrate.engine.execution.files import FileAccessError, read_source
from acp_migrate.engine.execution.modules import file_system_modules
from acp_migrate.findings import Finding, SourceAnalysis, SourceError
from acp_migrate.results import FileOutcome
from acp_migrate.settings import Gathered, ProjectFacts, RuleSettings

Callers = Iterable[tuple[Finding, "str | None"]]
# How a test outside a run whose code left what it asserts is named.
LEFT_BEHIND = "not in this run, though it asserts what"


def project_root(paths: Sequence[str | os.PathLike[str]], options: DiscoveryOptions | None) -> str:
    if options is not None and options.root is not None:
        return os.path.abspath(options.root)
    first = os.path.abspath(paths[0]) if paths else os.getcwd()
    start = first if os.path.isdir(first) else os.path.dirname(first)
    folder = start
    while True:
        if os.path.exists(os.path.join(folder, ".git")) or os.path.exists(os.path.join(folder, "pyproject.toml")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return start
        folder = parent


def decide(
    *,
    root: str,
    run_paths: Sequence[str],
    run_files: dict[str, Callers],
    settings: RuleSettings,
    options: DiscoveryOptions | None,
    cwd: str,
) -> ProjectFacts:
    """`run_paths`: the run's paths, absolute; `run_files`: each file of the run
    (absolute path) -> the callers its analysis found, with why fix leaves each (None:
    it fixes it)."""
    every_rule = replace(settings, select=(), ignore=())
    deselecting = settings != every_rule
    left: list[str] = []

    def note(callers: Callers, why_all: str | None) -> None:
        for finding, why in callers:
            if why_all is not None:
                why = why_all
            elif why is None and not settings.enabled(finding.code):
                why = "deselected"
            if why is not None:
                left.append(f"{finding.path}:{finding.line} ({why})")

    for path, callers in sorted(run_files.items()):
        # A deselected rule did not run in this run: ask the file with every rule.
        note(_callers_of(path, every_rule, cwd) if deselecting else callers, None)
    covered = _covers(run_paths, root)
    gathered: list[Gathered] = []
    # The run's files are the project's when it covers the root: no second walk.
    for path in sorted(set(run_files) if covered else set(iter_files([root], options, [])) | set(run_files)):
        if not covered and path not in run_files:
            note(_callers_of(path, every_rule, cwd), "not in this run")
        gathered += _gathered_in(path, cwd)
    return ProjectFacts(schema_kept_by=tuple(left), run_paths=tuple(run_paths), gathered=tuple(gathered))


def tests_left_behind(
    *,
    root: str,
    run_paths: Sequence[str],
    run_files: dict[str, str],
    changed: Sequence[str],
    settings: RuleSettings,
    options: DiscoveryOptions | None,
    cwd: str,
) -> list[FileOutcome]:
    """An outcome for each file in the project root but outside the run holding tests of
    the legacy behaviour (`Rule.tests_behaviour`) while the run's code has left it: a
    file it `changed` (as shown) or one holding the migrated form's mark. `run_files`:
    each file of the run, absolute -> as shown. Each names its first test, not fixable."""
    from acp_migrate.rules import BEHAVIOUR_TESTS

    tests_of = {code: marks for code, marks in BEHAVIOUR_TESTS.items() if settings.enabled(code)}
    if not tests_of or _covers(run_paths, root):
        return []
    marks = tuple({mark for codes_marks in tests_of.values() for mark in codes_marks})
    migrated = list(changed) + [
        shown for path, shown in run_files.items() if shown not in changed and _holds(path, marks)
    ]
    if not migrated:
        return []
    shown_as = {shown: path for path, shown in run_files.items()}
    migrated_files = {shown_as.get(shown, os.path.abspath(os.path.join(cwd, shown))) for shown in migrated}
    outcomes = []
    for path in sorted(iter_files([root], options, [])):
        analysis = _analysis_of(path, settings, cwd) if path not in run_files else None
        tests = [finding for finding in analysis.findings if finding.code in tests_of] if analysis else []
        if tests and _may_reach(path, migrated_files, root):
            # One line a file: the file is what the run needs to take in.
            why = f"{LEFT_BEHIND} {', '.join(migrated)} no longer does: fix it in the same run; {tests[0].message}"
            named = [replace(tests[0], message=why, fixable=False)]
            outcomes.append(FileOutcome(path=named[0].path, findings=named, remaining=named))
    return outcomes


# What a test may run a module through without importing it: a path, a process, a loader.
_INDIRECT = frozenset({"importlib", "runpy", "subprocess", "__import__", "pkgutil"})
# How many files an import closure may hold before it is taken to reach everything.
MAX_CLOSURE = 2_000


def _may_reach(test: str, migrated: set[str], root: str) -> bool:
    """Whether running the tests in the file at `test` may execute one of the `migrated`
    files: the project files it and the `conftest.py` files pytest loads with it import,
    transitively (modules.candidate_paths). Anything it cannot follow counts as reaching:
    a dynamic import, a subprocess, a migrated file named in a string, a file it cannot
    read or parse. A test of a schema field the run left alone runs no migrated code."""
    import ast

    from acp_migrate.engine.execution.modules import candidate_paths, is_package

    names = {os.path.basename(path) for path in migrated}
    folder, conftests = os.path.dirname(test), []
    while folder.startswith(root):
        conftests.append(os.path.join(folder, "conftest.py"))
        if folder == root:
            break
        folder = os.path.dirname(folder)
    pending = [test, *(path for path in conftests if os.path.isfile(path))]
    seen = set(pending)
    while pending:
        path = pending.pop()
        if path in migrated or len(seen) > MAX_CLOSURE:
            return True
        try:
            tree = ast.parse(read_source(path), path)
        except (FileAccessError, SyntaxError, ValueError, RecursionError, MemoryError):  # cannot be followed
            return True
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in _INDIRECT:
                return True
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and names & set(node.value.split("/")):
                return True
            modules = []
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = "." * node.level + (node.module or "")
                modules = [
                    base,
                    *(f"{base}.{alias.name}" if node.module else base + alias.name for alias in node.names),
                ]
            for module in modules:
                if module.lstrip(".").split(".")[0] in _INDIRECT:
                    return True
                parts = module.split(".")
                prefixes = [".".join(parts[: i + 1]) for i in range(len(parts)) if parts[i]]
                for prefix in prefixes:  # a package's __init__ runs on the way to its modules
                    for candidate in candidate_paths(prefix, Path(path), is_package):
                        found = str(candidate)
                        if os.path.isfile(found):
                            if found not in seen and found.startswith(root):
                                seen.add(found)
                                pending.append(found)
                            break
    return False


def _covers(run_paths: Sequence[str], root: str) -> bool:
    """Whether the run's paths hold the whole project root."""
    return any(root == path or root.startswith(path.rstrip(os.sep) + os.sep) for path in run_paths)


def _holds(path: str, marks: tuple[bytes, ...]) -> bool:
    """Whether the Python file at `path`, not a vendored shim, holds one of `marks` (unreadable: no)."""
    if not path.endswith((".py", ".pyi")):
        return False
    try:
        source = read_source(path)
    except Exception:  # the run reported it
        return False
    return not is_vendored(source) and any(mark in source for mark in marks)  # (the shim is no agent)


def _gathered_in(path: str, cwd: str) -> list[Gathered]:
    """What the rules gather in the Python file at `path` (`Rule.gathers`), read outside
    the run too: a one-file run decides as the whole tree's does."""
    if not path.endswith((".py", ".pyi")):
        return []
    try:
        source = read_source(path)
    except FileAccessError:  # unreadable: the run reports it if it is the run's
        return []
    if not gathers_in(source):
        return []
    return gather_facts(source, path=_display(path, cwd), modules=file_system_modules(path))


def _display(path: str, cwd: str) -> str:
    return os.path.relpath(path, cwd) if path.startswith(cwd + os.sep) else path


def _callers_of(path: str, settings: RuleSettings, cwd: str) -> Callers:
    """The callers of an owned schema in the file at `path`."""
    analysis = _analysis_of(path, settings, cwd)
    return analysis.callers if analysis is not None else []


def _analysis_of(path: str, settings: RuleSettings, cwd: str) -> SourceAnalysis | None:
    """check's analysis of the Python file at `path` (no fixed source computed); None
    for a file the screen clears, as no rule reports on it, or one that cannot be read."""
    try:
        source = read_source(path)
    except Exception:  # unreadable: the run reports it if it is the run's
        return None
    if not needs_libcst(source, path, settings):
        return None
    try:
        return analyze_source(
            source,
            path=_display(path, cwd),
            fix=False,
            settings=settings,
            modules=file_system_modules(path),
            project=ProjectFacts(),
        )
    except SourceError:
        return None
