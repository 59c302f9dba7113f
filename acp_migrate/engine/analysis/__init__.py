"""The analysis room's entry: everything the execution room (and the API) asks of it."""

from acp_migrate.engine.analysis.codemod import (
    MAX_PARSE_BYTES,
    analyze_source,
    gather_facts,
    gathers_in,
    within_parse_limits,
)
from acp_migrate.engine.analysis.prefilter import may_contain_legacy
from acp_migrate.engine.analysis.screen import needs_libcst
from acp_migrate.vendor import is_vendored, replaceable

__all__ = ["MAX_PARSE_BYTES", "analyze_source", "gather_facts", "gathers_in", "is_vendored", "may_contain_legacy", "needs_libcst", "replaceable", "within_parse_limits"]
