"""Per-source analysis: prefilter, screen, parse once, run every rule in one traversal, apply edits.

LibCST is imported only when a file passes the byte prefilter and the screen (the
rules' declarations do not need it), so a clean run costs little more than reading the files.
"""

from __future__ import annotations

import codecs
import os
import re

from acp_migrate.engine.analysis.prefilter import first_trigger, may_contain_legacy
from acp_migrate.engine.analysis.screen import (
    MAX_SCREEN_BYTES,
    MAX_SCREEN_COST,
    costs_at_most,
    first_site,
    may_report,
    parse_cost,
    within_screen_limits,
)
from acp_migrate.engine.analysis.suppressions import ReportFilter
from acp_migrate.findings import Finding, SourceAnalysis, SourceError
from acp_migrate.settings import DEFAULT_SETTINGS, Gathered, RuleSettings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from acp_migrate.rules.context import ModuleSource
    from acp_migrate.sdk import Target
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
        codec = codecs.lookup(name)
    except LookupError:
        raise SourceError(f"unknown encoding {name!r} in the coding cookie: name a text encoding, such as utf-8") from None
    try:
        "".encode(codec.name)  # a bytes-to-bytes codec (`hex`, `rot13`) refuses
    except LookupError:
        raise SourceError(
            f"the coding cookie names {name!r}, which is not a text encoding (Python cannot read the file either):"
            " name a text encoding, such as utf-8"
        ) from None
    return codec.name


class UndecodableSource(SourceError):
    """Bytes that are not text in the file's encoding (a latin-1 file without a cookie):
    a warning when no legacy token is in them (`analyze_source`), else an error."""


def check_decodable(source: bytes) -> str:
    """Raise SourceError unless `source` is text Python could read (UndecodableSource
    when its bytes do not decode); return its encoding."""
    if b"\0" in source:
        raise SourceError("binary file: contains NUL bytes")
    encoding = source_encoding(source)
    if encoding == "utf-8" and source.isascii():  # most files: ASCII is UTF-8
        return encoding
    try:
        text = source.decode(encoding)
    except UnicodeDecodeError as error:
        line = source.count(b"\n", 0, error.start) + 1
        raise UndecodableSource(f"cannot decode as {encoding} at line {line}: {error.reason}") from None
    # fix writes the text back in its encoding: one that does not give the same bytes
    # (`unicode_escape` turns line breaks into `\n`) would rewrite the whole file.
    if encoding not in ("utf-8", "utf-8-sig") and text.encode(encoding) != source:
        raise UndecodableSource(
            f"{encoding} does not encode the file's text back to its bytes (fix could not keep them):"
            " re-encode the file as UTF-8 and drop its coding cookie"
        )
    return encoding


# CPython refuses more nesting than this, and LibCST's native parser overflows its
# stack (killing the process) a few thousand levels deep: never hand it such input.
_MAX_NESTING = 200
# Chains nest as deep as brackets, without any: `not not ... x`, `-----x`, `a + a + ...`,
# `a.b.c...`, `f()()...`, `x if c else y if c else ...`, `lambda: lambda: ...`, elif
# chains, `a and b and ...`, `"a" "b" ...`. LibCST's visitors give up near 325 levels
# (RecursionError, reported), but its native parser crashes the process, or runs for
# minutes, a few thousand levels deep (1000 levels already cost it seconds). CPython's
# parser measures them first: it fails cleanly (MemoryError, RecursionError) where
# LibCST's would crash; when CPython cannot read the file, its tokens do (_token_depth).
_MAX_DEPTH = 300
# LibCST needs about 600 bytes of memory and 18 us of time per byte of source: a 10 MB
# file takes 3 minutes and 6 GB. The largest hand-written modules of Django, SymPy,
# pandas or SciPy are under 0.5 MB; bigger files with legacy tokens are screened only
# (screen.py), and refused when they hold a site.
MAX_PARSE_BYTES = 2 * 1024 * 1024
# Its memory follows the tokens, not the bytes (screen.parse_cost): up to 3.5 kB a token
# (`f(a,a,...)`), a line costing about three (`a;a;...` and `a\na\n...` need 1 GB for
# 200 kB, where a real module needs 0.4 GB for 1 MB), and its native parser aborts the
# process when memory runs out. Measured under a 1.5 GB address-space cap (a CI job's):
# 400,000 units peak at 1.4 GB; a real module is one unit per 2.8 to 3.3 bytes.
MAX_PARSE_COST = 300_000


def within_parse_limits(source: bytes) -> bool:
    return len(source) <= MAX_PARSE_BYTES and costs_at_most(source, MAX_PARSE_COST)


def _too_large(source: bytes, sdk: Target | None) -> str:
    """Why `source`, beyond LibCST's limits, is not analysed, and where it holds what a
    rule could report on (the screen passed it; where the screen cannot say, a trigger)."""
    if len(source) > MAX_PARSE_BYTES:
        size = f"{len(source) / 2**20:.1f} MiB (the limit is {MAX_PARSE_BYTES // 2**20} MiB)"
    else:
        cost = f"about {parse_cost(source):,} tokens and lines"
        size = f"{cost} (the limit is {MAX_PARSE_COST:,}, what the parser's memory allows)"
    site = first_site(source, sdk)
    if site is not None and site.line is not None:
        where = f"line {site.line} holds `{site.word}` in its code"
    else:
        offset, token = first_trigger(source, sdk)
        line = source.count(b"\n", 0, offset) + 1
        where = f"line {line} holds `{token.decode()}`"
        if not within_screen_limits(source):
            limits = f"{MAX_SCREEN_BYTES // 2**20} MiB and {MAX_SCREEN_COST:,} tokens and lines"
            where += f", and it is too large to screen as well (the limits are {limits})"
    return f"too large to analyse: {size}; {where}: split the file, or exclude it (`extend-exclude`)"


def parse_for_screening(source: bytes):
    """(CPython's fast tree of `source`, None), or (None, CPython's SyntaxError) when
    CPython cannot read it: a mistake, or syntax newer than this Python, which LibCST
    may read (it judges; `syntax_error` picks whose error to report). Raises
    SourceError for input LibCST must not be given (`source` is within its limits)."""
    import ast
    import warnings

    try:
        with warnings.catch_warnings():  # `"\d"` and the like: not ours to report
            warnings.simplefilter("ignore")
            return compile(source, "<source>", "exec", dont_inherit=True, flags=ast.PyCF_ONLY_AST), None
    except SyntaxError as error:
        # Without CPython's tree, the tokens bound how deep LibCST's would go.
        brackets, levels, stop = _token_depth(source)
        if brackets > _MAX_NESTING or levels > _MAX_DEPTH:
            raise SourceError(f"too deeply nested to analyse (more than {_MAX_DEPTH} levels)") from None
        if stop is not None:
            # The tokenizer stopped at a lexical mistake: past it the depth is unknown, so
            # LibCST is not asked. The mistake is CPython's error, unless CPython stopped
            # before it at syntax newer than its grammar (see syntax_error).
            line, message = stop
            if error.lineno is not None and error.lineno < line and _stopped_at_newer_syntax(source, error):
                raise SourceError(f"syntax error at line {line}: {message}") from None
            raise SourceError(_cpython_syntax_error(source, error)) from None
        return None, error
    except (RecursionError, MemoryError):
        raise SourceError("too deeply nested to parse") from None
    except ValueError as error:
        raise SourceError(f"cannot parse: {error}") from None


def check_depth(tree, source: bytes) -> None:
    """Raise SourceError when LibCST's tree of `source` would nest too deeply to parse safely."""
    if _nesting_depth(tree, source) > _MAX_DEPTH:
        raise SourceError(f"too deeply nested to analyse (more than {_MAX_DEPTH} levels)")


# Keywords that may each add a level to an expression (`not not x`, `a if b else c if
# ...`, nested comprehension clauses, `lambda: lambda: ...`, `await await x`); every
# operator may too, but `:` (a lambda's level is its keyword's; slices, dict entries
# and annotations do not nest).
_NESTING_KEYWORDS = frozenset({"not", "and", "or", "if", "for", "lambda", "await", "yield"})
# Before Python 3.12 an f-string is one token: what may nest inside it, counted.
_FSTRING_LEVEL = re.compile(r"""[-+*/%@&|^~<>.!=:"'(\[{]|\b(?:not|and|or|if|lambda|await)\b""")
_FSTRING_PREFIX = re.compile(r"[A-Za-z]*[fF][A-Za-z]*['\"]")
_OPEN, _CLOSE, _SIBLING = frozenset("([{"), frozenset(")]}"), frozenset(",;")


def _tokens(source: bytes):
    """The text `source` is tokenized as (every line break made a line feed: CPython counts
    a lone carriage return as one too, so rows are CPython's line numbers) and Python's
    tokens of it (a generator)."""
    import io
    import tokenize

    text = source.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return text, tokenize.tokenize(io.BytesIO(text).readline)


def _token_depth(source: bytes) -> tuple[int, int, tuple[int, str] | None]:
    """(bracket depth, an upper bound of how deep LibCST's tree nests, where the tokenizer
    stopped if it did before the end: (line, message)) from the tokens of `source`, for
    when CPython cannot give its tree.

    A level per indentation (two: block and statement), per `elif` of a chain, per
    bracket, and per operator or nesting keyword of one item: within brackets a comma
    starts a sibling, so long literals and argument lists stay shallow, while a chain
    (`a.b(c).d(e)...`, `-----x`, `"a" "b" ...`) counts each link."""
    import tokenize

    string_starts = {tokenize.STRING, getattr(tokenize, "FSTRING_START", -1), getattr(tokenize, "TSTRING_START", -1)}
    string_ends = {tokenize.STRING, getattr(tokenize, "FSTRING_END", -1), getattr(tokenize, "TSTRING_END", -1)}
    skipped = {tokenize.NL, tokenize.COMMENT, tokenize.ENCODING, tokenize.ENDMARKER}
    blocks = [0]  # per indentation level: the length of its elif chain
    frames: list[tuple[int, int]] = []  # per open bracket: the (base, run) around it
    base = run = statement = 0  # depth of the current item = statement + base + run
    deepest = brackets = 0
    line_start, previous = True, None
    _, tokens = _tokens(source)
    try:
        for token in tokens:
            kind, string = token.type, token.string
            if kind == tokenize.INDENT:
                blocks.append(0)
            elif kind == tokenize.DEDENT:
                if len(blocks) > 1:
                    blocks.pop()
            elif kind == tokenize.NEWLINE:
                frames.clear()
                base = run = 0
                line_start, previous = True, None
            elif kind not in skipped:
                if line_start:
                    line_start = False
                    if string == "elif":
                        blocks[-1] += 1
                    elif string != "else":
                        blocks[-1] = 0
                    statement = 2 * len(blocks) + sum(blocks)
                hidden = 0
                if kind == tokenize.OP and string in _OPEN:
                    run += 1
                    frames.append((base, run))
                    base, run = base + run, 0
                    brackets = max(brackets, len(frames))
                elif kind == tokenize.OP and string in _CLOSE:
                    if frames:
                        base, run = frames.pop()
                elif kind == tokenize.OP and string in _SIBLING:
                    run = 0
                elif kind in string_starts:
                    run += previous in string_ends  # implicit concatenation nests
                    if kind == tokenize.STRING and _FSTRING_PREFIX.match(string):
                        hidden = len(_FSTRING_LEVEL.findall(string))
                elif kind == tokenize.OP or kind == tokenize.ERRORTOKEN or string in _NESTING_KEYWORDS:
                    run += string != ":"
                previous = kind
                deepest = max(deepest, statement + base + run + hidden)
    except tokenize.TokenError as error:
        # Brackets left open at the end (a mistake LibCST sees too): every token was seen.
        if "EOF in multi-line statement" not in str(error.args[0]):
            return brackets, deepest, (error.args[1][0], str(error.args[0]))
    except SyntaxError as error:  # IndentationError
        return brackets, deepest, (error.lineno or 1, error.msg)
    return brackets, deepest, None


def syntax_error(source: bytes, cpython_error: SyntaxError | None, libcst_error, original_line=None) -> str:
    """The reason for a file LibCST cannot parse. CPython's error (`cpython_error`, None
    when CPython read the file) has the better position and message, and is believed
    when LibCST fails too, unless CPython stopped at syntax newer than its grammar:
    LibCST reads the file up to the end of the logical line CPython stopped at (a block
    header given a `...` body), so the mistake is further on, where LibCST saw it.
    (CPython's grammar is older than LibCST's, never newer: what CPython reads before
    its error, LibCST reads too.)"""
    if cpython_error is not None and not _stopped_at_newer_syntax(source, cpython_error):
        return _cpython_syntax_error(source, cpython_error)
    # LibCST's own position is in its message, a token past the mistake ("error at
    # 3:4: ...", column 0-based); its raw_line can be one line further still.
    message = " ".join(libcst_error.message.split())
    where = _LIBCST_AT.search(message)
    if where is not None:
        line, column, message = int(where.group(1)), int(where.group(2)) + 1, message[where.end() :]
    elif message.startswith("tokenizer error: "):  # no position: LibCST's says line 1
        return f"syntax error: {message[len('tokenizer error: ') :]}"
    else:
        line, column = libcst_error.raw_line, libcst_error.raw_column + 1
    if original_line is not None:
        line = original_line(line)
    return f"syntax error at line {line}, column {column}: {message}"


_LIBCST_AT = re.compile(r"^(?:parser error: )?error at (\d+):(\d+): ")


def _cpython_syntax_error(source: bytes, error: SyntaxError) -> str:
    import sys

    if not source.isascii() and sys.version_info < (3, 13):
        # Before 3.13 CPython counts the columns of UTF-8 bytes in bytes; in the text, in
        # characters (as LibCST's and our findings' columns are).
        import ast

        text = source.decode(source_encoding(source))
        try:
            compile(text, "<source>", "exec", dont_inherit=True, flags=ast.PyCF_ONLY_AST)
        except SyntaxError as text_error:
            error = text_error
        except (ValueError, RecursionError, MemoryError):
            pass
    if error.lineno is None:
        return f"syntax error: {error.msg}"
    column = f", column {error.offset}" if error.offset else ""
    return f"syntax error at line {error.lineno}{column}: {error.msg}"


def _stopped_at_newer_syntax(source: bytes, error: SyntaxError) -> bool:
    """Whether LibCST reads `source` up to the end of the logical line holding CPython's
    error (see syntax_error): then CPython stopped at syntax newer than its grammar."""
    import tokenize

    import libcst as cst

    if error.lineno is None:
        return False
    text, tokens = _tokens(source)
    first = last = None  # the first and last significant tokens of the logical line
    try:
        for token in tokens:
            if token.type in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING):
                continue
            if token.type == tokenize.NEWLINE:
                if token.start[0] >= error.lineno:
                    break
                first = last = None
                continue
            if token.type == tokenize.ENDMARKER:
                return False  # the whole file, which LibCST does not read
            first, last = first or token, token
        else:
            return False
    except (tokenize.TokenError, SyntaxError):
        return False
    lines = text.splitlines(keepends=True)
    prefix = b"".join(lines[: token.start[0]])
    if first is not None and last.type == tokenize.OP and last.string == ":":
        indent = first.line[: first.start[1]].encode()
        if not prefix.endswith(b"\n"):
            prefix += b"\n"
        prefix += indent + (b"\t" if b"\t" in indent else b"    ") + b"...\n"
    try:
        cst.parse_module(prefix)
    except (cst.ParserSyntaxError, RecursionError):
        return False
    return True


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

    `modules` finds the source of modules the file imports (`engine/execution/modules.py`), for
    rules that read a base class defined in another file; without it they read none.
    `project`: what the run decided about the whole project (`engine/execution/project.py`);
    without it, rules that depend on it say so (`SourceAnalysis.needs_project`).

    Only the rules `settings` enables run, and findings silenced by a suppression
    comment are dropped together with their edits (`engine/analysis/suppressions.py`).
    Raises SourceError when the file cannot be analysed; one whose bytes do not decode
    (UndecodableSource) without a token of a rule reading it gives `SourceAnalysis.warning` instead.
    """
    suffix = os.path.splitext(path)[1].lower()
    candidate = may_contain_legacy(source, settings.sdk, suffix)
    try:
        encoding = check_decodable(source)
    except UndecodableSource as error:
        if candidate:
            raise
        # Nothing in it to migrate: say it was not read, without failing the run (ruff warns).
        return SourceAnalysis(warning=error.reason)
    # The hot path: a file without a token has nothing to report, unless unused
    # suppression comments are asked for.
    if not candidate and not report_unused_suppressions:
        return SourceAnalysis(encoding=encoding)
    document = suffix not in PYTHON_SUFFIXES and suffix in _document_suffixes()
    report_filter = ReportFilter.for_source(source, encoding, settings, python=not document)
    vendored = candidate and _is_vendored_runtime(source)
    if not candidate:
        analysis = SourceAnalysis(encoding=encoding)
    elif vendored:
        analysis = _analyze_vendored(source, path=path, encoding=encoding, settings=settings, report_filter=report_filter)
    elif document:
        from acp_migrate.rules import ALL_RULES

        document_rules = [
            rule
            for rule in ALL_RULES
            if suffix in rule.suffixes and not rule.census and rule.runs_with(settings) and rule.reads_path(path)
        ]
        analysis = _analyze_document(
            source.decode(encoding),
            document_rules,
            path=path,
            fix=fix,
            encoding=encoding,
            settings=settings,
            report_filter=report_filter,
        )
    elif not may_report(source, settings.sdk):
        # The screen: no construct a rule reports on (a token only in prose, say).
        analysis = SourceAnalysis(encoding=encoding)
    elif not within_parse_limits(source):
        raise SourceError(_too_large(source, settings.sdk))
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
    # After the rules, the census: what no rule explains (fix's read-back takes it again).
    if candidate and not vendored and not analysis.deleted:
        text = source.decode(encoding)
        _take_census(analysis, text, suffix, path=path, settings=settings, report_filter=report_filter, modules=modules)
    if report_unused_suppressions:
        unused = report_filter.unused(path)
        analysis.findings = sorted([*analysis.findings, *unused], key=Finding.sort_key)
        analysis.remaining = sorted([*analysis.remaining, *unused], key=Finding.sort_key)
    return analysis


def _take_census(
    analysis: SourceAnalysis,
    text: str,
    suffix: str,
    *,
    path: str,
    settings: RuleSettings,
    report_filter: ReportFilter,
    modules: ModuleSource | None,
) -> None:
    """Add to `analysis` a finding for each mention of a census rule's words that no
    finding of it covers and no context the rule declares explains (census.py)."""
    from acp_migrate.engine.analysis.census import census_mentions, uncovered
    from acp_migrate.rules import CENSUS_RULES

    def imported(module: str) -> bytes | None:
        found = modules(module, None) if modules is not None else None
        return found[1] if found is not None else None

    covered = [(finding.line, finding.end_line) for finding in analysis.findings]
    for rule in CENSUS_RULES:
        if suffix not in rule.suffixes or not settings.enabled(rule.code) or not rule.reads_path(path):
            continue
        mentions = census_mentions(
            text, suffix, rule.screen_words or frozenset(), rule.screen_harmless, rule.census_splats, imported
        )
        for line, column, end_column, note in uncovered(mentions, covered):
            message = f"{rule.summary}: {note}" if note else rule.summary
            found = Finding(path, line, column, line, end_column, rule.code, message, False)
            if report_filter.keep(found):
                analysis.findings.append(found)
                analysis.remaining.append(found)
    analysis.findings.sort(key=Finding.sort_key)
    analysis.remaining.sort(key=Finding.sort_key)


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
    from acp_migrate.rules import SUFFIXES

    return frozenset(SUFFIXES) - frozenset(PYTHON_SUFFIXES)


def _is_vendored_runtime(source: bytes) -> bool:
    from acp_migrate.vendor import MARKER

    return source.removeprefix(_BOM).startswith(MARKER.encode())


def _analyze_vendored(
    source: bytes, *, path: str, encoding: str, settings: RuleSettings, report_filter: ReportFilter
) -> SourceAnalysis:
    """A vendored copy of the runtime shim (its header line says so): generated, so
    only the rules that say they read one (`Rule.reads_vendored`) do, on its first
    line; fix writes the bytes the first of them gives."""
    from acp_migrate.rules import ALL_RULES

    first_line = source.split(b"\n", 1)[0].rstrip(b"\r").decode(encoding, "replace")
    findings = []
    fixed_source = None
    for rule in ALL_RULES:
        enabled = rule.reads_vendored and rule.runs_with(settings)
        outdated = rule.check_vendored(source, settings.style) if enabled else None
        if outdated is not None:
            message, current = outdated  # current None: a copy fix must not replace
            found = Finding(path, 1, 1, 1, len(first_line) + 1, rule.code, message, current is not None)
            if report_filter.keep(found):
                findings.append(found)
                fixed_source = fixed_source or current
    remaining = [finding for finding in findings if not finding.fixable]
    return SourceAnalysis(findings=findings, fixed_source=fixed_source, remaining=remaining, encoding=encoding)


def _analyze_document(
    text: str, rules, *, path: str, fix: bool, encoding: str, settings: RuleSettings, report_filter: ReportFilter
) -> SourceAnalysis:
    """Text rules over a non-Python document (Markdown, reStructuredText). Each finding
    carries its edits, (start, end, replacement) offsets in `text`; a dropped finding
    takes its edits with it, as in Python."""
    suffix = os.path.splitext(path)[1].lower()
    found = sorted(
        (
            (
                Finding(
                    path=path,
                    line=line,
                    column=column,
                    end_line=line,
                    end_column=end_column,
                    code=rule.code,
                    message=message,
                    fixable=bool(edits),
                ),
                edits,
            )
            for rule in rules
            for line, column, end_column, message, edits in rule.find_in(text, suffix, settings)
        ),
        key=lambda pair: Finding.sort_key(pair[0]),
    )
    kept = [(finding, edits) for finding, edits in found if report_filter.keep(finding)]
    findings = [finding for finding, _ in kept]
    fixed_source = None
    if fix:
        fixed = text
        # From the end, so that earlier offsets stay true; an edit overlapping one applied is left out.
        limit = len(text) + 1
        for start, end, replacement in sorted((edit for _, edits in kept for edit in edits), reverse=True):
            if end <= limit:
                fixed = fixed[:start] + replacement + fixed[end:]
                limit = start
        fixed_source = fixed.encode(encoding) if fixed != text else None
    remaining = [finding for finding in findings if not finding.fixable]
    return SourceAnalysis(findings=findings, fixed_source=fixed_source, remaining=remaining, encoding=encoding)


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
    from acp_migrate.engine.analysis.cleanup import may_orphan_imports, remove_orphaned_imports
    from acp_migrate.engine.analysis.hollow import holds_token_of, hollow_out, irrelevant_definitions
    from acp_migrate.engine.analysis.traversal import EditApplier, RuleDispatcher
    from acp_migrate.rules import NAMES_LOOKED_UP, PYTHON_RULES
    from acp_migrate.rules.context import FileContext
    from acp_migrate.rules.edits import FIRST_PARTY, Edits, Report

    # Without CPython's tree (syntax newer than this Python, or a mistake), LibCST parses
    # the whole file: nothing is hollowed or skipped, and the tokens bounded its depth.
    tree, cpython_error = parse_for_screening(source)
    holds_token = holds_token_of(settings.sdk)  # what check keeps, what fix reads (hollow.py)
    parsed = source
    original_line = _same_line  # of a line of `parsed`
    if tree is not None and not fix:
        # check reports without editing: LibCST need not parse what cannot matter. The
        # hollowed source is shorter (hollow.py): its lines map back to the original's.
        hollowed = hollow_out(source, tree, NAMES_LOOKED_UP, holds_token)
        try:
            hollow_tree = parse_for_screening(hollowed.source)[0] if hollowed is not None else None
        except SourceError:
            hollow_tree = None
        if hollow_tree is not None:  # (it always parses; the whole source is the fallback)
            parsed, tree, original_line = hollowed.source, hollow_tree, hollowed.original_line
    if tree is not None:
        check_depth(tree, parsed)
    try:
        module = cst.parse_module(parsed)
    except cst.ParserSyntaxError as error:
        raise SourceError(syntax_error(source, cpython_error, error, original_line)) from None
    except RecursionError:
        raise SourceError("too deeply nested to parse") from None

    # fix and diff need the whole tree to write it back, but no rule needs to look inside
    # the definitions check would have hollowed out (hollow.py).
    irrelevant = irrelevant_definitions(parsed, tree, holds_token) if fix and tree is not None else []
    skipped = _counterparts(module, tree, irrelevant) if irrelevant else set()
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

    context = FileContext(
        module, settings, dropped=dropped, modules=modules, project=project, path=path, kept_by_check=holds_token
    )
    # A rule that claims code runs deselected too (its reports go below): its claim holds.
    running = [rule for rule in PYTHON_RULES if rule.runs_with(settings) or rule.claims]
    rules = [rule(context) for rule in running if rule.is_candidate(source)]
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
    edits = Edits.merge([r.edits for r in reports])
    fixed_source = None
    if fix and edits.delete_file:
        fixed_source = b""
    elif fix and edits:
        applier = EditApplier(edits, context.parents, line_length=settings.style.line_length, indent=module.default_indent)
        fixed = module.visit(applier)
        if may_orphan_imports(edits, context.imports.bindings):
            fixed = remove_orphaned_imports(fixed, mentions(module))
        # A name imported for code that another rule's fix then took over (ACP223's keyword
        # call in place of the model ACP205 made of a helper) is left out: nothing names it.
        named = mentions(fixed) if edits.imports else None
        imports = [wanted for wanted in edits.imports if named[wanted[1]]]
        if imports:
            from acp_migrate.engine.analysis.imports import add_imports

            # A package an added first-party import names is the project's, though a
            # namespace package (no `__init__.py`) is no module the search finds.
            added = {module.partition(".")[0] for module, _, section in imports if section == FIRST_PARTY}

            def first_party(name: str) -> bool:
                # as the project's isort configuration says, else a module found in the project
                return (
                    name in settings.style.first_party
                    or name in added
                    or modules is not None
                    and modules(name, None) is not None
                )

            fixed = add_imports(fixed, imports, first_party, line_length=settings.style.line_length)
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
        companions=dict(edits.companions) if fixed_source is not None and not edits.delete_file else {},
        deleted=fix and edits.delete_file,
    )


# -- what the rules read in a file for other files' analyses (`Rule.gathers`): the
# project decision (engine/execution/project.py) asks it of every file holding a mark.


def gathers_in(source: bytes) -> bool:
    """Whether a rule gathers in `source` (its marks are in it): the cheap screen first."""
    from acp_migrate.rules import GATHERING_RULES

    return any(mark in source for rule in GATHERING_RULES for mark in rule.gathers)


def gather_facts(source: bytes, *, path: str, modules: ModuleSource | None) -> list[Gathered]:
    """What the rules whose marks `source` holds gather in it; nothing for a file that
    cannot be read as Python (its own run reports that)."""
    from acp_migrate.rules import GATHERING_RULES

    rules = [rule for rule in GATHERING_RULES if any(mark in source for mark in rule.gathers)]
    if not rules or not within_parse_limits(source):
        return []
    try:
        check_decodable(source)
        tree, _ = parse_for_screening(source)
        if tree is not None:
            check_depth(tree, source)
    except (SourceError, RecursionError):
        return []
    rules = [rule for rule in rules if tree is None or rule.may_gather(tree)]  # CPython's tree first
    if not rules:
        return []
    import libcst as cst

    try:
        module = cst.parse_module(source)
    except (cst.ParserSyntaxError, RecursionError):
        return []
    from acp_migrate.cst.positions import positions_of
    from acp_migrate.cst.walk import walk
    from acp_migrate.engine.analysis.traversal import RuleDispatcher
    from acp_migrate.rules.context import FileContext

    context = FileContext(module, modules=modules, path=path)
    walk(module, RuleDispatcher(context, []))  # the imports, as rules read them
    found = [item for rule in rules for item in rule.gather(context)]
    where = positions_of(module, [node for node, _, _ in found])
    return [Gathered(key, f"{path}:{where[node].start.line}", text) for node, key, text in found]
