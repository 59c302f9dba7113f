# Case (negative): slash_commands only appears in comments, docstrings and strings
"""Helpers for the RFC-0032 migration.

AgentCapabilities.slash_commands used to carry the command list; clients
now receive it through ``available_commands_update``.
"""
import logging

logger = logging.getLogger(__name__)

# Before RFC-0032: InitializeResponse.create(..., slash_commands=skill_commands)
HINT = "slash_commands= is no longer accepted by AgentCapabilities; use session/update"
LEGACY_KEYS = ("slashCommands", "slash_commands")


def warn_legacy(payload_text: str) -> None:
    if any(key in payload_text for key in LEGACY_KEYS):
        logger.warning("legacy %s found: %s", "agentCapabilities.slashCommands", HINT)
