"""Reading and atomically rewriting source files; OS failures become one-line reasons."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import signal
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, Self

_REASONS = {
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOENT: "no such file or directory",
    errno.EISDIR: "is a directory",
    errno.ENOTDIR: "not a directory",
    errno.ELOOP: "too many levels of symbolic links",
    errno.EROFS: "read-only file system",
    errno.ENOSPC: "no space left on device",
    errno.ENAMETOOLONG: "file name too long",
}


class FileAccessError(Exception):
    """A file that could not be read or written; `reason` has no path in it; `path`: the
    file of a `WriteBatch` it is about, as shown."""

    def __init__(self, reason: str, path: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.path = path


class BurstCut(FileAccessError):
    """A rename of a journalled burst failed: the files renamed before it are written, the
    others stay staged, for the next run to finish (engine/execution/journal.py)."""


def describe_os_error(exc: OSError) -> str:
    """A short, stable reason for an OSError, without the path (the caller prints that)."""
    if exc.errno in _REASONS:
        return _REASONS[exc.errno]
    if exc.strerror:
        return exc.strerror[:1].lower() + exc.strerror[1:]
    return str(exc) or type(exc).__name__


# O_NONBLOCK: opening a FIFO must not hang the run; regular files read normally.
_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)

# Above this a file is not even read (a 5 GB file must not cost 5 GB): 30 times the
# largest hand-written module of Django, SymPy, pandas or SciPy. The analysis refuses
# much less than this for files it must parse (engine/analysis/codemod.MAX_PARSE_BYTES).
MAX_READ_BYTES = 16 * 1024 * 1024

TEMP_SUFFIX = ".acp-migrate.tmp"


def too_large(size: int, limit: int) -> str:
    return f"too large to analyse: {size / 2**20:.1f} MiB (the limit is {limit / 2**20:g} MiB)"


def read_source(path: str, *, limit: int = MAX_READ_BYTES) -> bytes:
    """The file's bytes: the one reader of every project file. Raises FileAccessError for
    directories, FIFOs, devices, I/O errors and files over `limit` bytes (known from their
    size before any is read; one that grows past it while read is refused too)."""
    return _read(path, limit)


def _read(path: str, limit: int, *, dir_fd: int | None = None, follow: bool = True) -> bytes:
    try:
        fd = os.open(path, _READ_FLAGS | (0 if follow else _NOFOLLOW), dir_fd=dir_fd)
    except OSError as exc:
        raise FileAccessError(describe_os_error(exc)) from exc
    try:
        status = os.fstat(fd)
        if stat.S_ISDIR(status.st_mode):
            raise FileAccessError("is a directory")
        if not stat.S_ISREG(status.st_mode):
            raise FileAccessError("not a regular file")
        if status.st_size > limit:
            raise FileAccessError(too_large(status.st_size, limit))
        # Plain os.read, no file object: a third faster on thousands of small files.
        # A short read of a regular file is its end; past the size it may have grown,
        # and a size of 0 may be unknown (/proc): then read until EOF, up to the limit.
        data = os.read(fd, status.st_size + 1)
        if 0 < len(data) <= status.st_size:
            return data
        chunks, size = [data], len(data)
        while chunks[-1]:
            if size > limit:
                raise FileAccessError(too_large(size, limit))
            chunks.append(os.read(fd, min(1 << 16, limit + 1 - size) or 1))
            size += len(chunks[-1])
        return b"".join(chunks)
    except OSError as exc:
        raise FileAccessError(describe_os_error(exc)) from exc
    finally:
        os.close(fd)


def digest(content: bytes | None) -> str | None:
    """How a write names what a file holds (None: no file)."""
    import hashlib  # only for writes: not on every start

    return hashlib.sha256(content).hexdigest() if content is not None else None


class Unchanged:
    """What a write expects at its target: `digest`, that of the bytes read before."""

    __slots__ = ("digest",)

    def __init__(self, content: bytes | None) -> None:
        self.digest = digest(content)

    @classmethod
    def of_digest(cls, expected: str | None) -> Unchanged:
        unchanged = cls(None)
        unchanged.digest = expected
        return unchanged


def write_atomic(
    path: str,
    data: bytes,
    *,
    create: bool = False,
    roots: Sequence[str] | None = None,
    expect: Unchanged | None = None,
) -> None:
    """Replace the file's content with `data`, all or nothing: one file's `WriteBatch`.

    Writes a temp file in the same folder, fsyncs it, gives it the original mode
    (and owner, when allowed), then renames it over the original. A symlink is written
    through, so the link stays a link. A read-only file is refused even when the OS
    would let us (root), because the user marked it so.
    `create`: a missing file is created, with the mode a new file gets (the umask's).
    `roots`: the folders the target's real path must lie in (a symlink, or a folder
    swapped for one, pointing out of the project is refused); checked on the folder the
    file is renamed in, which is held open until the rename.
    `expect`: what the target held when it was read; if it holds something else now
    (an editor saved it meanwhile), it is refused, not overwritten.
    """
    with WriteBatch(roots) as batch:
        batch.stage(path, data, create=create, expect=expect)
        batch.commit()


@dataclass(slots=True)
class _Staged:
    shown: str  # for output
    folder: int  # the target's real folder, held open
    directory: str  # its path
    name: str
    temp_name: str | None  # None: a deletion
    data: bytes | None
    expect: Unchanged | None
    renamed: bool = False
    journalled: bool = False  # listed in a journal: the next run renames it, if this one does not


@dataclass(frozen=True, slots=True)
class PendingWrite:
    """One write of a burst, as its journal records it: `target`, the real path;
    `staged`, the temp file's name beside it (None: a deletion); the digests of what
    the target holds before and after."""

    target: str
    staged: str | None
    before: str | None
    after: str | None


class BurstJournal(Protocol):
    """What a WriteBatch records its burst in (engine/execution/journal.Journal)."""

    def write(self, writes: Sequence[PendingWrite]) -> None: ...

    def remove(self) -> None: ...

    def close(self) -> None:
        """Let go of it (removed or not)."""


class WriteBatch:
    """The writes of a run, all or none: each file staged as a temp file beside its
    target (its folder held open and checked to lie in `roots`), then `commit` renames
    them in one burst with stops held. Leaving the block removes the temp files not
    renamed (an error or a stop before the burst: nothing was written). It holds every
    new file's bytes until then: a run's changed files, twice (read and fixed).
    `journal`: lists the burst's writes from before its first rename to after its last,
    so that the next run finishes a burst a SIGKILL cut (engine/execution/journal.py)."""

    def __init__(self, roots: Sequence[str] | None = None, journal: BurstJournal | None = None) -> None:
        self._roots = roots
        self._journal = journal
        self._folders: dict[str, int] = {}  # one open descriptor per real folder
        self._staged: list[_Staged] = []

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        for staged in self._staged:
            if staged.temp_name is not None and not staged.renamed and not staged.journalled:
                _remove_quietly_in(staged.folder, staged.temp_name)
        for folder in self._folders.values():
            os.close(folder)
        if self._journal is not None:
            self._journal.close()

    def stage(
        self, path: str, data: bytes, *, create: bool = False, expect: Unchanged | None = None, shown: str = ""
    ) -> None:
        """The checks and the temp file; FileAccessError (its `path`: `shown`) when it cannot be."""
        folder, directory, name = self._folder_of(path, shown)
        try:
            original = _writable_original(folder, name, create=create)
        except FileAccessError as exc:
            raise FileAccessError(exc.reason, shown) from None
        staged = _Staged(shown, folder, directory, name, _temp_name(folder, name), data, expect)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
        with _stops_held():  # from the open on, the temp file is listed: a stop leaves none behind
            try:
                fd = os.open(staged.temp_name, flags, 0o600, dir_fd=folder)
            except OSError as exc:
                raise FileAccessError(describe_os_error(exc), shown) from exc
            self._staged.append(staged)
        try:
            with os.fdopen(fd, "wb") as stream:
                stream.write(data)
                stream.flush()
                if original is not None:
                    os.fchmod(stream.fileno(), stat.S_IMODE(original.st_mode))
                    _keep_owner(stream.fileno(), original)
                else:
                    umask = os.umask(0)
                    os.umask(umask)
                    os.fchmod(stream.fileno(), 0o666 & ~umask)
                os.fsync(stream.fileno())
        except OSError as exc:
            raise FileAccessError(describe_os_error(exc), shown) from exc

    def stage_deletion(self, path: str, *, expect: Unchanged | None = None, shown: str = "") -> None:
        folder, directory, name = self._folder_of(path, shown)
        self._staged.append(_Staged(shown, folder, directory, name, None, None, expect))

    def holding(self, path: str, *, shown: str) -> str | None:
        """The digest of what the file at `path` holds now (None: no file), read in its
        checked folder, a link not followed."""
        folder, _, name = self._folder_of(path, shown)
        if not _exists(folder, name):
            return None
        try:
            return digest(_read(name, MAX_READ_BYTES, dir_fd=folder, follow=False))
        except FileAccessError as exc:
            raise FileAccessError(exc.reason, shown) from None

    def adopt(self, path: str, temp_name: str, *, after: str, expect: Unchanged, shown: str) -> bool:
        """Take the temp file `temp_name` that a killed run staged beside `path`, to be
        renamed by `commit`; False when it is not there. FileAccessError when it is not a
        temp file of `path` (`_temp_name`), or does not hold the bytes of digest `after`."""
        folder, directory, name = self._folder_of(path, shown)
        if not _is_temp_of(temp_name, name):
            raise FileAccessError(f"{temp_name!r} is not a file staged for it", shown)
        if not _exists(folder, temp_name):
            return False
        try:
            data = _read(temp_name, MAX_READ_BYTES, dir_fd=folder, follow=False)
        except FileAccessError as exc:
            raise FileAccessError(f"its staged file {temp_name}: {exc.reason}", shown) from None
        if digest(data) != after:
            raise FileAccessError(f"its staged file {temp_name} does not hold what the journal says", shown)
        self._staged.append(_Staged(shown, folder, directory, name, temp_name, data, expect, journalled=True))
        return True

    def commit(self, renamed: list[str] | None = None, *, after_first: Callable[[], None] | None = None) -> None:
        """Every staged file checked to hold still what was read, then all renamed (or
        deleted), with stops held: a stop during it takes effect once it is done. A file
        changed meanwhile: FileAccessError, and nothing is renamed. `renamed` gets each
        file's `shown` as it is done; `after_first` runs once the first is. The journal,
        if any, is written before the first rename and removed once all are durable."""
        with _stops_held():
            holding = []
            for staged in self._staged:
                if staged.expect is None:
                    holding.append(False)
                    continue
                if staged.temp_name is None and not _exists(staged.folder, staged.name):
                    holding.append(True)  # gone already (two runs at once)
                    continue
                try:
                    holding.append(_check_unchanged(staged.folder, staged.name, staged.expect, staged.data))
                except FileAccessError as exc:
                    raise FileAccessError(exc.reason, staged.shown) from None
            if self._journal is not None:
                self._journal.write([_pending(s) for s, done in zip(self._staged, holding, strict=True) if not done])
                for staged in self._staged:  # a rename failing now leaves the rest to the next run
                    staged.journalled = True
            for staged, done in zip(self._staged, holding, strict=True):
                try:
                    if staged.temp_name is None:
                        if not done:
                            os.unlink(staged.name, dir_fd=staged.folder)
                    elif done:  # it holds the bytes already (another run's fix)
                        _remove_quietly_in(staged.folder, staged.temp_name)
                    else:
                        os.replace(staged.temp_name, staged.name, src_dir_fd=staged.folder, dst_dir_fd=staged.folder)
                except FileNotFoundError:
                    pass  # a deletion: gone meanwhile (two runs at once)
                except OSError as exc:
                    cut = BurstCut if self._journal is not None else FileAccessError
                    raise cut(describe_os_error(exc), staged.shown) from exc
                staged.renamed = True
                if renamed is not None:
                    renamed.append(staged.shown)
                if after_first is not None:
                    after_first()
                    after_first = None
            for folder in self._folders.values():
                try:
                    os.fsync(folder)  # makes the renames durable; not possible everywhere: best effort
                except OSError:
                    pass
            if self._journal is not None:
                self._journal.remove()

    def _folder_of(self, path: str, shown: str) -> tuple[int, str, str]:
        """The real folder of `path`, held open (checked to lie in the roots), its path, the file's name."""
        directory, name = os.path.split(os.path.realpath(path))
        if directory not in self._folders:
            try:
                folder = os.open(directory, _DIRECTORY_FLAGS | _NOFOLLOW)
            except OSError as exc:
                raise FileAccessError(describe_os_error(exc), shown) from exc
            try:
                if self._roots is not None:
                    _check_inside(folder, directory, name, self._roots)
            except FileAccessError as exc:
                os.close(folder)
                raise FileAccessError(exc.reason, shown) from None
            self._folders[directory] = folder
        return self._folders[directory], directory, name


def _pending(staged: _Staged) -> PendingWrite:
    before = staged.expect.digest if staged.expect is not None else None
    return PendingWrite(os.path.join(staged.directory, staged.name), staged.temp_name, before, digest(staged.data))


def delete_file(path: str, *, roots: Sequence[str] | None = None, expect: Unchanged | None = None) -> None:
    """Remove the file (a test module left with no test), with the writer's guards: its
    real folder in `roots`, and still holding what was read (`expect`)."""
    with WriteBatch(roots) as batch:
        batch.stage_deletion(path, expect=expect)
        batch.commit()


def _check_inside(folder: int, directory: str, name: str, roots: Sequence[str]) -> None:
    # The folder held open is the one written in, whatever its path becomes: its real
    # path (Linux: the kernel's; elsewhere: the one it had when opened) must be in a root.
    try:
        real = os.readlink(f"/proc/self/fd/{folder}")
    except OSError:
        real = directory
        try:
            status, opened = os.stat(directory), os.fstat(folder)
        except OSError as exc:
            raise FileAccessError(describe_os_error(exc)) from exc
        if (status.st_dev, status.st_ino) != (opened.st_dev, opened.st_ino):
            raise FileAccessError("its folder was replaced while the file was written") from None
    for root in roots:
        real_root = os.path.realpath(root)
        if real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep):
            return
    raise FileAccessError(f"not written: its real path {os.path.join(real, name)} is outside the project")


def _writable_original(folder: int, name: str, *, create: bool) -> os.stat_result | None:
    """The target's status (None: missing, and `create`); FileAccessError when it may not be written."""
    try:
        original: os.stat_result | None = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError as exc:
        if not create:
            raise FileAccessError(describe_os_error(exc)) from exc
        return None
    except OSError as exc:
        raise FileAccessError(describe_os_error(exc)) from exc
    if not stat.S_ISREG(original.st_mode):
        raise FileAccessError("not a regular file")
    if not original.st_mode & 0o222 or not os.access(name, os.W_OK, dir_fd=folder):
        raise FileAccessError("permission denied: file is read-only")
    return original


@contextlib.contextmanager
def _stops_held() -> Iterator[None]:
    """A stop (Ctrl-C, SIGTERM, the pool's STOP_WORKER) arriving during a write takes
    effect when it is done: a file is renamed whole or not at all, no temp file left."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    from acp_migrate.engine.execution.pool import STOP_WORKER

    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM, STOP_WORKER})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _temp_name(folder: int, name: str) -> str:
    """`.NAME.PID.RANDOM.acp-migrate.tmp`, NAME cut short enough for the file system's
    limit on a name's bytes (a file named near it could not be written otherwise)."""
    tail = f".{os.getpid()}.{os.urandom(4).hex()}{TEMP_SUFFIX}"
    try:
        limit = os.fpathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        limit = 255
    return "." + os.fsdecode(os.fsencode(name)[: limit - 1 - len(tail)]) + tail


_TEMP_NAME = re.compile(r"\.(?P<cut>.+)\.[0-9]+\.[0-9a-f]{8}" + re.escape(TEMP_SUFFIX), re.DOTALL)


def _is_temp_of(temp_name: str, name: str) -> bool:
    """Whether `temp_name` is a name `_temp_name` gives a temp file of `name`."""
    match = _TEMP_NAME.fullmatch(temp_name)
    return match is not None and os.fsencode(name).startswith(os.fsencode(match["cut"]))


def _check_unchanged(folder: int, name: str, expect: Unchanged, data: bytes | None) -> bool:
    """Raise FileAccessError when the file holds neither what was read nor `data`;
    True when it holds `data` already (two runs at once: the other wrote it; None: a
    deletion, which nothing holds)."""
    try:
        now: bytes | None = _read(name, MAX_READ_BYTES, dir_fd=folder, follow=False)
    except FileAccessError:
        now = None if not _exists(folder, name) else b""
    if now == data:
        return True
    if digest(now) != expect.digest:
        what = "changed" if expect.digest is not None else "created"
        raise FileAccessError(f"{what} by someone else since it was read: not overwritten")
    return False


def _exists(folder: int, name: str) -> bool:
    try:
        os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return False
    except OSError:
        pass
    return True


def _remove_quietly_in(folder: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=folder)
    except OSError:
        pass


def _keep_owner(fd: int, original: os.stat_result) -> None:
    # Only root can give a file away; everyone else already owns the temp file.
    if hasattr(os, "fchown") and (original.st_uid, original.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.fchown(fd, original.st_uid, original.st_gid)
        except OSError:
            pass


def remove_leftovers(paths: Iterable[str]) -> list[str]:
    """Remove the temp files (`.NAME.PID.RANDOM.acp-migrate.tmp`) that a write left when
    its process was killed (SIGKILL, a crash): those of a process that has ended, and
    those without a process id, which only releases before 0.3 wrote. A live process's
    (another run at the same time) is its own. Returns the paths removed."""
    removed = []
    for path in paths:
        parts = os.path.basename(path)[: -len(TEMP_SUFFIX)].rsplit(".", 2)
        if len(parts) == 3 and parts[1].isdigit() and _alive(int(parts[1])):
            continue
        try:
            os.unlink(path)
        except OSError:
            continue
        removed.append(path)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True  # another user's, or not ours to judge: kept
    return True
