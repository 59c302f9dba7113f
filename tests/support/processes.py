"""Waiting on a process's state, never on the clock.

Signal tests act when the process shows it is ready (its handler installed, a file
written), not after a sleep: under load a sleep is too short or too long. The
timeouts here are safety nets: they only end a wait that would otherwise never end.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

HANG_GUARD = 120.0  # seconds; a safety net, never what decides a pass
T = TypeVar("T")


def wait_until(condition: Callable[[], T], what: str, timeout: float = HANG_GUARD) -> T:
    """Poll `condition` until it returns something truthy, and return that."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:.0f}s for {what}")
        time.sleep(0.001)  # polling a state, not waiting for time to pass
    return value


def catches(pid: int, number: int) -> bool:
    """Whether process `pid` has a handler for signal `number` (Linux: /proc/PID/status)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next((line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), "0")
    return bool(int(caught, 16) >> (number - 1) & 1)


def wait_for_handler(process, number: int = signal.SIGTERM) -> bool:
    """Wait until the `subprocess.Popen` `process` catches `number`, or has ended;
    True if it catches it. Python catches SIGINT itself from its start, so for the
    command's own handlers wait on SIGTERM, which only the program catches."""
    wait_until(lambda: catches(process.pid, number) or process.poll() is not None, f"a handler of signal {number}")
    return process.poll() is None


def session_ended(session: int, timeout: float = HANG_GUARD) -> bool:
    """Whether every process of session (process group) `session` has ended. A zombie
    has ended: its parent gone, it waits for init to reap it, which may take seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not _live_members(session):
            return True
        time.sleep(0.01)
    return False


def _live_members(group: int) -> list[int]:
    if not os.path.isdir("/proc/self"):  # no /proc: a zombie counts as alive
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return []
        return [group]
    members = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:  # ended meanwhile
            continue
        state, _, pgrp = stat.rsplit(")", 1)[1].split()[:3]  # after the name, which may hold spaces
        if int(pgrp) == group and state != "Z":
            members.append(int(entry.name))
    return members


def rewritten(root: Path, new: dict[str, bytes]) -> int:
    """How many of the files `new` maps (path relative to root -> content) already
    have that content. Writes are atomic renames: a file is read whole, old or new."""
    count = 0
    for path, content in new.items():
        try:
            count += (root / path).read_bytes() == content
        except FileNotFoundError:  # between two renames on some platforms; not on Linux
            pass
    return count
