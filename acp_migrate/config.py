"""The `[tool.acp-migrate]` section of `pyproject.toml`, and how it meets the command line.

Discovery: walking up from the PATH arguments (their common folder; for stdin, the
folder of `--stdin-filename`, else the current directory), the first `pyproject.toml`
with a `[tool.acp-migrate]` table is the configuration. `--config PATH` names the file
instead (a `pyproject.toml`, or any other TOML file holding the keys at top level);
`--isolated` ignores configuration files. Globs with a `/` are relative to the
configuration file's folder.

The project's style (`RuleSettings.style`: line length, quotes, first-party modules,
which the code `fix` writes follows) is read from its own ruff, black, isort and flake8
configuration (`acp_migrate/style.py`), from the project root up: the configuration
file's folder, else the paths' common folder; also without a section of ours, not with
`--isolated`.

Every key is validated, and every problem is reported at once: an unknown key or a bad
value is a `ConfigError` naming the key and the file (the CLI exits 2); so is a key
0.2 took that no rule read (`REMOVED_KEYS`). Every file is read once a run, guarded, by
`config_files.ConfigFiles`, whose docstring gives the policy for files that cannot be
read or parsed. Command-line flags win over the file: each flag replaces its key,
except `--extend-exclude` and `--ignore`, which add to the file's lists (and `--select`
on the command line drops the file's `ignore` too, as in ruff).

`select` and `ignore` take rule codes (`ACP001`), prefixes of codes (`ACP00`, `ACP`)
and `ALL`, as ruff's do. Each code follows the most specific selector that matches it
(`select = ["ACP"]` with `ignore = ["ACP004"]` runs every rule but ACP004;
`select = ["ACP004"]` with `ignore = ["ACP"]` runs ACP004); at equal specificity
`ignore` wins. `RuleSettings` receives the resolved codes.

```toml
[tool.acp-migrate]
include = ["*.py", "*.pyi", "*.md"]     # files a folder walk picks up
exclude = [".venv", "build"]             # replaces the default exclusions
extend-exclude = ["docs/rfcs", "*_pb2.py"]
select = ["ACP00"]                       # codes, prefixes or "ALL" to run (default: all)
ignore = ["ACP006"]                      # codes or prefixes not to run
runtime-import = "vendored"             # default: fix writes the shim beside the agent; or a module
respect-gitignore = true
force-exclude = false
test-files = ["tests/**", "test_*.py", "*_test.py"]  # where tests of the removed field are (ACP008)
target-sdk = "1.0"                       # the SDK release to migrate to (default: the newest the requirement admits)
```

The SDK target (`acp_migrate/sdk.py`): `target-sdk`, else the newest release the
project's own requirement on `agent-client-protocol` admits, read in the project's root
(the configuration file's folder, else the first folder up from the paths holding a
pyproject.toml, setup.cfg or requirements*.txt); none without `--isolated`'s files.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from acp_migrate.config_files import ConfigError, ConfigFiles
from acp_migrate.engine.analysis.suppressions import known_codes
from acp_migrate.engine.execution.discover import DEFAULT_EXCLUDE, DEFAULT_INCLUDE, DiscoveryOptions
from acp_migrate.rulebook import resolve_selection, unknown_selectors
from acp_migrate.sdk import REQUIREMENT_FILES, Requirement, choose_target, normalised, read_requirements
from acp_migrate.settings import ProjectStyle, RuleSettings
from acp_migrate.style import read_style

SECTION = "tool.acp-migrate"
PYPROJECT = "pyproject.toml"

_DOTTED_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
_SELECTOR = re.compile(r"^(ALL|[A-Z]+[0-9]*)$")  # a code, a prefix of codes, or ALL


# -- values ---------------------------------------------------------------------------------
# Validated by hand rather than with pydantic: this runs on every start, and a one-file
# pre-commit run must not pay pydantic's import and schema building (~0.1 s).
# A check takes the raw TOML (or flag) value and returns the normalised one, or raises
# ValueError with a message that does not name the key (the caller does).


def _string(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError("Input should be a valid string")
    return value


def _list_of(item: Callable[[str], str]) -> Callable[[object], tuple[str, ...]]:
    def check(value: object) -> tuple[str, ...]:
        if not isinstance(value, (list, tuple)):
            raise ValueError("Input should be a valid list")
        checked, problems = [], []
        for element in value:  # every bad element is named, not only the first
            try:
                checked.append(item(_string(element)))
            except ValueError as error:
                problems.append(str(error))
        if problems:
            raise ValueError("; ".join(dict.fromkeys(problems)))
        return tuple(checked)

    return check


def _dotted_name(value: object) -> str:
    if not _DOTTED_NAME.match(_string(value)):
        raise ValueError(f"{value!r} is not a dotted module name")
    return value  # type: ignore[return-value]


def _code(value: str) -> str:
    if not _SELECTOR.match(value.strip().upper()):
        raise ValueError(f"{value!r} is not a rule code, a prefix of codes or ALL (like 'ACP001', 'ACP00', 'ALL')")
    return value.strip().upper()


def _glob(value: str) -> str:
    if not value.strip():
        raise ValueError("a glob cannot be empty")
    return value


def _boolean(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError("Input should be a valid boolean")
    return value


def _release(value: object) -> str:
    return normalised(_string(value))


_globs = _list_of(_glob)
_codes = _list_of(_code)

# Key (as written in TOML, hyphenated) -> check. Flags share them (`--extend-exclude`).
VALUE_CHECKS: dict[str, Callable[[object], Any]] = {
    "include": _globs,
    "exclude": _globs,
    "extend-exclude": _globs,
    "select": _codes,
    "ignore": _codes,
    "runtime-import": _dotted_name,
    "respect-gitignore": _boolean,
    "force-exclude": _boolean,
    "test-files": _globs,
    "target-sdk": _release,
    "report-unused-suppressions": _boolean,  # a flag only
}
# Keys 0.2 took though no rule read them: an error saying so and what to do, as ruff's
# for a removed rule, rather than one about a key the user never mistyped.
REMOVED_KEYS = {
    "target-protocol": "migrated code follows the protocol version negotiated at run time",
    "setup-handlers": "fix no longer edits setup handlers",
}


def _hyphenate(name: str) -> str:
    return name.replace("_", "-")


def _underscore(key: str) -> str:
    return key.replace("-", "_")


@dataclass(slots=True)
class FileConfig:
    """The keys of `[tool.acp-migrate]`, validated; None: not set."""

    include: tuple[str, ...] | None = None
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    runtime_import: str | None = None
    respect_gitignore: bool | None = None
    force_exclude: bool | None = None
    test_files: tuple[str, ...] | None = None
    target_sdk: str | None = None


FILE_KEYS = (*(_hyphenate(f.name) for f in fields(FileConfig)),)


@dataclass(slots=True)
class Overrides:
    """Command-line (or API) values; None: not given, the file or the default decides.

    Validated on construction (ValueError naming the flag); lists become tuples."""

    include: Sequence[str] | None = None
    exclude: Sequence[str] | None = None
    extend_exclude: Sequence[str] | None = None
    select: Sequence[str] | None = None
    ignore: Sequence[str] | None = None
    runtime_import: str | None = None
    respect_gitignore: bool | None = None
    force_exclude: bool | None = None
    target_sdk: str | None = None
    report_unused_suppressions: bool | None = None

    def __post_init__(self) -> None:
        problems: list[str] = []
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if value is not None:
                flag = _hyphenate(name)
                object.__setattr__(self, name, _checked(VALUE_CHECKS[flag], value, f"--{flag}", problems))
        if problems:
            raise ValueError("\n".join(problems))

    @classmethod
    def from_keywords(cls, keywords: dict[str, Any]) -> Overrides:
        """For keyword APIs: an unknown name is a ValueError with a suggestion."""
        known = [f.name for f in fields(cls)]
        for name in keywords:
            if name not in known:
                close = difflib.get_close_matches(name, known, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise ValueError(f"unknown option {name!r}{hint}")
        return cls(**keywords)


@dataclass(slots=True)
class Options:
    """Everything a run needs once the file and the flags are merged."""

    config_file: str | None = None
    discovery: DiscoveryOptions = field(default_factory=DiscoveryOptions)
    settings: RuleSettings = field(default_factory=RuleSettings)
    report_unused_suppressions: bool = False
    # Configuration files there but counted as absent, `path: why` (--verbose says them).
    ignored: tuple[str, ...] = ()
    # Which SDK target was taken and why (--verbose says it).
    target_note: str = ""


# -- finding and reading the file -------------------------------------------------------


def find_config_file(paths: Sequence[str | os.PathLike[str]] = (), files: ConfigFiles | None = None) -> Path | None:
    """The first `pyproject.toml` with a `[tool.acp-migrate]` table above the paths' common folder."""
    files = files or ConfigFiles()
    start = _common_folder(paths)
    for folder in (start, *start.parents):
        candidate = folder / PYPROJECT
        tool = files.toml(candidate, ours=True, screen=(b"acp-migrate",)).get("tool")
        if isinstance(tool, dict) and "acp-migrate" in tool:
            return candidate
    return None


def _common_folder(paths: Sequence[str | os.PathLike[str]]) -> Path:
    absolute = [os.path.abspath(os.fspath(p)) for p in paths] or [os.getcwd()]
    folders = [p if os.path.isdir(p) else os.path.dirname(p) for p in absolute]
    try:
        return Path(os.path.commonpath(folders))
    except ValueError:  # different drives: the first path decides
        return Path(folders[0])


def read_config_file(path: str | os.PathLike[str], files: ConfigFiles | None = None) -> FileConfig:
    """Validate one configuration file: `[tool.acp-migrate]` of a pyproject.toml, else the whole file."""
    path, files = Path(path), files or ConfigFiles()
    if files.read(path) is None:  # named by --config or found: it must be read
        reason = files.ignored.get(path)
        raise ConfigError(f"{path}: cannot read: {reason}" if reason else f"{path}: no such configuration file")
    data = files.toml(path, ours=True)
    tool = data.get("tool")
    # A pyproject.toml under another name (`--config ci/pyproject-ci.toml`) is one too.
    where = path.name == PYPROJECT or (isinstance(tool, dict) and "acp-migrate" in tool)
    if where:
        tool = data.get("tool", {})
        section = tool.get("acp-migrate", {}) if isinstance(tool, dict) else {}
        prefix = f"[{SECTION}]"
    else:
        section, prefix = data, ""
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: {prefix or 'the file'} must be a table")
    where = f"{path}: {prefix + ' ' if prefix else ''}"
    problems: list[str] = []
    config = _validate(section, where, problems)
    problems += _code_problems({f"{where}'select'": config.select, f"{where}'ignore'": config.ignore})
    if problems:
        raise ConfigError("\n".join(problems))
    return config


def _validate(section: dict[str, Any], where: str, problems: list[str]) -> FileConfig:
    values: dict[str, Any] = {}
    for key, value in section.items():
        if key in REMOVED_KEYS:
            problems.append(f"{where}'{key}' was removed, it had no effect ({REMOVED_KEYS[key]}): delete it")
        elif key in FILE_KEYS:
            values[_underscore(key)] = _checked(VALUE_CHECKS[key], value, f"{where}'{key}'", problems)
        else:
            problems.append(f"{where}unknown key '{key}'{_suggest(key, FILE_KEYS)}")
    return FileConfig(**values)


def _checked(check: Callable[[object], Any], value: object, label: str, problems: list[str]) -> Any:
    """`check(value)`, or None with the problem, named by `label`, added to `problems`."""
    try:
        return check(value)
    except ValueError as error:
        problems.append(f"{label}: {error} (got {value!r})")
        return None


def _suggest(key: str, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(_hyphenate(key), known, n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _code_problems(lists: dict[str, Sequence[str] | None]) -> list[str]:
    """One line per selector (`label: ...`) that selects no known code."""
    if not any(lists.values()):
        return []
    known = known_codes()
    return [
        f"{label}: unknown rule code {selector!r} "
        f"(known: {', '.join(sorted(known))}; a prefix such as 'ACP00', or ALL, selects several)"
        for label, selectors in lists.items()
        for selector in unknown_selectors(selectors or (), known)
    ]


# -- merging ------------------------------------------------------------------------------


def load_options(
    paths: Sequence[str | os.PathLike[str]] = (),
    *,
    config: str | os.PathLike[str] | None = None,
    isolated: bool = False,
    overrides: Overrides | None = None,
) -> Options:
    """Find (or read `config`), validate, and merge with `overrides`. Raises ConfigError
    with every problem of the flags' rule codes and of the file at once, one a line."""
    overrides = overrides or Overrides()
    problems = _code_problems({"--select": overrides.select, "--ignore": overrides.ignore})
    files = ConfigFiles()
    config_path: Path | None = None
    try:
        if config is not None:
            config_path = Path(config).absolute()
        elif not isolated:
            config_path = find_config_file(paths, files)
        file = read_config_file(config_path, files) if config_path is not None else FileConfig()
    except ConfigError as error:
        problems += str(error).splitlines()
    if problems:
        raise ConfigError("\n".join(problems))
    # The project's own style, also without a section of ours: read from the root up.
    root = config_path.parent if config_path is not None else _common_folder(paths)
    style = None if isolated else read_style(root, files)
    requirements = [] if isolated else read_requirements(_project_root(root, config_path is not None), files)
    options = merge(
        file,
        overrides,
        config_file=str(config_path) if config_path is not None else None,
        style=style,
        requirements=requirements,
    )
    options.ignored = tuple(f"{path}: {why}" for path, why in files.ignored.items())
    return options


def _project_root(start: Path, configured: bool) -> Path:
    """Where the project states its requirements: the configuration's folder, else the
    first folder up holding a pyproject.toml, setup.cfg or requirements*.txt."""
    if configured:
        return start
    for folder in (start, *start.parents):
        if any((folder / name).is_file() for name in (PYPROJECT, "setup.cfg")) or any(folder.glob("requirements*.txt")):
            return folder
    return start


def merge(
    file: FileConfig,
    overrides: Overrides,
    *,
    config_file: str | None = None,
    style: ProjectStyle | None = None,
    requirements: Sequence[Requirement] = (),
) -> Options:
    def pick(key: str, default: Any) -> Any:
        value = getattr(overrides, key)
        if value is None:
            value = getattr(file, key)
        return default if value is None else value

    if overrides.select is not None:
        select, ignore = overrides.select, overrides.ignore or []
    else:
        select = file.select or []
        ignore = [*(file.ignore or []), *(overrides.ignore or [])]
    select, ignore = resolve_selection(select, ignore, known_codes())
    named_where = "--target-sdk" if overrides.target_sdk is not None else f"target-sdk in {config_file}"
    target, target_note = choose_target(pick("target_sdk", None), named_where, requirements)

    settings = RuleSettings(
        runtime_import=pick("runtime_import", RuleSettings().runtime_import),
        test_files=file.test_files if file.test_files is not None else RuleSettings().test_files,
        style=style or ProjectStyle(),
        select=select,
        ignore=ignore,
        sdk=target,
    )
    discovery = DiscoveryOptions(
        root=os.path.dirname(config_file) if config_file is not None else None,
        # With a target, the walk also reads the requirement files (ACP200 checks them).
        include=tuple(pick("include", (*DEFAULT_INCLUDE, *(REQUIREMENT_FILES if target else ())))),
        exclude=tuple(pick("exclude", DEFAULT_EXCLUDE)),
        extend_exclude=(*(file.extend_exclude or ()), *(overrides.extend_exclude or ())),
        respect_gitignore=pick("respect_gitignore", True),
        force_exclude=pick("force_exclude", False),
    )
    return Options(
        config_file=config_file,
        discovery=discovery,
        settings=settings,
        report_unused_suppressions=bool(overrides.report_unused_suppressions),
        target_note=target_note,
    )
