"""Helpers around a legacy capability, between definitions `check` need not parse."""

from __future__ import annotations

import functools


@functools.lru_cache
def unrelated(value,
              indent=1):
    import json

    return json.dumps(value, indent=indent)


def setup():
    # Binds the name the legacy helper below uses: this definition must stay whole.
    global AgentCapabilities
    from acp.schema import AgentCapabilities


class Helper:
    @property
    def value(self):
        return 1

    def other(self):
        return unrelated(self.value)


def capabilities(commands):
    # acp-migrate: TODO: advertise `commands` per session (acp-migrate rules ACP005)
    return AgentCapabilities(load_session=True, slash_commands=commands)


def after():
    return Helper().other()
