"""Findings and suppressions after definitions `check` hollows out: original lines."""

from __future__ import annotations

import functools

from acp.schema import AgentCapabilities


@functools.lru_cache
def unrelated(value,
              indent=1):
    """Serialise `value`.

    The docstring spans lines, like the body after it.
    """
    import json

    return json.dumps(value, indent=indent)


class Helper:
    @property
    def value(self):
        return 1

    def other(self):
        return unrelated(self.value)


QUIET = AgentCapabilities(load_session=True, slash_commands=[])  # acp-migrate: ignore[ACP001]


def more(x):
    y = x + 1
    return Helper().other() + y


def capabilities(commands):
    return AgentCapabilities(
        load_session=True,
        slash_commands=commands,  # acp-migrate: ignore[ACP005]
    )


def more_unrelated(x):
    y = x + 1
    return y


def advertised(commands):
    # acp-migrate: TODO: advertise `commands` per session (acp-migrate rules ACP005)
    return AgentCapabilities(load_session=True, slash_commands=commands)
