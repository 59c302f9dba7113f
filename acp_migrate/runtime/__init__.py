"""Runtime shim for ACP servers: per-session slash commands, correct on the wire.

``vendored.py`` is the shim: the standard library and the ACP SDK only, the file
``acp-migrate fix`` copies into migrated projects, and what this package imports::

    from acp_migrate.runtime import CommandAdvertiser
"""

from .vendored import CommandAdvertiser

__all__ = ["CommandAdvertiser"]
