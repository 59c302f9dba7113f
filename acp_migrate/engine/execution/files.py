"""Reading and atomically rewriting source files; OS failures become one-line reasons."""

from __future__ import annotations

import errno
import os
import stat

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
    """A file that could not be read or written; `reason` has no path in it."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def describe_os_error(exc: OSError) -> str:
    """A short, stable reason for an OSError, without the path (the caller prints that)."""
    if exc.errno in _REASONS:
        return _REASONS[exc.errno]
    if exc.strerror:
        return exc.strerror[:1].lower() + exc.strerror[1:]
    return str(exc) or type(exc).__name__


# O_NONBLOCK: opening a FIFO must not hang the run; regular files read normally.
_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


def read_source(path: str) -> bytes:
    """The file's bytes. Raises FileAccessError for directories, FIFOs, devices, I/O errors."""
    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError as exc:
        raise FileAccessError(describe_os_error(exc)) from exc
    try:
        status = os.fstat(fd)
        if stat.S_ISDIR(status.st_mode):
            raise FileAccessError("is a directory")
        if not stat.S_ISREG(status.st_mode):
            raise FileAccessError("not a regular file")
        # Plain os.read, no file object: a third faster on thousands of small files.
        # A short read of a regular file is its end; past the size it may have grown,
        # and a size of 0 may be unknown (/proc): then read until EOF.
        data = os.read(fd, status.st_size + 1)
        if 0 < len(data) <= status.st_size:
            return data
        chunks = [data]
        while chunks[-1]:
            chunks.append(os.read(fd, 1 << 16))
        return b"".join(chunks)
    except OSError as exc:
        raise FileAccessError(describe_os_error(exc)) from exc
    finally:
        os.close(fd)


def write_atomic(path: str, data: bytes, *, create: bool = False) -> None:
    """Replace the file's content with `data`, all or nothing.

    Writes a temp file in the same folder, fsyncs it, gives it the original mode
    (and owner, when allowed), then `os.replace`s it over the original. A symlink
    is written through, so the link stays a link. A read-only file is refused
    even when the OS would let us (root), because the user marked it so.
    `create`: a missing file is created, with the mode a new file gets (the umask's).
    """
    target = os.path.realpath(path)
    try:
        original: os.stat_result | None = os.stat(target)
    except FileNotFoundError as exc:
        if not create:
            raise FileAccessError(describe_os_error(exc)) from exc
        original = None
    except OSError as exc:
        raise FileAccessError(describe_os_error(exc)) from exc
    if original is not None and not stat.S_ISREG(original.st_mode):
        raise FileAccessError("not a regular file")
    if original is not None and (not original.st_mode & 0o222 or not os.access(target, os.W_OK)):
        raise FileAccessError("permission denied: file is read-only")

    directory, name = os.path.split(target)
    try:
        import tempfile  # only fix writes: not on a check's start-up path

        fd, temp_path = tempfile.mkstemp(prefix=f".{name}.", suffix=".acp-migrate.tmp", dir=directory)
    except OSError as exc:
        raise FileAccessError(describe_os_error(exc)) from exc
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
            stream.flush()
            if original is not None:
                os.chmod(temp_path, stat.S_IMODE(original.st_mode))
                _keep_owner(stream.fileno(), original)
            else:
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(temp_path, 0o666 & ~umask)
            os.fsync(stream.fileno())
        os.replace(temp_path, target)
    except BaseException as exc:
        remove_quietly(temp_path)
        if isinstance(exc, OSError):
            raise FileAccessError(describe_os_error(exc)) from exc
        raise
    _fsync_directory(directory)


def _keep_owner(fd: int, original: os.stat_result) -> None:
    # Only root can give a file away; everyone else already owns the temp file.
    if hasattr(os, "fchown") and (original.st_uid, original.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.fchown(fd, original.st_uid, original.st_gid)
        except OSError:
            pass


def _fsync_directory(directory: str) -> None:
    # Makes the rename durable; not possible on every platform, so best effort.
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_quietly(path: str) -> None:
    """Delete a file of our own (a temp file) if it is there."""
    try:
        os.unlink(path)
    except OSError:
        pass
