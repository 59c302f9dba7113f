"""`fix` reads its own result: every file it wrote is read again from disk and analysed
as `check` would, with the run's project decision. Exit 0 means proven: only when
every written file, read back, holds no finding at all.

- A written file that cannot be read back or no longer parses is an error (exit 2):
  fix never exits 0 on an output that cannot start.
- A fixable finding in it means fix did not finish what it claims: reported as
  "still there after fix" (exit 1).
- An unfixable one is what fix left to a person: where the run already listed work
  left in that file, it is that work, said once; where the run said nothing was left,
  it is reported (exit 1).

Files fix did not write are as the run analysed them; the vendored shim fix adds is
its own template (ACP009 checks copies).
"""

from __future__ import annotations

from dataclasses import replace

from acp_migrate.findings import Finding
from acp_migrate.results import FileOutcome

AFTER_FIX = "still there after fix: "


def checked(outcome: FileOutcome, read_back: FileOutcome) -> FileOutcome:
    """`outcome` of a file fix wrote, given `read_back`: check's outcome of the file on disk."""
    if read_back.error is not None:
        return replace(outcome, error=f"fix wrote a file it cannot read back: {read_back.error}")
    work_left = any(not finding.fixable for finding in outcome.remaining)
    unproven = [f for f in read_back.findings if f.fixable or not work_left]
    if not unproven:
        return outcome
    flagged = [replace(f, message=AFTER_FIX + f.message, fixable=False) for f in unproven]
    return replace(outcome, remaining=sorted(outcome.remaining + flagged, key=Finding.sort_key))
