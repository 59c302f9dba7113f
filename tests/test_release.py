"""The release metadata agrees: one version in pyproject.toml and the package, a
CHANGELOG entry for it, and the README's install instructions naming a commit, which
every clone has, not a tag (this repository has no public URL: placeholders, never a
made-up host)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from acp_migrate import __version__

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_one_version_everywhere() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["version"] == __version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)
    assert project["license"] == {"text": "MIT"}
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_the_changelog_has_an_entry_for_the_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert re.search(rf"^## \[{re.escape(__version__)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", changelog, re.MULTILINE)


def test_the_readme_installs_from_a_commit_never_a_tag_a_clone_lacks() -> None:
    assert 'pip install "git+https://<host>/<path>/acp-migrate@<commit>"' in README
    assert not re.search(r"acp-migrate@v\d|rev: v\d", README)
    # No command installs it from PyPI, where it is not.
    assert not re.search(r"^\s*(- run: )?pip install acp-migrate\b", README, re.MULTILINE)
    assert "OWNER" not in README
