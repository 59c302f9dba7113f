"""`FileContext.claim`: a rule owns the code its fix takes over whole, and another
rule's report made there goes, with its edits; `FileContext.shared` computes once."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from acp_migrate.api import check_paths

from acp_migrate.rules.base import Report
from acp_migrate.rules.context import FileContext


def test_a_report_inside_what_another_rule_claims_goes_with_its_edits() -> None:
    module = cst.parse_module("a = 1\nb = 2\n")
    claimed, free = module.body
    context = FileContext(module)
    context.claim("ACP900", lambda lineage: claimed in lineage)

    for statement in (claimed, free):
        context.lineage[:] = [module, statement]
        with context.fix(Report(statement, "ACP901", f"other at {statement is claimed}", fixable=True)):
            context.remove(statement)
        context.report(Report(statement, "ACP900", f"owner at {statement is claimed}", fixable=False))

    assert [r.message for r in context.reports] == ["owner at True", "other at False", "owner at False"]
    assert not context.will_remove(claimed) and context.will_remove(free)


def test_a_shared_analysis_runs_once_a_file() -> None:
    context = FileContext(cst.parse_module("a = 1\n"))
    runs = []

    def analysis(of: FileContext) -> int:
        runs.append(of)
        return len(runs)

    assert (context.shared(analysis), context.shared(analysis)) == (1, 1)
    assert runs == [context]


GOLDEN = Path(__file__).resolve().parent.parent / "golden"


@pytest.mark.parametrize(
    "case", ["tests-rewrite-mock-client", "tests-removed-whole", "tests-mixed-assertions-keep-the-rest"]
)
def test_ignoring_the_rule_that_claims_tests_adds_no_finding_there(case: str) -> None:
    # ACP008 owns the tests it rewrites: ignored, it still owns them, and the reads of the
    # field in them (ACP004's) stay moot. Ignoring a rule never adds findings.
    def found(**overrides: object) -> set[tuple[str, int, str]]:
        report = check_paths([GOLDEN / case / "input"], isolated=True, **overrides)
        return {(f.path, f.line, f.code) for f in report.result.findings}

    everything = found()
    assert any(code == "ACP008" for _, _, code in everything)
    assert found(ignore=("ACP008",)) == {f for f in everything if f[2] != "ACP008"}
