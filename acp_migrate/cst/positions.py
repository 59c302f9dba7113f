"""Positions of a few nodes, for the price of one code generation.

LibCST's PositionProvider records a range for every node of the module; findings need
a handful. This state generates the code once and computes a position only when a
target node starts or ends, catching up on the tokens emitted since the last one.
Ranges follow PositionProvider: syntactic where a node records one, else
whitespace-inclusive.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import contextmanager

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst.metadata import CodePosition, CodeRange
from libcst.metadata.position_provider import NEWLINE_RE


class _AllFound(Exception):
    """Every target has its range: the rest of the code need not be generated."""


class _TargetPositions(CodegenState):
    def __init__(self, module: cst.Module, targets: Collection[cst.CSTNode]) -> None:
        super().__init__(default_indent=module.default_indent, default_newline=module.default_newline)
        self.targets = targets
        self.ranges: dict[cst.CSTNode, CodeRange] = {}
        self._starts: dict[cst.CSTNode, CodePosition] = {}
        self._line = 1
        self._column = 0
        self._seen = 0  # tokens already counted into _line/_column

    def _here(self) -> CodePosition:
        tokens = self.tokens
        for index in range(self._seen, len(tokens)):
            segments = NEWLINE_RE.split(tokens[index])
            if len(segments) == 1:
                self._column += len(segments[0])
            else:
                self._line += len(segments) - 1
                self._column = len(segments[-1])
        self._seen = len(tokens)
        return CodePosition(self._line, self._column)

    def before_codegen(self, node: cst.CSTNode) -> None:
        if node in self.targets:
            self._starts[node] = self._here()

    def after_codegen(self, node: cst.CSTNode) -> None:
        if node in self.targets and node not in self.ranges:
            self.ranges[node] = CodeRange(self._starts[node], self._here())
        self._stop_when_done()

    def _stop_when_done(self) -> None:
        if len(self.ranges) == len(self.targets):
            raise _AllFound

    @contextmanager
    def record_syntactic_position(
        self,
        node: cst.CSTNode,
        *,
        start_node: cst.CSTNode | None = None,
        end_node: cst.CSTNode | None = None,
    ) -> Iterator[None]:
        if node not in self.targets:
            yield
            return
        start = self._here()
        try:
            yield
        finally:
            end = self._here()
            if start_node is not None and start_node in self.ranges:
                start = self.ranges[start_node].start
            if end_node is not None and end_node in self.ranges:
                end = self.ranges[end_node].end
            self.ranges[node] = CodeRange(start, end)
        self._stop_when_done()


def positions_of(module: cst.Module, targets: Collection[cst.CSTNode]) -> dict[cst.CSTNode, CodeRange]:
    state = _TargetPositions(module, set(targets))
    try:
        module._codegen(state)
    except _AllFound:
        pass
    return state.ranges
