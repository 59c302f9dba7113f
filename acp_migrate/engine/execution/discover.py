"""Turn the PATH arguments into the files to analyse.

Directories are walked for the `include` globs (default `*.py`, `*.pyi`, and Markdown
for the report-only rules), skipping the `exclude` and `extend-exclude` globs, the
folders that never hold a project's own sources (virtualenvs, build output), and,
inside a git work tree, what `.gitignore` ignores. Explicit files are taken whatever
their extension, and explicit paths are analysed even when excluded, unless
`force_exclude`. Symlinks met inside a walk are not followed (no loops, and files
outside the tree are not ours to rewrite); a symlink given explicitly is.

Glob syntax (as in ruff): a pattern without `/` matches the name of a file or folder
anywhere (`tests`, `*_pb2.py`); a pattern with `/` is anchored to the project root
(the folder of the configuration file, else the current directory): `src/legacy`,
`docs/**/*.md`. `*` and `?` never cross `/`; `**` does.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from acp_migrate.engine.execution.files import TEMP_SUFFIX, describe_os_error
from acp_migrate.globs import GlobSet
from acp_migrate.rules import SUFFIXES, WALKED_SUFFIXES

# The files some rule reads (`Rule.suffixes`): Python, and Markdown (ACP006 checks its
# JSON examples).
SOURCE_SUFFIXES = SUFFIXES

# Build output, unless it is itself a Python package (`pip/_internal/operations/build`).
BUILD_DIR_NAMES = frozenset({"build", "dist"})

SKIPPED_DIR_NAMES = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".venv",
        "__pycache__",
        "node_modules",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
    }
)

DEFAULT_INCLUDE = tuple(f"*{suffix}" for suffix in WALKED_SUFFIXES)
DEFAULT_EXCLUDE = (*sorted(SKIPPED_DIR_NAMES), "*.egg-info")


@dataclass(frozen=True, slots=True)  # a default of other dataclasses' fields: hashable
class DiscoveryOptions:
    """What a walk picks up. `root` anchors the globs that contain `/` (None: the current directory)."""

    root: str | None = None
    include: tuple[str, ...] = DEFAULT_INCLUDE
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    force_exclude: bool = False


DEFAULT_DISCOVERY = DiscoveryOptions()


@dataclass(slots=True)
class PathError:
    """A PATH argument or a directory inside it that could not be looked at."""

    path: str
    reason: str


@dataclass(slots=True)
class Discovery:
    """Absolute file paths, sorted and de-duplicated, plus what could not be looked at."""

    files: list[str] = field(default_factory=list)
    errors: list[PathError] = field(default_factory=list)


def discover(paths: Sequence[str | os.PathLike[str]] = (), options: DiscoveryOptions | None = None) -> Discovery:
    """Expand PATH arguments (default `.`) into the files to analyse."""
    errors: list[PathError] = []
    files = sorted(iter_files(paths, options, errors))
    return Discovery(files=files, errors=sorted(errors, key=lambda error: (error.path, error.reason)))


def iter_files(
    paths: Sequence[str | os.PathLike[str]] = (),
    options: DiscoveryOptions | None = None,
    errors: list[PathError] | None = None,
    leftovers: list[str] | None = None,
) -> Iterator[str]:
    """The files `discover` finds, unsorted; what cannot be looked at goes to `errors`,
    the temp files of writes (files.TEMP_SUFFIX) met in a walk to `leftovers`.

    One PATH argument streams: files come as the walk meets them (each once, as
    symlinks are not followed), so their analysis can start while the walk goes on.
    Several are expanded first, to take a file reached two ways once."""
    options = options or DEFAULT_DISCOVERY
    selector = FileSelector(options)
    errors = [] if errors is None else errors
    arguments = [os.path.abspath(os.fspath(argument)) for argument in paths or (".",)]
    if len(arguments) == 1:
        yield from _expand(arguments[0], selector, errors, leftovers)
        return
    # Keyed by the resolved path; the smallest spelling wins, so the argument order
    # does not change the output.
    found: dict[str, str] = {}
    for argument in arguments:
        real_argument = os.path.realpath(argument)
        for path in _expand(argument, selector, errors, leftovers):
            if path == argument:  # an explicit file
                real_path = real_argument
            else:  # met in its walk: one realpath per argument, not per file
                inside = under(path, argument)
                relative = inside if inside is not None else os.path.relpath(path, argument)
                real_path = os.path.join(real_argument, relative)
            found[real_path] = min(found.get(real_path, path), path)
    yield from found.values()


def _expand(
    path: str, selector: FileSelector, errors: list[PathError], leftovers: list[str] | None = None
) -> Iterator[str]:
    """The files of one absolute PATH argument: those its walk meets, or itself."""
    options = selector.options
    if os.path.isdir(path):
        if options.force_exclude and selector.excluded(path, is_dir=True):
            return
        yield from _walk(path, selector, errors, leftovers)
    elif os.path.lexists(path) and not os.path.exists(path):
        errors.append(PathError(path=path, reason=_broken_link_reason(path)))
    elif os.path.lexists(path):
        if options.force_exclude and selector.excluded(path, is_dir=False):
            return
        yield path
    else:
        errors.append(PathError(path=path, reason=_missing_reason(path)))


def is_skipped_dir(entry: os.DirEntry[str]) -> bool:
    """Folders that never hold the project's own sources, whatever the globs say (and
    virtualenvs, which the walk knows by their listing: `_is_virtualenv`)."""
    name = entry.name
    if name in (".git", ".hg", ".svn"):
        return True
    if name in BUILD_DIR_NAMES:
        return not os.path.isfile(os.path.join(entry.path, "__init__.py"))
    return False


def _is_virtualenv(entries: list[os.DirEntry[str]]) -> bool:
    """A folder listing these is a virtualenv, whatever its name (`venv`, `.env311`, ...)."""
    return any(entry.name == "pyvenv.cfg" and entry.is_file() for entry in entries)


class FileSelector:
    """Answers "is this path excluded?" and "does this walked file count?" for one set of options."""

    def __init__(self, options: DiscoveryOptions) -> None:
        self.options = options
        self.root = os.path.abspath(options.root) if options.root is not None else os.getcwd()
        self._exclude = GlobSet((*options.exclude, *options.extend_exclude))
        self._include = GlobSet(options.include)
        self._gitignore = GitIgnore() if options.respect_gitignore else None

    def excluded(self, path: str, *, is_dir: bool) -> bool:
        """`path` (absolute) or a folder above it (up to the root) is excluded or git-ignored."""
        relative = self._relative(path)
        if relative is not None:
            parts = relative.split("/")
            for index in range(len(parts)):
                last = index == len(parts) - 1
                if self._exclude.matches("/".join(parts[: index + 1]), is_dir=is_dir or not last):
                    return True
        elif self._exclude.matches_name(os.path.basename(path), is_dir=is_dir):
            return True
        return self._gitignore is not None and self._gitignore.ignored(path, is_dir=is_dir)

    def skips_dir(self, entry: os.DirEntry[str], directory: str) -> bool:
        """For a walk: `entry` was listed in `directory`."""
        if is_skipped_dir(entry):
            return True
        return self._skipped(entry, directory, is_dir=True)

    def takes_file(self, entry: os.DirEntry[str], directory: str) -> bool:
        """For a walk: `entry` was listed in `directory`."""
        relative = self._relative(entry.path) if self._include.anchored else None
        if relative is not None:
            if not self._include.matches(relative, is_dir=False):
                return False
        elif not self._include.matches_name(entry.name, is_dir=False):
            return False
        return not self._skipped(entry, directory, is_dir=False)

    def listed(self, directory: str, names: set[str], *, entered: bool) -> None:
        """For a walk: `directory` holds `names` (what git needs to know of it);
        `entered`: the walk came into it from its parent, so it is no symbolic link
        (the walk follows none; only its root may be one)."""
        if self._gitignore is not None:
            self._gitignore.listed(directory, has_git=".git" in names, entered=entered)

    def _skipped(self, entry: os.DirEntry[str], directory: str, *, is_dir: bool) -> bool:
        relative = self._relative(entry.path) if self._exclude.anchored else None
        if relative is not None:
            if self._exclude.matches(relative, is_dir=is_dir):
                return True
        elif self._exclude.matches_name(entry.name, is_dir=is_dir):
            return True
        return self._gitignore is not None and self._gitignore.ignored_in(directory, entry.name, is_dir=is_dir)

    def _relative(self, path: str) -> str | None:
        """`path` relative to the root, with `/`; None outside the root."""
        inside = under(path, self.root)
        if inside is not None:  # the common case, without relpath's cost
            return inside.replace(os.sep, "/")
        try:
            relative = os.path.relpath(path, self.root)
        except ValueError:  # another drive
            return None
        if relative == os.curdir or relative == os.pardir or relative.startswith(os.pardir + os.sep):
            return None
        return relative.replace(os.sep, "/")


class GitIgnore:
    """What git ignores (`.gitignore`, `.git/info/exclude`, the global excludes file), asked of
    git itself: once per work tree, `git ls-files --others --ignored --exclude-standard
    --directory`. Outside a work tree, or without git, nothing is ignored. Tracked files are
    never ignored, as for git."""

    def __init__(self) -> None:
        self._git = shutil.which("git")
        self._toplevel: dict[str, str | None] = {}
        self._ignored: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
        self._folders: dict[str, _IgnoredIn | None] = {}
        self._real_paths: dict[str, str] = {}
        # From the walk's listings, so that no folder is looked at twice:
        self._listed_git: dict[str, bool] = {}  # folder -> holds a `.git`
        self._not_links: set[str] = set()  # folders known not to be symbolic links

    def ignored(self, path: str, *, is_dir: bool) -> bool:
        return self.ignored_in(*os.path.split(path), is_dir=is_dir)

    def ignored_in(self, directory: str, name: str, *, is_dir: bool) -> bool:
        """`name` in `directory` is ignored (the walk's question: no path to split)."""
        if self._git is None:
            return False
        folder = self._folder(directory)
        if folder is None:
            return False
        if folder.inside_ignored:
            return True
        relative = f"{folder.relative}/{name}" if folder.relative else name
        return relative in (folder.dirs if is_dir else folder.files)

    def _folder(self, directory: str) -> _IgnoredIn | None:
        """What git ignores in `directory`, worked out once per folder (a walk asks per entry)."""
        if directory in self._folders:
            return self._folders[directory]
        # The work tree holding the folder decides (a nested repository's root is
        # ignored or not by the repository around it).
        top = self._work_tree(directory)
        folder = None
        files, dirs = self._ignored_in(top) if top is not None else ((), ())
        if top is not None and (files or dirs):
            real = self._real_path(directory)
            inside_top = "" if real == top else under(real, top)
            relative = (inside_top if inside_top is not None else os.path.relpath(real, top)).replace(os.sep, "/")
            if relative != ".." and not relative.startswith("../"):
                relative = "" if relative == "." else relative
                parts = relative.split("/") if relative else []
                inside = any("/".join(parts[: index + 1]) in dirs for index in range(len(parts)))
                folder = _IgnoredIn(relative, files, dirs, inside)
        self._folders[directory] = folder
        return folder

    def _real_path(self, directory: str) -> str:
        # A walk asks about folders below folders it asked about: one lstat each (none
        # for the folders it entered: it enters no link), where os.path.realpath would
        # lstat every part of the path again.
        real = self._real_paths.get(directory)
        if real is None:
            parent, name = os.path.split(directory)
            known = parent in self._real_paths and name not in ("", os.curdir, os.pardir)
            if known and (directory in self._not_links or not os.path.islink(directory)):
                real = os.path.join(self._real_paths[parent], name)
            else:
                real = os.path.realpath(directory)
            self._real_paths[directory] = real
        return real

    def listed(self, directory: str, *, has_git: bool, entered: bool) -> None:
        if directory not in self._toplevel:
            self._listed_git[directory] = has_git
        if entered:
            self._not_links.add(directory)

    def _work_tree(self, directory: str) -> str | None:
        """The work tree holding `directory`. Git is asked once per work tree: a folder
        inherits the answer of a folder above it unless a `.git` lies between them."""
        chain: list[str] = []
        probe = directory
        while probe not in self._toplevel:
            chain.append(probe)
            parent = os.path.dirname(probe)
            has_git = self._listed_git.pop(probe, None)
            if has_git is None:
                has_git = os.path.lexists(os.path.join(probe, ".git"))
            if parent == probe or has_git:
                top = self._ask_git(probe)
                break
            probe = parent
        else:
            top = self._toplevel[probe]
        # Every folder of the chain lies below the answer's folder with no `.git` between.
        for folder in chain:
            self._toplevel[folder] = top
        return top

    def _ask_git(self, folder: str) -> str | None:
        answer = self._run(folder, "rev-parse", "--is-inside-work-tree", "--show-toplevel")
        lines = answer.splitlines() if answer is not None else []
        return os.path.realpath(lines[1]) if len(lines) == 2 and lines[0] == "true" else None

    def _ignored_in(self, top: str) -> tuple[frozenset[str], frozenset[str]]:
        if top not in self._ignored:
            listing = self._run(top, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory")
            entries = [entry for entry in (listing or "").split("\0") if entry]
            files = frozenset(entry for entry in entries if not entry.endswith("/"))
            dirs = frozenset(entry.rstrip("/") for entry in entries if entry.endswith("/"))
            self._ignored[top] = (files, dirs)
        return self._ignored[top]

    def _run(self, cwd: str, *args: str) -> str | None:
        assert self._git is not None
        try:
            completed = subprocess.run(
                [self._git, *_SAFE_GIT, *args],
                cwd=cwd,
                capture_output=True,
                timeout=60,
                stdin=subprocess.DEVNULL,
                env=_git_environment(),
            )
        except (OSError, subprocess.SubprocessError):
            return None
        if completed.returncode != 0:
            return None
        return os.fsdecode(completed.stdout).rstrip("\n") if args[0] == "rev-parse" else os.fsdecode(completed.stdout)


# The scanned repository is a stranger's (a pull request in CI): none of its settings may
# run a command. `core.fsmonitor` is a program `ls-files` starts; hooks and pagers are
# programs too, and no prompt may wait for a terminal.
_SAFE_GIT = (
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.pager=cat",
    "-c",
    "core.untrackedCache=false",
    "--no-pager",
)


def _git_environment() -> dict[str, str]:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    environment.update(
        GIT_CONFIG_NOSYSTEM="1",
        GIT_TERMINAL_PROMPT="0",
        GIT_OPTIONAL_LOCKS="0",  # a read-only question takes no lock, writes no index
        GIT_PAGER="cat",
        PAGER="cat",
    )
    return environment


@dataclass(slots=True)
class _IgnoredIn:
    """One folder as git sees it: its path in the work tree and what is ignored there."""

    relative: str  # "" for the work tree's root
    files: frozenset[str]
    dirs: frozenset[str]
    inside_ignored: bool  # the folder or one above it is ignored


def under(path: str, base: str) -> str | None:
    """`path` relative to `base` when it is spelled as `base` followed by more parts
    (as the walk builds them), else None: then ask `os.path.relpath`."""
    prefix = base if base.endswith(os.sep) else base + os.sep
    if not path.startswith(prefix):
        return None
    rest = path[len(prefix) :]
    return rest if os.pardir not in rest or os.pardir not in rest.split(os.sep) else None


def _walk(root: str, selector: FileSelector, errors: list[PathError], leftovers: list[str] | None) -> Iterator[str]:
    pending = [root]
    while pending:
        directory = pending.pop()
        try:
            with os.scandir(directory) as listing:
                entries = list(listing)
        except OSError as exc:
            errors.append(PathError(path=directory, reason=describe_os_error(exc)))
            continue
        names = {entry.name for entry in entries}
        # Decided from the listing, not by looking for the file from the folder above
        # (two failing stats per folder of the tree, 8 ms for 1,200 folders).
        if directory != root and "pyvenv.cfg" in names and _is_virtualenv(entries):
            continue
        selector.listed(directory, names, entered=directory != root)
        for entry in entries:
            try:
                if entry.is_symlink():
                    continue
                if entry.is_dir(follow_symlinks=False):
                    if not selector.skips_dir(entry, directory):
                        pending.append(entry.path)
                elif entry.is_file(follow_symlinks=False):
                    if selector.takes_file(entry, directory):
                        yield entry.path
                    elif leftovers is not None and entry.name.endswith(TEMP_SUFFIX):
                        leftovers.append(entry.path)
            except OSError as exc:
                errors.append(PathError(path=entry.path, reason=describe_os_error(exc)))


def _broken_link_reason(path: str) -> str:
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symbolic link loop"
    return "broken symbolic link"


def _missing_reason(path: str) -> str:
    try:
        os.stat(path)
    except OSError as exc:
        return describe_os_error(exc)
    return "no such file or directory"
