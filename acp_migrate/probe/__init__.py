"""`acp-migrate probe`: start an ACP agent, in any language, and judge it on the wire.

The static rules prove the source is migrated; the probe proves the running server
behaves. It starts the agent over stdio, drives it as a client (`driver.py`), keeps
every frame in order (`wire.py`), and runs the wire rules over the recording
(`checks/`, ACP101...), which `report.py` renders.

This package imports the standard library, typer for its command (`cli.py`) and
the modules it shares with the codemod's reports and rules (`acp_migrate/rulebook.py`,
`escape.py`, `sarif.py`) only: nothing of the codemod (LibCST, the engine, the
codemod's rules), nor the SDK.

```python
from acp_migrate.probe import ProbeOptions, run_probe

result = run_probe(ProbeOptions(command=["python", "agent.py"], settle=0.5))
for finding in result.findings:  # the verdict; result.notes: worth knowing, not wrong
    print(finding.code, finding.step, finding.session_id, finding.frame, finding.message)
result.coverage  # each setup kind: exercised how often, with how many lists, or why not
result.exit_code  # 0 clean, 1 findings or too little exercised (result.unmet), 2 not driven
```
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from acp_migrate.probe.limits import MAX_FINDINGS

if TYPE_CHECKING:
    from acp_migrate.probe.driver import ProbeOptions, ProbeRun
    from acp_migrate.probe.report import ProbeResult

__all__ = ["ProbeOptions", "ProbeResult", "ProbeRun", "judge", "replay", "run_probe"]

# Loaded on first use: `acp-migrate --help` lists the probe's command without asyncio.
_LAZY = {"ProbeOptions": "driver", "ProbeRun": "driver", "ProbeResult": "report"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def judge(
    run: ProbeRun,
    codes: Sequence[str] | None = None,
    max_findings: int = MAX_FINDINGS,
    *,
    bases: Sequence[str] = ("spec", "policy"),
    require: Sequence[str] = (),
) -> ProbeResult:
    """Run the wire rules over a recorded run: findings and notes, each capped; only the
    findings of `bases` (spec, policy); `require`: the setup kinds (new, load, resume,
    fork) the run must exercise to pass."""
    from acp_migrate.probe.checks import CODES, run_checks
    from acp_migrate.probe.report import make_result
    from acp_migrate.probe.wire import Transcript

    transcript = Transcript(run.frames, run.command)
    enabled = list(codes) if codes is not None else list(CODES)
    return make_result(run, transcript, run_checks(transcript, enabled, bases), enabled, max_findings, require)


def run_probe(
    options: ProbeOptions, codes: Sequence[str] | None = None, max_findings: int = MAX_FINDINGS, **judging: Any
) -> ProbeResult:
    """Drive the agent `options.command`, then judge what it sent (`judging`: `judge`'s
    `bases` and `require`)."""
    from acp_migrate.probe.driver import probe

    return judge(probe(options), codes, max_findings, **judging)


def replay(path: str) -> ProbeRun:
    """The run a `--record` file holds, to judge again offline (`judge`)."""
    import json  # (not on the codemod's start, which lists the probe's command)

    from acp_migrate.probe.driver import ProbeRun
    from acp_migrate.probe.wire import Frame

    frames = []
    with open(path, encoding="utf-8") as record:
        for line in record:
            if line.strip():
                entry = json.loads(line)
                frames.append(Frame.parse(len(frames), entry["direction"], entry["ms"] / 1000, entry["raw"]))
    return ProbeRun(frames, ["replay", path])
