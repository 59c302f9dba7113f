"""The decision a run makes about the whole project before it writes a file that
depends on it: may a schema the project owns lose the legacy field?

Only when no caller that passes or reads the field is left after the run. A caller is left
when it is suppressed, deselected, cannot be fixed, or lies outside the run (in the
project root, but not among the files given: `fix schema.py` alone, as the pre-commit
hook runs it). Files whose analysis needs this decision (`SourceAnalysis.needs_project`)
are analysed first without it and written only once it is made (`runner.run`).

The project root is the configuration's folder, else the nearest folder above the
first path that holds `.git` or `pyproject.toml`, else the first path's folder.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import replace

from acp_migrate.engine.analysis import analyze_source, needs_libcst
from acp_migrate.engine.execution.discover import DiscoveryOptions, iter_files
from acp_migrate.engine.execution.files import read_source
from acp_migrate.engine.execution.modules import file_system_modules
from acp_migrate.findings import Finding, SourceError
from acp_migrate.settings import ProjectFacts, RuleSettings

Callers = Iterable[tuple[Finding, "str | None"]]


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

    covered = any(root == path or root.startswith(path.rstrip(os.sep) + os.sep) for path in run_paths)
    for path, callers in sorted(run_files.items()):
        # A deselected rule did not run in this run: ask the file with every rule.
        note(_callers_of(path, every_rule, cwd) if deselecting else callers, None)
    if not covered:
        for path in sorted(iter_files([root], options, [])):
            if path not in run_files:
                note(_callers_of(path, every_rule, cwd), "not in this run")
    return ProjectFacts(schema_kept_by=tuple(left), run_paths=tuple(run_paths))


def _callers_of(path: str, settings: RuleSettings, cwd: str) -> Callers:
    """The callers of an owned schema in the file at `path`: only a file the screen
    passes can hold one, and its findings are all that is needed (check's analysis,
    which computes no fixed source)."""
    try:
        source = read_source(path)
    except Exception:  # unreadable: the run reports it if it is the run's
        return []
    if not needs_libcst(source, path, settings):
        return []
    display = os.path.relpath(path, cwd) if path.startswith(cwd + os.sep) else path
    try:
        analysis = analyze_source(
            source,
            path=display,
            fix=False,
            settings=settings,
            modules=file_system_modules(path),
            project=ProjectFacts(),
        )
    except SourceError:
        return []
    return analysis.callers
