"""The `acp-migrate` command and `python -m acp_migrate`.

Ctrl-C and SIGTERM (a cancelled CI job) stop the command the same way at every moment
after its first line: the run drops the files not started and stops its workers at once,
a write under way ending first (engine/execution/pool.py), so every file is whole; no traceback; exit 130 for
Ctrl-C, 143 for SIGTERM. The handlers come before anything else is imported, so that
the start-up (typer's import) is covered too. `probe` runs as its typer command alone
(`acp_migrate/probe/cli.py`, also listed in the whole command line), before anything
of the codemod is imported: it must start fast."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable


class Interrupted(KeyboardInterrupt):
    """A signal that stops the run where it is (KeyboardInterrupt: everything that
    cleans up after Ctrl-C cleans up after SIGTERM too)."""


def main() -> None:
    sys.exit(stoppable(_command))


def _command() -> int:
    if sys.argv[1:2] == ["probe"]:
        from acp_migrate.probe.cli import main as probe

        return probe(sys.argv[2:])
    from acp_migrate.cli import run_command

    return run_command()


def stoppable(command: Callable[[], int]) -> int:
    """Run `command` and return the exit code it gives, or 128 + the signal that stopped it."""
    received: list[int] = []
    stopping = False

    def stop(number: int, frame: object) -> None:
        nonlocal stopping
        received.append(number)
        if not stopping:  # once: a second Ctrl-C must not cut the clean-up short
            stopping = True
            raise Interrupted

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)  # last: once it is caught, both are (tests wait for it)
    try:
        try:
            code = command()
        finally:
            stopping = True  # from here on a signal only sets the exit code
    except KeyboardInterrupt:
        code = 130
    code = _flush(code)
    return 128 + received[-1] if received else code


def _flush(code: int) -> int:
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        # The reader left early (`| head`): its choice, not an error. Python would try
        # to flush again at exit and complain; the rest goes nowhere.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        code = 2  # the report could not be written (a full disk)
    return code


if __name__ == "__main__":
    main()
