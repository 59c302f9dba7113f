"""The lean position finder agrees with LibCST's PositionProvider on every node kind
the rules report, over every golden input."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from acp_migrate.cst.positions import positions_of

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
SOURCES = sorted(path for path in GOLDEN.glob("*/input/**/*.py") if path.stat().st_size)  # an empty __init__ has no node
REPORTED_KINDS = (cst.Arg, cst.DictElement, cst.Param, cst.Name, cst.Comment, cst.Attribute, cst.Subscript, cst.Call)


@pytest.mark.parametrize("source", SOURCES, ids=[str(p.relative_to(GOLDEN)) for p in SOURCES])
def test_positions_match_libcst(source: Path) -> None:
    module = cst.parse_module(source.read_bytes())
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    targets = [node for node in expected if isinstance(node, REPORTED_KINDS)]
    assert targets
    assert positions_of(module, targets) == {node: expected[node] for node in targets}
