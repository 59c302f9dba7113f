"""The `acp-migrate` command run in the test's own process, as the console script runs it.

`acp_migrate.__main__.main` with the given argv, working directory, environment and stdin;
stdout and stderr are real files (not terminals, block-buffered, with a file descriptor,
as the pipes of `subprocess.run(capture_output=True)` are), read back after the run. A
process costs its start-up and its imports, about a third of a second each time: tests
whose subject is the process itself (signals, the installed script, stdio, what a fresh
interpreter imports, a crash of the interpreter) start one; the others run the command here.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from typing import TextIO

_STREAMS = ("stdin", "stdout", "stderr")


def run_acp_migrate(
    *args: str | os.PathLike[str],
    cwd: str | os.PathLike[str] = ".",
    input: bytes | str | None = None,
    env: Mapping[str, str] | None = None,
    text: bool = False,
) -> subprocess.CompletedProcess:
    """What `subprocess.run(["acp-migrate", *args], cwd=cwd, input=input, env=env,
    capture_output=True, text=text)` gives, computed in this process."""
    from acp_migrate.__main__ import main

    argv = ["acp-migrate", *map(os.fspath, args)]
    stdin = input.encode() if isinstance(input, str) else input or b""
    out, err = bytearray(), bytearray()
    with (
        _standard_file(stdin, "r", bytearray()) as stdin_file,
        _standard_file(b"", "w", out) as stdout_file,
        _standard_file(b"", "w", err, errors="backslashreplace") as stderr_file,
        _process_state(argv, cwd, env, {"stdin": stdin_file, "stdout": stdout_file, "stderr": stderr_file}),
    ):
        try:
            main()
        except SystemExit as exit:
            code = exit.code
    if text:
        return subprocess.CompletedProcess(argv, code, out.decode(), err.decode())
    return subprocess.CompletedProcess(argv, code, bytes(out), bytes(err))


@contextlib.contextmanager
def _standard_file(content: bytes, mode: str, written: bytearray, errors: str = "strict") -> Iterator[TextIO]:
    """A standard stream on a temporary file holding `content`; what the file holds once the
    stream is closed (flushed, as at a process's exit) goes into `written`, read through a
    descriptor of its own: the command may point the stream's at /dev/null (its last words
    after a failed write), and what it wrote before must still be read."""
    with tempfile.TemporaryFile() as file:
        file.write(content)
        file.seek(0)
        kept = os.dup(file.fileno())
        try:
            with open(file.fileno(), mode, encoding="utf-8", errors=errors, closefd=False) as stream:
                yield stream
            written += os.pread(kept, os.fstat(kept).st_size, 0)
        finally:
            os.close(kept)


@contextlib.contextmanager
def _process_state(argv: list[str], cwd, env: Mapping[str, str] | None, streams: dict[str, TextIO]):
    """argv, the working directory, the environment, the standard streams (also `sys.__stdout__`,
    which the terminal size is read from) and the stop signals' handlers, restored after."""
    saved_streams = {name: (getattr(sys, name), getattr(sys, f"__{name}__")) for name in _STREAMS}
    saved_handlers = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    saved_argv, saved_cwd, saved_env = sys.argv, os.getcwd(), dict(os.environ)
    try:
        sys.argv = argv
        os.chdir(cwd)
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        for name, stream in streams.items():
            setattr(sys, name, stream)
            setattr(sys, f"__{name}__", stream)
        yield
    finally:
        for name, (stream, original) in saved_streams.items():
            setattr(sys, name, stream)
            setattr(sys, f"__{name}__", original)
        for number, handler in saved_handlers.items():
            signal.signal(number, handler)
        if env is not None:
            os.environ.clear()
            os.environ.update(saved_env)
        os.chdir(saved_cwd)
        sys.argv = saved_argv
