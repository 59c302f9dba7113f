"""The `acp-migrate` command and `python -m acp_migrate`.

Before the CLI (typer) is even imported, a command that walks folders forks the parse
server, which imports LibCST meanwhile (engine/early_server.py), and asks git what it
ignores there (engine/discover.ask_git_early). Before that, it installs the cache of the
code dataclasses generate (engine/code_cache.py)."""

from __future__ import annotations

import gc
import os
import sys

# The commands that run over PATHs (engine.runner.Mode): importing it here would delay the fork.
PATH_COMMANDS = ("check", "diff", "fix")
# Options whose value may be an existing file, which is no PATH (cli.py declares them).
PATH_VALUED_OPTIONS = ("--config", "--output-file", "-o", "--stdin-filename")


def folders_to_walk(args: list[str]) -> list[str]:
    """The folders `args` (the command line after the program) have a PATH command
    walk, `.` by default: such a run may meet many files. Arguments that are no
    existing path (option values) are ignored; a run over files only (pre-commit's)
    or stdin (`-`) walks none."""
    if not args or args[0] not in PATH_COMMANDS or {"-", "--help", "-h"} & set(args):
        return []
    values = {i + 1 for i, arg in enumerate(args) if arg in PATH_VALUED_OPTIONS}
    paths = [
        arg for i, arg in enumerate(args) if i and i not in values and not arg.startswith("-") and os.path.exists(arg)
    ]
    return [path for path in paths if os.path.isdir(path)] if paths else ["."]


def main() -> None:
    # Imports make tens of thousands of objects and no garbage: the collections they
    # trigger cost 3 ms here (5 ms in the parse server, which inherits this).
    gc.disable()
    if sys.argv[1:2] == ["probe"]:  # the probe imports nothing of the codemod: it starts fast
        from acp_migrate.probe.cli import main as probe

        sys.exit(probe(sys.argv[2:]))
    from acp_migrate.engine import code_cache

    code_cache.install()  # before any dataclass is made, here or in the forked server
    folders = folders_to_walk(sys.argv[1:])
    if folders:
        from acp_migrate.engine import early_server

        early_server.start()  # first: it forks, and the server imports what it needs itself
    import signal  # (after the fork, which comes first: 0.5 ms)

    # Until the CLI takes SIGTERM over (cli.main: the run then stops as for Ctrl-C), it
    # ends the start-up at once and quietly: nothing has been written yet.
    signal.signal(signal.SIGTERM, _end_start_up)
    if folders:
        from acp_migrate.engine import discover

        discover.ask_git_early(folders[0])
    from acp_migrate.cli import main as run_cli

    gc.enable()
    run_cli()


def _end_start_up(number: int, frame: object) -> None:
    raise SystemExit(128 + number)


if __name__ == "__main__":
    main()
