"""The test session's processes keep their caches out of the user's home."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

_cache_home = tempfile.mkdtemp(prefix="acp-migrate-tests-cache-")


def pytest_configure() -> None:
    # Caches the tested processes keep (pre-commit's, ...) stay out of the home folder.
    os.environ["XDG_CACHE_HOME"] = _cache_home


def pytest_unconfigure() -> None:
    shutil.rmtree(_cache_home, ignore_errors=True)


@pytest.hookimpl(trylast=True)  # after the other hooks have marked their tests
def pytest_collection_modifyitems(items: list) -> None:
    # The slow tests first: spread over the workers while the quick ones fill the gaps,
    # instead of one long test ending the run alone on one core (stable: same order
    # in every xdist worker).
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
