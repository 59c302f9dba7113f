"""The code `dataclasses` generates, kept between runs as .pyc files keep a module's.

Creating a dataclass compiles the source of its `__init__`, `__repr__`, `__eq__` and
the like (`exec` of a generated string, one per method up to Python 3.12, one per
class from 3.13). LibCST defines 200 node classes: compiling their methods is 70 ms of
the 115 ms of CPU its import costs; the command's own dataclasses cost 10 ms more. The
same source always compiles to the same code, so the command (`acp_migrate/__main__.py`)
`install`s this cache first thing: `dataclasses` then execs cached code, compiling only
what the cache lacks, and `save` adds that to the file (the parse server saves what
importing LibCST compiled, the command what it compiled itself). Forked processes
inherit the installed cache.

The file lives in `$XDG_CACHE_HOME/acp-migrate` (`~/.cache` by default), one per
interpreter version. A file that cannot be read or written, or was written by another
interpreter, is ignored: it only costs the time it would have saved.
"""

from __future__ import annotations

import builtins
import marshal
import os
import sys
import types

from acp_migrate.engine.files import remove_quietly

# Bounds the file when upgrades of LibCST leave texts no version generates any more:
# past it, a save keeps only what its process used.
_MAX_ENTRIES = 5000

_path: str | None = None  # the file, once installed
_code: dict[str, types.CodeType] = {}  # by source text: loaded, then compiled here
_used: set[str] = set()  # executed by this process (what a save writes)
_compiled: set[str] = set()  # compiled by this process since its last save


def install() -> None:
    """Load the cache and have `dataclasses` exec its code; once per process (not at
    all without a home folder to keep it in)."""
    global _path
    if _path is not None:
        return
    path = _cache_file()
    if path is None:
        return
    import dataclasses

    _path = path
    _code.update(_load(_path))
    dataclasses.exec = _exec  # its module global, found before the builtin


def save() -> None:
    """Write what this process compiled into the file, with what the file holds now
    (another run may have saved since this one loaded it). Quietly does nothing when
    the folder cannot be written."""
    if _path is None or not _compiled:
        return
    used = {text: _code[text] for text in _used}
    entries = {**_load(_path), **used}
    if len(entries) > _MAX_ENTRIES:
        entries = used
    temporary = f"{_path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(_path), exist_ok=True)
        with open(temporary, "wb") as stream:
            stream.write(_header() + marshal.dumps(entries))
        os.replace(temporary, _path)  # a reader sees the old file or the new one, whole
    except OSError:
        remove_quietly(temporary)
        return
    _compiled.clear()


def _exec(source, globals=None, locals=None, /) -> None:
    if type(source) is not str:
        return builtins.exec(source, globals, locals)
    if globals is None:  # the caller's namespaces, as the builtin would use
        caller = sys._getframe(1)
        globals, locals = caller.f_globals, caller.f_locals if locals is None else locals
    code = _code.get(source)
    if code is None:
        # As the builtin compiles it: dont_inherit, so that this module's
        # `from __future__ import annotations` does not turn annotations into strings.
        code = _code[source] = compile(source, "<string>", "exec", dont_inherit=True)
        _compiled.add(source)
    _used.add(source)
    return builtins.exec(code, globals, locals)


def _cache_file() -> str | None:
    # A relative XDG_CACHE_HOME is invalid (the XDG specification), and so is a home
    # that expanduser cannot find (it returns "~"): either would put the cache in the
    # current folder, the user's project.
    home = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(home):
        home = os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(home):
        return None
    return os.path.join(home, "acp-migrate", f"dataclass-code.{sys.implementation.cache_tag}.marshal")


def _header() -> bytes:
    # Code objects are valid for the interpreter version that compiled them (as .pyc
    # files, whatever the build: two builds of one version share the file, instead of
    # each rewriting it for itself) and its optimization level.
    version = ".".join(map(str, sys.version_info))
    return f"acp-migrate dataclass code {marshal.version} {sys.flags.optimize} {version}\n".encode()


def _load(path: str) -> dict[str, types.CodeType]:
    try:
        with open(path, "rb") as stream:
            data = stream.read()
    except OSError:
        return {}
    header = _header()
    if not data.startswith(header):
        return {}
    try:
        entries = marshal.loads(memoryview(data)[len(header) :])
    except (EOFError, ValueError, TypeError):
        return {}
    if type(entries) is not dict or not all(
        type(text) is str and type(code) is types.CodeType for text, code in entries.items()
    ):
        return {}
    return entries
