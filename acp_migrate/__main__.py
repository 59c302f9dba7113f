"""The `acp-migrate` command and `python -m acp_migrate`.

Before the CLI (typer) is even imported, a command that runs over folders forks the
parse server, which imports LibCST meanwhile (engine/early_server.py)."""

from __future__ import annotations

import os
import sys

# The commands that run over PATHs (engine.runner.Mode): importing it here would delay the fork.
PATH_COMMANDS = ("check", "diff", "fix")


def runs_over_folders(args: list[str]) -> bool:
    """Whether `args` (the command line after the program) run a PATH command over a
    folder, `.` by default: such a run may meet many files. Arguments that are no
    existing path (option values) are ignored; a run over files only (pre-commit's)
    or stdin (`-`) is not one."""
    if not args or args[0] not in PATH_COMMANDS or "-" in args or "--help" in args:
        return False
    paths = [arg for arg in args[1:] if not arg.startswith("-") and os.path.exists(arg)]
    return not paths or any(os.path.isdir(path) for path in paths)


def main() -> None:
    if runs_over_folders(sys.argv[1:]):
        from acp_migrate.engine import early_server

        early_server.start()
    from acp_migrate.cli import main as run_cli

    run_cli()


if __name__ == "__main__":
    main()
