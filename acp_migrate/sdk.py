"""The official Python SDK's releases (`agent-client-protocol`) and the one a run migrates
to: the target.

`--target-sdk VERSION` (or `target-sdk` under `[tool.acp-migrate]`) names it. Without it,
the target is the newest release of `RELEASES` that the project's own requirement on the
SDK admits (`[project] dependencies` and optional dependencies of pyproject.toml,
`requirements*.txt`, `install_requires` and `extras_require` of setup.cfg); a project
stating no requirement has no target, and no SDK rule runs. The lowest release the
requirement admits is the one the code was written for: a rule moving across a release
that release already has (`Rule.sdk_release`) does not run.

Specifiers are read by a small parser of PEP 440's common forms (`==0.8.0`, `>=0.7,<0.13`,
`~=0.9`, `==0.8.*`, `!=`): `packaging` is not a dependency. Pre-releases are not targets.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from acp_migrate.config_files import ConfigFiles

DISTRIBUTION = "agent-client-protocol"
# A module importing the SDK (`import acp`, `from acp.schema import ...`), by its bytes.
IMPORTS_SDK = re.compile(rb"^[ \t]*(?:from|import)[ \t]+acp\b", re.MULTILINE)
# The files a project states its requirements in (read in its root).
REQUIREMENT_FILES = ("pyproject.toml", "requirements*.txt", "setup.cfg")

# The releases acp-migrate knows (`pip index versions agent-client-protocol --pre`), oldest first.
RELEASES: tuple[str, ...] = (
    "0.4.5",
    "0.4.9",
    "0.5.0",
    "0.6.2",
    "0.6.3",
    "0.7.0",
    "0.7.1",
    "0.8.0",
    "0.8.1",
    "0.9.0",
    "0.10.0",
    "0.10.1",
    "0.11.0",
    "0.11.1",
    "0.12.0",
    "0.12.1",
    "1.0.0",
)

_VERSION = re.compile(r"^\s*v?(\d+(?:\.\d+)*)\s*$")
_SPECIFIER = re.compile(r"^\s*(===|==|!=|~=|<=|>=|<|>)\s*v?(\d+(?:\.\d+)*)(\.\*)?\s*$")
# A requirement's name, its extras, then its specifiers (a URL, `@ ...`, has none we read).
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*)$")


def release(version: str) -> tuple[int, ...]:
    """`0.9` -> (0, 9, 0): three numbers at least, to compare; ValueError if not a release."""
    match = _VERSION.match(version)
    if match is None:
        raise ValueError(f"{version!r} is not a release number (like '1.0' or '0.12.1')")
    numbers = tuple(int(part) for part in match.group(1).split("."))
    return numbers + (0,) * (3 - len(numbers))


def normalised(version: str) -> str:
    """`0.9` -> `0.9.0`; ValueError if not a release number."""
    return ".".join(map(str, release(version)))


def at_least(version: str, other: str) -> bool:
    return release(version) >= release(other)


@dataclass(frozen=True, slots=True)
class Requirement:
    """One requirement on the SDK: where it is written and its specifiers."""

    path: str
    line: int  # 1-based; 0: not known (a TOML array's item)
    text: str  # as written
    specifiers: tuple[tuple[str, str, bool], ...]  # (operator, version, `.*`)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}" if self.line else self.path

    def admits(self, version: str) -> bool:
        return all(
            _admits(operator, bound, wildcard, release(version)) for operator, bound, wildcard in self.specifiers
        )


def _admits(operator: str, bound: str, wildcard: bool, version: tuple[int, ...]) -> bool:
    numbers = tuple(int(part) for part in bound.split("."))
    if wildcard or operator == "~=":
        # `==0.8.*`: the prefix 0.8; `~=0.9.1`: >= 0.9.1 and the prefix 0.9.
        prefix = numbers if wildcard else numbers[:-1]
        inside = version[: len(prefix)] == prefix
        if operator == "~=":
            return inside and version >= release(bound)
        return inside if operator == "==" else not inside
    bound_release = release(bound)
    return {
        "==": version == bound_release,
        "===": version == bound_release,
        "!=": version != bound_release,
        ">=": version >= bound_release,
        "<=": version <= bound_release,
        ">": version > bound_release,
        "<": version < bound_release,
    }[operator]


def parse_requirement(text: str, path: str, line: int = 0) -> Requirement | None:
    """The requirement `text` states on the SDK; None: it is on another distribution, or
    its specifiers are not in the forms read here (a URL, a marker-only line)."""
    text = text.split("#", 1)[0].strip()
    match = _REQUIREMENT.match(text)
    if match is None or _canonical(match.group(1)) != DISTRIBUTION:
        return None
    rest = match.group(3).split(";", 1)[0].strip()  # an environment marker: not ours to judge
    if rest.startswith("(") and rest.endswith(")"):
        rest = rest[1:-1]
    if rest.startswith("@"):
        return None
    specifiers = []
    for part in filter(None, (piece.strip() for piece in rest.split(","))):
        spec = _SPECIFIER.match(part)
        if spec is None:
            return None
        specifiers.append((spec.group(1), spec.group(2), spec.group(3) is not None))
    return Requirement(path=path, line=line, text=text, specifiers=tuple(specifiers))


def raised(text: str, target: str) -> str | None:
    """`text` (a requirement on the SDK) admitting `target` too: its lower bounds kept
    (a pin `==0.8.0` becomes `>=0.8.0`, the release the code is written for), its upper
    bounds replaced by the release after the target's minor (`<1.1`). None when that is
    no plain rewrite: a wildcard, `===`, or a lower bound above the target."""
    requirement = parse_requirement(text, "")
    if requirement is None:
        return None
    kept = []
    for operator, bound, wildcard in requirement.specifiers:
        if wildcard or operator == "===" or operator in (">", ">=") and release(bound) > release(target):
            return None
        if operator in ("==", "~=", ">=", ">"):
            kept.append((">" if operator == ">" else ">=") + bound)
        elif operator == "!=":
            kept.append(operator + bound)
    major, minor = release(target)[:2]
    kept.append(f"<{major}.{minor + 1}")
    match = _REQUIREMENT.match(text)
    assert match is not None  # parse_requirement matched it
    name, extras, rest = match.group(1), match.group(2) or "", match.group(3)
    marker = rest[rest.index(";") :] if ";" in rest else ""
    return f"{name}{extras}{','.join(kept)}{'; ' + marker[1:].strip() if marker else ''}"


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def read_requirements(folder: Path, files: ConfigFiles) -> list[Requirement]:
    """The project's requirements on the SDK, in `folder` (the project's root)."""
    import glob  # only where requirement files are looked for

    found = [*_pyproject(folder / "pyproject.toml", files), *_setup_cfg(folder / "setup.cfg", files)]
    for name in sorted(glob.glob(os.path.join(glob.escape(os.fspath(folder)), REQUIREMENT_FILES[1]))):
        found += _lines(Path(name), files)
    return found


def _pyproject(path: Path, files: ConfigFiles) -> Iterator[Requirement]:
    project = files.toml(path, ours=False, screen=(b"agent",)).get("project")
    if not isinstance(project, dict):
        return
    lists = [project.get("dependencies")]
    optional = project.get("optional-dependencies")
    if isinstance(optional, dict):
        lists += optional.values()
    raw = files.read(path) or b""
    for items in lists:
        for item in items if isinstance(items, list) else ():
            if isinstance(item, str) and (requirement := parse_requirement(item, str(path), _line_of(raw, item))):
                yield requirement


def _line_of(raw: bytes, item: str) -> int:
    """The line of the TOML string `item` in `raw` (0: not found as written)."""
    for quote in (b'"', b"'"):
        at = raw.find(quote + item.encode() + quote)
        if at >= 0:
            return raw.count(b"\n", 0, at) + 1
    return 0


def _setup_cfg(path: Path, files: ConfigFiles) -> Iterator[Requirement]:
    raw = files.read(path)
    if raw is None or b"agent" not in raw:
        return
    sections = files.ini(path)
    values = [sections.get("options", {}).get("install_requires", "")]
    values += sections.get("options.extras_require", {}).values()
    text = raw.decode("utf-8", "replace")
    for value in values:
        for item in value.splitlines():
            if requirement := parse_requirement(item, str(path), _line_in(text, item.strip())):
                yield requirement


def _line_in(text: str, item: str) -> int:
    at = text.find(item) if item else -1
    return text.count("\n", 0, at) + 1 if at >= 0 else 0


def _lines(path: Path, files: ConfigFiles) -> Iterator[Requirement]:
    raw = files.read(path)
    if raw is None or b"agent" not in raw:
        return
    for number, line in enumerate(raw.decode("utf-8", "replace").splitlines(), 1):
        if requirement := parse_requirement(line, str(path), number):
            yield requirement


def admitted(requirements: Sequence[Requirement]) -> list[str]:
    """The known releases every requirement admits, oldest first."""
    return [version for version in RELEASES if all(r.admits(version) for r in requirements)]


@dataclass(frozen=True, slots=True)
class Target:
    """The release a run migrates to, the one the code was written for (the lowest its
    requirement admits; None: no requirement says), and why (`-v` prints it)."""

    version: str
    written_for: str | None
    why: str

    def crosses(self, sdk_release: str) -> bool:
        """Whether moving from the code's release to the target crosses `sdk_release`."""
        if not at_least(self.version, sdk_release):
            return False
        return self.written_for is None or not at_least(self.written_for, sdk_release)


def choose_target(
    named: str | None, named_where: str, requirements: Sequence[Requirement]
) -> tuple[Target | None, str]:
    """The target, and the sentence `-v` says about it. `named`: `--target-sdk` or the
    file's `target-sdk` (`named_where` says which)."""
    stated = ", ".join(f"{r.text!r} ({r.where})" for r in requirements)
    versions = admitted(requirements) if requirements else []
    written_for = versions[0] if versions else None
    if named is not None:
        version = normalised(named)
        because = f"named by {named_where}"
        if requirements:
            because += f"; the requirement {stated} " + (
                f"admits {written_for} (the code's release) to {versions[-1]}"
                if versions
                else "admits no known release"
            )
        return Target(version, written_for, because), f"target SDK {version}: {because}"
    if not requirements:
        return (
            None,
            "no target SDK: the project states no requirement on agent-client-protocol (--target-sdk names one)",
        )
    if not versions:
        return None, f"no target SDK: the requirement {stated} admits no release acp-migrate knows"
    because = f"the newest release the requirement {stated} admits (the code's: {written_for})"
    return Target(versions[-1], written_for, because), f"target SDK {versions[-1]}: {because}"
