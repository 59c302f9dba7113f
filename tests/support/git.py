"""git in a test's own temp repository, with a fixed identity and no prompt."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
