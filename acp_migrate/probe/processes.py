"""Ending the agent's whole process tree, with what Linux's /proc tells (POSIX elsewhere).

The agent runs in a session of its own, so `killpg` ends it and every helper that stayed
in its group. A descendant that called `setsid()` (a daemonised server, a language
server started "detached") left the group: it is found by its parent chain while that
chain exists (before anything is killed), and by the pipes it still holds (the agent's
stdin, stdout or stderr, which would keep the probe's reader waiting) once its parent
is gone. Without /proc only the group is ended.
"""

from __future__ import annotations

import contextlib
import os
import signal

PROC = "/proc"


def pipe_inodes(pid: int) -> set[str]:
    """The `pipe:[inode]` names of the process's stdin, stdout and stderr (read as it starts)."""
    names = set()
    for fd in (0, 1, 2):
        with contextlib.suppress(OSError):
            target = os.readlink(f"{PROC}/{pid}/fd/{fd}")
            if target.startswith("pipe:"):
                names.add(target)
    return names


def _pids() -> list[int]:
    try:
        return [int(name) for name in os.listdir(PROC) if name.isdigit()]
    except OSError:
        return []


def _parent(pid: int) -> int | None:
    try:
        with open(f"{PROC}/{pid}/stat", "rb") as stat:
            # The name in parentheses may hold spaces and parentheses: fields follow the last ")".
            return int(stat.read().rsplit(b")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def descendants(pid: int) -> set[int]:
    """Every process whose chain of parents leads to `pid`, now."""
    children: dict[int, list[int]] = {}
    for other in _pids():
        parent = _parent(other)
        if parent is not None:
            children.setdefault(parent, []).append(other)
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def pipe_holders(names: set[str]) -> set[int]:
    """The processes, other than this one, holding one of the pipes `names`."""
    holders: set[int] = set()
    if not names:
        return holders
    me = os.getpid()
    for pid in _pids():
        if pid == me:
            continue
        try:
            fds = os.listdir(f"{PROC}/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            with contextlib.suppress(OSError):
                if os.readlink(f"{PROC}/{pid}/fd/{fd}") in names:
                    holders.add(pid)
                    break
    return holders


def kill(pid: int) -> None:
    """SIGKILL the process and, when it leads one, its group."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if os.getpgid(pid) == pid:
            os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)
