"""The per-file context every rule works through: where the traversal is, names
through imports, and where reports and edits go (`rules/edits.py`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import libcst as cst

from acp_migrate.cst.names import ImportTable, MentionCounter, last_part
from acp_migrate.cst.walk import walk
from acp_migrate.rules.edits import Edits, Report
from acp_migrate.rules.shared import SCHEMA_CLASSES
from acp_migrate.settings import DEFAULT_SETTINGS, Gathered, ProjectFacts, RuleSettings

EMPTY_LITERALS = ("[]", "()", "None", "list()", "tuple()")

ModuleSource = Callable[[str, "str | None"], "tuple[str, bytes] | None"]
"""`(module, importer) -> (identity, source)`: the source of `module` (dotted, with
leading dots when relative) as imported by `importer` (an identity this function
returned before, or None for the file being analysed); None when not found (the run
reads them from files: engine/execution/modules.py)."""

Shared = TypeVar("Shared")
# Whether a rule's fix takes over the code at a position (the nodes being visited,
# outermost first), whole: it removes or rewrites it (`FileContext.claim`).
Owns = Callable[[Sequence[cst.CSTNode]], bool]


class FileContext:
    """Everything rules share about one file, and where they put results."""

    def __init__(
        self,
        module: cst.Module,
        settings: RuleSettings = DEFAULT_SETTINGS,
        dropped: Callable[[cst.CSTNode, str], bool] | None = None,
        modules: ModuleSource | None = None,
        project: ProjectFacts | None = None,
        path: str | None = None,
        kept_by_check: Callable[[bytes], bool] | None = None,
    ) -> None:
        self.module = module
        # The file's path as the run names it (None: unknown, e.g. a bare source string).
        self.path = path
        # The source of a module this file imports, or None.
        self.modules = modules
        # Whether `check` reads a definition whose code is these bytes (it hollows out the
        # rest, engine/analysis/hollow.py): a rule reading one definition from another
        # reads only those, so that `check` finds what `fix` finds. None: every one.
        self.kept_by_check: Callable[[bytes], bool] = kept_by_check or (lambda code: True)
        # What the run decided about the whole project; None: not decided (yet).
        self.project = project
        self.needs_project = False
        self.settings = settings
        # Whether a report of (node, code) will be dropped (a disabled rule, a suppression
        # comment): ask before acting beyond the report's own edits.
        self.dropped: Callable[[cst.CSTNode, str], bool] = dropped or (lambda node, code: False)
        # Agent classes already rewired to advertise per session -> the list's code.
        self.rewired: dict[cst.ClassDef, str] = {}
        self.imports = ImportTable()
        self.defined_classes = frozenset(
            statement.name.value for statement in module.body if isinstance(statement, cst.ClassDef)
        )
        # Enclosing classes and functions of the node being visited, outermost first.
        self.scopes: list[cst.ClassDef | cst.FunctionDef] = []
        # The innermost statement being visited (where a TODO comment would go).
        self.statements: list[cst.BaseStatement] = []
        # Every node being visited, outermost first, and each visited node's parent.
        self.lineage: list[cst.CSTNode] = []
        self.parents: dict[cst.CSTNode, cst.CSTNode] = {}
        self.reports: list[Report] = []
        # The edits of the report being fixed (`fix`); edits go nowhere else.
        self._fixing: Edits | None = None
        self._function_mentions: dict[cst.FunctionDef, dict[str, int]] = {}
        self._claims: list[tuple[str, Owns]] = []
        self._shared: dict[Callable[[FileContext], Any], Any] = {}

    # -- where are we -------------------------------------------------------
    @property
    def function(self) -> cst.FunctionDef | None:
        for scope in reversed(self.scopes):
            if isinstance(scope, cst.FunctionDef):
                return scope
        return None

    def schema_class(self, node: cst.ClassDef) -> str | None:
        """The name of a schema class this module defines at top level, else None."""
        if node.name.value in SCHEMA_CLASSES and node in self.module.body:
            return node.name.value
        return None

    def schema_method(self) -> tuple[str, cst.FunctionDef] | None:
        """(class name, method) for the innermost function when it is a method of a
        schema class this module owns."""
        function = self.function
        if function is None or len(self.scopes) < 2 or self.scopes[-1] is not function:
            return None
        owner = self.scopes[-2]
        if isinstance(owner, cst.ClassDef) and self.schema_class(owner) is not None:
            return owner.name.value, function
        return None

    def schema_kept_by(self) -> tuple[str, ...]:
        """Callers that keep an owned schema's legacy field this run (empty: remove it).
        Undecided (no `ProjectFacts`), the answer is empty and the analysis says it
        needs the facts, so that the run can decide and analyse the file again."""
        if self.project is None:
            self.needs_project = True
            return ()
        return self.project.schema_kept_by

    def gathered(self) -> tuple[Gathered, ...]:
        """What the rules gathered in the project's files (`Rule.gather`); undecided, as
        `schema_kept_by`: empty, and the analysis needs the facts."""
        if self.project is None:
            self.needs_project = True
            return ()
        return self.project.gathered

    # -- what rules share and what they own ----------------------------------------
    def shared(self, analysis: Callable[[FileContext], Shared]) -> Shared:
        """`analysis(self)`, worked out once for this file: what several rules read."""
        if analysis not in self._shared:
            self._shared[analysis] = analysis(self)
        return self._shared[analysis]

    def claim(self, code: str, owns: Owns) -> None:
        """Rule `code` owns the code at a position where `owns(lineage)` holds: its fix
        takes it over whole, so another rule's report made there is moot (`report`)."""
        self._claims.append((code, owns))

    # -- names ----------------------------------------------------------------
    def resolve(self, node: cst.BaseExpression) -> str | None:
        return self.imports.resolve(node, local_names=self.defined_classes)

    def is_schema_class(self, node: cst.BaseExpression, names: frozenset[str] = SCHEMA_CLASSES) -> bool:
        return last_part(self.resolve(node)) in names

    def code(self, node: cst.CSTNode, limit: int = 80) -> str:
        text = " ".join(self.module.code_for_node(node).split())
        return text if len(text) <= limit else text[: limit - 1] + "…"

    def mentions_in(self, function: cst.FunctionDef) -> dict[str, int]:
        if function not in self._function_mentions:
            counter = MentionCounter()
            walk(function.body, counter)
            for param in all_params(function.params):
                counter.counts[param.name.value] += 1
            self._function_mentions[function] = counter.counts
        return self._function_mentions[function]

    # -- results --------------------------------------------------------------
    def report(self, report: Report) -> None:
        """Record a finding; `fix` records one with the edits that fix it.

        Where another rule claims the code being visited (`claim`), the finding is moot
        and dropped, with its edits: the owner's fix takes that code over whole."""
        if any(code != report.code and owns(self.lineage) for code, owns in self._claims):
            return
        self.reports.append(report)

    @contextmanager
    def fix(self, report: Report) -> Iterator[None]:
        """Record `report` with the edits registered inside the block as its fix, so that
        a report dropped later (suppressed, its rule disabled) takes exactly those with
        it. An exception inside records neither."""
        if self._fixing is not None:
            raise RuntimeError("a fix inside another fix")
        edits = self._fixing = Edits()
        try:
            yield
        finally:
            self._fixing = None
        report.edits = edits
        self.report(report)

    def _edits(self) -> Edits:
        if self._fixing is None:
            raise RuntimeError("an edit outside `with context.fix(report)`: it would fix no report")
        return self._fixing

    def remove(self, node: cst.CSTNode) -> None:
        self._edits().removed.add(node)

    def replace(self, node: cst.CSTNode, new: cst.CSTNode, *, fit: bool = False) -> None:
        """`fit`: `new`, a call, and the calls it adds are broken one argument a line
        where they do not fit the project's line length as they land (`Edits.fitted`)."""
        self._edits().replaced[node] = new
        if fit:
            self._edits().fitted.add(node)

    def insert_after(self, statement: cst.BaseStatement, new: list[cst.BaseStatement]) -> None:
        self._edits().inserted_after.setdefault(statement, []).extend(new)

    def insert_before(self, statement: cst.BaseStatement, new: list[cst.BaseStatement]) -> None:
        self._edits().inserted_before.setdefault(statement, []).extend(new)

    def add_comment(self, statement: cst.BaseStatement, comment: str) -> None:
        """A comment line above `statement` (a TODO for a person)."""
        self._edits().comments.setdefault(statement, []).append(comment)

    def add_import(self, module: str, name: str, section: int | None = None) -> None:
        """`from <module> import <name>` into the import block, where isort puts it."""
        self._edits().imports.append((module, name, section))

    def delete_file(self) -> None:
        """The file goes (a test module left with no test): its other edits are moot."""
        self._edits().delete_file = True

    def add_companion(self, relative_path: str, content: bytes) -> None:
        """A file the fixed source needs beside it (the vendored runtime shim)."""
        self._edits().companions[relative_path] = content

    def will_remove(self, node: cst.CSTNode) -> bool:
        fixing = self._fixing is not None and node in self._fixing.removed
        return fixing or any(node in r.edits.removed for r in self.reports)

    # -- values that fed a removed keyword -------------------------------------
    def value_origin(self, value: cst.BaseExpression) -> tuple[cst.BaseExpression, list[cst.SimpleStatementLine]]:
        """Where `value` came from, and the statements that only fed it (nothing is
        registered: `drop_value` removes them).

        A local feeds `value` when, in the enclosing function, it is assigned exactly
        once by a plain `name = expr` line and mentioned nowhere else but in `value`;
        then its `expr` is where the value came from.
        """
        function = self.function
        feeding: list[cst.SimpleStatementLine] = []
        if function is None:
            return value, feeding
        origin = value
        if isinstance(value, cst.Name):
            assignment = self._sole_feeding_assignment(value.value, function)
            if assignment is not None:
                feeding.append(assignment.statement)
                origin = assignment.value
        self._feeding_locals(origin, function, feeding)
        return origin, feeding

    def drop_value(self, value: cst.BaseExpression) -> cst.BaseExpression:
        """Forget `value`, removing the locals that only fed it; return where it came from."""
        origin, feeding = self.value_origin(value)
        for statement in feeding:
            self.remove(statement)
        return origin

    def is_provably_empty(self, value: cst.BaseExpression) -> bool:
        if self.module.code_for_node(value).strip() in EMPTY_LITERALS:
            return True
        function = self.function
        if isinstance(value, cst.Name) and function is not None:
            assignment = self._sole_feeding_assignment(value.value, function)
            return assignment is not None and self.is_provably_empty(assignment.value)
        return False

    def _feeding_locals(
        self, value: cst.BaseExpression, function: cst.FunctionDef, feeding: list[cst.SimpleStatementLine]
    ) -> None:
        counter = MentionCounter()
        walk(value, counter)
        for name, count in counter.counts.items():
            assignment = self._sole_feeding_assignment(name, function, expected=count)
            if assignment is not None and assignment.statement not in feeding and not self.will_remove(assignment.statement):
                feeding.append(assignment.statement)
                self._feeding_locals(assignment.value, function, feeding)

    def _sole_feeding_assignment(
        self, name: str, function: cst.FunctionDef, expected: int = 1
    ) -> _Assignment | None:
        # The assignment's own target is one mention; `expected` more are in the value.
        if self.mentions_in(function).get(name, 0) != expected + 1:
            return None
        for statement in _statements(function.body):
            assignment = _plain_assignment(statement, name)
            if assignment is not None:
                return assignment
        return None


@dataclass(frozen=True)
class _Assignment:
    statement: cst.SimpleStatementLine
    value: cst.BaseExpression


def _plain_assignment(statement: cst.BaseStatement, name: str) -> _Assignment | None:
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    small = statement.body[0]
    if isinstance(small, cst.Assign) and len(small.targets) == 1:
        target = small.targets[0].target
        if isinstance(target, cst.Name) and target.value == name:
            return _Assignment(statement, small.value)
    if isinstance(small, cst.AnnAssign) and small.value is not None:
        if isinstance(small.target, cst.Name) and small.target.value == name:
            return _Assignment(statement, small.value)
    return None


class _StatementLines(cst.CSTVisitor):
    """Simple statement lines of one function, not those of nested functions or classes."""

    def __init__(self) -> None:
        self.lines: list[cst.SimpleStatementLine] = []

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        self.lines.append(node)
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False


def _statements(block: cst.BaseSuite) -> list[cst.SimpleStatementLine]:
    collector = _StatementLines()
    walk(block, collector)
    return collector.lines


def all_params(params: cst.Parameters) -> list[cst.Param]:
    """Every parameter of a signature, positional, keyword-only, `*args` and `**kwargs`."""
    result = [*params.posonly_params, *params.params, *params.kwonly_params]
    if isinstance(params.star_arg, cst.Param):
        result.append(params.star_arg)
    if params.star_kwarg is not None:
        result.append(params.star_kwarg)
    return result

