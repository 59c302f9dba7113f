"""The release, in a module of its own: code inside the package reads it here, not from
the package root, whose public API (`acp_migrate.api`) imports nearly everything."""

__version__ = "0.2.0"
