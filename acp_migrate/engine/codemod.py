"""Per-source analysis: prefilter, parse once, run every rule in one traversal, apply edits.

LibCST and the rules are imported only when a file passes the byte prefilter, so a
clean run costs little more than reading the files.
"""

from __future__ import annotations

import codecs
import os
import re

from acp_migrate.engine.prefilter import may_contain_legacy
from acp_migrate.engine.suppressions import ReportFilter
from acp_migrate.findings import Finding, SourceAnalysis, SourceError
from acp_migrate.settings import DEFAULT_SETTINGS, RuleSettings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from acp_migrate.engine.modules import ModuleSource
    from acp_migrate.settings import ProjectFacts

PYTHON_SUFFIXES = (".py", ".pyi")
_BOM = codecs.BOM_UTF8
# PEP 263: the cookie must be on line 1 or 2.
_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.MULTILINE)


def source_encoding(source: bytes) -> str:
    """The encoding Python would read `source` with (BOM, PEP 263 cookie, else UTF-8)."""
    if source.startswith(_BOM):
        return "utf-8-sig"
    # The cookie counts on the first two lines only (without copying the rest).
    first = source.find(b"\n")
    second = source.find(b"\n", first + 1) if first != -1 else -1
    head = source[:second] if second != -1 else source
    match = _COOKIE.search(head) if b"coding" in head else None
    if match is None:
        return "utf-8"
    name = match.group(1).decode("ascii")
    try:
        return codecs.lookup(name).name
    except LookupError:
        raise SourceError(f"unknown encoding {name!r} in the coding cookie") from None


def check_decodable(source: bytes) -> str:
    """Raise SourceError unless `source` is text Python could read; return its encoding."""
    if b"\0" in source:
        raise SourceError("binary file: contains NUL bytes")
    encoding = source_encoding(source)
    if encoding == "utf-8" and source.isascii():  # most files: ASCII is UTF-8
        return encoding
    try:
        source.decode(encoding)
    except UnicodeDecodeError as error:
        line = source.count(b"\n", 0, error.start) + 1
        raise SourceError(f"cannot decode as {encoding} at line {line}: {error.reason}") from None
    return encoding


_BRACKET = re.compile(rb"[()\[\]{}]")
_OPENERS = frozenset(b"([{")
# CPython refuses more nesting than this, and LibCST's native parser overflows its
# stack (killing the process) a few thousand levels deep: never hand it such input.
_MAX_NESTING = 200
# Chains nest as deep as brackets, without any: `not not ... x`, `-----x`, `a + a + ...`,
# `a.b.c...`, `f()()...`, `x if c else y if c else ...`, `lambda: lambda: ...`, elif
# chains, `a and b and ...`, `"a" "b" ...`. LibCST's visitors give up near 325 levels
# (RecursionError, reported), but its native parser crashes the process, or runs for
# minutes, a few thousand levels deep. CPython's parser measures them first: it fails
# cleanly (MemoryError, RecursionError) where LibCST's would crash.
_MAX_DEPTH = 300
# Tokens that may each add a level to an expression, for a bound when CPython cannot parse.
_CHAIN_TOKEN = re.compile(rb"""[-+*/%@&|^~<>."'(\[]|\b(?:not|and|or|if|lambda|await)\b""")
_ELIF = re.compile(rb"^[ \t\f]*elif\b", re.MULTILINE)
# LibCST needs about 600 bytes of memory and 18 us of time per byte of source: a 10 MB
# file takes 3 minutes and 6 GB. The largest hand-written modules of Django, SymPy,
# pandas or SciPy are under 0.5 MB; bigger files with legacy tokens are refused.
MAX_PARSE_BYTES = 2 * 1024 * 1024


def parse_for_screening(source: bytes):
    """CPython's (fast) tree of `source`, or None when CPython finds a syntax error that
    LibCST may report itself. Raises SourceError for input LibCST must not be given."""
    import ast
    import warnings

    if len(source) > MAX_PARSE_BYTES:
        raise SourceError(
            f"too large to analyse: {len(source) / 2**20:.1f} MiB (the limit is {MAX_PARSE_BYTES // 2**20} MiB)"
        )
    try:
        with warnings.catch_warnings():  # `"\d"` and the like: not ours to report
            warnings.simplefilter("ignore")
            return compile(source, "<source>", "exec", dont_inherit=True, flags=ast.PyCF_ONLY_AST)
    except SyntaxError as error:
        # LibCST reports syntax errors itself (and reads syntax newer than this Python),
        # unless the source may be deep enough to crash it.
        if _bracket_depth(source) > _MAX_NESTING or _chain_bound(source) > _MAX_DEPTH:
            raise SourceError(f"syntax error at line {error.lineno}: {error.msg}") from None
        return None
    except (RecursionError, MemoryError):
        raise SourceError("too deeply nested to parse") from None
    except ValueError as error:
        raise SourceError(f"cannot parse: {error}") from None


def check_depth(tree, source: bytes) -> None:
    """Raise SourceError when LibCST's tree of `source` would nest too deeply to parse safely."""
    if _nesting_depth(tree, source) > _MAX_DEPTH:
        raise SourceError(f"too deeply nested to analyse (more than {_MAX_DEPTH} levels)")


def _bracket_depth(source: bytes) -> int:
    depth = deepest = 0
    for match in _BRACKET.finditer(source):
        depth += 1 if match.group()[0] in _OPENERS else -1
        deepest = max(deepest, depth)
    return deepest


def _chain_bound(source: bytes) -> int:
    """A rough upper bound of how deep the source may nest: the most chain tokens in
    one logical line (brackets and backslashes join lines), or the number of `elif`s."""
    worst = len(_ELIF.findall(source))
    run = balance = 0
    for line in source.split(b"\n"):
        run += len(_CHAIN_TOKEN.findall(line))
        balance += sum(line.count(c) for c in (b"(", b"[", b"{")) - sum(line.count(c) for c in (b")", b"]", b"}"))
        balance = max(balance, 0)
        worst = max(worst, run)
        if balance == 0 and not line.rstrip().endswith(b"\\"):
            run = 0
    return worst


def _nesting_depth(tree, source: bytes) -> int:
    """How deep LibCST's tree of `source` goes, stopping past _MAX_DEPTH: as deep as
    CPython's, but LibCST nests what CPython keeps flat: `a and b and c` (one level per
    operator) and implicitly concatenated strings (one level per string)."""
    import ast

    pieces = _StringPieces(source)
    deepest = 0
    stack = [(tree, 0, False)]
    while stack:
        node, depth, in_fstring = stack.pop()
        depth += 1
        if isinstance(node, ast.BoolOp):
            depth += len(node.values) - 2
        elif isinstance(node, (ast.Constant, ast.JoinedStr)) and not in_fstring:
            if isinstance(node, ast.JoinedStr) or isinstance(node.value, (str, bytes)):
                depth += pieces.count(node, _MAX_DEPTH - depth) - 1
        if depth > deepest:
            deepest = depth
            if deepest > _MAX_DEPTH:
                return deepest
        inside = in_fstring or isinstance(node, ast.JoinedStr)
        stack.extend((child, depth, inside) for child in ast.iter_child_nodes(node))
    return deepest


class _StringPieces:
    """How many literals an implicit concatenation (`"a" "b"`) is made of, counted only
    for the few long ones that could matter."""

    def __init__(self, source: bytes) -> None:
        self._source = source
        self._utf8: bytes | None = None
        self._line_starts: list[int] = []

    def count(self, node, budget: int) -> int:
        if node.end_lineno == node.lineno and node.end_col_offset - node.col_offset < 2 * max(budget, 1):
            return 1  # too short to hold more pieces than the budget
        segment = self._segment(node)
        if segment.count(b'"') + segment.count(b"'") < 2 * max(budget, 1):
            return 1  # ditto
        import io
        import tokenize

        # Python 3.12+ tokenizes an f-string in parts, from an FSTRING_START.
        starts = {tokenize.STRING, getattr(tokenize, "FSTRING_START", tokenize.STRING)}
        try:
            tokens = tokenize.tokenize(io.BytesIO(b"(" + segment + b")").readline)
            return max(1, sum(token.type in starts for token in tokens))
        except (tokenize.TokenError, SyntaxError):
            return segment.count(b'"') + segment.count(b"'")  # an upper bound

    def _segment(self, node) -> bytes:
        if self._utf8 is None:
            encoding = source_encoding(self._source)
            self._utf8 = self._source.decode(encoding).encode("utf-8")  # ast offsets are UTF-8
            offset = 0
            for line in self._utf8.splitlines(keepends=True):  # \n, \r\n and \r, as CPython
                self._line_starts.append(offset)
                offset += len(line)
            self._line_starts.append(offset)
        try:
            start = self._line_starts[node.lineno - 1] + node.col_offset
            end = self._line_starts[node.end_lineno - 1] + node.end_col_offset
        except IndexError:
            return self._utf8
        return self._utf8[start:end]


def analyze_source(
    source: bytes,
    *,
    path: str,
    fix: bool = True,
    settings: RuleSettings = DEFAULT_SETTINGS,
    report_unused_suppressions: bool = False,
    modules: ModuleSource | None = None,
    project: ProjectFacts | None = None,
) -> SourceAnalysis:
    """Analyse one file's bytes; with `fix=False` the fixed source is not computed.

    `modules` finds the source of modules the file imports (`engine/modules.py`), for
    rules that read a base class defined in another file; without it they read none.
    `project`: what the run decided about the whole project (`engine/project.py`);
    without it, rules that depend on it say so (`SourceAnalysis.needs_project`).

    Only the rules `settings` enables run, and findings silenced by a suppression
    comment are dropped together with their edits (`engine/suppressions.py`).
    Raises SourceError when the file cannot be analysed.
    """
    encoding = check_decodable(source)
    candidate = may_contain_legacy(source)
    # The hot path: a file without a token has nothing to report, unless unused
    # suppression comments are asked for.
    if not candidate and not report_unused_suppressions:
        return SourceAnalysis(encoding=encoding)
    suffix = os.path.splitext(path)[1].lower()
    document = suffix not in PYTHON_SUFFIXES and suffix in _document_suffixes()
    report_filter = ReportFilter.for_source(source, encoding, settings, python=not document)
    if not candidate:
        analysis = SourceAnalysis(encoding=encoding)
    elif document:
        from acp_migrate.rules import ALL_RULES

        document_rules = [rule for rule in ALL_RULES if suffix in rule.suffixes and settings.enabled(rule.code)]
        analysis = _analyze_document(
            source.decode(encoding), document_rules, path=path, encoding=encoding, report_filter=report_filter
        )
    else:
        analysis = _analyze_candidate(
            source,
            path=path,
            fix=fix,
            encoding=encoding,
            settings=settings,
            report_filter=report_filter,
            modules=modules,
            project=project,
        )
    if report_unused_suppressions:
        unused = report_filter.unused(path)
        analysis.findings = sorted([*analysis.findings, *unused], key=Finding.sort_key)
        analysis.remaining = sorted([*analysis.remaining, *unused], key=Finding.sort_key)
    return analysis


def _same_line(line: int) -> int:
    return line


def _counterparts(module, tree, statements) -> set:
    """The LibCST top-level statements of `module` for CPython's `statements` of `tree`
    (one compound statement each; a simple statement line holds one per small
    statement). Empty if the two bodies do not line up."""
    import ast

    import libcst as cst

    wanted = {id(statement) for statement in statements}
    found = set()
    index = 0
    for statement in module.body:
        if index >= len(tree.body):
            return set()
        if isinstance(statement, cst.SimpleStatementLine):
            index += len(statement.body)
            continue
        counterpart = tree.body[index]
        if id(counterpart) in wanted:
            expected = cst.ClassDef if isinstance(counterpart, ast.ClassDef) else cst.FunctionDef
            if not isinstance(statement, expected):
                return set()
            found.add(statement)
        index += 1
    return found if index == len(tree.body) else set()


def _document_suffixes() -> frozenset[str]:
    from acp_migrate.engine.discover import SOURCE_SUFFIXES

    return frozenset(SOURCE_SUFFIXES) - frozenset(PYTHON_SUFFIXES)


def _analyze_document(text: str, rules, *, path: str, encoding: str, report_filter: ReportFilter) -> SourceAnalysis:
    """Report-only rules over a non-Python document (Markdown)."""
    findings = sorted(
        (
            Finding(
                path=path,
                line=line,
                column=column,
                end_line=line,
                end_column=end_column,
                code=rule.code,
                message=message,
                fixable=False,
            )
            for rule in rules
            for line, column, end_column, message in rule.find(text)
        ),
        key=Finding.sort_key,
    )
    findings = [f for f in findings if report_filter.keep(f)]
    return SourceAnalysis(findings=findings, remaining=findings, encoding=encoding)


def preload_analysis() -> None:
    """Import what parsing a candidate needs (LibCST, its native parser, the rules),
    so that processes forked afterwards start with it."""
    import libcst.native  # noqa: F401  (loaded at the first parse otherwise: 2 ms per worker)

    import acp_migrate.cst.positions  # noqa: F401
    import acp_migrate.engine.cleanup  # noqa: F401
    import acp_migrate.engine.hollow  # noqa: F401
    import acp_migrate.engine.traversal  # noqa: F401
    import acp_migrate.rules  # noqa: F401


def _analyze_candidate(
    source: bytes,
    *,
    path: str,
    fix: bool,
    encoding: str,
    settings: RuleSettings,
    report_filter: ReportFilter,
    modules: ModuleSource | None,
    project: ProjectFacts | None,
) -> SourceAnalysis:
    import libcst as cst

    from acp_migrate.cst.names import mentions
    from acp_migrate.cst.positions import positions_of
    from acp_migrate.cst.walk import walk
    from acp_migrate.engine.cleanup import may_orphan_imports, remove_orphaned_imports
    from acp_migrate.engine.hollow import hollow_out, irrelevant_definitions
    from acp_migrate.engine.traversal import EditApplier, RuleDispatcher
    from acp_migrate.rules import NAMES_LOOKED_UP, PYTHON_RULES
    from acp_migrate.rules.base import Edits, FileContext, Report

    tree = parse_for_screening(source)
    parsed = source
    original_line = _same_line  # of a line of `parsed`
    if tree is not None and not fix:
        # check reports without editing: LibCST need not parse what cannot matter. The
        # hollowed source is shorter (hollow.py): its lines map back to the original's.
        hollowed = hollow_out(source, tree, NAMES_LOOKED_UP)
        try:
            hollow_tree = parse_for_screening(hollowed.source) if hollowed is not None else None
        except SourceError:
            hollow_tree = None
        if hollow_tree is not None:  # (it always parses; the whole source is the fallback)
            parsed, tree, original_line = hollowed.source, hollow_tree, hollowed.original_line
    if tree is not None:
        check_depth(tree, parsed)
    try:
        module = cst.parse_module(parsed)
    except cst.ParserSyntaxError as error:
        message = " ".join(error.message.split())
        line = original_line(error.raw_line)
        raise SourceError(f"syntax error at line {line}, column {error.raw_column + 1}: {message}") from None
    except RecursionError:
        raise SourceError("too deeply nested to parse") from None

    # fix and diff need the whole tree to write it back, but no rule needs to look inside
    # the definitions check would have hollowed out (hollow.py).
    skipped = _counterparts(module, tree, irrelevant_definitions(parsed, tree)) if fix and tree is not None else set()
    positions: dict = {}  # report node -> its range, computed only for reports

    def finding(report: Report) -> Finding:
        if report.node not in positions:
            positions.update(positions_of(module, [report.node]))
        where = positions[report.node]
        return Finding(
            path=path,
            line=original_line(where.start.line),
            column=where.start.column + 1,
            end_line=original_line(where.end.line),
            end_column=where.end.column + 1,
            code=report.code,
            message=report.message,
            fixable=report.fixable,
        )

    def dropped(node: cst.CSTNode, code: str) -> bool:
        # Asked by a rule before it acts beyond its own report (a rewire is done once per
        # class): a report that will be dropped below must not act at all.
        return report_filter.may_drop(code) and not report_filter.keep(finding(Report(node, code, "", False)))

    context = FileContext(module, settings, dropped=dropped, modules=modules, project=project, path=path)
    rules = [rule(context) for rule in PYTHON_RULES if settings.enabled(rule.code)]
    try:
        walk(module, RuleDispatcher(context, rules, skip=skipped))
    except RecursionError:
        raise SourceError("too deeply nested to analyse") from None
    if not context.reports:
        return SourceAnalysis(encoding=module.encoding, needs_project=context.needs_project)

    # One code generation for the positions of every report (and follow-up) left.
    nodes = [r.node for r in context.reports] + [f.node for r in context.reports for f in r.followups]
    missing = [node for node in nodes if node not in positions]
    if missing:
        positions.update(positions_of(module, missing))

    # Disabled and suppressed reports go before any edit is applied, and their edits with them.
    kept = [(r, found) for r in context.reports if report_filter.keep(found := finding(r))]
    reports = [r for r, _ in kept]
    findings = sorted((found for _, found in kept), key=Finding.sort_key)
    # What a person must still do: the findings fix leaves, each explained by its
    # follow-ups when it has some (ACP005 says why a list could not be moved).
    explained = {id(r): [found for f in r.followups if report_filter.keep(found := finding(f))] for r in reports}
    followups = [found for r in reports for found in explained[id(r)]]
    remaining = sorted(
        [found for r, found in kept if not r.fixable and not explained[id(r)]] + followups, key=Finding.sort_key
    )
    edits = Edits.merge([r.edits for r in reports] + [context.pending_edits()])
    fixed_source = None
    if fix and edits:
        fixed = module.visit(EditApplier(edits, context.parents))
        if may_orphan_imports(edits, context.imports.bindings):
            fixed = remove_orphaned_imports(fixed, mentions(module), keep=edits.keep_imported)
        new_bytes = fixed.bytes
        fixed_source = new_bytes if new_bytes != source else None
    kept_reports = {id(r) for r in reports}
    callers = [
        (finding(r), None if id(r) in kept_reports and r.fixable else "not fixable" if id(r) in kept_reports else "suppressed")
        for r in context.reports
        if r.caller
    ]
    return SourceAnalysis(
        findings=findings,
        fixed_source=fixed_source,
        remaining=remaining,
        encoding=module.encoding,
        callers=callers,
        needs_project=context.needs_project,
    )
