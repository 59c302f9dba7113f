"""ACP009 vendored-runtime-outdated: a vendored copy of the runtime shim that differs
from what this acp-migrate writes.

By default `fix` writes the shim (`acp_migrate.runtime`) as one file next to the
agent module it migrates, `acp_command_advertiser.py`, whose first line says so:
`# acp-migrate: vendored runtime X.Y.Z - written by acp-migrate fix; ...`. A copy
written by another acp-migrate release (or edited since) is reported on that line;
`fix` rewrites the whole file with this release's shim. The file is generated: no
other rule reads it. To keep a changed copy, deselect the rule (`ignore = ["ACP009"]`),
or set `runtime-import` to a module to import the shim from instead of vendoring it.
"""

from __future__ import annotations

import functools
from typing import ClassVar

from acp_migrate.rules.base import Example, Rule


@functools.cache
def _examples() -> tuple[Example, ...]:
    from acp_migrate.engine.analysis.vendor import VENDORED_FILE, vendored_source

    old = "# acp-migrate: vendored runtime 0.0.1 - written by `acp-migrate fix`; run it again to refresh; do not edit.\n"
    return (
        Example(before=old + "class CommandAdvertiser: ...\n", after=vendored_source().decode(), path=VENDORED_FILE),
        Example(before=vendored_source().decode(), flagged=False, path=VENDORED_FILE),
    )


class _Examples:
    """`examples`, built when first read: they hold the whole shim, and building it at
    start-up (the registry imports every rule) would cost every run."""

    def __get__(self, instance: object, owner: type) -> tuple[Example, ...]:
        return _examples()


class VendoredRuntimeOutdated(Rule):
    code = "ACP009"
    name = "vendored-runtime-outdated"
    summary = "a vendored copy of the runtime shim differs from what this acp-migrate writes"
    fixable = True
    triggers: ClassVar[tuple[bytes, ...]] = (b"acp-migrate: vendored runtime",)  # the copy's first line
    suffixes: ClassVar[tuple[str, ...]] = (".py",)
    reads_vendored = True
    examples = _Examples()  # type: ignore[assignment]

    @staticmethod
    def check_vendored(source: bytes) -> tuple[str, bytes] | None:
        """(message, the bytes fix writes) for a vendored copy that is not this release's; None when it is."""
        from acp_migrate import __version__
        from acp_migrate.engine.analysis.vendor import header_version, vendored_source

        current = vendored_source()
        if source == current:
            return None
        version = header_version(source)
        if version != __version__:
            why = f"was written by acp-migrate {version}, this is {__version__}"
        else:
            why = "differs from what this acp-migrate writes (edited?)"
        return f"the vendored runtime shim {why}: `acp-migrate fix` rewrites it", current
