"""A call handing SDK 0.6 one request model built in place
(`x.newSession(NewSessionRequest(cwd=d, mcpServers=[]))`) as 0.7's call taking one
keyword argument per field (`x.new_session(cwd=d, mcp_servers=[])`): ACP223 rewrites
the SDK's connection methods so, ACP221 the handlers of an agent or a client it renames.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import libcst as cst

from acp_migrate.rules.shared.generated import laid_out_call
from acp_migrate.rules.shared.sdk_handlers import snake


def keyword_arguments(
    built: cst.Call, positional: Sequence[str], taken: Collection[str], target: str
) -> list[cst.Arg] | str:
    """The arguments of `built` (the request model, or 0.6's helper taking `positional`)
    as keyword arguments named by their fields' 0.7 names (`sessionId=` ->
    `session_id=`), for a method taking `taken` on release `target`; or why they cannot
    be, for a person."""
    fields = [
        arg.keyword.value if arg.keyword is not None else positional[i] if i < len(positional) else None
        for i, arg in enumerate(built.args)
    ]
    if None in fields or any(arg.star for arg in built.args):
        return "the request model takes positional arguments here: name its fields"
    if "field_meta" in fields:
        return "its `field_meta` keys become keyword arguments of their own: write them out"
    unknown = [field for field in fields if snake(field) not in taken]
    if unknown:
        return f"SDK {target} takes no {', '.join(unknown)}: decide where it goes"
    no_space = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))
    return [
        arg.with_changes(keyword=cst.Name(snake(field)), equal=arg.equal if arg.keyword else no_space)
        for arg, field in zip(built.args, fields, strict=True)
    ]


def renamed_call(call: cst.Call, func: cst.Attribute, method: str, keywords: list[cst.Arg]) -> cst.Call:
    """`call` (`func(model)`) as `receiver.method(**keywords)`, laid out as it was."""
    return laid_out_call(call, func.with_changes(attr=cst.Name(method)), keywords)
