"""The parse pool's server, forked before the command line is read.

A run's first candidate needs LibCST, whose import (0.05 s of CPU; 0.12 s when the
code cache is cold, see engine/code_cache.py) would only start then, and the run
waits for it. The program's entry (`acp_migrate/__main__.py`) calls
`start` first thing when the command runs over folders: the server imports LibCST on
the core left idle while this process imports typer and reads its options. A big run
pauses it (`pause`, SIGSTOP) while its workers screen, where it would slow a clean
tree; the parse pool resumes it at the first candidate (`take`); a run that never
needed it kills it (`discard`). Either way this process never imports LibCST.

Linux only (fork), with two cores or more. Only `os` is imported before the fork: the
server inherits this process as it is at start-up.
"""

from __future__ import annotations

import os
import sys
from typing import NamedTuple

class Server(NamedTuple):
    pid: int
    jobs: int  # the write end of the pipe the server reads its jobs from
    answers: int  # the read end of the pipe it writes its answers to


_waiting: Server | None = None  # started, not yet taken by a parse pool


def start() -> None:
    """Fork the server now (see the module docstring); once per process."""
    global _waiting
    if _waiting is not None or sys.platform != "linux" or len(os.sched_getaffinity(0)) < 2:
        return
    jobs_read, jobs_write = os.pipe()
    answers_read, answers_write = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:
        os.close(jobs_write)
        os.close(answers_read)
        _serve(jobs_read, answers_write, parent)
    os.close(jobs_read)
    os.close(answers_write)
    _waiting = Server(pid, jobs_write, answers_read)


def _serve(jobs: int, answers: int, parent: int) -> None:
    # The child: it must never return into the parent's code, nor run its exit handlers.
    try:
        from multiprocessing.connection import Connection

        from acp_migrate.engine.runner import serve_parses

        serve_parses(Connection(jobs, writable=False), Connection(answers, readable=False), parent)
    except Exception:  # a bug: the parse pool retries what it did not answer
        import traceback

        traceback.print_exc()
    finally:
        os._exit(0)


def waiting() -> bool:
    return _waiting is not None


def pause() -> None:
    """Stop the waiting server's CPU use until it is taken or discarded."""
    if _waiting is not None:
        import signal  # (by the time of a run, already imported: not so at start-up)

        _signal(_waiting.pid, signal.SIGSTOP)


def take() -> Server | None:
    """The waiting server, resumed, for a parse pool that will close and wait for it; or None."""
    global _waiting
    server = _waiting
    if server is not None:
        import signal

        _signal(server.pid, signal.SIGCONT)
    # Only now: stopped here (Ctrl-C), the server is still `discard`ed, not left stopped.
    _waiting = None
    return server


def discard() -> None:
    """Kill the waiting server, if no parse pool took it (its workers die with it)."""
    global _waiting
    server, _waiting = _waiting, None
    if server is None:
        return
    import signal

    _signal(server.pid, signal.SIGKILL)
    reap(server.pid)
    os.close(server.jobs)
    os.close(server.answers)


def reap(pid: int) -> None:
    """Wait for the server to end (the parse pool that took it closed its jobs pipe)."""
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass  # reaped already


def _signal(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except ProcessLookupError:
        pass  # gone: the parse pool retries what it does not answer
