"""Reading sources and rewriting them atomically."""

from __future__ import annotations

import errno
import os
import stat
import threading
from pathlib import Path

import pytest

from support.privileges import permissions_enforced, world_readable_dir

from acp_migrate.engine.execution import files
from acp_migrate.engine.execution.files import FileAccessError, describe_os_error, read_source, write_atomic



def test_read_returns_the_exact_bytes(tmp_path: Path) -> None:
    raw = b"\xef\xbb\xbf# coding: utf-8\r\nx = 1\r\n\ty = 2"
    (tmp_path / "a.py").write_bytes(raw)

    assert read_source(str(tmp_path / "a.py")) == raw


def test_read_does_not_trust_the_size_the_file_system_reports(tmp_path: Path) -> None:
    # /proc files say size 0 and have content; reading stops at end of file, not at st_size.
    proc = Path("/proc/self/status")
    if proc.exists():
        assert read_source(str(proc)).startswith(b"Name:")
    big = tmp_path / "big.py"
    big.write_bytes(b"x = 1\n" * 50_000)
    assert read_source(str(big)) == big.read_bytes()


def test_read_goes_on_past_a_stale_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The file grew after fstat: reading the old size plus one byte gets a full buffer,
    # so the read goes on to the end.
    grown = tmp_path / "grown.py"
    grown.write_bytes(b"x = 1\n" * 1000)
    real_fstat = os.fstat

    def stale_fstat(fd: int) -> os.stat_result:
        status = real_fstat(fd)
        return os.stat_result((status.st_mode, *status[1:6], 10, *status[7:]))

    monkeypatch.setattr(files.os, "fstat", stale_fstat)
    assert read_source(str(grown)) == grown.read_bytes()


def test_read_a_directory_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(FileAccessError) as caught:
        read_source(str(tmp_path))
    assert caught.value.reason == "is a directory"


def test_read_a_missing_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(FileAccessError) as caught:
        read_source(str(tmp_path / "missing.py"))
    assert caught.value.reason == "no such file or directory"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_read_a_fifo_is_an_error_and_does_not_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    outcome: list[object] = []
    reader = threading.Thread(target=lambda: outcome.append(_reason_or_bytes(str(fifo))), daemon=True)
    reader.start()
    reader.join(timeout=60)  # a safety net: the read returns at once

    assert outcome == ["not a regular file"]


def _reason_or_bytes(path: str) -> object:
    try:
        return read_source(path)
    except FileAccessError as exc:
        return exc.reason


def test_read_without_permission_is_an_error() -> None:
    with world_readable_dir() as folder:
        secret = folder / "secret.py"
        secret.write_text("x = 1\n")
        secret.chmod(0)

        with permissions_enforced(), pytest.raises(FileAccessError) as caught:
            read_source(str(secret))
    assert caught.value.reason == "permission denied"


def test_write_replaces_the_content(tmp_path: Path) -> None:
    target = tmp_path / "a.py"
    target.write_bytes(b"old\r\n")

    write_atomic(str(target), b"new\r\n")

    assert target.read_bytes() == b"new\r\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py"]  # no temp file left


@pytest.mark.parametrize("mode", [0o755, 0o640, 0o600, 0o664])
def test_write_keeps_the_file_mode(tmp_path: Path, mode: int) -> None:
    target = tmp_path / "a.py"
    target.write_bytes(b"old\n")
    target.chmod(mode)

    write_atomic(str(target), b"new\n")

    assert stat.S_IMODE(target.stat().st_mode) == mode


def test_write_creates_a_missing_file_only_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "new.py"
    with pytest.raises(FileAccessError):
        write_atomic(str(path), b"x = 1\n")
    assert not path.exists()
    umask = os.umask(0o022)
    try:
        write_atomic(str(path), b"x = 1\n", create=True)
    finally:
        os.umask(umask)
    assert path.read_bytes() == b"x = 1\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["new.py"]  # no temp file left


def test_write_replaces_the_inode_so_readers_never_see_half_a_file(tmp_path: Path) -> None:
    target = tmp_path / "a.py"
    target.write_bytes(b"old\n")
    with open(target, "rb") as held_open:
        write_atomic(str(target), b"new\n")
        assert held_open.read() == b"old\n"
    assert target.read_bytes() == b"new\n"


def test_read_only_file_is_refused_and_untouched(tmp_path: Path) -> None:
    target = tmp_path / "a.py"
    target.write_bytes(b"old\n")
    target.chmod(0o444)

    with pytest.raises(FileAccessError) as caught:
        write_atomic(str(target), b"new\n")

    assert caught.value.reason.startswith("permission denied")
    assert target.read_bytes() == b"old\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o444
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py"]


def test_file_in_a_read_only_directory_is_refused_and_untouched() -> None:
    with world_readable_dir() as base:
        folder = base / "locked"
        folder.mkdir()
        target = folder / "a.py"
        target.write_bytes(b"old\n")
        target.chmod(0o666)  # writable by anyone: only the folder forbids the rename
        folder.chmod(0o555)
        try:
            with permissions_enforced(), pytest.raises(FileAccessError) as caught:
                write_atomic(str(target), b"new\n")
        finally:
            folder.chmod(0o755)

        assert caught.value.reason == "permission denied"
        assert target.read_bytes() == b"old\n"


def test_a_failure_before_the_replace_leaves_the_original_and_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "a.py"
    target.write_bytes(b"old\n")

    def disk_full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", disk_full)

    with pytest.raises(FileAccessError) as caught:
        write_atomic(str(target), b"new\n")

    assert caught.value.reason == "no space left on device"
    assert target.read_bytes() == b"old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py"]


def test_an_interrupt_during_the_write_leaves_the_original(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "a.py"
    target.write_bytes(b"old\n")

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "replace", interrupted)

    with pytest.raises(KeyboardInterrupt):
        write_atomic(str(target), b"new\n")

    assert target.read_bytes() == b"old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py"]


def test_write_through_a_symlink_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "real.py"
    real.write_bytes(b"old\n")
    link = tmp_path / "link.py"
    link.symlink_to(real)

    write_atomic(str(link), b"new\n")

    assert link.is_symlink()
    assert real.read_bytes() == b"new\n"


def test_write_to_a_missing_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(FileAccessError) as caught:
        write_atomic(str(tmp_path / "gone.py"), b"new\n")
    assert caught.value.reason == "no such file or directory"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (PermissionError(errno.EACCES, "Permission denied"), "permission denied"),
        (IsADirectoryError(errno.EISDIR, "Is a directory"), "is a directory"),
        (FileNotFoundError(errno.ENOENT, "No such file or directory"), "no such file or directory"),
        (OSError(errno.EIO, "Input/output error"), "input/output error"),
        (OSError("weird"), "weird"),
    ],
)
def test_os_errors_become_short_reasons(error: OSError, reason: str) -> None:
    assert describe_os_error(error) == reason


# -- the guards (issue 24) ---------------------------------------------------------------


def test_read_refuses_a_file_over_the_limit_before_reading_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    big = tmp_path / "big.py"
    big.write_bytes(b"x" * 2048)
    reads: list[int] = []
    real_read = os.read
    monkeypatch.setattr(files.os, "read", lambda fd, n: reads.append(n) or real_read(fd, n))

    with pytest.raises(FileAccessError) as caught:
        read_source(str(big), limit=1024)

    assert caught.value.reason.startswith("too large to analyse: ")
    assert reads == []


def test_read_stops_at_the_limit_when_the_size_is_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    proc = Path("/proc/self/status")
    if not proc.exists():
        pytest.skip("needs /proc")
    with pytest.raises(FileAccessError) as caught:
        read_source(str(proc), limit=16)
    assert caught.value.reason.startswith("too large to analyse")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_read_refuses_devices(device: str) -> None:
    with pytest.raises(FileAccessError) as caught:
        read_source(device)
    assert caught.value.reason == "not a regular file"


def test_write_refuses_a_real_path_outside_the_roots(tmp_path: Path) -> None:
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (outside / "a.py").write_bytes(b"old\n")
    (project / "a.py").symlink_to(outside / "a.py")
    (project / "new.py").symlink_to(outside / "new.py")  # dangling

    for name, create in (("a.py", False), ("new.py", True)):
        with pytest.raises(FileAccessError) as caught:
            write_atomic(str(project / name), b"new\n", create=create, roots=[str(project)])
        assert caught.value.reason == f"not written: its real path {outside / name} is outside the project"
    assert sorted(p.name for p in outside.iterdir()) == ["a.py"]
    assert (outside / "a.py").read_bytes() == b"old\n"

    write_atomic(str(project / "a.py"), b"new\n", roots=[str(project), str(outside)])
    assert (outside / "a.py").read_bytes() == b"new\n"


def test_write_refuses_a_file_changed_since_it_was_read(tmp_path: Path) -> None:
    target = tmp_path / "a.py"
    target.write_bytes(b"edited\n")

    with pytest.raises(FileAccessError) as caught:
        write_atomic(str(target), b"fixed\n", expect=files.Unchanged(b"read\n"))
    assert caught.value.reason == "changed by someone else since it was read: not overwritten"
    with pytest.raises(FileAccessError):
        write_atomic(str(target), b"fixed\n", create=True, expect=files.Unchanged(None))  # created meanwhile
    assert target.read_bytes() == b"edited\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.py"]

    write_atomic(str(target), b"fixed\n", expect=files.Unchanged(b"edited\n"))
    assert target.read_bytes() == b"fixed\n"


def test_temp_files_name_their_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "a.py"
    target.write_bytes(b"old\n")
    seen: list[str] = []
    real_replace = os.replace

    def replace(src: str, dst: str, **kwargs: object) -> None:
        seen.append(src)
        real_replace(src, dst, **kwargs)

    monkeypatch.setattr(files.os, "replace", replace)
    write_atomic(str(target), b"new\n")

    (temp,) = seen
    assert temp.startswith(f".a.py.{os.getpid()}.") and temp.endswith(files.TEMP_SUFFIX)


def test_write_over_a_file_that_holds_the_same_bytes_already_succeeds(tmp_path: Path) -> None:
    # Two fix runs at once: the other wrote the same fix meanwhile.
    target = tmp_path / "a.py"
    target.write_bytes(b"fixed\n")

    write_atomic(str(target), b"fixed\n", expect=files.Unchanged(b"legacy\n"))
    write_atomic(str(tmp_path / "shim.py"), b"shim\n", create=True, expect=files.Unchanged(None))
    write_atomic(str(tmp_path / "shim.py"), b"shim\n", create=True, expect=files.Unchanged(None))

    assert target.read_bytes() == b"fixed\n" and (tmp_path / "shim.py").read_bytes() == b"shim\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py", "shim.py"]


def test_write_checks_the_folder_without_proc_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_readlink = os.readlink

    def no_proc(path, *args, **kwargs):  # os.path.realpath reads links too
        if str(path).startswith("/proc/"):
            raise FileNotFoundError(errno.ENOENT, "No such file or directory")
        return real_readlink(path, *args, **kwargs)

    monkeypatch.setattr(files.os, "readlink", no_proc)
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (outside / "a.py").write_bytes(b"old\n")
    (project / "a.py").symlink_to(outside / "a.py")
    (project / "b.py").write_bytes(b"old\n")

    with pytest.raises(FileAccessError) as caught:
        write_atomic(str(project / "a.py"), b"new\n", roots=[str(project)])
    write_atomic(str(project / "b.py"), b"new\n", roots=[str(project)])

    assert "is outside the project" in caught.value.reason
    assert (outside / "a.py").read_bytes() == b"old\n" and (project / "b.py").read_bytes() == b"new\n"


def test_a_deletion_keeps_the_writers_guards(tmp_path: Path) -> None:
    from acp_migrate.engine.execution.files import Unchanged, delete_file

    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    emptied = project / "test_gone.py"
    emptied.write_bytes(b"x = 1\n")
    # Changed since it was read (an editor saved it): not deleted.
    with pytest.raises(FileAccessError, match="changed by someone else"):
        delete_file(str(emptied), roots=[str(project)], expect=Unchanged(b"y = 2\n"))
    assert emptied.exists()
    # A folder of the project that is a link out of it: nothing outside is deleted.
    (outside / "test_gone.py").write_bytes(b"x = 1\n")
    (project / "linked").symlink_to(outside)
    with pytest.raises(FileAccessError, match="outside the project"):
        delete_file(str(project / "linked" / "test_gone.py"), roots=[str(project)], expect=Unchanged(b"x = 1\n"))
    assert (outside / "test_gone.py").exists()
    # Unchanged and inside: deleted; already gone: nothing to do.
    delete_file(str(emptied), roots=[str(project)], expect=Unchanged(b"x = 1\n"))
    assert not emptied.exists()
    delete_file(str(emptied), roots=[str(project)], expect=Unchanged(b"x = 1\n"))
