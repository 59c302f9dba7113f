"""The `[tool.acp-migrate]` section of `pyproject.toml`, and how it meets the command line.

Discovery: walking up from the PATH arguments (their common folder; for stdin, the
folder of `--stdin-filename`, else the current directory), the first `pyproject.toml`
with a `[tool.acp-migrate]` table is the configuration. `--config PATH` names the file
instead (a `pyproject.toml`, or any other TOML file holding the keys at top level);
`--isolated` ignores configuration files. Globs with a `/` are relative to the
configuration file's folder.

Every key is validated: an unknown key or a bad value is a `ConfigError` naming the key
and the file (the CLI exits 2). Command-line flags win over the file: each flag
replaces its key, except `--extend-exclude` and `--ignore`, which add to the file's
lists (and `--select` on the command line drops the file's `ignore` too, as in ruff).

```toml
[tool.acp-migrate]
include = ["*.py", "*.pyi", "*.md"]     # files a folder walk picks up
exclude = [".venv", "build"]             # replaces the default exclusions
extend-exclude = ["docs/rfcs", "*_pb2.py"]
select = ["ACP001", "ACP002"]            # rule codes to run (default: all)
ignore = ["ACP006"]                      # rule codes not to run (wins over select)
target-protocol = 1                      # 1 (SDK 0.12.x) or 2
runtime-import = "acp_migrate.runtime"   # where migrated code imports the shim from
respect-gitignore = true
force-exclude = false

[tool.acp-migrate.setup-handlers]        # session setup method names on agent classes
new = ["new_session"]
load = ["load_session"]
resume = ["resume_session"]
fork = ["fork_session"]
```
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, ValidationError

from acp_migrate.engine.discover import DEFAULT_EXCLUDE, DEFAULT_INCLUDE, DiscoveryOptions
from acp_migrate.settings import RuleSettings, SetupHandlers

SECTION = "tool.acp-migrate"
PYPROJECT = "pyproject.toml"

_DOTTED_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
_CODE = re.compile(r"^[A-Z]+[0-9]+$")


class ConfigError(Exception):
    """A configuration that cannot be used; the message names the file and the key."""


def _dotted_name(value: str) -> str:
    if not _DOTTED_NAME.match(value):
        raise ValueError(f"{value!r} is not a dotted module name")
    return value


def _code(value: str) -> str:
    if not _CODE.match(value.upper()):
        raise ValueError(f"{value!r} is not a rule code (like 'ACP001')")
    return value.upper()


def _glob(value: str) -> str:
    if not value.strip():
        raise ValueError("a glob cannot be empty")
    return value


def _not_bool(value: object) -> object:
    if isinstance(value, bool):  # TOML `true` is no protocol version
        raise ValueError("Input should be 1 or 2")
    return value


DottedName = Annotated[str, AfterValidator(_dotted_name)]
Protocol = Annotated[Literal[1, 2], BeforeValidator(_not_bool)]
RuleCode = Annotated[str, AfterValidator(_code)]
Glob = Annotated[str, AfterValidator(_glob)]
MethodName = Annotated[str, AfterValidator(_dotted_name)]


def _hyphenate(name: str) -> str:
    return name.replace("_", "-")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, alias_generator=_hyphenate)


class SetupHandlersConfig(_Strict):
    new: list[MethodName] | None = None
    load: list[MethodName] | None = None
    resume: list[MethodName] | None = None
    fork: list[MethodName] | None = None


class FileConfig(_Strict):
    """The keys of `[tool.acp-migrate]`; None: not set."""

    include: list[Glob] | None = None
    exclude: list[Glob] | None = None
    extend_exclude: list[Glob] | None = None
    select: list[RuleCode] | None = None
    ignore: list[RuleCode] | None = None
    target_protocol: Protocol | None = None
    runtime_import: DottedName | None = None
    setup_handlers: SetupHandlersConfig | None = None
    respect_gitignore: bool | None = None
    force_exclude: bool | None = None


class Overrides(BaseModel):
    """Command-line (or API) values; None: not given, the file or the default decides."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    include: list[Glob] | None = None
    exclude: list[Glob] | None = None
    extend_exclude: list[Glob] | None = None
    select: list[RuleCode] | None = None
    ignore: list[RuleCode] | None = None
    target_protocol: Protocol | None = None
    runtime_import: DottedName | None = None
    respect_gitignore: bool | None = None
    force_exclude: bool | None = None
    report_unused_suppressions: bool | None = None


class Options(BaseModel):
    """Everything a run needs once the file and the flags are merged."""

    model_config = ConfigDict(frozen=True)

    config_file: str | None = None
    discovery: DiscoveryOptions = DiscoveryOptions()
    settings: RuleSettings = RuleSettings()
    report_unused_suppressions: bool = False


# -- finding and reading the file -------------------------------------------------------


def find_config_file(paths: Sequence[str | os.PathLike[str]] = ()) -> Path | None:
    """The first `pyproject.toml` with a `[tool.acp-migrate]` table above the paths' common folder."""
    start = _common_folder(paths)
    for folder in (start, *start.parents):
        candidate = folder / PYPROJECT
        if candidate.is_file() and _has_section(candidate):
            return candidate
    return None


def _common_folder(paths: Sequence[str | os.PathLike[str]]) -> Path:
    absolute = [os.path.abspath(os.fspath(p)) for p in paths] or [os.getcwd()]
    folders = [p if os.path.isdir(p) else os.path.dirname(p) for p in absolute]
    try:
        return Path(os.path.commonpath(folders))
    except ValueError:  # different drives: the first path decides
        return Path(folders[0])


def _has_section(path: Path) -> bool:
    try:
        raw = path.read_bytes()
    except OSError:
        return False
    if b"acp-migrate" not in raw:
        return False  # cheap: most pyproject files are not ours to parse
    data = _parse(path, raw)
    return isinstance(data.get("tool"), dict) and "acp-migrate" in data["tool"]


def _parse(path: Path, raw: bytes | None = None) -> dict[str, Any]:
    try:
        text = (raw if raw is not None else path.read_bytes()).decode("utf-8")
        return tomllib.loads(text)
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: invalid TOML: {error}") from None


def read_config_file(path: str | os.PathLike[str]) -> FileConfig:
    """Validate one configuration file: `[tool.acp-migrate]` of a pyproject.toml, else the whole file."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"{path}: no such configuration file")
    data = _parse(path)
    where = path.name == PYPROJECT
    if where:
        tool = data.get("tool", {})
        section = tool.get("acp-migrate", {}) if isinstance(tool, dict) else {}
        prefix = f"[{SECTION}]"
    else:
        section, prefix = data, ""
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: {prefix or 'the file'} must be a table")
    try:
        config = FileConfig.model_validate(section)
    except ValidationError as error:
        raise ConfigError(_describe(path, prefix, error)) from None
    _check_codes(path, prefix, {"select": config.select, "ignore": config.ignore})
    return config


def _describe(path: Path, prefix: str, error: ValidationError) -> str:
    lines = []
    for problem in error.errors():
        # Drop the union / literal branch names pydantic adds to the location.
        key = ".".join(str(part) for part in problem["loc"] if not _is_branch(part))
        where = f"{prefix} " if prefix else ""
        if problem["type"] == "extra_forbidden":
            lines.append(f"{path}: {where}unknown key '{key}'{_suggest(problem['loc'])}")
        else:
            message = problem["msg"].removeprefix("Value error, ")
            lines.append(f"{path}: {where}'{key}': {message} (got {problem['input']!r})")
    return "\n".join(dict.fromkeys(lines))


def _suggest(loc: tuple[object, ...]) -> str:
    model: type[BaseModel] = SetupHandlersConfig if len(loc) > 1 and loc[0] == "setup-handlers" else FileConfig
    keys = [_hyphenate(name) for name in model.model_fields]
    close = difflib.get_close_matches(_hyphenate(str(loc[-1])), keys, n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _is_branch(part: object) -> bool:
    return isinstance(part, str) and (
        part.startswith(("list[", "literal[", "function-")) or part in {"str", "int", "bool"}
    )


def known_codes() -> frozenset[str]:
    """Every code a user can select, ignore or suppress (imports the rules, hence libcst)."""
    from acp_migrate.engine.suppressions import UNUSED_SUPPRESSION
    from acp_migrate.rules import ALL_RULES

    return frozenset(rule.code for rule in ALL_RULES) | {UNUSED_SUPPRESSION.code}


def _check_codes(path: Path | None, prefix: str, lists: dict[str, list[str] | None]) -> None:
    if not any(lists.values()):
        return
    known = known_codes()
    for key, codes in lists.items():
        for code in codes or ():
            if code not in known:
                where = f"{path}: {prefix + ' ' if prefix else ''}" if path is not None else ""
                flag = f"'{key}'" if path is not None else f"--{key}"
                raise ConfigError(f"{where}{flag}: unknown rule code {code!r} (known: {', '.join(sorted(known))})")


# -- merging ------------------------------------------------------------------------------


def load_options(
    paths: Sequence[str | os.PathLike[str]] = (),
    *,
    config: str | os.PathLike[str] | None = None,
    isolated: bool = False,
    overrides: Overrides | None = None,
) -> Options:
    """Find (or read `config`), validate, and merge with `overrides`. Raises ConfigError."""
    overrides = overrides or Overrides()
    _check_codes(None, "", {"select": overrides.select, "ignore": overrides.ignore})
    config_path: Path | None
    if config is not None:
        config_path = Path(config).absolute()
    elif isolated:
        config_path = None
    else:
        config_path = find_config_file(paths)
    file = read_config_file(config_path) if config_path is not None else FileConfig()
    return merge(file, overrides, config_file=str(config_path) if config_path is not None else None)


def merge(file: FileConfig, overrides: Overrides, *, config_file: str | None = None) -> Options:
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

    handlers = SetupHandlers()
    if file.setup_handlers is not None:
        given = {k: tuple(v) for k, v in file.setup_handlers.model_dump().items() if v is not None}
        handlers = handlers.model_copy(update=given)

    settings = RuleSettings(
        runtime_import=pick("runtime_import", RuleSettings().runtime_import),
        target_protocol=pick("target_protocol", 1),
        setup_handlers=handlers,
        select=tuple(dict.fromkeys(select)),
        ignore=tuple(dict.fromkeys(ignore)),
    )
    discovery = DiscoveryOptions(
        root=os.path.dirname(config_file) if config_file is not None else None,
        include=tuple(pick("include", DEFAULT_INCLUDE)),
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
    )
