"""The one place the engine runs in parallel: a function over items, in worker processes.

Workers are forked (they start in milliseconds with this process's modules) and ignore
Ctrl-C and SIGTERM: only this process stops a run. Stopped, it drops the items not
started and ends the running ones at once with STOP_WORKER (a big file's analysis
takes seconds), which a write holds back until it is done (engine/execution/files.py),
so no write is cut short.
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
    """The result of an item whose worker process died (a native crash in the parser)."""


WORKER_DIED = WorkerDied()

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
    WORKER_DIED stands for the result of an item whose process died, and of the items
    a pool broken by that death did not run: the caller decides what to do with them."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
    executor = ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_init, initargs=(os.getpid(),))
    try:
        pending = {}
        for item in items:
            try:
                pending[_submit(executor, function, item)] = item
            except BrokenProcessPool:
                yield item, WORKER_DIED
        for future in as_completed(pending):
            try:
                result = future.result()
            except BrokenProcessPool:
                result = WORKER_DIED
            yield pending[future], result
    except BaseException:
        _stop_workers(executor)  # stopped (Ctrl-C, SIGTERM, or the caller left)
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def _stop_workers(executor) -> None:
    # (the executor's processes: no public way to reach them)
    for process in list((getattr(executor, "_processes", None) or {}).values()):
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


def _worker_init(parent: int) -> None:
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
