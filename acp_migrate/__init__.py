"""acp-migrate: move ACP slash commands from `initialize` to per-session advertisement.

This package root stays import-light on purpose: migrated servers import
`acp_migrate.runtime` at run time and must not pay for libcst or typer.
"""

__version__ = "0.1.0"
