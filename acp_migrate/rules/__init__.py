"""The rules, one module each. To add a rule: write `acpNNN_<name>.py` beside these
(a `Rule` subclass with its docs and examples) and list its class in `ALL_RULES`."""

from acp_migrate.rules.acp001_initialize_keyword import InitializeKeyword
from acp_migrate.rules.acp002_capabilities_dict_key import CapabilitiesDictKey
from acp_migrate.rules.acp003_owned_schema_field import OwnedSchemaField
from acp_migrate.rules.acp004_removed_field_read import RemovedFieldRead
from acp_migrate.rules.acp005_commands_not_advertised import CommandsNotAdvertised
from acp_migrate.rules.acp006_markdown_capabilities import MarkdownCapabilities
from acp_migrate.rules.acp007_migration_todo import MigrationTodo
from acp_migrate.rules.acp008_removed_behaviour_test import RemovedBehaviourTest
from acp_migrate.rules.acp009_vendored_runtime_outdated import VendoredRuntimeOutdated
from acp_migrate.rules.base import Rule
from acp_migrate.rules.rewire import ADVERTISER_CLASS

ALL_RULES: tuple[type[Rule], ...] = (
    InitializeKeyword,
    CapabilitiesDictKey,
    OwnedSchemaField,
    RemovedFieldRead,
    CommandsNotAdvertised,
    MarkdownCapabilities,
    MigrationTodo,
    RemovedBehaviourTest,
    VendoredRuntimeOutdated,
)

PYTHON_RULES = tuple(rule for rule in ALL_RULES if ".py" in rule.suffixes)

RULES_BY_CODE = {rule.code: rule for rule in ALL_RULES}

# Names the rules look up in a file's imports though its code need not mention them (a
# rewire asks whether the advertiser is imported already): check's hollowing keeps the
# imports binding them (engine/hollow.py).
NAMES_LOOKED_UP = frozenset({ADVERTISER_CLASS})
