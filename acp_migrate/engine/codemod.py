"""Per-source analysis: prefilter, parse once, run all rules in one traversal, apply edits.

(Placeholder signature; the real implementation lands next.)
"""

from __future__ import annotations

from acp_migrate.findings import SourceAnalysis


def analyze_source(source: bytes, *, path: str) -> SourceAnalysis:
    """Analyse one file's bytes. Raises SourceError when the file cannot be analysed."""
    raise NotImplementedError
