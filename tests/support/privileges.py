"""Run part of a test without root's power to ignore file permissions.

Tests here run as root (CI does). Root reads and writes any file, so a permission test
would prove nothing; dropping the effective user to `nobody` for the block makes the
kernel enforce the modes again. The real user stays root, so the block can return.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

NOBODY = 65534


@contextlib.contextmanager
def permissions_enforced() -> Iterator[None]:
    if os.geteuid() != 0:
        yield
        return
    os.setegid(NOBODY)
    os.seteuid(NOBODY)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)


@contextlib.contextmanager
def world_readable_dir() -> Iterator[Path]:
    """A fresh folder `nobody` can enter (pytest's tmp_path is private to root)."""
    with tempfile.TemporaryDirectory() as name:
        path = Path(name)
        path.chmod(0o777)
        yield path
