"""ACP201 sdk-numbered-unions: a numbered union member of the SDK's schema
(`ContentBlock1`...`5`, `SessionUpdate1`...`9`, `McpServer1`/`2`, `ToolCallContent1`...`3`,
`RequestPermissionOutcome1`/`2`), which SDK 0.8 removes: the code fails at import.

Each was an alias of a named class (0.7's `acp.schema`: `ContentBlock1 = TextContentBlock`),
which 0.7 already has: `fix` names that class in the import and wherever the imported
name is mentioned, or where the module's attribute is read (`schema.SessionUpdate2`).
The result runs on 0.7 and on every later release. Runs when the SDK target is 0.8 or
newer and the code is written for an older release (or for none stated).
"""

from __future__ import annotations

from acp_migrate.rules.base import Example, Rule
from acp_migrate.rules.shared.renamed import Renaming

RENAMES = {
    "ContentBlock1": "TextContentBlock",
    "ContentBlock2": "ImageContentBlock",
    "ContentBlock3": "AudioContentBlock",
    "ContentBlock4": "ResourceContentBlock",
    "ContentBlock5": "EmbeddedResourceContentBlock",
    "McpServer1": "HttpMcpServer",
    "McpServer2": "SseMcpServer",
    "RequestPermissionOutcome1": "DeniedOutcome",
    "RequestPermissionOutcome2": "AllowedOutcome",
    "SessionUpdate1": "UserMessageChunk",
    "SessionUpdate2": "AgentMessageChunk",
    "SessionUpdate3": "AgentThoughtChunk",
    "SessionUpdate4": "ToolCallStart",
    "SessionUpdate5": "ToolCallProgress",
    "SessionUpdate6": "AgentPlanUpdate",
    "SessionUpdate7": "AvailableCommandsUpdate",
    "SessionUpdate8": "CurrentModeUpdate",
    "SessionUpdate9": "SessionInfoUpdate",
    "ToolCallContent1": "ContentToolCallContent",
    "ToolCallContent2": "FileEditToolCallContent",
    "ToolCallContent3": "TerminalToolCallContent",
}


class SdkNumberedUnions(Renaming, Rule):
    code = "ACP201"
    name = "sdk-numbered-unions"
    summary = "SDK 0.8 removes the numbered union members: name the class each stood for."
    fixable = True
    sdk_release = "0.8.0"
    renames = RENAMES
    triggers = (b"ContentBlock", b"SessionUpdate", b"McpServer", b"ToolCallContent", b"RequestPermissionOutcome")
    screen_words = frozenset(RENAMES)
    examples = (
        Example(
            before=(
                "from acp.schema import ContentBlock1, SessionUpdate2\n"
                "\n"
                "\n"
                "def reply(text):\n"
                '    return SessionUpdate2(session_update="agent_message_chunk", content=ContentBlock1(type="text", text=text))\n'
            ),
            after=(
                "from acp.schema import TextContentBlock, AgentMessageChunk\n"
                "\n"
                "\n"
                "def reply(text):\n"
                '    return AgentMessageChunk(session_update="agent_message_chunk", content=TextContentBlock(type="text", text=text))\n'
            ),
        ),
        Example(
            before="from acp import schema\n\nUPDATE = schema.SessionUpdate7\n",
            after="from acp import schema\n\nUPDATE = schema.AvailableCommandsUpdate\n",
        ),
        Example(before="ContentBlock1 = dict\n", flagged=False),
    )
