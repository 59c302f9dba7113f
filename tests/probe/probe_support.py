"""Run the probe over the test agents; paths of the repository's examples."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from acp_migrate.probe import ProbeOptions, ProbeResult, run_probe

HERE = Path(__file__).resolve().parent
AGENTS = HERE / "agents"
REPO = HERE.parents[1]
# Generous: a safety net against a hang, never a measure (tests assert no duration).
SAFETY = dict(timeout=120.0, initialize_timeout=60.0, request_timeout=60.0)


def probe_agent(script: str | Path, *args: str, settle: float = 0.1, **options) -> ProbeResult:
    """Probe `agents/<script>` (or any path) run by this interpreter."""
    path = Path(script) if Path(script).is_absolute() else AGENTS / script
    return run_probe(ProbeOptions(command=[sys.executable, str(path), *args], settle=settle, **{**SAFETY, **options}))


def codes(result: ProbeResult) -> set[str]:
    return {f.code for f in result.findings}


def probe_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`acp-migrate probe ARGS` in a process of its own, as CI runs it."""
    return subprocess.run(
        [sys.executable, "-m", "acp_migrate", "probe", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )
