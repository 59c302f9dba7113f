"""Generated Python programs (hypothesmith), its import and strategies built when first
drawn: the import builds a strategy for every LibCST node type and the grammar's parser
is built on first use, costs every test session would pay at collection."""

from __future__ import annotations

from hypothesis import strategies as st


def _hypothesmith():
    import hypothesmith

    return hypothesmith


# Programs from CPython's grammar, and from LibCST's nodes.
GRAMMAR = st.deferred(lambda: _hypothesmith().from_grammar())
NODES = st.deferred(lambda: _hypothesmith().from_node())
