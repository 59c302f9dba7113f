"""Shared helpers of the hardening tests: the command (in this process, or the installed
CLI where the process is tested), legacy sources, tree snapshots."""

from __future__ import annotations

import ast
import contextlib
import os
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

from support.command import run_acp_migrate

REPO = Path(__file__).resolve().parents[2]
CLI = Path(sys.executable).parent / "acp-migrate"

# Small legacy shapes, each fixable on its own (no agent class, so no rewiring).
LEGACY_SNIPPETS = (
    "from acp.schema import AgentCapabilities\n\n\n"
    "def capabilities(commands):\n"
    "    return AgentCapabilities(load_session=True, slash_commands=commands)\n",
    "def initialize_result(commands):\n"
    '    return {"protocolVersion": 1, "agentCapabilities": {"loadSession": True, "slashCommands": commands}}\n',
    "from acp.schema import InitializeResponse\n\n\n"
    "def initialize(protocol_version, commands):\n"
    "    return InitializeResponse.create(\n"
    "        protocol_version=protocol_version,\n"
    '        name="fuzz-agent",\n'
    "        slash_commands=commands,\n"
    "    )\n",
)


def run_cli(*args: str | os.PathLike[str], cwd: Path) -> subprocess.CompletedProcess:
    """The command as the console script runs it, in this process (text output)."""
    return run_acp_migrate(*args, cwd=cwd, text=True)


def run_cli_process(
    *args: str | os.PathLike[str], cwd: Path, timeout: float = 120, prefix: Sequence[str] = ()
) -> subprocess.CompletedProcess:
    """The installed `acp-migrate` console script, in a process: for input that could
    crash or hang the interpreter, the process and its timeout are part of the test."""
    assert CLI.exists(), f"the project is not installed in this environment: no {CLI}"
    return subprocess.run(
        [*prefix, str(CLI), *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=timeout
    )


def snapshot(root: Path) -> dict[str, bytes]:
    """Every regular file under root (symlinks not followed), by relative path."""
    found = {}
    for folder, _, files in os.walk(root):
        for name in files:
            path = Path(folder, name)
            if not path.is_symlink():
                found[str(path.relative_to(root))] = path.read_bytes()
    return found


def parses(source: bytes) -> bool:
    try:
        compile(source, "<fuzz>", "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def golden_inputs() -> list[Path]:
    return sorted(p for p in (REPO / "golden").glob("*/input/**/*") if p.is_file() and p.suffix == ".py")


# The guards of the attack tests (tests/hardening/test_hostile_repo.py): a regression
# fails them (a timeout, a MemoryError reported) instead of hanging or exhausting CI.
HANG_GUARD = 120  # seconds; a safety net, never what a test asserts
MEMORY_GUARD = 2 * 1024**3  # bytes of address space per process of the run


def limit_memory() -> None:
    """`preexec_fn`: the child's address space is bounded (its workers inherit the bound)."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_GUARD, MEMORY_GUARD))


def run_guarded(
    *args: str | os.PathLike[str], cwd: Path, command: list[str] | None = None, **kwargs
) -> subprocess.CompletedProcess:
    """The installed `acp-migrate` (or `command`) with a timeout and an address-space limit."""
    kwargs.setdefault("capture_output", True)
    kwargs.setdefault("text", True)
    return subprocess.run(
        [*(command or [str(CLI)]), *map(str, args)],
        cwd=cwd,
        timeout=HANG_GUARD,
        preexec_fn=limit_memory,
        **kwargs,
    )


@contextlib.contextmanager
def holding_fifo(process: subprocess.Popen, fifo: Path) -> Iterator[bool]:
    """Block until `process` opens `fifo` for reading, and hold its writing end open for
    the block (a run waiting on it, at a phase of ACP_MIGRATE_PHASES, waits until the
    block ends). Yields whether the process is still running; one that ended first
    releases the open instead."""
    opened = threading.Event()

    def release_when_ended() -> None:
        process.wait()
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # the open below returns
        opened.wait()
        os.close(reader)

    threading.Thread(target=release_when_ended, daemon=True).start()
    writer = os.open(fifo, os.O_WRONLY)
    opened.set()
    try:
        yield process.poll() is None
    finally:
        os.close(writer)
