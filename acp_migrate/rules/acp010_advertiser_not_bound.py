"""ACP010 advertiser-not-bound: an agent's `CommandAdvertiser` is given commands but
never bound to the connection, so no session gets them.

The advertiser sends each session its commands after its setup response by watching
the connection (`bind(conn)`); unbound, `advertise(...)` only stores the list, and the
agent runs, answers every setup and advertises nothing, silently. In a class that
creates an advertiser (`self.x = CommandAdvertiser()`, a dataclass field of that type)
and calls `self.x.advertise(...)`, some method of the class, or of a project class it
inherits from, must call `self.x.bind(...)` (or create it bound:
`CommandAdvertiser().bind(conn)`).

`fix` writes the binding with the list (first thing in `initialize`, beside
`advertise`); reading its own result (its postcondition), it reports this when a
rewire did not. For a hand migration: bind first thing in `initialize` from the
attribute holding the connection, or in `on_connect(conn)` (`acp-migrate rules ACP005`).

Also reported: an advertiser bound in a module whose SDK 0.4-0.6 agent factory is
wrapped in a way not proven to hand the agent its connection
(`AgentSideConnection(traced(lambda conn: Agent(conn)), ...)`, `traced` giving it a
proxy or an agent made for an earlier connection): the advertiser may watch a
connection that serves no session. `fix` refuses to move a list there; code migrated
by hand, or by an earlier release, is reported here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from acp_migrate.rules.base import Example, Report, Rule
from acp_migrate.rules.shared import ADVERTISER_CLASS

if TYPE_CHECKING:
    import libcst as cst


class AdvertiserNotBound(Rule):
    code = "ACP010"
    name = "advertiser-not-bound"
    summary = "A `CommandAdvertiser` given commands but never bound to the connection advertises nothing."
    fixable = False
    triggers = (ADVERTISER_CLASS.encode(),)
    screen_words = frozenset({ADVERTISER_CLASS})
    names_looked_up = frozenset({ADVERTISER_CLASS})
    examples = (
        Example(
            before=(
                "from acp_migrate.runtime import CommandAdvertiser\n"
                "\n"
                "\n"
                "class Agent:\n"
                "    def __init__(self):\n"
                "        self.advertiser = CommandAdvertiser()\n"
                "\n"
                "    async def initialize(self, protocol_version, **kwargs):\n"
                "        self.advertiser.advertise(self.commands)\n"
            ),
            resolved=(
                "from acp_migrate.runtime import CommandAdvertiser\n"
                "\n"
                "\n"
                "class Agent:\n"
                "    def __init__(self):\n"
                "        self.advertiser = CommandAdvertiser()\n"
                "\n"
                "    def on_connect(self, conn):\n"
                "        self.advertiser.bind(conn)\n"
                "\n"
                "    async def initialize(self, protocol_version, **kwargs):\n"
                "        self.advertiser.advertise(self.commands)\n"
            ),
        ),
        Example(
            before=(
                "from acp_migrate.runtime import CommandAdvertiser\n"
                "\n"
                "\n"
                "class Agent:\n"
                "    async def initialize(self, protocol_version, **kwargs):\n"
                "        self.advertiser = CommandAdvertiser().bind(self.conn)\n"
                "        self.advertiser.advertise(self.commands)\n"
            ),
            flagged=False,
        ),
    )

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        from acp_migrate.cst.walk import walk

        uses = _AdvertiserUses(self.context)
        walk(node.body, uses)
        self._report_unproven_factory(uses)
        unbound = {name: calls for name, calls in uses.advertised.items() if name in uses.created - uses.bound}
        if unbound:
            unbound = {name: calls for name, calls in unbound.items() if not self._bound_in_bases(node, name)}
        for name, calls in unbound.items():
            self.context.report(
                Report(
                    calls[0],
                    self.code,
                    f"`self.{name}` is given commands but never bound to the connection: no session gets them; "
                    f"call `self.{name}.bind(conn)` first thing in `initialize` or in `on_connect`",
                    fixable=False,
                )
            )

    def _report_unproven_factory(self, uses: _AdvertiserUses) -> None:
        from acp_migrate.rules.shared.agent_factory import check_agent_factories
        from acp_migrate.rules.shared.list_owner import CannotRewire

        if not uses.binds:
            return
        try:
            check_agent_factories(self.context)
        except CannotRewire as why:
            for name, binds in uses.binds.items():
                message = f"`self.{name}` is bound to the connection the agent was made with, but {why}"
                self.context.report(Report(binds[0], self.code, message, fixable=False))

    def _bound_in_bases(self, node: cst.ClassDef, name: str) -> bool:
        """A project class it inherits from binds it (or a base cannot be read: nothing
        proven either way, not reported)."""
        from itertools import islice

        from acp_migrate.cst.walk import walk
        from acp_migrate.rules.shared.project_classes import lineage

        for known in islice(lineage(self.context, node), 1, None):
            if known is None:
                return True
            uses = _AdvertiserUses(self.context)
            walk(known[0].body, uses)
            if name in uses.bound:
                return True
        return False


class _AdvertiserUses:
    """`self.<name>` advertisers below a class: created, bound, given commands (calls)."""

    def __init__(self, context) -> None:
        self.context = context
        self.created: set[str] = set()
        self.bound: set[str] = set()
        self.binds: dict[str, list[cst.Call]] = {}  # `self.x.bind(...)` calls
        self.advertised: dict[str, list[cst.Call]] = {}

    def on_visit(self, node: cst.CSTNode) -> bool:
        import libcst as cst

        if isinstance(node, cst.ClassDef):
            return False  # a nested class has its own
        if isinstance(node, cst.AnnAssign) and isinstance(node.target, (cst.Name, cst.Attribute)):
            if self._is_advertiser_class(node.annotation.annotation):
                self.created.add(_last_name(node.target))
            if node.value is not None:
                self._assigned(node.target, node.value)
        elif isinstance(node, cst.Assign):
            for target in node.targets:
                self._assigned(target.target, node.value)
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            owner = node.func.value
            if isinstance(owner, cst.Attribute) and isinstance(owner.value, cst.Name):
                if node.func.attr.value == "bind":
                    self.bound.add(owner.attr.value)
                    self.binds.setdefault(owner.attr.value, []).append(node)
                elif node.func.attr.value == "advertise":
                    self.advertised.setdefault(owner.attr.value, []).append(node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        pass

    def _assigned(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        import libcst as cst

        if not isinstance(target, (cst.Name, cst.Attribute)):
            return
        name = _last_name(target)
        if isinstance(value, cst.Call):
            func = value.func
            if self._is_advertiser_class(func):
                self.created.add(name)
            elif isinstance(func, cst.Attribute) and func.attr.value == "bind" and isinstance(func.value, cst.Call):
                if self._is_advertiser_class(func.value.func):  # `CommandAdvertiser().bind(conn)`
                    self.created.add(name)
                    self.bound.add(name)
                    self.binds.setdefault(name, []).append(value)
            elif any(self._is_advertiser_class(arg.value) for arg in value.args):  # field(default_factory=...)
                self.created.add(name)

    def _is_advertiser_class(self, node: cst.BaseExpression) -> bool:
        resolved = self.context.resolve(node)
        return resolved is not None and resolved.rpartition(".")[2] == ADVERTISER_CLASS


def _last_name(target: cst.Name | cst.Attribute) -> str:
    import libcst as cst

    return target.value if isinstance(target, cst.Name) else target.attr.value
