# Part of the case: the middle class, its base imported from base.py.
from __future__ import annotations

from base import FrameworkAgent


class ToolAgent(FrameworkAgent):
    tools: tuple[str, ...] = ()
