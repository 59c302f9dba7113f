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

PYTHON_SUFFIXES = (".py", ".pyi")
_BOM = codecs.BOM_UTF8
# PEP 263: the cookie must be on line 1 or 2.
_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.MULTILINE)


def source_encoding(source: bytes) -> str:
    """The encoding Python would read `source` with (BOM, PEP 263 cookie, else UTF-8)."""
    if source.startswith(_BOM):
        return "utf-8-sig"
    head = b"\n".join(source.split(b"\n", 2)[:2])
    match = _COOKIE.search(head)
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


def check_nesting(source: bytes) -> None:
    depth = deepest = 0
    for match in _BRACKET.finditer(source):
        depth += 1 if match.group()[0] in _OPENERS else -1
        deepest = max(deepest, depth)
    if deepest <= _MAX_NESTING:
        return
    try:  # brackets inside strings may have inflated the count: ask CPython
        compile(source, "<source>", "exec", dont_inherit=True, flags=0x400)  # ast.PyCF_ONLY_AST
    except SyntaxError as error:
        raise SourceError(f"syntax error at line {error.lineno}: {error.msg}") from None
    except (ValueError, RecursionError, MemoryError) as error:
        raise SourceError(f"cannot parse: {error}") from None


def analyze_source(
    source: bytes,
    *,
    path: str,
    fix: bool = True,
    settings: RuleSettings = DEFAULT_SETTINGS,
    report_unused_suppressions: bool = False,
) -> SourceAnalysis:
    """Analyse one file's bytes; with `fix=False` the fixed source is not computed.

    Only the rules `settings` enables run, and findings silenced by a suppression
    comment are dropped together with their edits (`engine/suppressions.py`).
    Raises SourceError when the file cannot be analysed.
    """
    encoding = check_decodable(source)
    suffix = os.path.splitext(path)[1].lower()
    document = suffix not in PYTHON_SUFFIXES and suffix in _document_suffixes()
    report_filter = ReportFilter.for_source(source, encoding, settings, python=not document)
    if not may_contain_legacy(source):
        analysis = SourceAnalysis(encoding=encoding)
    elif document:
        from acp_migrate.rules import ALL_RULES

        document_rules = [rule for rule in ALL_RULES if suffix in rule.suffixes and settings.enabled(rule.code)]
        analysis = _analyze_document(
            source.decode(encoding), document_rules, path=path, encoding=encoding, report_filter=report_filter
        )
    else:
        analysis = _analyze_candidate(
            source, path=path, fix=fix, encoding=encoding, settings=settings, report_filter=report_filter
        )
    if report_unused_suppressions:
        unused = report_filter.unused(path)
        analysis.findings = sorted([*analysis.findings, *unused], key=Finding.sort_key)
        analysis.remaining = sorted([*analysis.remaining, *unused], key=Finding.sort_key)
    return analysis


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


def _analyze_candidate(
    source: bytes, *, path: str, fix: bool, encoding: str, settings: RuleSettings, report_filter: ReportFilter
) -> SourceAnalysis:
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    from acp_migrate.cst.names import mentions
    from acp_migrate.engine.cleanup import remove_orphaned_imports
    from acp_migrate.engine.traversal import EditApplier, RuleDispatcher
    from acp_migrate.rules import PYTHON_RULES
    from acp_migrate.rules.base import Edits, FileContext

    check_nesting(source)
    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError as error:
        message = " ".join(error.message.split())
        raise SourceError(f"syntax error at line {error.raw_line}, column {error.raw_column + 1}: {message}") from None
    except RecursionError:
        raise SourceError("too deeply nested to parse") from None

    context = FileContext(module, settings)
    rules = [rule(context) for rule in PYTHON_RULES if settings.enabled(rule.code)]
    try:
        module.visit(RuleDispatcher(context, rules))
    except RecursionError:
        raise SourceError("too deeply nested to analyse") from None
    if not context.reports:
        return SourceAnalysis(encoding=module.encoding)

    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)

    def finding(report) -> Finding:
        where = positions[report.node]
        return Finding(
            path=path,
            line=where.start.line,
            column=where.start.column + 1,
            end_line=where.end.line,
            end_column=where.end.column + 1,
            code=report.code,
            message=report.message,
            fixable=report.fixable,
        )

    # Disabled and suppressed reports go before any edit is applied, and their edits with them.
    reports = [r for r in context.reports if report_filter.keep(finding(r))]
    findings = sorted((finding(r) for r in reports), key=Finding.sort_key)
    remaining = sorted(
        [finding(r) for r in reports if not r.fixable]
        + [finding(f) for r in reports if r.fixable for f in r.followups if report_filter.keep(finding(f))],
        key=Finding.sort_key,
    )
    edits = Edits.merge([r.edits for r in reports] + [context.unreported_edits()])
    fixed_source = None
    if fix and edits:
        fixed = module.visit(EditApplier(edits))
        fixed = remove_orphaned_imports(fixed, mentions(module), keep=edits.keep_imported)
        new_bytes = fixed.bytes
        fixed_source = new_bytes if new_bytes != source else None
    return SourceAnalysis(
        findings=findings, fixed_source=fixed_source, remaining=remaining, encoding=module.encoding
    )
