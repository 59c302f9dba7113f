"""npm packages for the probe's tests, installed once into a cached folder.

`npm_package("opencode-ai", "1.18.33")` returns
`~/.cache/acp-migrate-tests/npm/opencode-ai-1.18.33` (under `$ACP_MIGRATE_TEST_VENVS`
when set), holding `node_modules/`. It is built in a temporary folder next to it and
renamed into place under a file lock, so concurrent test processes (pytest-xdist)
and interrupted runs never see a half-installed one. When npm or the registry is
missing the test fails, saying so: CI has both, and a skip would hide a lost check.
"""

from __future__ import annotations

import fcntl
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from support.sdk_venv import venvs_root  # tests/ is on sys.path (rootdir conftest)


def npm_package(name: str, version: str) -> Path:
    root = venvs_root() / "npm"
    root.mkdir(parents=True, exist_ok=True)
    tag = f"{name.replace('/', '+').lstrip('@')}-{version}"
    target = root / tag
    with open(root / f".{tag}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (target / ".complete").exists():
            return target
        shutil.rmtree(target, ignore_errors=True)
        npm = shutil.which("npm")
        if npm is None:
            pytest.fail(f"npm is not installed: it is needed to install {name}@{version} for this test")
        building = Path(tempfile.mkdtemp(prefix=f".{tag}-", dir=root))
        try:
            installed = subprocess.run(
                [
                    npm,
                    "install",
                    "--prefix",
                    str(building),
                    "--no-audit",
                    "--no-fund",
                    "--no-save",
                    f"{name}@{version}",
                ],
                capture_output=True,
                text=True,
                timeout=900,
            )
            if installed.returncode != 0:
                pytest.fail(
                    f"`npm install {name}@{version}` failed (is the npm registry reachable?):\n"
                    + (installed.stderr or installed.stdout)[-3000:]
                )
            (building / ".complete").write_text(f"{name}@{version}\n")
            building.rename(target)  # node_modules/.bin links are relative: the move is safe
        finally:
            shutil.rmtree(building, ignore_errors=True)
        return target
