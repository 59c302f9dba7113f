"""The package's ACP server: `acp` here is the SDK, not this subpackage."""

from acp import text_block

from pkg.config import NAME


def greeting():
    return text_block(NAME)
