"""Remove elements from comma-separated lists and statements from bodies, keeping the layout.

A list is seen as elements separated by *gaps*: gap 0 sits between the opener and the
first element, gap i+1 after element i (after its comma when it has one). Removing
element i merges gaps i and i+1, so the element's own line, and its trailing comment,
disappear while comment lines around it survive.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

import libcst as cst

Gap = cst.BaseParenthesizableWhitespace
Bracketed = cst.Call | cst.List  # what `broken_to_fit` breaks: an argument list, a list
Item = cst.Arg | cst.BaseElement
NO_SPACE = cst.SimpleWhitespace("")


def _has_comments(gap: Gap) -> bool:
    return isinstance(gap, cst.ParenthesizedWhitespace) and (
        gap.first_line.comment is not None or any(line.comment for line in gap.empty_lines)
    )


def merge_gaps(left: Gap, right: Gap, *, removed_first: bool) -> Gap:
    """The gap left behind when the element between `left` and `right` is removed."""
    left_multiline = isinstance(left, cst.ParenthesizedWhitespace)
    right_multiline = isinstance(right, cst.ParenthesizedWhitespace)
    if left_multiline and right_multiline:
        # Keep the comment lines above and below the removed line; drop the line itself.
        return cst.ParenthesizedWhitespace(
            first_line=left.first_line,
            empty_lines=[*left.empty_lines, *right.empty_lines],
            indent=right.indent,
            last_line=right.last_line,
        )
    if right_multiline:
        # The removed element's trailing comment goes with its line.
        return right.with_changes(first_line=cst.TrailingWhitespace())
    if left_multiline:
        return left if _has_comments(left) else right
    return left if removed_first else right


@dataclass(frozen=True)
class ListShape:
    """How one kind of comma-separated list stores its gaps."""

    # Gap after an element that has no comma (the last one), or None if that gap
    # lives outside the elements (then `closer_gap` holds it).
    get_tail: Callable[[cst.CSTNode], Gap] | None = None
    set_tail: Callable[[cst.CSTNode, Gap], cst.CSTNode] | None = None


def _comma_gap(element: cst.CSTNode) -> Gap | None:
    comma = getattr(element, "comma", cst.MaybeSentinel.DEFAULT)
    return comma.whitespace_after if isinstance(comma, cst.Comma) else None


def remove_from_list(
    elements: Sequence[cst.CSTNode],
    removed: set[int],
    *,
    opener_gap: Gap,
    closer_gap: Gap | None,
    shape: ListShape,
) -> tuple[list[cst.CSTNode], Gap, Gap | None]:
    """Drop `removed` indices from `elements`.

    Returns the new elements, the new opener gap and the new closer gap (the gap
    before the closing bracket when the last element has no comma and the list
    stores that gap outside its elements).
    """
    if not removed:
        return list(elements), opener_gap, closer_gap
    kept = [i for i in range(len(elements)) if i not in removed]
    if not kept:
        return [], NO_SPACE, (NO_SPACE if closer_gap is not None else None)

    last = len(elements) - 1
    trailing_comma = _comma_gap(elements[last]) is not None

    def gap_after(i: int) -> Gap:
        gap = _comma_gap(elements[i])
        if gap is not None:
            return gap
        if shape.get_tail is not None:
            return shape.get_tail(elements[i])
        return closer_gap if closer_gap is not None else NO_SPACE

    # gaps[i] is the gap before element i; gaps[len] the gap after the last one.
    gaps: list[Gap] = [opener_gap] + [gap_after(i) for i in range(len(elements))]
    new_gaps: list[Gap] = []
    pending: Gap = gaps[0]
    for i in range(len(elements)):
        if i in removed:
            pending = merge_gaps(pending, gaps[i + 1], removed_first=not new_gaps)
        else:
            new_gaps.append(pending)
            pending = gaps[i + 1]
    new_gaps.append(pending)

    result: list[cst.CSTNode] = []
    for position, i in enumerate(kept):
        element = elements[i]
        after = new_gaps[position + 1]
        is_last = position == len(kept) - 1
        if is_last and not trailing_comma:
            element = element.with_changes(comma=cst.MaybeSentinel.DEFAULT)
            if shape.set_tail is not None:
                element = shape.set_tail(element, after)
        else:
            comma = element.comma if isinstance(element.comma, cst.Comma) else cst.Comma(
                whitespace_after=NO_SPACE
            )
            element = element.with_changes(comma=comma.with_changes(whitespace_after=after))
        result.append(element)

    new_closer = closer_gap
    if closer_gap is not None and not trailing_comma:
        new_closer = new_gaps[-1]
    return result, new_gaps[0], new_closer


ARG_SHAPE = ListShape(
    get_tail=lambda arg: arg.whitespace_after_arg,
    set_tail=lambda arg, gap: arg.with_changes(whitespace_after_arg=gap),
)
PARAM_SHAPE = ListShape(
    get_tail=lambda param: getattr(param, "whitespace_after_param", NO_SPACE),
    set_tail=lambda param, gap: (
        param.with_changes(whitespace_after_param=gap) if isinstance(param, cst.Param) else param
    ),
)
CLOSER_SHAPE = ListShape()


def remove_call_args(call: cst.Call, removed: set[int]) -> cst.Call:
    args, opener, _ = remove_from_list(
        call.args, removed, opener_gap=call.whitespace_before_args, closer_gap=None, shape=ARG_SHAPE
    )
    return call.with_changes(args=args, whitespace_before_args=opener)


def joined_call(call: cst.Call) -> cst.Call | None:
    """`call` with its arguments on its own line (`f(a, b)`); None when a comment or a
    trailing comma (which formatters keep exploded) is in the way."""
    args = list(call.args)
    if not args or isinstance(args[-1].comma, cst.Comma):
        return None
    gaps = [call.whitespace_before_args, *(a.whitespace_after_arg for a in args)]
    gaps += [a.comma.whitespace_before for a in args[:-1] if isinstance(a.comma, cst.Comma)]
    gaps += [a.comma.whitespace_after for a in args[:-1] if isinstance(a.comma, cst.Comma)]
    if any(_has_comments(gap) for gap in gaps if isinstance(gap, cst.ParenthesizedWhitespace)):
        return None
    joined = [
        arg.with_changes(whitespace_after_arg=NO_SPACE, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        for arg in args[:-1]
    ]
    joined.append(args[-1].with_changes(whitespace_after_arg=NO_SPACE))
    return call.with_changes(args=joined, whitespace_before_args=NO_SPACE)


def broken_to_fit(
    node: Bracketed,
    line: str,
    start: int,
    end: int,
    *,
    block: int,
    unit: str,
    line_length: int,
    breakable: Collection[cst.CSTNode],
) -> Bracketed:
    """`node`, a call or a list, with its items one a line and a trailing comma where it
    does not fit `line_length`, as black and ruff break brackets, outer first; then each
    item that is `breakable`, where it now stands. `node` starts at column `start` of a
    line that `line` indents past the block's `block` columns, `end` columns before the
    line ends; `unit` is one level of indentation."""
    code = _code(node)
    if "\n" not in code:
        if start + len(code) + end <= line_length or not _items(node):
            return node
        inner = line + unit
        node = one_a_line(node, _items(node), _line_break(inner), _line_break(line))
    elif isinstance(_opening(node), cst.ParenthesizedWhitespace):
        inner = _opening(node).last_line.value  # one a line already
    else:
        return node
    column = block + len(inner.expandtabs(4))
    items = [
        item.with_changes(
            value=broken_to_fit(
                item.value,
                inner,
                column + _width_before_value(item),
                len(","),
                block=block,
                unit=unit,
                line_length=line_length,
                breakable=breakable,
            )
        )
        if item.value in breakable
        else item
        for item in _items(node)
    ]
    return _with_items(node, items)


def one_a_line(node: Bracketed, items: Sequence[Item], gap: Gap, closing: Gap) -> Bracketed:
    """`node` with `items`, each after `gap` (a line break and an indentation), a
    trailing comma, and `closing` before the closing bracket."""
    laid = [
        *(item.with_changes(comma=cst.Comma(whitespace_after=gap)) for item in items[:-1]),
        items[-1].with_changes(comma=cst.Comma(whitespace_after=closing)),
    ]
    if isinstance(node, cst.Call):
        laid = [arg.with_changes(whitespace_after_arg=NO_SPACE) for arg in laid]
        return node.with_changes(whitespace_before_args=gap, args=laid)
    return node.with_changes(
        lbracket=node.lbracket.with_changes(whitespace_after=gap),
        elements=laid,
        rbracket=node.rbracket.with_changes(whitespace_before=NO_SPACE),
    )


def _items(node: Bracketed) -> Sequence[Item]:
    return node.args if isinstance(node, cst.Call) else node.elements


def _with_items(node: Bracketed, items: Sequence[Item]) -> Bracketed:
    return node.with_changes(args=items) if isinstance(node, cst.Call) else node.with_changes(elements=items)


def _opening(node: Bracketed) -> Gap:
    return node.whitespace_before_args if isinstance(node, cst.Call) else node.lbracket.whitespace_after


def _line_break(indent: str) -> cst.ParenthesizedWhitespace:
    """A new line, indented as the block and `indent` further."""
    return cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(indent))


def _width_before_value(item: Item) -> int:
    """The columns an item takes before its value: `keyword=`, `*`, or none."""
    return len(_code(item.with_changes(value=cst.Name("x"), comma=cst.MaybeSentinel.DEFAULT))) - len("x")


_code = cst.Module([]).code_for_node


def remove_dict_elements(node: cst.Dict, removed: set[int]) -> cst.Dict:
    elements, opener, closer = remove_from_list(
        node.elements,
        removed,
        opener_gap=node.lbrace.whitespace_after,
        closer_gap=node.rbrace.whitespace_before,
        shape=CLOSER_SHAPE,
    )
    return node.with_changes(
        elements=elements,
        lbrace=node.lbrace.with_changes(whitespace_after=opener),
        rbrace=node.rbrace.with_changes(whitespace_before=closer),
    )


def remove_import_names(node: cst.ImportFrom, removed: set[int]) -> cst.ImportFrom:
    names = node.names
    assert not isinstance(names, cst.ImportStar)
    if node.lpar is not None and node.rpar is not None:
        new_names, opener, closer = remove_from_list(
            names,
            removed,
            opener_gap=node.lpar.whitespace_after,
            closer_gap=node.rpar.whitespace_before,
            shape=CLOSER_SHAPE,
        )
        return node.with_changes(
            names=new_names,
            lpar=node.lpar.with_changes(whitespace_after=opener),
            rpar=node.rpar.with_changes(whitespace_before=closer),
        )
    new_names, _, _ = remove_from_list(
        names, removed, opener_gap=NO_SPACE, closer_gap=None, shape=CLOSER_SHAPE
    )
    return node.with_changes(names=new_names)


def remove_plain_import_names(node: cst.Import, removed: set[int]) -> cst.Import:
    new_names, _, _ = remove_from_list(
        node.names, removed, opener_gap=NO_SPACE, closer_gap=None, shape=CLOSER_SHAPE
    )
    return node.with_changes(names=new_names)


def _flat_params(params: cst.Parameters) -> list[cst.CSTNode]:
    flat: list[cst.CSTNode] = [*params.posonly_params]
    if params.posonly_ind is not cst.MaybeSentinel.DEFAULT:
        flat.append(params.posonly_ind)
    flat.extend(params.params)
    if params.star_arg is not cst.MaybeSentinel.DEFAULT:
        flat.append(params.star_arg)
    flat.extend(params.kwonly_params)
    if params.star_kwarg is not None:
        flat.append(params.star_kwarg)
    return flat


def remove_params(
    original: cst.Parameters, updated: cst.Parameters, removed_nodes: set[cst.CSTNode]
) -> cst.Parameters:
    """Remove parameters of `original` from its transformed twin `updated`.

    A bare `*` left with no keyword-only parameter after it goes too (it would be a
    syntax error).
    """
    flat = _flat_params(original)
    removed = {i for i, p in enumerate(flat) if p in removed_nodes}
    if isinstance(original.star_arg, cst.ParamStar) and all(
        p in removed_nodes for p in original.kwonly_params
    ):
        removed.add(flat.index(original.star_arg))
    new_flat, _, _ = remove_from_list(
        _flat_params(updated), removed, opener_gap=NO_SPACE, closer_gap=None, shape=PARAM_SHAPE
    )
    survivors = iter(new_flat)
    counts = [
        len(original.posonly_params),
        int(original.posonly_ind is not cst.MaybeSentinel.DEFAULT),
        len(original.params),
        int(original.star_arg is not cst.MaybeSentinel.DEFAULT),
        len(original.kwonly_params),
        int(original.star_kwarg is not None),
    ]
    groups: list[list[cst.CSTNode]] = []
    index = 0
    for count in counts:
        groups.append([next(survivors) for i in range(index, index + count) if i not in removed])
        index += count
    posonly, posonly_ind, params, star, kwonly, star_kwarg = groups
    return updated.with_changes(
        posonly_params=posonly,
        posonly_ind=posonly_ind[0] if posonly_ind else cst.MaybeSentinel.DEFAULT,
        params=params,
        star_arg=star[0] if star else cst.MaybeSentinel.DEFAULT,
        kwonly_params=kwonly,
        star_kwarg=star_kwarg[0] if star_kwarg else None,
    )


def _split_leading_lines(
    lines: Sequence[cst.EmptyLine],
) -> tuple[list[cst.EmptyLine], list[cst.EmptyLine]]:
    """Split into (lines to keep, comment lines attached directly to the statement)."""
    cut = len(lines)
    while cut > 0 and lines[cut - 1].comment is not None:
        cut -= 1
    return list(lines[:cut]), list(lines[cut:])


def _blank_run(lines: Sequence[cst.EmptyLine]) -> int:
    run = 0
    while run < len(lines) and lines[run].comment is None:
        run += 1
    return run


def _join_leading_lines(
    carried: list[cst.EmptyLine], own: list[cst.EmptyLine]
) -> list[cst.EmptyLine]:
    """Lines above a statement once those of removed statements before it join them.

    Blank lines that met at the seam collapse to the longer run, so removing a
    paragraph does not leave a double gap.
    """
    trailing = _blank_run(carried[::-1])
    leading = _blank_run(own)
    head = carried[: len(carried) - trailing]
    blanks = carried[len(carried) - trailing :] if trailing >= leading else own[:leading]
    return [*head, *blanks, *own[leading:]]


def remove_statements(
    body: Sequence[cst.BaseStatement], removed: set[int]
) -> list[cst.BaseStatement]:
    """Drop statements; their blank lines (and detached comments) move to the next one."""
    result: list[cst.BaseStatement] = []
    carried: list[cst.EmptyLine] = []
    for i, statement in enumerate(body):
        if i in removed:
            kept, _attached = _split_leading_lines(statement.leading_lines)
            carried = _join_leading_lines(carried, kept)  # consecutive removals: one gap
            continue
        if carried:
            statement = statement.with_changes(
                leading_lines=_join_leading_lines(carried, list(statement.leading_lines))
            )
            carried = []
        result.append(statement)
    return result


def is_docstring(statement: cst.BaseStatement) -> bool:
    """A statement that is only a string: a module's, class's or function's docstring
    when it comes first, an attribute's when it follows a field."""
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )
