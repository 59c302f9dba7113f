"""How ACP006 (`rules/acp006_markdown_capabilities.py`, whose docstring says what it
reports and how it fixes it) reads a Markdown or reST document: its code blocks, the JSON
in them, and its sentences. Imported when a document is read, not with the rule's
declarations at every start (its patterns and classes cost 4 ms to build)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from acp_migrate.documents import FENCE, RST_CODE
from acp_migrate.rules.shared import CAPABILITY_KEYS, LEGACY_KEYS, SESSION_ID

# Docs sketches also write the capabilities as a plain `capabilities` key.
_CAPABILITIES_KEYS = CAPABILITY_KEYS | {"capabilities"}
_INITIALIZE_RESULT_KEYS = frozenset({"protocolVersion", "protocol_version"})
_JSON_INFOS = frozenset({"", "json", "jsonc", "json5", "jsonl"})

_RST_HEADING_RULE = re.compile(r"^([=\-~^\"'`#*+:.])\1{2,}[ \t]*$")
_LEGACY_KEY_TEXT = re.compile(r'"(?:slashCommands|slash_commands)"\s*:')

# Where a sentence puts the commands: the noun, an optional verb, then the place.
_PLACE = re.compile(
    r"(?P<noun>`?AvailableCommands?(?:\[\])?`?|\b(?:available|slash)[ -]commands?\b|\bcommands\b)"
    r"(?:\s+(?:objects?|entries|lists?))?"
    r"(?:\s+(?:are|is|get|gets|appear|appears))?"
    r"(?:\s+(?:advertised|listed|declared|exposed|sent|returned|included|shown|provided|announced|published))?"
    r"\s+(?P<where>(?P<prep>in|at|via|through|under|from|inside|within)\s+"
    r"(?:(?:the\s+)?(?:`{1,2}initiali[sz]e`{1,2}\s+|initiali[sz]e\s+)?(?:agent\s+)?"
    r"`{0,2}(?:AgentCapabilities|agentCapabilities|agent_capabilities|capabilities)`{0,2}"
    r"(?:\s+(?:object|field|response|result))?"
    r"|(?:the\s+)?`{0,2}initiali[sz]e`{0,2}(?:\s+(?:response|result|time|request|call))?))(?![\w`]|\.\w)",
    re.IGNORECASE,
)
# A page about ACP names it, or something only ACP has; a page naming none of these
# (a Discord bot's README and its "slash commands") is another product's.
_ABOUT_ACP = re.compile(
    r"\bACP\b|\bacp[._-]|Agent Client Protocol|agent_?capabilities|protocol_?version|session/"
    r"|AvailableCommand|available_?commands",
    re.IGNORECASE,
)
# Prose naming the removed field itself: reported, the sentence is the author's.
_FIELD_NAME = re.compile(
    r"(?<![\w.])`{0,2}(?:AgentCapabilities|agentCapabilities|agent_capabilities|capabilities)\.(?:slash_commands|slashCommands)"
    r"`{0,2}|`{0,2}(?:slash_commands|slashCommands)`{0,2}\s+capability\b"
)
# A sentence about what is not (or no longer) done describes the migration, not the protocol.
_NEGATION = re.compile(
    r"\b(?:not|no longer|never|instead of|rather than|removed|deprecated|legacy|old|older|formerly|used to|non-spec|"
    r"non-standard|nonstandard|previously|unlike|still|anymore)\b|n't\b",
    re.IGNORECASE,
)
_ITEM_START = re.compile(r"^\s*(?:[-*+#|]|\d+[.)]|\.\.)")  # a line that starts a new item: its own sentence
_HUMP = re.compile(r"[a-z][A-Z]")
_NAMES_CAPABILITIES = re.compile(r"capabilit|initiali[sz]e", re.IGNORECASE)
_NAMES_CLIENT = re.compile(r"client[ _]?capabilit", re.IGNORECASE)

_JSON_MESSAGE = (
    "this example shows slash commands in the initialize capabilities; "
    "ACP advertises them per session (setup results and `available_commands_update`)"
)
_PLACE_MESSAGE = (
    "this sentence puts the slash commands in the initialize capabilities; "
    "ACP advertises them per session (`available_commands_update`)"
)
_FIELD_MESSAGE = (
    "this sentence names the removed capabilities field; "
    "ACP advertises commands per session (setup results and `available_commands_update`)"
)


@dataclass
class _Node:
    """A JSON value with its span in the block's text; `members`: (key, key offset, value)."""

    start: int
    end: int
    kind: str  # "object", "array" or "scalar"
    members: list[tuple[str, int, _Node]] = field(default_factory=list)


@dataclass
class _Block:
    """A code block: its content lines `[first, end)`, the line after which text may be
    added, how it opens (to open another alike), and the lines it follows."""

    first: int
    end: int
    after: int  # the last line of the block (the closing fence in Markdown)
    indent: str  # of the fence or directive
    content_indent: str
    opening: str  # "```", "~~~~", ".. code-block::", "::"
    lead: list[int]  # the paragraph before it (rST `::`: the paragraph that ends with it)
    heading: str


@dataclass
class _Document:
    lines: list[str]
    starts: list[int]  # each line's offset in the text
    rst: bool
    blocks: list[_Block]
    prose: list[int]  # lines outside code blocks

    def offset(self, line: int, column: int = 0) -> int:
        return self.starts[line] + column

    def line_end(self, line: int) -> int:
        return self.starts[line] + len(self.lines[line].rstrip("\r"))


def _scan_markdown(lines: list[str]) -> tuple[list[_Block], list[int]]:
    blocks, prose, heading = [], [], ""
    index = 0
    while index < len(lines):
        text = lines[index].rstrip("\r")
        opening = FENCE.match(text)
        if opening is None:
            if text.lstrip().startswith("#"):
                heading = text
            prose.append(index)
            index += 1
            continue
        fence = opening.group("fence")
        end = index + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        if end < len(lines) and opening.group("info").strip().lower().split(" ")[0] in _JSON_INFOS:
            indent = opening.group("indent")
            blocks.append(_Block(index + 1, end, end, indent, indent, fence, _lead(lines, index), heading))
        index = end + 1
    return blocks, prose


def _lead(lines: list[str], before: int) -> list[int]:
    """The paragraph ending just above line `before` (blank lines between allowed)."""
    index = before - 1
    while index >= 0 and not lines[index].strip():
        index -= 1
    found = []
    while index >= 0 and lines[index].strip() and not FENCE.match(lines[index].rstrip("\r")):
        found.insert(0, index)
        if lines[index].lstrip().startswith("#"):
            break
        index -= 1
    return found


def _indent_of(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _scan_rst(lines: list[str]) -> tuple[list[_Block], list[int]]:
    blocks, prose, heading = [], [], ""
    index = 0
    while index < len(lines):
        text = lines[index].rstrip("\r")
        directive = RST_CODE.match(text)
        literal = directive is None and text.rstrip().endswith("::") and not text.lstrip().startswith("..")
        if directive is None and not literal:
            if index + 1 < len(lines) and text.strip() and _RST_HEADING_RULE.match(lines[index + 1].rstrip("\r")):
                heading = text
            prose.append(index)
            index += 1
            continue
        if literal:
            prose.append(index)  # the paragraph's own line
        indent = _indent_of(text)
        first = index + 1
        if directive is not None:  # options (`:caption: ...`) come before the blank line
            while (
                first < len(lines)
                and lines[first].strip().startswith(":")
                and len(_indent_of(lines[first])) > len(indent)
            ):
                first += 1
        while first < len(lines) and not lines[first].strip():
            first += 1
        end = first
        while end < len(lines) and (not lines[end].strip() or len(_indent_of(lines[end])) > len(indent)):
            end += 1
        while end > first and not lines[end - 1].strip():
            end -= 1
        if end > first and (literal or directive.group("info").lower() in _JSON_INFOS):
            lead = _lead(lines, index + 1) if literal else _lead(lines, index)
            opening = "::" if literal else text.strip().split("::")[0] + "::"
            blocks.append(_Block(first, end, end - 1, indent, _indent_of(lines[first]), opening, lead, heading))
        index = max(end, index + 1)
    return blocks, prose


def _document(text: str, suffix: str) -> _Document:
    lines = text.split("\n")
    starts, offset = [], 0
    for line in lines:
        starts.append(offset)
        offset += len(line) + 1
    rst = suffix == ".rst"
    blocks, prose = _scan_rst(lines) if rst else _scan_markdown(lines)
    return _Document(lines, starts, rst, blocks, prose)


# --- JSON with positions ------------------------------------------------------------

_WHITESPACE = " \t\r\n"


def _skip(text: str, index: int) -> int:
    while index < len(text) and text[index] in _WHITESPACE:
        index += 1
    return index


def _parse(text: str) -> _Node | None:
    """The JSON value `text` holds, with positions; None unless it is strict JSON."""
    import json  # here: the registry imports this module at every start-up

    decoder = json.JSONDecoder()

    def value(index: int) -> _Node:
        index = _skip(text, index)
        if text[index] == "{":
            node = _Node(index, index, "object")
            cursor = _skip(text, index + 1)
            if text[cursor] == "}":
                node.end = cursor + 1
                return node
            while True:
                if text[cursor] != '"':
                    raise ValueError("a key")
                key, after = json.decoder.scanstring(text, cursor + 1)
                colon = _skip(text, after)
                if text[colon] != ":":
                    raise ValueError("a colon")
                item = value(colon + 1)
                node.members.append((key, cursor, item))
                cursor = _skip(text, item.end)
                if text[cursor] == "}":
                    node.end = cursor + 1
                    return node
                if text[cursor] != ",":
                    raise ValueError("a comma")
                cursor = _skip(text, cursor + 1)
        if text[index] == "[":
            node = _Node(index, index, "array")
            cursor = _skip(text, index + 1)
            if text[cursor] == "]":
                node.end = cursor + 1
                return node
            while True:
                item = value(cursor)
                node.members.append(("", cursor, item))
                cursor = _skip(text, item.end)
                if text[cursor] == "]":
                    node.end = cursor + 1
                    return node
                if text[cursor] != ",":
                    raise ValueError("a comma")
                cursor += 1
        _, end = decoder.raw_decode(text, index)
        return _Node(index, end, "scalar")

    try:
        root = value(0)
    except (ValueError, IndexError, RecursionError):
        return None
    return root if _skip(text, root.end) == len(text) else None


@dataclass
class _Legacy:
    """A legacy key in a parsed block: the object holding it, its member, and whether
    that object and every object above it hold nothing else (the block is the list)."""

    holder: _Node
    index: int
    alone: bool
    bare: bool  # the holder is the block's top-level value, with no capabilities key above


def _legacy_keys(node: _Node, parent_key: str | None = None, alone: bool = True, top: bool = True):
    if node.kind == "object":
        single = alone and len(node.members) == 1
        for index, (key, _, item) in enumerate(node.members):
            if key in LEGACY_KEYS:
                in_capabilities = parent_key in _CAPABILITIES_KEYS
                in_result = bool(_INITIALIZE_RESULT_KEYS & {k for k, _, _ in node.members})
                if in_capabilities or in_result or top:
                    yield _Legacy(node, index, single, top and not in_capabilities and not in_result)
            else:
                yield from _legacy_keys(item, key, single, False)
    elif node.kind == "array":
        for _, _, item in node.members:
            yield from _legacy_keys(item, None, False, False)


def _has_legacy_capabilities(value) -> bool:
    """For a block that is not strict JSON: whether its parse (if any) nests the key under capabilities."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in _CAPABILITIES_KEYS and isinstance(item, dict) and LEGACY_KEYS & item.keys():
                return True
            if _has_legacy_capabilities(item):
                return True
    elif isinstance(value, list):
        return any(_has_legacy_capabilities(item) for item in value)
    return False


def _textual_legacy_keys(block: list[str]) -> list[tuple[int, int]]:
    """(line offset, column) of legacy keys that come after a capabilities key, by text."""
    result = []
    seen_capabilities = False
    for offset, line in enumerate(block):
        if any(f'"{key}"' in line for key in _CAPABILITIES_KEYS):
            seen_capabilities = True
        match = _LEGACY_KEY_TEXT.search(line)
        if match and seen_capabilities:
            result.append((offset, match.start()))
    return result


# --- what fix writes ----------------------------------------------------------------


def _indent_unit(lines: list[str], base: str) -> str:
    deeper = [_indent_of(line)[len(base) :] for line in lines if line.strip() and len(_indent_of(line)) > len(base)]
    return min(deeper, key=len) if deeper else "  "


def _reindented(text: str, old_indent: int, new_indent: str) -> str:
    """`text` (a value starting on a line indented `old_indent`) for a line indented `new_indent`."""
    first, *rest = text.split("\n")
    moved = [new_indent + line[old_indent:] if not line[:old_indent].strip() else line for line in rest]
    return "\n".join([first, *moved])


def _python_spelling(root: _Node, commands: _Node) -> bool:
    """Whether the block spells its keys as Python does (`agent_capabilities`): the keys
    outside the command list, the legacy key aside, have underscores and no humps."""
    keys = []

    def collect(node: _Node) -> None:
        for key, _, item in node.members:
            if node.kind == "object" and key not in LEGACY_KEYS:
                keys.append(key)
            if item is not commands:
                collect(item)

    collect(root)
    return any("_" in key for key in keys) and not any(_HUMP.search(key) for key in keys)


_NESTED, _COMMANDS = object(), object()  # the places of a nested object and of the list


def _notification(
    commands: str, commands_indent: int, *, base: str, unit: str, one_line: bool, newline: str, python: bool
) -> str:
    """The `available_commands_update` a client receives, holding the `commands` text as
    written: the JSON-RPC message, or in Python's spelling the model's dump (no envelope)."""
    update = [("session_update" if python else "sessionUpdate", '"available_commands_update"')]
    update.append(("available_commands" if python else "availableCommands", _COMMANDS))
    if python:
        levels = [[("session_id", f'"{SESSION_ID}"'), ("update", _NESTED)], update]
    else:
        envelope = [("jsonrpc", '"2.0"'), ("method", '"session/update"'), ("params", _NESTED)]
        levels = [envelope, [("sessionId", f'"{SESSION_ID}"'), ("update", _NESTED)], update]
    pad = [base + unit * depth for depth in range(len(levels) + 1)]

    def shown(value, depth: int) -> str:
        if value is _COMMANDS:
            return commands if one_line else _reindented(commands, commands_indent, pad[depth + 1])
        return value

    def inline(depth: int) -> str:
        items = [
            f'"{key}": {inline(depth + 1) if value is _NESTED else shown(value, depth)}' for key, value in levels[depth]
        ]
        return "{" + ", ".join(items) + "}"

    def block(depth: int) -> list[str]:
        lines = []
        for index, (key, value) in enumerate(levels[depth]):
            comma = "," if index + 1 < len(levels[depth]) else ""
            if value is _NESTED:
                lines += [f'{pad[depth + 1]}"{key}": {{', *block(depth + 1), f"{pad[depth + 1]}}}{comma}"]
            else:
                lines.append(f'{pad[depth + 1]}"{key}": {shown(value, depth)}{comma}')
        return lines

    if one_line:
        return base + inline(0)
    return newline.join([f"{pad[0]}{{", *block(0), f"{pad[0]}}}"])


def _lead_in(document: _Document, block: _Block) -> str:
    code = "``" if document.rst else "`"
    sentence = (
        f"{block.indent}Once a session is set up (after the {code}session/new{code} response), "
        f"the agent lists its commands in an {code}available_commands_update{code}:"
    )
    return sentence + (":" if block.opening == "::" else "")


def _appended_block(document: _Document, block: _Block, notification: str, newline: str) -> str:
    """Text to add after the block: a lead sentence and a block of the same kind."""
    parts = ["", "", _lead_in(document, block), ""]
    if document.rst:
        if block.opening != "::":
            parts += [f"{block.indent}{block.opening} json", ""]
        parts.append(notification)
    else:
        parts += [f"{block.indent}{block.opening}json", notification, f"{block.indent}{block.opening}"]
    return newline.join(parts)


def _removal(holder: _Node, index: int) -> tuple[int, int]:
    """The span to delete so that `holder` loses member `index`, commas and layout kept."""
    _, key_start, item = holder.members[index]
    if index + 1 < len(holder.members):
        return key_start, holder.members[index + 1][1]
    if index > 0:
        return holder.members[index - 1][2].end, item.end
    return holder.start + 1, holder.end - 1


# --- the findings -------------------------------------------------------------------


@dataclass
class _Found:
    line: int  # 0-based
    column: int  # 0-based
    end_column: int
    message: str
    edits: list[tuple[int, int, str]]


def _sentence(document: _Document, line: int, start: int, end: int) -> str:
    """The sentence around `[start, end)` of `line`, with its part on the line before
    when it starts there (prose wraps)."""
    text = document.lines[line].rstrip("\r")
    begin = max(text.rfind(". ", 0, start), text.rfind("; ", 0, start)) + 1
    stop = min(i for i in (text.find(". ", end), text.find("; ", end), len(text)) if i != -1)
    sentence = text[begin:stop]
    previous = document.lines[line - 1].rstrip("\r").strip() if begin == 0 and line > 0 else ""
    if previous and not previous.endswith((".", ";", ":", "!", "?")) and not _ITEM_START.match(text):
        sentence = previous[max(previous.rfind(". "), previous.rfind("; ")) + 1 :] + " " + sentence
    return sentence


def _in_code_span(text: str, start: int) -> bool:
    return text.count("`", 0, start) % 2 == 1


def _place_matches(document: _Document, line: int):
    text = document.lines[line].rstrip("\r")
    for match in _PLACE.finditer(text):
        if _in_code_span(text, match.start()) or match.group("noun").count("`") == 1:
            continue  # quoted, not said
        if match.group("noun").lower() == "commands" and "apabilit" not in match.group("where"):
            continue  # "commands at initialize" may be any commands: only capabilities say which
        sentence = _sentence(document, line, match.start(), match.end())
        if not _NEGATION.search(sentence) and not _NAMES_CLIENT.search(sentence):
            yield match


def _place_fix(document: _Document, line: int, match: re.Match) -> tuple[int, int, str]:
    code = "``" if document.rst else "`"
    prep = match.group("prep")
    prep = prep if prep.lower() in ("in", "via", "through") else "in"
    replacement = f"{prep} each session's {code}available_commands_update{code}"
    return document.offset(line, match.start("where")), document.offset(line, match.end("where")), replacement


def _block_findings(document: _Document, block: _Block, newline: str) -> tuple[list[_Found], bool]:
    """The block's findings, and whether it is clear (its lead's prose may be rewritten)."""
    lines = document.lines
    content = "\n".join(lines[block.first : block.end])
    if not _LEGACY_KEY_TEXT.search(content):
        return [], True
    base = document.offset(block.first)
    root = _parse(content)
    if root is None:
        reports = _left(_unparsed_findings(lines, block, content), "it is not plain JSON (placeholders, comments)")
        return reports, not reports
    lead_text = " ".join(lines[i] for i in block.lead)
    context = lead_text + " " + block.heading
    legacy = [
        found
        for found in _legacy_keys(root)
        if not found.bare or (_NAMES_CAPABILITIES.search(context) and not _NAMES_CLIENT.search(context))
    ]
    if not legacy:
        return [], True
    reports = []
    for found in legacy:
        _, key_start, _ = found.holder.members[found.index]
        line = content.count("\n", 0, key_start)
        column = key_start - (content.rfind("\n", 0, key_start) + 1)
        end = column + len(content[key_start : content.index('"', key_start + 1) + 1])
        reports.append(_Found(block.first + line, column, end, _JSON_MESSAGE, []))
    if len(legacy) > 1:
        return _left(reports, "the block shows the key more than once"), False
    found = legacy[0]
    _, key_start, value = found.holder.members[found.index]
    if value.kind != "array":
        return _left(reports, "its value is not a list of commands"), False
    lead_rewritten = any(True for i in block.lead for _ in _place_matches(document, i))
    if found.alone and not lead_rewritten and (found.bare or _NAMES_CAPABILITIES.search(context)):
        return _left(reports, "the text before it is about the capabilities, and the block is only the list"), False
    key_line_start = content.rfind("\n", 0, key_start) + 1
    commands = content[value.start : value.end]
    commands_indent = len(_indent_of(content[key_line_start:key_start]))
    one_line = block.end - block.first == 1
    content_lines = lines[block.first : block.end]
    unit = _indent_unit(content_lines, block.content_indent)
    notification = _notification(
        commands,
        commands_indent,
        base=block.content_indent,
        unit=unit,
        one_line=one_line,
        newline=newline,
        python=_python_spelling(root, value),
    )
    if found.alone:
        edits = [(base, document.line_end(block.end - 1), notification)]
    else:
        start, end = _removal(found.holder, found.index)
        edits = [(base + start, base + end, "")]
        if value.members:  # an empty list advertised nothing: no notification to show
            after = document.line_end(block.after)
            edits.append((after, after, _appended_block(document, block, notification, newline)))
    reports[0].edits = edits
    return reports, True


def _left(reports: list[_Found], why: str) -> list[_Found]:
    """`reports`, saying why fix leaves them."""
    for report in reports:
        report.message += f"; left as written: {why}"
    return reports


def _unparsed_findings(lines: list[str], block: _Block, content: str) -> list[_Found]:
    import json

    try:
        parsed = json.loads(content)
    except ValueError:
        parsed = None  # `...` placeholders and comments are common in docs: go by text
    if parsed is not None and not _has_legacy_capabilities(parsed):
        return []
    found = []
    for offset, column in _textual_legacy_keys(lines[block.first : block.end]):
        line = lines[block.first + offset]
        found.append(_Found(block.first + offset, column, line.index('"', column + 1) + 1, _JSON_MESSAGE, []))
    return found


def find_in_document(text: str, suffix: str = ".md") -> list[_Found]:
    if not _ABOUT_ACP.search(text):  # another product's slash commands (a chat bot's)
        return []
    document = _document(text, suffix)
    newline = "\r\n" if "\r\n" in text else "\n"
    found: list[_Found] = []
    unclear_leads: set[int] = set()
    for block in document.blocks:
        reports, clear = _block_findings(document, block, newline)
        found += reports
        if not clear:
            unclear_leads.update(block.lead)
    for line in document.prose:
        text_line = document.lines[line].rstrip("\r")
        # Prose naming the field is the author's to rewrite: so is the rest of its sentence.
        naming = [
            (match, sentence)
            for match in _FIELD_NAME.finditer(text_line)
            if not _NEGATION.search(sentence := _sentence(document, line, match.start(), match.end()))
        ]
        for match in _place_matches(document, line):
            why = "the example it leads is left" if line in unclear_leads else None
            if any(_sentence(document, line, match.start(), match.end()) == s for _, s in naming):
                why = "the sentence names the removed field"
            if why is not None:
                found += _left([_Found(line, match.start(), match.end(), _PLACE_MESSAGE, [])], why)
            else:
                found.append(
                    _Found(line, match.start(), match.end(), _PLACE_MESSAGE, [_place_fix(document, line, match)])
                )
        found += [_Found(line, match.start(), match.end(), _FIELD_MESSAGE, []) for match, _ in naming]
    return sorted(found, key=lambda f: (f.line, f.column))
