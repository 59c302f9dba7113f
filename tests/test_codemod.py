"""analyze_source on byte-level edge cases: encodings, line endings, bad input."""

from __future__ import annotations

import codecs

import pytest

from acp_migrate.engine.analysis.codemod import analyze_source, source_encoding
from acp_migrate.findings import SourceError

LEGACY = (
    "from acp.schema import AgentCapabilities\n"
    "\n"
    "caps = AgentCapabilities(load_session=True, slash_commands=[])\n"
)
FIXED = (
    "from acp.schema import AgentCapabilities\n"
    "\n"
    "caps = AgentCapabilities(load_session=True)\n"
)


def fixed(source: bytes) -> bytes | None:
    return analyze_source(source, path="f.py").fixed_source


def test_crlf_is_kept():
    assert fixed(LEGACY.replace("\n", "\r\n").encode()) == FIXED.replace("\n", "\r\n").encode()


def test_mixed_line_endings_only_change_the_edited_line():
    source = LEGACY.encode().replace(b"\n", b"\r\n", 1)
    assert fixed(source) == FIXED.encode().replace(b"\n", b"\r\n", 1)


def test_bom_and_tabs_are_kept():
    source = codecs.BOM_UTF8 + ("if True:\n\t" + LEGACY.splitlines()[2] + "\n").encode()
    source = codecs.BOM_UTF8 + b"from acp.schema import AgentCapabilities\n" + source[3:]
    assert fixed(source) == codecs.BOM_UTF8 + (
        b"from acp.schema import AgentCapabilities\nif True:\n\tcaps = AgentCapabilities(load_session=True)\n"
    )


def test_latin1_cookie_is_kept():
    source = ("# -*- coding: latin-1 -*-\n# caf\xe9\n" + LEGACY).encode("latin-1")
    assert fixed(source) == ("# -*- coding: latin-1 -*-\n# caf\xe9\n" + FIXED).encode("latin-1")


def test_no_final_newline():
    assert fixed(LEGACY.rstrip("\n").encode()) == FIXED.rstrip("\n").encode()


def test_file_without_tokens_is_untouched_and_not_parsed():
    # Not even valid Python: the prefilter must not parse it.
    analysis = analyze_source(b"def broken(:\n", path="f.py")
    assert analysis.findings == [] and analysis.fixed_source is None


@pytest.mark.parametrize(
    "source,reason",
    [
        (b"x = 1\0\n", "NUL"),
        (b"x = '\xff\xfe' # slash_commands\n", "cannot decode"),
        (b"# coding: nope-42\nx = 1\n", "unknown encoding"),
        (b"slash_commands = (\n", "syntax error"),
        (b"slash_commands = " + b"(" * 5000 + b")" * 5000 + b"\n", "nested"),
        (b"slash_commands = " + b"[" * 300 + b"]" * 300 + b"\n", "nested"),
    ],
)
def test_bad_input_is_a_source_error(source, reason):
    with pytest.raises(SourceError) as error:
        analyze_source(source, path="f.py")
    assert reason in error.value.reason


@pytest.mark.parametrize(
    "source,encoding",
    [
        (b"# coding: latin-1\nx = 1\n", "iso8859-1"),
        (b"#!/usr/bin/env python\n# coding: latin-1\nx = 1\n", "iso8859-1"),
        (b"#!/usr/bin/env python\n\n# coding: latin-1\n", "utf-8"),  # the third line is too late
        (b"# coding: latin-1", "iso8859-1"),  # no line break at all
        (b"\xef\xbb\xbfx = 1\n", "utf-8-sig"),
        (b"x = 1\n", "utf-8"),
    ],
)
def test_source_encoding_reads_the_cookie_of_the_first_two_lines(source, encoding):
    assert source_encoding(source) == encoding


def test_bare_star_goes_with_the_last_keyword_only_parameter():
    source = (
        "class AgentCapabilities:\n"
        "    @classmethod\n"
        "    def create(cls, *, slash_commands=None):\n"
        "        return cls()\n"
    ).encode()
    assert fixed(source) == (
        "class AgentCapabilities:\n"
        "    @classmethod\n"
        "    def create(cls):\n"
        "        return cls()\n"
    ).encode()


def test_only_argument_leaves_empty_call():
    source = b"from acp.schema import AgentCapabilities\nAgentCapabilities(\n    slash_commands=None,\n)\n"
    assert fixed(source) == b"from acp.schema import AgentCapabilities\nAgentCapabilities()\n"


def test_class_body_emptied_gets_pass():
    source = b"class AgentCapabilities(Base):\n    slash_commands: list = []\n"
    assert fixed(source) == b"class AgentCapabilities(Base):\n    pass\n"


def test_check_mode_skips_the_fix():
    analysis = analyze_source(LEGACY.encode(), path="f.py", fix=False)
    assert [f.code for f in analysis.findings] == ["ACP001"]
    assert analysis.fixed_source is None


def test_finding_positions_are_one_based():
    (finding,) = analyze_source(LEGACY.encode(), path="f.py").findings
    assert (finding.line, finding.column) == (3, 45)


def test_brackets_in_strings_do_not_count_as_nesting():
    source = b"slash_commands_doc = '" + b"(" * 300 + b"'\n"
    assert analyze_source(source, path="f.py").findings == []


GENERATED = b"".join(b"CONSTANT_%d = %d  # generated, padding padding padding\n" % (i, i) for i in range(60_000))


def test_a_file_too_large_to_parse_that_holds_no_legacy_site_is_clean() -> None:
    # The token only in a comment: the screen reads it with CPython's tree, no error.
    source = b"# was slash_commands() before the generator's rename\n" + GENERATED
    assert len(source) > 2 * 2**20
    analysis = analyze_source(source, path="generated.py")
    assert analysis.findings == [] and analysis.fixed_source is None


def test_a_file_too_large_to_parse_whose_helper_is_named_like_the_field_is_clean() -> None:
    # A generated client's own helper: its definition and its own attribute are no site.
    helper = b"class Api:\n    def slash_commands(self):\n        return self.slash_commands\n"
    analysis = analyze_source(helper + GENERATED, path="generated.py")
    assert analysis.findings == [] and analysis.fixed_source is None


def test_the_census_reads_a_file_too_large_to_parse_as_one_of_any_size() -> None:
    # A doctest calling the helper still mentions the field (ACP011), at the same line.
    helper = (
        b"class Api:\n"
        b"    def slash_commands(self):\n"
        b'        """The guild\'s commands.\n'
        b"\n"
        b"        >>> Api().slash_commands()\n"
        b"        []\n"
        b'        """\n'
        b"        return self.slash_commands\n"
    )
    for source in (helper, helper + GENERATED):
        findings = analyze_source(source, path="generated.py").findings
        assert [(finding.line, finding.code) for finding in findings] == [(5, "ACP011")]


def test_a_file_too_large_to_parse_that_holds_a_site_names_its_line() -> None:
    site = b"CAPS = AgentCapabilities(slash_commands=[])\n"
    source = b"def slash_commands():\n    return []\n" + GENERATED + site
    with pytest.raises(SourceError) as refused:
        analyze_source(source, path="generated.py")
    assert refused.value.reason == (
        f"too large to analyse: {len(source) / 2**20:.1f} MiB (the limit is 2 MiB); line 60003 holds"
        " `slash_commands` in its code: split the file, or exclude it (`extend-exclude`)"
    )
