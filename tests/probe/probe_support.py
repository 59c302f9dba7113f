"""Run the probe over the test agents; paths of the repository's examples."""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path

from acp_migrate.probe import ProbeOptions, ProbeResult, run_probe

HERE = Path(__file__).resolve().parent
AGENTS = HERE / "agents"
REPO = HERE.parents[1]
# Generous: a safety net against a hang, never a measure (tests assert no duration).
SAFETY = dict(timeout=120.0, initialize_timeout=60.0, request_timeout=60.0, list_wait=60.0)


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


def stuck_probe(folder: Path) -> tuple[subprocess.Popen[str], int]:
    """`acp-migrate probe` of `agents/stuck_agent.py` in a process of its own, returned
    once the agent has started: (the probe, the pid of the agent's child). The agent
    writes the pid into a FIFO: the kernel says when it is written, nothing is polled."""
    fifo = folder / "child.pid"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # open before the agent opens it to write
    probe = subprocess.Popen(
        [sys.executable, "-m", "acp_migrate", "probe", "--", sys.executable, str(AGENTS / "stuck_agent.py"), str(fifo)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    written = b""
    try:
        while True:
            ready, _, _ = select.select([reader], [], [], SAFETY["timeout"])
            if not ready:
                probe.kill()
                raise AssertionError("the agent never wrote its pid")
            chunk = os.read(reader, 64)
            if not chunk:  # the agent wrote it and closed the FIFO
                return probe, int(written)
            written += chunk
    finally:
        os.close(reader)


def ends(pid: int) -> bool:
    """Whether the process `pid` (not a child of ours) ends: the kernel says when, through
    a pidfd (a zombie, killed but not reaped by its dead parent's reaper, has ended)."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        ready, _, _ = select.select([handle], [], [], 30)  # a safety net, never a measure
        return bool(ready)
    finally:
        os.close(handle)
