"""The pre-commit hooks, installed by pre-commit itself from a git copy of this project
(`pre-commit try-repo`) and run on a repository holding a legacy file: the check hook
fails and writes nothing, the fix hook rewrites the file. The README's snippet works
as written, with acp-migrate installed where the commit is made."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # pre-commit installs the hooks into a virtualenv of its own

PROJECT = Path(__file__).resolve().parents[1]
PRE_COMMIT = Path(sys.executable).parent / "pre-commit"
LEGACY = "from acp.schema import AgentCapabilities\n\nCAPS = AgentCapabilities(load_session=True, slash_commands=[])\n"
FIXED = LEGACY.replace(", slash_commands=[]", "")


def git(*args: str, cwd: Path, env: dict[str, str]) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, env=env, capture_output=True)


def _environment(tmp_path: Path) -> dict[str, str]:
    if not PRE_COMMIT.exists():
        pytest.fail("pre-commit is not installed: pip install -e '.[test]'")
    if shutil.which("git") is None:
        pytest.fail("git is needed for this test")
    env = {
        **os.environ,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_AUTHOR_NAME": "test",
        "GIT_AUTHOR_EMAIL": "test@example.invalid",
        "GIT_COMMITTER_NAME": "test",
        "GIT_COMMITTER_EMAIL": "test@example.invalid",
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
    }
    env.pop("NO_COLOR", None)
    return env


def _pre_commit(*args: str, cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    """pre-commit on every file of `cwd`: its exit code and its output."""
    result = subprocess.run(
        [str(PRE_COMMIT), *args, "--all-files", "--color", "never"],
        check=False,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return result.returncode, result.stdout + result.stderr


def test_the_hooks_via_pre_commit_try_repo(tmp_path: Path) -> None:
    env = _environment(tmp_path)
    # try-repo needs the hooks file committed: commit a copy of the project, never the project.
    hooks_repo = tmp_path / "acp-migrate"
    hooks_repo.mkdir()
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml"):
        shutil.copy2(PROJECT / name, hooks_repo / name)
    shutil.copytree(PROJECT / "acp_migrate", hooks_repo / "acp_migrate", ignore=shutil.ignore_patterns("__pycache__"))
    git("init", "-q", cwd=hooks_repo, env=env)
    git("add", "-A", cwd=hooks_repo, env=env)
    git("commit", "-q", "-m", "hooks", cwd=hooks_repo, env=env)

    user = tmp_path / "user"
    user.mkdir()
    git("init", "-q", cwd=user, env=env)
    (user / "agent.py").write_text(LEGACY)
    for number in range(2, 6):  # files enough for pre-commit to split a hook that is not serial
        (user / f"agent{number}.py").write_text(LEGACY)
    (user / "notes.txt").write_text("slash_commands=[] in prose is no Python\n")
    # A snapshot recording the old list: the census reads it (ACP011), fix leaves it.
    (user / "tests" / "__snapshots__").mkdir(parents=True)
    (user / "tests" / "__snapshots__" / "test_agent.ambr").write_text("# name: test_caps\n  'slashCommands': list([]),\n")
    git("add", "-A", cwd=user, env=env)

    # Both hooks, in the manifest's order: check (fails, writes nothing), then fix (rewrites).
    code, output = _pre_commit("try-repo", str(hooks_repo), cwd=user, env=env)

    assert code == 1, output
    check = output[output.index("acp-migrate check.") : output.index("acp-migrate fix.")]
    fix = output[output.index("acp-migrate fix.") :]
    assert "Failed" in check and "exit code: 1" in check
    assert "agent.py:3:45: ACP001" in check
    # One process saw every file: one summary each (a split hook prints one per process).
    assert check.count("Found ") == 1 and "in 6 files" in check, check
    assert "tests/__snapshots__/test_agent.ambr:2:4: ACP011" in check and "test_agent.ambr:2:4: ACP011" in fix
    assert fix.count("Fixed 5 findings in 5 files") == 1, fix
    assert "Failed" in fix and "files were modified by this hook" in fix
    assert "Fixed agent.py" in fix
    assert (user / "agent.py").read_text() == FIXED
    assert "notes.txt" not in output  # not a Python, stub or Markdown file


def test_the_hooks_see_the_whole_project_in_one_process() -> None:
    # pre-commit splits the files over processes unless a hook is serial; the project-wide
    # decision (ACP003: a caller left keeps an owned schema's field) needs them all at once.
    lines = (PROJECT / ".pre-commit-hooks.yaml").read_text().splitlines()
    hooks = "\n".join(line for line in lines if not line.startswith("#")).split("- id: ")[1:]
    assert len(hooks) == 2
    for hook in hooks:
        assert "require_serial: true" in hook, hook


def test_the_readmes_pre_commit_snippet_works_as_written(tmp_path: Path) -> None:
    readme = (PROJECT / "README.md").read_text()
    [snippet] = re.findall(r"```yaml\n(# \.pre-commit-config\.yaml\n.*?)```", readme, re.DOTALL)
    env = _environment(tmp_path)
    # acp-migrate installed where the commit is made: this environment's scripts first.
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    user = tmp_path / "user"
    user.mkdir()
    git("init", "-q", cwd=user, env=env)
    (user / ".pre-commit-config.yaml").write_text(snippet)
    (user / "agent.py").write_text(LEGACY)
    (user / "clean.py").write_text(FIXED)
    git("add", "-A", cwd=user, env=env)

    code, output = _pre_commit("run", cwd=user, env=env)

    assert code == 1, output
    assert "acp-migrate check" in output and "Failed" in output
    assert "agent.py:3:45: ACP001 [*]" in output and "clean.py" not in output
    assert (user / "agent.py").read_text() == LEGACY  # the check hook never writes
