"""A golden case's expected tree as `fix` writes it, to start the migrated agent from."""

from __future__ import annotations

import shutil
from pathlib import Path

from acp_migrate.style import read_style
from acp_migrate.vendor import is_vendored, vendored_source


def expected_tree(case: Path, into: Path) -> Path:
    """`case/expected` copied to `into`, each vendored-header stub (which stands for the
    shim this release writes) replaced by the shim in the case's style."""
    shutil.copytree(case / "expected", into, ignore=shutil.ignore_patterns("__pycache__"))
    for path in into.rglob("*.py"):
        if is_vendored(path.read_bytes()):
            path.write_bytes(vendored_source(style=read_style(case / "input")))
    return into
