"""What the rules share: not a rule (the registry finds only `acpNNN_*` modules), and
no rule imports another, so everything two rules use lives here.

This module holds the words, and imports nothing: the registry imports every rule
module at start-up, and a rule module may import these at its top. The code the rules
share imports LibCST, so a rule imports it inside the methods that run it:

- `shared.advertised`: recognising the legacy factories, and `remove_advertised` /
  `keep_advertised`, the one path every way of setting the field takes (ACP001-003);
- `shared.rewire`: the fix behind `remove_advertised`, handing a removed list to the
  agent's `CommandAdvertiser`, which advertises it to every session
  (`shared.list_owner` says whose list it is, `shared.project_classes` reads classes
  across files, `shared.runtime_import` adds the shim's import, `shared.generated`
  lays generated calls out in the project's style);
- `shared.kinds`: what an expression holds (capabilities, an initialize result, their
  dicts), one inference for the rules that find the field set or read and for the
  test analysis (`shared.syntax`: the small readings of syntax they share);
- `shared.legacy_tests`: which tests are about the removed field and what fix does
  with each (ACP008, which claims the tests it removes; other rules ask
  `state_of_test_code`): its modules `files` (which are tests), `reads` (reading the
  field), `plans` (a test's fate), `rewrite` (into a per-session test), `compat` (the
  compatibility test), `leftovers` (fixtures and modules left with no test).
"""

# The removed field, in both spellings, as names and as the bytes a file must hold.
LEGACY_KEYS = frozenset({"slash_commands", "slashCommands"})
LEGACY_TOKENS: tuple[bytes, ...] = (b"slash_commands", b"slashCommands")

# The keys of the capabilities in an initialize result (wire and Python spellings).
CAPABILITY_KEYS = frozenset({"agentCapabilities", "agent_capabilities"})
CAPABILITY_CLASSES = frozenset({"AgentCapabilities"})
INITIALIZE_CLASSES = frozenset({"InitializeResponse"})
SCHEMA_CLASSES = CAPABILITY_CLASSES | INITIALIZE_CLASSES
# The session id of the notifications ACP006 writes into documentation examples.
SESSION_ID = "sess_abc123"

# What an expression holds (`shared.kinds`).
CAPS, CAPS_DICT, INIT, INIT_DICT = "capabilities", "capabilities dict", "initialize result", "initialize dict"
DUMPERS = frozenset({"model_dump", "dict"})

# How a finding of a setting says what is wrong with it.
ADVERTISES = "advertises commands at initialize; ACP advertises them per session"

# The line `fix` leaves above code it cannot move (ACP005 says why, ACP007 reports it).
TODO_MARK = "# acp-migrate: TODO"
NOT_ADVERTISED_RULE = "ACP005"  # the follow-up of a list fix cannot move

# The runtime shim's class: the rewire asks whether a file imports it already, though
# the file's code need not mention it (`Rule.names_looked_up`).
ADVERTISER_CLASS = "CommandAdvertiser"
# The agent's attribute holding it: `self.command_advertiser.advertise(...)` in migrated
# code, `agent.command_advertiser.commands()` in rewritten tests.
ADVERTISER = "command_advertiser"

# Tests of the removed behaviour (`shared.legacy_tests`): ACP008 rewrites or removes them,
# and in what it edits no other rule reports or edits.
TEST_RULE = "ACP008"
KEEP, REWRITE, REMOVE, PARTIAL, LEFT = "keep", "rewrite", "remove", "partial", "left"
# How a test asserts a spy's calls (`legacy_tests.spies`: a spy on the command getter),
# the screen's words; and the bytes a file holding such a spy holds (`patch.object(...,
# wraps=...)`, `mocker.spy(...)`). Not the assertions' bytes: most test files of a
# project hold those (AgentPool's migrated tree: 36 files parsed for nothing, `check`
# 15x slower); a stub's call count (no `wraps=`) is found only beside a legacy token.
SPY_ASSERTIONS = frozenset({"assert_called", "assert_called_once", "assert_called_once_with", "call_count"})
SPY_TOKENS: tuple[bytes, ...] = (b"wraps=", b".spy(")

# Historical texts say what was true then (RFCs, decision records, changelogs): rules
# reading documents leave them as written (`Rule.skipped_names`).
HISTORICAL_TEXTS = ("rfcs", "rfc", "adr", "adrs", "decisions", "changelog*", "history*", "news*", "release-notes*")
