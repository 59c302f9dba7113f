"""Settings the rules read (one file's analysis). The `[tool.acp-migrate]` file
configuration builds one of these; defaults fit the official Python SDK."""

from __future__ import annotations

from dataclasses import dataclass, field

from acp_migrate.sdk import Target


# Plain frozen dataclasses: `config` validates what users write before building these.
@dataclass(frozen=True, slots=True)  # a default of other dataclasses' fields: hashable
class ProjectStyle:
    """How the project writes Python, read from its own linter and formatter
    configuration (`acp_migrate/style.py`): code `fix` generates or edits follows it."""

    line_length: int = 88
    quote: str = '"'  # the formatter's preferred string quote: '"' or "'"
    # Top-level modules isort counts as first party (`known-first-party`, ruff's `src`).
    first_party: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)  # a default of other dataclasses' fields: hashable
class RuleSettings:
    # Where migrated code imports the runtime shim from. VENDORED (the default): fix
    # writes the shim as one file next to the agent module (acp_migrate/vendor.py) and
    # imports it from there; a module of the project whose package exists: written
    # there; any other module path is imported as it is, nothing written.
    runtime_import: str = "vendored"
    style: ProjectStyle = field(default_factory=ProjectStyle)
    # Test files (globs matched against the file's path: `tests/**` is everything below a
    # folder named `tests`, `test_*.py` a file name): their tests of the removed field
    # are removed, never half-edited (ACP008).
    test_files: tuple[str, ...] = ("tests/**", "test_*.py", "*_test.py")
    # Rule codes to run: all when `select` is empty; `ignore` wins.
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    # The SDK release the run migrates to and the one the code was written for
    # (acp_migrate/sdk.py); None: no target, no SDK rule runs.
    sdk: Target | None = None

    def crosses(self, sdk_release: str | tuple[str, ...] | None) -> bool:
        """Whether a rule moving across `sdk_release` (one release or several: any of
        them; None: not an SDK move) runs."""
        if sdk_release is None:
            return True
        releases = (sdk_release,) if isinstance(sdk_release, str) else sdk_release
        return self.sdk is not None and any(self.sdk.crosses(release) for release in releases)

    def enabled(self, code: str) -> bool:
        if code in self.ignore:
            return False
        return not self.select or code in self.select


VENDORED = "vendored"
DEFAULT_SETTINGS = RuleSettings()


@dataclass(frozen=True, slots=True)
class Gathered:
    """What a rule's `gather` read in one file of the project for another file's
    analysis: `key` says what it is about, `text` what it found, both the rule's
    words; `place`: `path:line`, as the run names the file."""

    key: str
    place: str
    text: str


@dataclass(frozen=True, slots=True)  # a default of other dataclasses' fields: hashable
class ProjectFacts:
    """What a run decided about the whole project before editing any file.

    `schema_kept_by`: the places that still pass the legacy field to a schema factory
    after this run (suppressed, deselected, not fixable, or outside the run), as
    `path:line (why)`; while there is one, a schema the project owns keeps the field.
    `run_paths`: the run's paths, absolute (empty: unknown); a schema module outside
    them keeps its field too, since the run does not edit it.
    `gathered`: what the rules' `gather` read in the project's files holding one of their
    `gathers` marks (`Rule.gathers`), the run's files or not.
    """

    schema_kept_by: tuple[str, ...] = ()
    run_paths: tuple[str, ...] = ()
    gathered: tuple[Gathered, ...] = ()
