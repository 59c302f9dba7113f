"""ACP009 vendored-runtime-outdated: a vendored copy of the runtime shim that does not
mean what this acp-migrate writes.

By default `fix` writes the shim as one file next to the agent module it migrates,
`acp_command_advertiser.py`, whose first line says so:
`# acp-migrate: vendored runtime X.Y.Z, written by acp-migrate fix.` The copy is
compared by meaning, not bytes: its code (the AST, docstrings left out) against what
this release writes. A copy that differs only in formatting (reformatted by the
project's formatter, other quotes, rewrapped lines, comments) is current.

A copy written by another release whose code differs is reported on its first line,
and `fix` rewrites the whole file with this release's shim; so is a copy an earlier
build of this release wrote (its header names this release, its code is known). A copy whose header names
this release but whose code differs was edited by hand: it is reported and `fix`
leaves it (it is not fixable: the edit is someone's); to keep an edited copy,
deselect the rule (`ignore = ["ACP009"]`), or set `runtime-import` to a module to
import the shim from instead of vendoring it. The file is generated: no other rule
reads it.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, ClassVar

from acp_migrate.rules.base import Example, Rule

if TYPE_CHECKING:
    from acp_migrate.settings import ProjectStyle

_OLD = "# acp-migrate: vendored runtime 0.0.1 - written by `acp-migrate fix`; run it again to refresh; do not edit.\n"


@functools.cache
def _examples() -> tuple[Example, ...]:
    from acp_migrate.vendor import VENDORED_FILE, vendored_source

    current = vendored_source().decode()
    # Reformatted (a call joined on one line, other quotes, a comment dropped): the same code.
    split = '(\n        "acp_command_advertiser_request",\n        default=None,\n    )'
    reformatted = current.replace(split, "('acp_command_advertiser_request', default=None)")
    reformatted = reformatted.replace("  # what advertise() was given", "")
    assert reformatted.count("\n") == current.count("\n") - 3, "the template changed: update this example"
    edited = current.replace(
        "self._lock = asyncio.Lock()", "self._lock = asyncio.Lock()  # mine\n        self.mine = 1"
    )
    return (
        Example(before=_OLD + "class CommandAdvertiser: ...\n", after=current, path=VENDORED_FILE),
        Example(before=current, flagged=False, path=VENDORED_FILE),
        Example(before=reformatted, flagged=False, path=VENDORED_FILE),
        Example(before=edited, path=VENDORED_FILE, resolved=current),
    )


class _Examples:
    """`examples`, built when first read: they hold the whole shim, and building it at
    start-up (the registry imports every rule) would cost every run."""

    def __get__(self, instance: object, owner: type) -> tuple[Example, ...]:
        return _examples()


class VendoredRuntimeOutdated(Rule):
    code = "ACP009"
    name = "vendored-runtime-outdated"
    summary = "a vendored copy of the runtime shim does not mean what this acp-migrate writes"
    fixable = True
    triggers: ClassVar[tuple[bytes, ...]] = (b"acp-migrate: vendored runtime",)  # the copy's first line
    suffixes: ClassVar[tuple[str, ...]] = (".py",)
    reads_vendored = True
    examples = _Examples()  # type: ignore[assignment]

    @staticmethod
    def check_vendored(source: bytes, style: ProjectStyle | None = None) -> tuple[str, bytes | None] | None:
        """(message, the bytes fix writes, None: fix leaves it) for a copy that is not this
        release's shim; None when it is (in any formatting)."""
        from acp_migrate.vendor import header_version, newline_of, replaceable, same_code, vendored_source
        from acp_migrate.version import __version__

        current = vendored_source(style=style, newline=newline_of(source))  # its line endings kept
        if same_code(source, current):
            return None
        version = header_version(source)
        if not replaceable(source, current):
            return (
                f"the vendored runtime shim says acp-migrate {version} wrote it, but its code differs (edited?): "
                "`fix` leaves it; delete the file and run `fix` to restore it, or ignore ACP009 to keep it"
            ), None
        if version == __version__:
            return (
                f"the vendored runtime shim is an earlier build of acp-migrate {version}'s: `fix` rewrites it",
                current,
            )
        return (
            f"the vendored runtime shim was written by acp-migrate {version}, this is {__version__}: `fix` rewrites it",
            current,
        )
