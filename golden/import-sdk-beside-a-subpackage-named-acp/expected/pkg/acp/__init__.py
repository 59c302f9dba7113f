"""The package's ACP server: `acp` here is the SDK, not this subpackage."""

from acp.schema import TextContentBlock

from pkg.config import NAME


def greeting():
    return TextContentBlock(type="text", text=NAME)
