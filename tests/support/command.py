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
import io
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping

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
    with _file(stdin) as stdin_file, _file(b"") as stdout_file, _file(b"") as stderr_file:
        streams = {
            "stdin": open(stdin_file.fileno(), encoding="utf-8", closefd=False),
            "stdout": open(stdout_file.fileno(), "w", encoding="utf-8", closefd=False),
            "stderr": open(stderr_file.fileno(), "w", encoding="utf-8", errors="backslashreplace", closefd=False),
        }
        with _process_state(argv, cwd, env, streams):
            try:
                main()
            except SystemExit as exit:
                code = exit.code
        for stream in streams.values():
            stream.close()  # flushed first, as at a process's exit
        out, err = _content(stdout_file), _content(stderr_file)
    if text:
        out, err = out.decode(), err.decode()
    return subprocess.CompletedProcess(argv, code, out, err)


@contextlib.contextmanager
def _file(content: bytes) -> Iterator[io.BufferedRandom]:
    """A temporary file holding `content`, its descriptor as the command leaves it and
    restored after: the command may point a stream's descriptor at /dev/null (its last
    words after a failed write), and what it wrote before must still be read."""
    with tempfile.TemporaryFile() as file:
        file.write(content)
        file.seek(0)
        file.flush()
        kept = os.dup(file.fileno())
        try:
            yield file
        finally:
            os.dup2(kept, file.fileno())
            os.close(kept)


def _content(file: io.BufferedRandom) -> bytes:
    file.seek(0)
    return file.read()


@contextlib.contextmanager
def _process_state(argv: list[str], cwd, env: Mapping[str, str] | None, streams: dict[str, io.TextIOWrapper]):
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
