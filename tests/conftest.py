"""The test session's processes keep their caches out of the user's home."""

from __future__ import annotations

import os
import shutil
import tempfile

_cache_home = tempfile.mkdtemp(prefix="acp-migrate-tests-cache-")


def pytest_configure() -> None:
    # Caches the tested processes keep (pre-commit's, ...) stay out of the home folder.
    os.environ["XDG_CACHE_HOME"] = _cache_home


def pytest_unconfigure() -> None:
    shutil.rmtree(_cache_home, ignore_errors=True)
