"""A spy on the agent's command getter: `mock.patch.object(Agent, "get_commands", ...)`
or `mocker.spy(Agent, "get_commands")` in a test that asserts it was called. The getter
gives `initialize` the list fix moves to the advertiser, which calls it at each session
setup instead: a call count at `initialize` no longer holds (ACP008 names the test).
"""

from __future__ import annotations

import libcst as cst

from acp_migrate.cst.walk import walk
from acp_migrate.rules.context import FileContext
from acp_migrate.rules.shared import LEGACY_KEYS, SPY_ASSERTIONS
from acp_migrate.rules.shared.list_owner import methods_of, self_name
from acp_migrate.rules.shared.project_classes import Module, class_of, lineage
from acp_migrate.rules.shared.syntax import string_key, string_value

SPY_CALLS = frozenset({"object", "spy"})  # `patch.object(...)`, `mocker.spy(...)`


def spied_getter(context: FileContext, call: cst.Call, test: cst.FunctionDef, method: bool) -> str | None:
    """The name of the method `call` spies on when it gives its class's `initialize` the
    legacy list and `test` (`method`: a test class's) asserts its calls; else None."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in SPY_CALLS and len(call.args) >= 2):
        return None
    target, name = call.args[0].value, string_value(call.args[1].value)
    if name is None or not _asserts_calls(test, method):
        return None
    found = class_of(context, target, Module.of(context))
    if found is None:
        return None
    for known in lineage(context, found[0]):
        initialize = methods_of(known[0]).get("initialize") if known is not None else None
        if initialize is not None:
            return name if name in _list_getters(initialize) else None
    return None


def _asserts_calls(test: cst.FunctionDef, method: bool) -> bool:
    # A test method's own attribute (`self.call_count`) is no spy's (the screen's OWN_ATTRIBUTE).
    positional = [*test.params.posonly_params, *test.params.params]
    own = positional[0].name.value if method and positional else None
    found = False

    class Assertions(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            nonlocal found
            mine = isinstance(node.value, cst.Name) and node.value.value == own
            found = found or (node.attr.value in SPY_ASSERTIONS and not mine)

    walk(test, Assertions())
    return found


def _list_getters(initialize: cst.FunctionDef) -> set[str]:
    """Methods (`self.<name>`) whose calls give the legacy keyword or key its value."""
    me = self_name(initialize)
    getters: set[str] = set()

    class Getters(cst.CSTVisitor):
        def visit_Arg(self, node: cst.Arg) -> None:
            if node.keyword is not None and node.keyword.value in LEGACY_KEYS:
                walk(node.value, Methods())

        def visit_DictElement(self, node: cst.DictElement) -> None:
            if string_key(node) in LEGACY_KEYS:
                walk(node.value, Methods())

    class Methods(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            if isinstance(node.value, cst.Name) and node.value.value == me:
                getters.add(node.attr.value)

    walk(initialize, Getters())
    return getters
