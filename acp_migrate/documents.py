"""The code blocks of Markdown and reStructuredText: what ACP006 rewrites and the census
reads in a document. Standard library only."""

from __future__ import annotations

import re

# A Markdown fence (```` ``` ```` or `~~~`) and its info string (the language first).
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>```+|~~~+)[ \t]*(?P<info>[^\n`]*)$")
# A reST code directive and its language; its block is the indented lines below.
RST_CODE = re.compile(r"^(?P<indent>[ \t]*)\.\.[ \t]+(?:code-block|code|sourcecode)::[ \t]*(?P<info>\S*)[ \t]*$")
