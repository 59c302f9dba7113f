"""The runtime shim as one file a migrated project keeps: `acp-migrate fix` writes it
next to the agent module (`VENDORED_FILE`) so that the migrated server depends on
nothing it did not depend on before (pydantic and the ACP SDK).

Built from the sources of `acp_migrate/runtime/` (read as files: importing the shim
would import pydantic, which the codemod never needs), `models.py` then `advertiser.py`: their
imports hoisted and merged at the top in isort order, the relative import between
them resolved (one module), one `__all__`. Only the standard library is imported
here; the codemod calls `vendored_source`, the shim never imports this.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from pathlib import Path

VENDORED_MODULE = "acp_command_advertiser"
VENDORED_FILE = VENDORED_MODULE + ".py"
# The first line of a vendored copy; the version follows it.
MARKER = "# acp-migrate: vendored runtime "
HEADER = MARKER + "{version} - written by `acp-migrate fix`; run it again to refresh; do not edit."
_HEADER_VERSION = re.compile(r"# acp-migrate: vendored runtime (\S+)")
_PARTS = ("models.py", "advertiser.py")

_DOCSTRING = '''"""Per-session slash-command advertisement for ACP agents (acp-migrate's runtime shim).

Vendored by `acp-migrate fix` from `acp_migrate.runtime` {version}: the migrated
server imports `CommandAdvertiser` from here and needs nothing but pydantic and the
ACP SDK. `acp-migrate check` reports a copy that differs from what the installed
acp-migrate writes (ACP009); `acp-migrate fix` rewrites it. Documentation: acp-migrate's
docs/runtime.md.
"""'''


def header_version(source: bytes | str) -> str | None:
    """The acp-migrate version named by a vendored copy's first line; None: not a vendored copy."""
    text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
    first = text.split("\n", 1)[0].lstrip("\ufeff")
    match = _HEADER_VERSION.match(first)
    return match.group(1) if match else None


def is_vendored(source: bytes | str) -> bool:
    return header_version(source) is not None


def vendored_source(version: str | None = None) -> bytes:
    """The bytes `acp-migrate fix` writes as `VENDORED_FILE` (UTF-8, LF line endings)."""
    if version is None:
        from acp_migrate import __version__ as version
    return _build(version)


@functools.lru_cache(maxsize=4)
def _build(version: str) -> bytes:
    folder = Path(__file__).resolve().parents[2] / "runtime"  # acp_migrate/runtime
    plain: set[str] = set()  # `import x`
    from_names: dict[str, set[str]] = {}  # `from x import a, b`
    bodies: list[str] = []
    exported: list[str] = []
    for part in _PARTS:
        text = (folder / part).read_text(encoding="utf-8")
        tree = ast.parse(text)
        lines = text.splitlines(keepends=True)
        skipped: set[int] = set()  # 0-based line numbers left out of the body
        for node in tree.body:
            leave = False
            if isinstance(node, ast.Expr) and node is tree.body[0] and isinstance(node.value, ast.Constant):
                leave = True  # the part's docstring
            elif isinstance(node, ast.Import):
                plain.update(alias.name for alias in node.names)
                leave = True
            elif isinstance(node, ast.ImportFrom):
                if not node.level and node.module != "__future__":
                    names = from_names.setdefault(node.module or "", set())
                    names.update(alias.name for alias in node.names)
                leave = True  # `__future__` comes back once; the relative one is this module
            elif isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__all__"]:
                exported += ast.literal_eval(node.value)
                leave = True
            if leave:
                skipped.update(range(node.lineno - 1, node.end_lineno))
        body = "".join(line for index, line in enumerate(lines) if index not in skipped)
        bodies.append(body.strip("\n") + "\n")
    imports = _import_lines(plain, from_names)
    names = "".join(f'    "{name}",\n' for name in sorted(set(exported)))
    text = (
        HEADER.format(version=version)
        + "\n"
        + _DOCSTRING.format(version=version)
        + "\n\nfrom __future__ import annotations\n\n"
        + imports
        + f"\n__all__ = [\n{names}]\n\n"
        + "\n\n".join(bodies)
    )
    return text.encode("utf-8")


def _import_lines(plain: set[str], from_names: dict[str, set[str]]) -> str:
    """The hoisted imports as ruff's isort writes them: standard library, then third party,
    `import x` before `from x import ...` in each, modules and names in order."""
    sections: list[str] = []
    for third_party in (False, True):

        def wanted(module: str) -> bool:
            return (module.split(".")[0] not in sys.stdlib_module_names) == third_party

        lines = [f"import {module}\n" for module in sorted(plain, key=str.lower) if wanted(module)]
        lines += [
            f"from {module} import {', '.join(sorted(names, key=_name_order))}\n"
            for module, names in sorted(from_names.items(), key=lambda item: item[0].lower())
            if wanted(module)
        ]
        if lines:
            sections.append("".join(lines))
    return "\n".join(sections)


def _name_order(name: str) -> tuple[int, str]:
    # isort's order-by-type: CONSTANTS, Classes, functions.
    if name.isupper() and len(name) > 1:
        return 0, name
    return (1 if name[:1].isupper() else 2), name
