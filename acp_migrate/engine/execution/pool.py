"""The one place the engine runs in parallel: a function over items, in worker processes.

Workers are forked (they start in milliseconds with this process's modules) and ignore
Ctrl-C and SIGTERM: only this process stops a run. Stopped, it drops the items not
started and ends the running ones at once with STOP_WORKER (a big file's analysis
takes seconds): workers only analyse; the run writes after them, in one step
(engine/execution/files.WriteBatch). A worker that dies (a native crash) breaks the pool, which
drops its items; what it said it was on (`working_on`) is named (WorkerDied.killed_by),
so that the caller runs the others again, not that one.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


class WorkerDied:
    """The result of the items a pool lost when a worker process died (a native crash in
    the parser): the one it ran and the others the broken pool dropped."""

    def __init__(self, culprits: frozenset[int] = frozenset()) -> None:
        self._culprits = culprits

    def killed_by(self, tag: str) -> bool:
        """`tag` is what a dead worker said it was working on last (`working_on`): the
        cause, not to be tried again."""
        return _tag_hash(tag) in self._culprits


# In a worker: its two cells of the pool's shared board, (pid, what it works on), which
# the parent reads when a worker dies (a queue would fill up while nobody reads it).
_board = None
_cell = 0

# What ends a worker when the run stops: its default action ends the process.
STOP_WORKER = signal.SIGUSR1


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def run_in_workers(
    function: Callable[[Item], Result], items: Iterable[Item], workers: int
) -> Iterator[tuple[Item, Result | WorkerDied]]:
    """(item, function(item)) for each of `items`, in completion order, computed in
    `workers` processes; items are sent as `items` yields them (a walk going on).
    A WorkerDied stands for the result of an item whose process died, and of the items
    a pool broken by that death did not run: the caller decides what to do with them."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    board = context.Array("q", 2 * workers + 1, lock=False)  # [workers seated, (pid, tag hash)...]
    executor = ProcessPoolExecutor(
        workers, mp_context=context, initializer=_worker_init, initargs=(os.getpid(), board, context.Lock())
    )
    died: WorkerDied | None = None
    try:
        pending = {}
        for item in items:
            try:
                pending[_submit(executor, function, item)] = item
            except BrokenProcessPool:
                died = died or _died(executor, board)
                yield item, died
        for future in as_completed(pending):
            try:
                result = future.result()
            except BrokenProcessPool:
                result = died = died or _died(executor, board)
            yield pending[future], result
    except BaseException:
        _stop_workers(executor)  # stopped (Ctrl-C, SIGTERM, or the caller left)
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def working_on(tag: str) -> None:
    """In a worker: `tag` (a file's path) is what it works on now; should the worker die,
    the parent learns it (WorkerDied.killed_by)."""
    if _board is not None:
        _board[_cell + 1] = _tag_hash(tag)


def _tag_hash(tag: str) -> int:
    import hashlib

    return int.from_bytes(hashlib.blake2b(os.fsencode(tag), digest_size=7).digest())  # fits a cell


def _died(executor, board) -> WorkerDied:
    """What the workers that died (not ended by the pool) were working on last."""
    from multiprocessing.connection import wait

    processes = _processes(executor)
    ended = set(wait([process.sentinel for process in processes], timeout=0))
    dead = set()
    for process in processes:
        if process.sentinel in ended:
            while process.exitcode is None:  # the pool's thread is reaping it: it sets the code
                process.join()
            if process.exitcode != 0:
                dead.add(process.pid)
    return WorkerDied(frozenset(board[cell + 1] for cell in range(1, len(board), 2) if board[cell] in dead))


def _processes(executor) -> list:
    # (the executor's processes: no public way to reach them)
    return list((getattr(executor, "_processes", None) or {}).values())


def _stop_workers(executor) -> None:
    for process in _processes(executor):
        if process.exitcode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, STOP_WORKER)


_STOPPING_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def _submit(executor, function, item):
    # A submit may fork the workers. Blocked, Ctrl-C and SIGTERM wait here for the fork to
    # end; a forked worker would otherwise run this process's handler, which raises,
    # before it ignores them (_worker_init).
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING_SIGNALS)
    try:
        return executor.submit(function, item)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def _worker_init(parent: int, board, seating) -> None:
    global _board, _cell
    with seating:
        seat = board[0]
        board[0] = seat + 1
    if 2 * seat + 2 < len(board):  # (a worker started in place of a dead one has none)
        _board, _cell = board, 2 * seat + 1
        board[_cell] = os.getpid()
    # Ctrl-C reaches every process of the terminal's group, and a cancelled CI job's
    # SIGTERM often does: only the parent decides. A worker interrupted inside a queue
    # would leave its lock held, and the run hanging.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(STOP_WORKER, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPPING_SIGNALS)  # blocked by _submit
    # A worker outlives a parent killed with SIGKILL, blocked on its queue forever; on
    # Linux the kernel kills it with its parent instead.
    if sys.platform == "linux":
        import ctypes

        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
        if os.getppid() != parent:  # the parent died before the line above
            os._exit(1)
