"""Issue 25's bounds: `acp-migrate` on the real users' repository, AgentPool, next to ruff.

Run: ``python bench/bench_agentpool.py --legacy DIR --migrated DIR [--rounds 5]
[--before-source DIR]`` (ruff from the ``bench`` extra). It fetches nothing: the trees
are AgentPool at its legacy commit ``a93aab43c`` and its hand migration ``5f9d01db8``,
made once from a clone::

    git clone https://github.com/Leoyzen/agentpool && cd agentpool
    mkdir -p ../trees/legacy ../trees/migrated
    git archive a93aab43c | tar -x -C ../trees/legacy
    git archive 5f9d01db8 | tar -x -C ../trees/migrated

Every case runs once per round, the cases taking turns in a rotating order; ``fix``
gets a fresh copy of the legacy tree each time (the copy is not timed). Times are
medians of wall time; the bounds are ratios of medians within the run, so they hold
on a loaded machine better than seconds do. Cases: ``check .`` in each tree, ``ruff
check --no-cache --isolated --select F401 .`` in each, ``fix .`` on the legacy tree,
``check`` of one small clean file and ``python -c pass``. ``acp-migrate`` runs as
``python -m acp_migrate`` of this interpreter (byte-compiled first, as ``pip install``
does), with ``--isolated`` as ruff;
``--before-source DIR`` (a checkout of an older revision: ``git archive <rev> | tar -x
-C DIR``) adds the same cases for it, run with ``PYTHONPATH=DIR``, and a before/after
table. Then, untimed: the peak memory of ``fix`` (the whole process tree, PSS), and
whether ``check`` of the migrated tree imports LibCST (``python -X importtime``, every
process's imports).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_codemod import Case, describe_machine, median, run_case, timed, tool, tree_memory, versions

# Issue 25's bounds (ratios of medians in one run, and peak memory).
TARGETS = {
    "check_legacy_vs_ruff": 2.0,
    "check_migrated_vs_ruff": 1.5,
    "fix_vs_check_legacy": 2.0,
    "startup_vs_python": 5.0,
    "peak_memory_mb": 150.0,
}
LABELS = {
    "check_legacy_vs_ruff": "check legacy / ruff F401 legacy",
    "check_migrated_vs_ruff": "check migrated / ruff F401 migrated",
    "fix_vs_check_legacy": "fix legacy / check legacy",
    "startup_vs_python": "check of one small clean file / python -c pass",
    "peak_memory_mb": "peak memory of fix legacy (MB)",
}


def acp_cases(label: str, env: dict[str, str] | None, trees: dict[str, Path], one_file: Path) -> list[Case]:
    acp = [sys.executable, "-m", "acp_migrate"]
    return [
        Case(f"check legacy{label}", [*acp, "check", "--isolated", "."], (1,), env=env, cwd=trees["legacy"]),
        Case(f"check migrated{label}", [*acp, "check", "--isolated", "."], (0, 1), env=env, cwd=trees["migrated"]),
        Case(f"fix legacy{label}", [*acp, "fix", "--isolated", "TREE"], (0, 1), fresh_copy_of=trees["legacy"], env=env),
        Case(f"check one file{label}", [*acp, "check", "--isolated", str(one_file)], (0,), repeat=5, env=env),
    ]


def byte_compile(env: dict[str, str] | None, work: Path) -> None:
    """Byte-compile the acp_migrate `env` imports, as `pip install` does: else (an
    editable install run with PYTHONDONTWRITEBYTECODE, a read-only checkout) every start
    compiles every module it imports, which the one-file case would measure."""
    where = subprocess.run(  # (in `work`: `-c` puts the current folder first on the path)
        [sys.executable, "-c", "import acp_migrate, os; print(os.path.dirname(acp_migrate.__file__))"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    subprocess.run([sys.executable, "-m", "compileall", "-q", where], env=env, check=True)


def libcst_imported(env: dict[str, str] | None, tree: Path) -> list[str]:
    """The LibCST modules any process of `check .` in `tree` imports."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "acp_migrate", "check", "--isolated", "."],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    names = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    return sorted(name for name in names if name.split(".")[0] == "libcst")


def bounds(m: dict[str, float], memory: dict[str, float], label: str) -> dict[str, float]:
    return {
        "check_legacy_vs_ruff": m[f"check legacy{label}"] / m["ruff F401 legacy"],
        "check_migrated_vs_ruff": m[f"check migrated{label}"] / m["ruff F401 migrated"],
        "fix_vs_check_legacy": m[f"fix legacy{label}"] / m[f"check legacy{label}"],
        "startup_vs_python": m[f"check one file{label}"] / m["python -c pass"],
        "peak_memory_mb": memory[label],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--legacy", type=Path, required=True, help="AgentPool at a93aab43c (git archive)")
    parser.add_argument("--migrated", type=Path, required=True, help="AgentPool at 5f9d01db8 (git archive)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--before-source", type=Path, help="a checkout of an older acp-migrate, run beside this one")
    args = parser.parse_args()
    trees = {"legacy": args.legacy.resolve(), "migrated": args.migrated.resolve()}
    ruff = tool("ruff")
    if ruff is None:
        raise SystemExit("ruff not found: pip install -e '.[bench]'")

    work = Path(tempfile.mkdtemp(prefix="bench-agentpool."))
    one_file = work / "settings_module.py"
    one_file.write_text('"""Settings."""\n\nDEBUG = False\nNAME = "demo"\n')
    variants: dict[str, dict[str, str] | None] = {"": None}
    if args.before_source is not None:
        variants[" (before)"] = {**os.environ, "PYTHONPATH": str(args.before_source.resolve())}
    ruff_argv = [ruff, "check", "--no-cache", "--isolated", "--select", "F401", "--quiet", "."]
    cases = [
        Case("ruff F401 legacy", ruff_argv, (0, 1), cwd=trees["legacy"]),
        Case("ruff F401 migrated", ruff_argv, (0, 1), cwd=trees["migrated"]),
        Case("python -c pass", [sys.executable, "-c", "pass"], (0,), repeat=5),
    ]
    for label, env in variants.items():
        byte_compile(env, work)
        cases += acp_cases(label, env, trees, one_file)
    for case in cases:  # untimed: the OS's file cache
        if case.fresh_copy_of is None:
            timed(case.argv, case.cwd or work, case.env)
    load_before = os.getloadavg()
    for round_index in range(args.rounds):
        shift = round_index % len(cases)
        for case in cases[shift:] + cases[:shift]:
            run_case(case, work)
        print(f"round {round_index + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    load_after = os.getloadavg()

    memory, imported = {}, {}
    for label, env in variants.items():
        copy = work / "legacy-memory"
        shutil.copytree(trees["legacy"], copy, symlinks=True)
        pss, _ = tree_memory([sys.executable, "-m", "acp_migrate", "fix", "--isolated", str(copy)], work, env)
        # all processes (PSS) at their peak, or the largest one alone, whichever is more
        largest = max(max(c.max_rss_kb) for c in cases if c.name == f"fix legacy{label}") / 1024
        memory[label] = max(pss, largest)
        shutil.rmtree(copy)
        imported[label] = libcst_imported(env, trees["migrated"])
    shutil.rmtree(work)

    m = {case.name: median(case) for case in cases}
    print(f"\nmachine: {describe_machine()}")
    print(f"load average (1, 5, 15 min) before: {load_before}, after: {load_after}")
    print(f"versions: {versions()}")
    print(f"rounds: {args.rounds}")
    width = max(len(case.name) for case in cases)
    print(f"\n{'case':{width}} {'median s':>9} {'min s':>8} {'max s':>8} {'max RSS MB':>11}")
    for case in cases:
        print(
            f"{case.name:{width}} {m[case.name]:9.3f} {min(case.walls):8.3f} {max(case.walls):8.3f} "
            f"{max(case.max_rss_kb) / 1024:11.1f}"
        )
    values = {label: bounds(m, memory, label) for label in variants}
    print("\nbounds (issue 25; ratios of medians, same run):")
    for key, value in values[""].items():
        print(f"{'PASS' if value <= TARGETS[key] else 'MISS'} {LABELS[key]}: {value:.3f} (bound <= {TARGETS[key]})")
    for label in variants:
        found = imported[label]
        print(f"{'MISS' if found else 'PASS'} check migrated{label} imports LibCST: {', '.join(found[:3]) or 'no'}")
    if len(variants) > 1:
        print("\n| bound | before | after |\n|---|---:|---:|")
        for key, limit in TARGETS.items():
            old, new = values[" (before)"][key], values[""][key]
            print(f"| {LABELS[key]} <= {limit} | {old:.3f} | {new:.3f} |")
        print(
            f"| check migrated imports LibCST | {'yes' if imported[' (before)'] else 'no'} "
            f"| {'yes' if imported[''] else 'no'} |"
        )
        print("\n| case | before median s | after median s |\n|---|---:|---:|")
        for kind in ("check legacy", "check migrated", "fix legacy", "check one file"):
            print(f"| {kind} | {m[kind + ' (before)']:.3f} | {m[kind]:.3f} |")


if __name__ == "__main__":
    main()
