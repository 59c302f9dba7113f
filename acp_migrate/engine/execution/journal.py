"""The journal of a fix's burst of renames (files.WriteBatch), as git's lock files: written
before the first rename, removed once the last is durable. One found at the start of a
run means a fix was killed (SIGKILL, a power loss) between them, leaving some files new
and some old: `fix` finishes its renames first, `check` and `diff` refuse to read the
tree as if whole. A journal is not trusted: every path must be a real one in the run's
folders, every staged file of the writer's naming, every digest must match, or nothing
is done (`UnfinishedRun`).

It lives in the project's `.git` folder when it has one (a clone cannot bring one there,
and git never commits it), else as a dot-file at its root: never a file a rule reads."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence

from acp_migrate.engine.execution.files import (
    TEMP_SUFFIX,
    FileAccessError,
    PendingWrite,
    Unchanged,
    WriteBatch,
    describe_os_error,
    read_source,
    write_atomic,
)

try:
    import fcntl
except ImportError:  # no locks (Windows): a run cannot tell another's burst from a killed one
    fcntl = None  # type: ignore[assignment]

NAME = "acp-migrate-journal"
FORMAT = 1
# A journal lists each file of a run in about 250 bytes: this is 16,000 files.
MAX_JOURNAL_BYTES = 4 * 1024 * 1024
_DIGEST = re.compile(r"[0-9a-f]{64}")
_FOLDERS_NEVER_WRITTEN = frozenset({".git", ".hg", ".svn"})


class UnfinishedRun(Exception):
    """The journal of a killed fix stops the run: to finish with `fix`, or one that cannot
    finish it. The message says what to do."""


def journal_path(root: str) -> str:
    git = os.path.join(root, ".git")
    if os.path.isdir(git) and not os.path.islink(git):
        return os.path.join(git, NAME)
    return os.path.join(root, "." + NAME)


class Journal:
    """The journal of a burst over the project at `root` (its real path): what a WriteBatch
    writes before its first rename and removes after its last. Its folder is locked
    meanwhile: a run starting then waits for the burst's end, not taking it for a killed one."""

    def __init__(self, root: str) -> None:
        self.root = os.path.realpath(root)
        self.path = journal_path(self.root)
        self._folder: int | None = None  # locked while the journal is there

    def write(self, writes: Sequence[PendingWrite]) -> None:
        import json  # (here and in _read: only where a journal is, not on every start)

        entries = [
            {
                "target": os.path.relpath(write.target, self.root),
                "staged": write.staged,
                "before": write.before,
                "after": write.after,
            }
            for write in writes
        ]
        data = json.dumps({"acp-migrate journal": FORMAT, "writes": entries}, indent=1).encode() + b"\n"
        self._folder = _locked_folder(self.path, shared=False)
        try:
            write_atomic(self.path, data, create=True, roots=[self.root])
        except FileAccessError as exc:
            self.close()
            raise FileAccessError(f"cannot write the run's journal: {exc.reason}", self.path) from None

    def remove(self) -> None:
        try:
            os.unlink(self.path)
            if self._folder is not None:
                os.fsync(self._folder)
        except OSError:
            pass  # the renames are done: a journal left is one the next run finishes with nothing to rename
        self.close()

    def close(self) -> None:
        if self._folder is not None:
            os.close(self._folder)
            self._folder = None


def _locked_folder(path: str, *, shared: bool) -> int | None:
    """The journal's folder, open and locked (None: no locks here), once the runs
    holding it let go: shared, to read a journal; exclusive, to write one."""
    if fcntl is None:
        return None
    try:
        folder = os.open(os.path.dirname(path), os.O_RDONLY | os.O_NOFOLLOW | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise FileAccessError(describe_os_error(exc), os.path.dirname(path)) from exc
    fcntl.flock(folder, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
    return folder


def finish_killed_run(
    root: str, roots: Sequence[str], show: Callable[[str], str], written: list[str], *, write: bool
) -> bool:
    """Finish the burst of the killed fix whose journal is at `root`, if any (False:
    none): `written` gets each file written (as `show` shows its path). `write` False
    (check, diff): raise UnfinishedRun saying to run fix. Raises UnfinishedRun when the
    journal cannot be trusted or finished: then nothing is done."""
    journal = Journal(root)
    shown_journal = show(journal.path)
    try:
        writes = _read(journal.path, shown_journal)
        if writes is None:
            return False
        with WriteBatch(roots, journal if write else None) as batch:
            done = sum(_take(batch, journal.root, roots, entry, show) for entry in writes)
            if not write:
                raise UnfinishedRun(
                    f"{shown_journal}: a fix was killed while writing its files ({done} of {len(writes)} written,"
                    " the others staged beside them): run `acp-migrate fix` to finish it"
                )
            batch.commit(written)
    except FileAccessError as exc:
        where = f"{exc.path}: " if exc.path else ""
        raise _refused(shown_journal, f"cannot finish it: {where}{exc.reason}") from None
    return True


def _read(path: str, shown: str) -> list[dict] | None:
    """The journal's writes, checked for their form (None: no journal)."""
    if not os.path.lexists(path):
        return None
    folder = _locked_folder(path, shared=True)
    try:
        if not os.path.lexists(path):
            return None  # the fix writing it has ended
        if os.path.islink(path):
            raise _refused(shown, "cannot be read: a symbolic link")
        try:
            data = read_source(path, limit=MAX_JOURNAL_BYTES)
        except FileAccessError as exc:
            raise _refused(shown, f"cannot be read: {exc.reason}") from None
    finally:
        if folder is not None:
            os.close(folder)
    import json

    try:
        journal = json.loads(data)
    except (ValueError, RecursionError):
        raise _refused(shown, "cannot be read: not a journal acp-migrate wrote (not JSON)") from None
    if not isinstance(journal, dict) or journal.get("acp-migrate journal") != FORMAT:
        raise _refused(shown, f"cannot be read: not a journal this release wrote (format {FORMAT})")
    writes = journal.get("writes")
    if not isinstance(writes, list) or not all(map(_well_formed, writes)):
        raise _refused(shown, "cannot be read: not a journal acp-migrate wrote (a write it lists is malformed)")
    return writes


def _refused(shown: str, why: str) -> UnfinishedRun:
    return UnfinishedRun(
        f"{shown}: a fix was killed while writing its files, and its journal {why}; nothing was done\n"
        "restore the files it names (git checkout, or a backup), then delete it and the"
        f" *{TEMP_SUFFIX} files beside them"
    )


def _well_formed(entry: object) -> bool:
    if not isinstance(entry, dict) or set(entry) != {"target", "staged", "before", "after"}:
        return False
    target, staged, before, after = entry["target"], entry["staged"], entry["before"], entry["after"]
    digests = [before, after] if staged is not None else [before]  # a deletion: before, no after
    return (
        isinstance(target, str)
        and (staged is None and after is None or isinstance(staged, str) and "/" not in staged and "\0" not in staged)
        and all(digest is None or isinstance(digest, str) and _DIGEST.fullmatch(digest) for digest in digests)
        and (staged is not None or before is not None)
    )


def _take(batch: WriteBatch, root: str, roots: Sequence[str], entry: dict, show: Callable[[str], str]) -> bool:
    """Check one write of the journal and give it to `batch` if it is still to do; True
    when it is done already. FileAccessError when the tree is not as the killed burst
    left it, or the write is none it could have done."""
    target = os.path.normpath(os.path.join(root, entry["target"]))
    shown = show(target)
    _check_target(target, entry["target"], roots)
    now = batch.holding(target, shown=shown)
    expect = Unchanged.of_digest(entry["before"])
    if entry["staged"] is None:  # a deletion
        if now is None:
            return True
        if now != entry["before"]:
            raise FileAccessError("changed since the killed run read it", shown)
        batch.stage_deletion(target, expect=expect, shown=shown)
        return False
    if batch.adopt(target, entry["staged"], after=entry["after"], expect=expect, shown=shown):
        if now not in (entry["before"], entry["after"]):
            raise FileAccessError("changed since the killed run read it", shown)
        return now == entry["after"]
    if now != entry["after"]:
        raise FileAccessError("its staged file is gone, and it does not hold the new content", shown)
    return True


def _check_target(target: str, listed: str, roots: Sequence[str]) -> None:
    """A file a fix could have written: inside the run's folders, through no link, in no
    version control folder, not one of acp-migrate's own files."""
    parts = listed.replace(os.sep, "/").split("/")
    if "\0" in listed or os.path.isabs(listed):
        raise FileAccessError(f"{listed!r} is not a path inside the project")
    if _FOLDERS_NEVER_WRITTEN.intersection(parts) or parts[-1].endswith(TEMP_SUFFIX) or parts[-1] == "." + NAME:
        raise FileAccessError(f"{listed!r} is not a file fix writes")
    if os.path.realpath(target) != target:
        raise FileAccessError(f"{listed!r} goes through a symbolic link")
    if not any(target.startswith(os.path.realpath(root).rstrip(os.sep) + os.sep) for root in roots):
        raise FileAccessError(f"{listed!r} is outside the project")
