"""What a rule makes: reports, each with the edits that fix it, which its
`FileContext` (`rules/context.py`) records and the engine applies once. Nothing here
imports LibCST (the registry imports every rule at start-up)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import libcst as cst

# The sections of an import block, in isort's order (`Edits.imports`).
FUTURE, STANDARD_LIBRARY, THIRD_PARTY, FIRST_PARTY, LOCAL = range(5)


@dataclass
class Report:
    node: cst.CSTNode
    code: str
    message: str
    fixable: bool
    # Findings that remain once this one is fixed (they need a person).
    followups: list[Report] = field(default_factory=list)
    # What fixing it changes: the edits registered in its `FileContext.fix` block.
    edits: Edits = field(default_factory=lambda: Edits())
    # It passes the legacy field to a schema factory, or reads it: an owned schema keeps
    # the field while a caller that fix leaves remains (`FileContext.schema_kept_by`).
    caller: bool = False


@dataclass
class Edits:
    """Changes to the original tree, keyed by original nodes; applied in one pass."""

    removed: set[cst.CSTNode] = field(default_factory=set)
    replaced: dict[cst.CSTNode, cst.CSTNode] = field(default_factory=dict)
    inserted_after: dict[cst.CSTNode, list[cst.BaseStatement]] = field(default_factory=dict)
    inserted_before: dict[cst.CSTNode, list[cst.BaseStatement]] = field(default_factory=dict)
    comments: dict[cst.CSTNode, list[str]] = field(default_factory=dict)
    # Replaced nodes whose replacement, a call, is broken one argument a line where it
    # does not fit the project's line length as it lands (`EditApplier`).
    fitted: set[cst.CSTNode] = field(default_factory=set)
    # `from <module> import <name>` to add to the import block, in its isort section
    # (above; None: the engine classifies the module).
    imports: list[tuple[str, str, int | None]] = field(default_factory=list)
    # Files the fixed source needs next to it: path relative to its folder -> bytes.
    companions: dict[str, bytes] = field(default_factory=dict)
    # The file itself goes (a test module left with no test); every other edit is moot.
    delete_file: bool = False

    def __bool__(self) -> bool:
        return bool(
            self.removed
            or self.replaced
            or self.inserted_after
            or self.inserted_before
            or self.comments
            or self.imports
            or self.delete_file
        )

    @classmethod
    def merge(cls, parts: list[Edits]) -> Edits:
        merged = cls()
        for part in parts:
            merged.removed |= part.removed
            merged.replaced.update(part.replaced)
            merged.fitted |= part.fitted
            for node, statements in part.inserted_after.items():
                merged.inserted_after.setdefault(node, []).extend(statements)
            for node, statements in part.inserted_before.items():
                merged.inserted_before.setdefault(node, []).extend(statements)
            for node, comments in part.comments.items():
                known = merged.comments.setdefault(node, [])
                known.extend(c for c in comments if c not in known)
            merged.imports += [entry for entry in part.imports if entry not in merged.imports]
            merged.companions.update(part.companions)
            merged.delete_file |= part.delete_file
        return merged
