"""Each rule's own documentation examples are executable: docs cannot drift."""

from __future__ import annotations

import ast
import json

import pytest

from acp_migrate.engine.analysis import prefilter
from acp_migrate.engine.analysis.codemod import analyze_source
from acp_migrate.rules import ALL_RULES
from acp_migrate.sdk import RELEASES, Target
from acp_migrate.settings import RuleSettings

EXAMPLES = [(rule, i, example) for rule in ALL_RULES for i, example in enumerate(rule.examples)]


def test_codes_are_unique_and_documented():
    codes = [rule.code for rule in ALL_RULES]
    assert len(codes) == len(set(codes))
    for rule in ALL_RULES:
        module = __import__(rule.__module__, fromlist=["_"])
        assert module.__doc__ and module.__doc__.startswith(f"{rule.code} {rule.name}")
        assert rule.summary and rule.examples


def test_module_names_give_the_codes_the_configuration_accepts():
    from acp_migrate.config import known_codes

    for rule in ALL_RULES:
        assert rule.__module__.rsplit(".", 1)[-1].startswith(rule.code.lower() + "_")
        assert rule.triggers, f"{rule.code} declares no trigger: no file would be its candidate"
    assert known_codes() == {rule.code for rule in ALL_RULES} | {"ACP100"}


def test_discovery_walks_every_rule_suffix():
    from acp_migrate.engine.execution.discover import SOURCE_SUFFIXES

    for rule in ALL_RULES:
        assert set(rule.suffixes) <= set(SOURCE_SUFFIXES)


def test_prefilter_covers_every_rule():
    for rule in ALL_RULES:
        assert set(rule.triggers) <= set(prefilter.TOKENS)


@pytest.mark.parametrize("token", prefilter.TOKENS)
def test_prefilter_passes_a_file_with_any_token(token):
    for source in (token, b"x = 1\n" * 100 + b"y = f(" + token + b")\n", token + b"\n" + b"z = 2\n" * 100):
        assert prefilter.may_contain_legacy(source)


def test_prefilter_clears_near_misses():
    for source in (b"", b"commands = []\n", b"slash commands\n", b"slash_command = 1\n", b"acp-migrate: todo\n"):
        assert not prefilter.may_contain_legacy(source)


@pytest.mark.parametrize(
    "rule,index,example", EXAMPLES, ids=[f"{r.code}-{i}" for r, i, _ in EXAMPLES]
)
def test_rule_example(rule, index, example):
    analysis = analyze_source(
        example.before.encode(), path=example.path or rule.example_path, settings=_settings(example)
    )
    codes = {f.code for f in analysis.findings} | {f.code for f in analysis.remaining}
    assert (rule.code in codes) == example.flagged
    if example.after is None:
        assert analysis.fixed_source is None
    else:
        assert analysis.fixed_source is not None
        assert analysis.fixed_source.decode() == example.after
        if (example.path or rule.example_path).endswith(".py"):
            ast.parse(example.after)


def _settings(example) -> RuleSettings:
    """The examples move code to the newest SDK release (or the example's `target_sdk`)
    from the release the example names (`written_for`; None: no stated release): an SDK
    rule's examples fire, and no other rule's example is one of an SDK move."""
    return RuleSettings(sdk=Target(example.target_sdk or RELEASES[-1], example.written_for, "the rule's example"))


RESOLVED = [(rule, i, example) for rule, i, example in EXAMPLES if example.resolved is not None]
MANUAL = ("ACP004", "ACP005", "ACP006", "ACP007")


def test_every_manual_finding_shows_its_resolution():
    for code in MANUAL:
        rule = next(rule for rule in ALL_RULES if rule.code == code)
        assert any(example.resolved for example in rule.examples if example.flagged), code


@pytest.mark.parametrize("rule,index,example", RESOLVED, ids=[f"{r.code}-{i}" for r, i, _ in RESOLVED])
def test_resolved_code_is_reported_by_no_rule(rule, index, example):
    # What a person writes instead: `fix` does not produce it, and nothing is left to do.
    path = example.path or rule.example_path
    analysis = analyze_source(example.resolved.encode(), path=path, settings=_settings(example))
    assert (analysis.findings, analysis.remaining, analysis.fixed_source) == ([], [], None)
    assert example.resolved != example.after
    if path.endswith((".py", ".pyi")):
        ast.parse(example.resolved)


def test_rule_docs_render_the_resolved_code():
    from acp_migrate.api import rule_info
    from acp_migrate.report.rules import render_rule_doc, render_rule_json

    for code in MANUAL:
        info = rule_info(code)
        doc = render_rule_doc(info)
        resolved = [example.resolved for example in info.examples if example.resolved]
        assert resolved and doc.count("Resolved by a person") == len(resolved)
        for text in resolved:
            assert text in doc
        assert "docs/runtime.md" not in doc  # a pip user has no repository files
        rendered = json.loads(render_rule_json(info))["examples"]
        assert [example["resolved"] for example in rendered if example["resolved"]] == resolved
    # A fixable rule's doc shows fix's output, and no hand-written resolution.
    assert "Resolved by a person" not in render_rule_doc(rule_info("ACP001"))
