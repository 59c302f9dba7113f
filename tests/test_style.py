"""The project's style read from its own configuration (acp_migrate/style.py), and every
run's `RuleSettings.style` being it (acp_migrate/config.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from acp_migrate.config import load_options
from acp_migrate.settings import ProjectStyle
from acp_migrate.style import read_style
from acp_migrate.vendor import VENDORED_FILE, vendored_source


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return folder


def test_no_configuration_is_the_default(tmp_path: Path) -> None:
    assert read_style(tmp_path) == ProjectStyle()


def test_ruff_in_pyproject(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "pyproject.toml": """
[tool.ruff]
line-length = 100
src = ["lib"]
[tool.ruff.format]
quote-style = "single"
[tool.ruff.lint.isort]
known-first-party = ["app", "shared"]
""",
            "lib/acp/__init__.py": "",
            "lib/tool.py": "",
            "lib/not-a-module/__init__.py": "",
            "lib/data/readme.txt": "",  # a folder without __init__.py is no package
        },
    )
    assert read_style(tmp_path) == ProjectStyle(100, "'", ("acp", "app", "shared", "tool"))


@pytest.mark.parametrize("name", ["ruff.toml", ".ruff.toml"])
def test_a_ruff_file_wins_over_pyproject_in_the_same_folder(tmp_path: Path, name: str) -> None:
    write(
        tmp_path,
        {
            "pyproject.toml": "[tool.ruff]\nline-length = 100\n",
            name: "line-length = 79\n[format]\nquote-style = 'single'\n",
        },
    )
    assert read_style(tmp_path) == ProjectStyle(79, "'")


def test_the_nearest_ruff_configuration_wins(tmp_path: Path) -> None:
    write(tmp_path, {"ruff.toml": "line-length = 120\n", "pkg/pyproject.toml": "[tool.ruff]\nline-length = 79\n"})
    assert read_style(tmp_path / "pkg").line_length == 79
    assert read_style(tmp_path).line_length == 120


def test_black_and_its_string_normalisation(tmp_path: Path) -> None:
    write(tmp_path, {"pyproject.toml": "[tool.black]\nline-length = 79\nskip-string-normalization = true\n"})
    assert read_style(tmp_path) == ProjectStyle(79, '"')  # preserve: either quote is the project's


def test_ruff_wins_over_black_and_flake8(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "pyproject.toml": "[tool.black]\nline-length = 79\n[tool.ruff]\nline-length = 110\n",
            "setup.cfg": "[flake8]\nmax-line-length = 99\n",
        },
    )
    assert read_style(tmp_path).line_length == 110


@pytest.mark.parametrize("name", ["setup.cfg", "tox.ini", ".flake8"])
def test_flake8_max_line_length_and_flake8_quotes(tmp_path: Path, name: str) -> None:
    write(tmp_path, {name: "[flake8]\nmax-line-length = 79\ninline-quotes = single\n"})
    assert read_style(tmp_path) == ProjectStyle(79, "'")


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("pyproject.toml", '[tool.isort]\nline_length = 79\nknown_first_party = ["app"]\n'),
        (".isort.cfg", "[settings]\nline_length = 79\nknown_first_party = app\n"),
        ("setup.cfg", "[isort]\nline_length = 79\nknown_first_party = app,\n    other\n"),
        ("tox.ini", "[isort]\nline-length = 79\nknown-first-party = app\n"),
    ],
)
def test_isort(tmp_path: Path, name: str, text: str) -> None:
    style = read_style(write(tmp_path, {name: text}))
    assert style.line_length == 79 and "app" in style.first_party


def test_ruff_lint_quotes_when_the_formatter_preserves(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "ruff.toml": "[format]\nquote-style = 'preserve'\n[lint.flake8-quotes]\ninline-quotes = 'single'\n",
        },
    )
    assert read_style(tmp_path).quote == "'"


def test_the_default_src_finds_the_project_s_own_acp_package(tmp_path: Path) -> None:
    """AgentPool's layout: its own `acp` package under src/, no known-first-party."""
    write(tmp_path, {"pyproject.toml": "[tool.ruff]\nline-length = 120\n", "src/acp/__init__.py": ""})
    assert "acp" in read_style(tmp_path).first_party


@pytest.mark.parametrize(
    "text",
    [
        "[tool.ruff\nline-length = 1",  # not TOML
        "[tool.ruff]\nline-length = 'wide'\n",
        "[tool.ruff]\nline-length = true\n",
        "[tool.ruff]\nline-length = 5\n",
        "[tool.ruff]\nsrc = 'src'\n[tool.ruff.format]\nquote-style = 3\n",
        "[tool.ruff]\nline-length = 100\nx = " + "[" * 50_000 + "]" * 50_000 + "\n",  # tomllib recurses per level
    ],
)
def test_what_cannot_be_read_counts_as_absent(tmp_path: Path, text: str) -> None:
    write(tmp_path, {"pyproject.toml": text, "setup.cfg": "[flake8]\nmax-line-length = 99\n"})
    assert read_style(tmp_path).line_length in (88, 99)
    assert read_style(tmp_path).quote == '"'


def test_a_ruff_file_too_large_for_a_configuration_counts_as_absent(tmp_path: Path) -> None:
    write(
        tmp_path,
        {"ruff.toml": "line-length = 79\n" + "#" * 1024 * 1024, "setup.cfg": "[flake8]\nmax-line-length = 99\n"},
    )
    assert read_style(tmp_path).line_length == 99


def test_a_configuration_counted_as_absent_is_named_for_verbose(tmp_path: Path) -> None:
    write(tmp_path, {"ruff.toml": "[format\n", "tox.ini": "[flake8\n", "setup.cfg": "[flake8]\nmax-line-length = 99\n"})
    options = load_options([tmp_path])
    assert options.settings.style.line_length == 99
    assert sorted(line.split(" (")[0] for line in options.ignored) == [
        f"{tmp_path / 'ruff.toml'}: invalid TOML: Expected ']' at the end of a table declaration",
        f"{tmp_path / 'tox.ini'}: invalid INI",
    ]


def test_link_loops_in_a_src_folder_are_no_modules(tmp_path: Path) -> None:
    (tmp_path / "a.py").symlink_to("b.py")
    (tmp_path / "b.py").symlink_to("a.py")
    (tmp_path / "up").symlink_to(".")
    (tmp_path / "tool.py").write_text("")
    assert read_style(tmp_path).first_party == ("tool",)


def test_a_broken_ini_file_counts_as_absent(tmp_path: Path) -> None:
    (tmp_path / "setup.cfg").write_bytes(b"\xff\xfe[flake8\n")
    assert read_style(tmp_path) == ProjectStyle()


def test_every_run_gets_the_project_s_style(tmp_path: Path) -> None:
    """No `[tool.acp-migrate]`: the root is the paths' common folder, and its style is read."""
    write(tmp_path, {"pyproject.toml": "[tool.ruff]\nline-length = 79\n", "pkg/agent.py": ""})
    assert load_options([tmp_path / "pkg" / "agent.py"]).settings.style.line_length == 79


def test_the_configuration_file_s_folder_is_the_root(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "pyproject.toml": "[tool.acp-migrate]\n[tool.black]\nline-length = 100\n",
            "sub/ruff.toml": "line-length = 79\n",
            "sub/agent.py": "",
        },
    )
    options = load_options([tmp_path / "sub" / "agent.py"])
    assert options.config_file == str(tmp_path / "pyproject.toml")
    assert options.settings.style.line_length == 100  # black's, at the root; ruff.toml below it is not read


def test_isolated_runs_use_the_default_style(tmp_path: Path) -> None:
    write(tmp_path, {"pyproject.toml": "[tool.ruff]\nline-length = 79\n"})
    assert load_options([tmp_path], isolated=True).settings.style == ProjectStyle()


RUFF = Path(sys.executable).parent / "ruff"  # the test extra's, from PyPI


def ruff(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(RUFF), *args], cwd=cwd, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("first_party", [True, False], ids=["acp-first-party", "acp-third-party"])
@pytest.mark.parametrize("quote", ["double", "single"])
@pytest.mark.parametrize("length", [79, 88, 100, 120])
def test_the_vendored_file_passes_ruff_under_the_project_s_configuration(
    tmp_path: Path, length: int, quote: str, first_party: bool
) -> None:
    """The project's own ruff, configured as the project is (AgentPool's isort settings among
    them), finds nothing to format and nothing to report in the vendored file."""
    known = '\nknown-first-party = ["acp"]' if first_party else ""
    write(
        tmp_path,
        {
            "pyproject.toml": f"""
[tool.ruff]
line-length = {length}
[tool.ruff.format]
quote-style = "{quote}"
[tool.ruff.lint]
select = ["E", "W", "F", "I", "Q", "UP", "D205", "D209"]  # D2: AgentPool selects pydocstyle
[tool.ruff.lint.flake8-quotes]
inline-quotes = "{quote}"
[tool.ruff.lint.isort]
force-sort-within-sections = true
lines-after-imports = 2{known}
""",
        },
    )
    style = read_style(tmp_path)
    assert (style.line_length, style.quote, "acp" in style.first_party) == (length, QUOTES[quote], first_party)
    (tmp_path / VENDORED_FILE).write_bytes(vendored_source(style=style))
    formatted = ruff("format", "--check", "--diff", VENDORED_FILE, cwd=tmp_path)
    assert formatted.returncode == 0, formatted.stdout + formatted.stderr
    checked = ruff("check", "--no-cache", VENDORED_FILE, cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # ...and with ruff's default isort (lines-after-imports -1) and the formatter's preview style.
    defaults = f"[tool.ruff]\nline-length = {length}\n[tool.ruff.format]\npreview = true\nquote-style = '{quote}'\n"
    (tmp_path / "pyproject.toml").write_text(defaults)
    assert ruff("format", "--check", VENDORED_FILE, cwd=tmp_path).returncode == 0
    assert ruff("check", "--no-cache", "--select", "E,W,F,I", VENDORED_FILE, cwd=tmp_path).returncode == 0


QUOTES = {"double": '"', "single": "'"}
