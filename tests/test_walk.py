"""`cst.walk.walk` calls a visitor exactly as LibCST's `visit` does, without rebuilding nodes."""

from __future__ import annotations

import re
from pathlib import Path

import libcst as cst
import pytest
from hypothesis import HealthCheck, given, settings
from support.programs import NODES

from acp_migrate.cst import walk as walk_module
from acp_migrate.cst.walk import walk

REPO = Path(__file__).resolve().parents[1]

# Shapes whose children LibCST visits in an order unlike their fields', or only when set.
TRICKY = (
    'x = f"{a}" f"{b:>{width}}" f"{c!r:{d}}" f"{e=}"\n',  # format_spec: absent, then present
    "@decorator\nasync def f[T](a, /, b: int = 1, *args, c, **kwargs) -> T:\n    return await g(a)\n",
    "class C[T](Base, metaclass=Meta):\n    '''doc'''\n    x: int = 1\n",
    "from . import (a as b, c)\nfrom .. import *\nimport os.path as p, sys\n",
    "match point:\n    case Point(x=0, y=0) | [1, *rest] | {'k': v, **kw} if v:\n        pass\n    case _:\n        pass\n",
    "try:\n    pass\nexcept* (A, B) as e:\n    raise X from e\nelse:\n    pass\nfinally:\n    del a[1:2, ::3]\n",
    "lambda a, *b, c=1, **d: (yield from a) if b else [x async for x in y if x]\n",
    "with (open(a) as b, c):\n    global g\n    nonlocal n\n    (w := 1); print(*a, **b)\n",
    "type Alias[T: int = str] = list[T]\nx = (1, 2)[::-1] @ m; y **= 2; assert x, 'message'\n",
)


class Calls(cst.CSTVisitor):
    """Records every call a traversal makes (node identity and kind)."""

    def __init__(self, skip: type | None = None) -> None:
        self.calls: list[tuple[str, int]] = []
        self.skip = skip

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.calls.append(("visit", id(node)))
        return not (self.skip and isinstance(node, self.skip))

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.calls.append(("leave", id(original_node)))


def assert_same_calls(source: str | bytes | cst.Module, skip: type | None = None) -> None:
    module = source if isinstance(source, cst.Module) else cst.parse_module(source)
    expected, actual = Calls(skip), Calls(skip)
    module.visit(expected)
    walk(module, actual)
    assert actual.calls == expected.calls


def sources() -> list[Path]:
    found = [*REPO.glob("golden/*/input/**/*.py"), *REPO.glob("golden/*/expected/**/*.py")]
    return sorted(found) + sorted(REPO.glob("examples/**/*.py"))


@pytest.mark.parametrize("path", sources(), ids=lambda path: str(path.relative_to(REPO)))
def test_walk_calls_the_visitor_as_visit_does(path: Path) -> None:
    try:
        module = cst.parse_module(path.read_bytes())
    except cst.ParserSyntaxError:
        pytest.skip("a golden input with a syntax error on purpose")
    assert_same_calls(module)


@pytest.mark.parametrize("source", TRICKY)
def test_walk_follows_libcst_order_in_tricky_shapes(source: str) -> None:
    assert_same_calls(source)


def test_a_field_first_met_empty_is_walked_once_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(walk_module, "_FIELDS", {})  # as in a fresh process
    assert_same_calls('a = f"{x}"\nb = f"{x:{y}}"\nc = f"{x:>4}"\n')


def test_a_visitor_that_declines_a_node_skips_its_children() -> None:
    assert_same_calls("def f():\n    return g(h(1))\n\nclass C:\n    def m(self): pass\n", skip=cst.FunctionDef)


@pytest.mark.slow  # 60 generated programs
@settings(max_examples=60, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(NODES)
def test_walk_calls_the_visitor_as_visit_does_on_generated_programs(source: str) -> None:
    assert_same_calls(source)


def test_no_visitor_of_ours_needs_attribute_hooks() -> None:
    """`walk` does not call `on_visit_attribute`: a `visit_<Node>_<field>` method would never run."""
    hook = re.compile(r"def ((?:visit|leave)_[A-Z]\w*_[a-z]\w*|on_(?:visit|leave)_attribute)\(")
    ours = [path for path in (REPO / "acp_migrate").rglob("*.py") if path.name != "walk.py"]
    assert len(ours) > 20
    assert [(path.name, name) for path in ours for name in hook.findall(path.read_text())] == []
