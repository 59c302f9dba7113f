"""The SDK target (acp_migrate/sdk.py): `--target-sdk`, `target-sdk`, else the newest
release the project's own requirement on agent-client-protocol admits; and a rule of an
SDK move runs only when the target crosses its release."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from acp_migrate.config import ConfigError, Overrides, load_options
from acp_migrate.config_files import ConfigFiles
from acp_migrate.rules import ALL_RULES
from acp_migrate.sdk import RELEASES, Target, admitted, choose_target, parse_requirement, read_requirements
from acp_migrate.settings import RuleSettings


def requirement(text: str):
    found = parse_requirement(text, "pyproject.toml", 1)
    assert found is not None, text
    return found


@pytest.mark.parametrize(
    ("text", "oldest", "newest"),
    [
        ("agent-client-protocol==0.8.0", "0.8.0", "0.8.0"),
        ("agent-client-protocol>=0.7", "0.7.0", "1.0.0"),
        ("agent-client-protocol>=0.7,<0.13", "0.7.0", "0.12.1"),
        ("Agent_Client.Protocol >= 0.9 , < 1", "0.9.0", "0.12.1"),
        ("agent-client-protocol~=0.9.0", "0.9.0", "0.9.0"),
        ("agent-client-protocol~=0.9", "0.9.0", "0.12.1"),
        ("agent-client-protocol==0.8.*", "0.8.0", "0.8.1"),
        ("agent-client-protocol[extra] (>0.10.0,!=0.12.1) ; python_version >= '3.10'", "0.10.1", "1.0.0"),
        ("agent-client-protocol", "0.4.5", "1.0.0"),
        ("agent-client-protocol<=0.5  # old", "0.4.5", "0.5.0"),
    ],
)
def test_a_specifier_admits_the_known_releases_it_says(text: str, oldest: str, newest: str) -> None:
    versions = admitted([requirement(text)])
    assert (versions[0], versions[-1]) == (oldest, newest)


@pytest.mark.parametrize(
    "text",
    ["agent-client-protocolx>=1", "other>=0.7", "agent-client-protocol @ https://x/y.whl", "# agent-client-protocol"],
)
def test_what_is_no_readable_requirement_on_the_sdk_is_none(text: str) -> None:
    assert parse_requirement(text, "requirements.txt") is None


def test_the_known_releases_are_in_order_and_end_at_1_0() -> None:
    assert list(RELEASES) == sorted(RELEASES, key=lambda v: tuple(map(int, v.split("."))))
    assert RELEASES[-1] == "1.0.0" and "0.12.1" in RELEASES and "0.4.9" in RELEASES


def test_without_a_name_the_target_is_the_newest_admitted_and_the_code_is_for_the_oldest() -> None:
    target, note = choose_target(None, "", [requirement("agent-client-protocol>=0.7")])
    assert target == Target("1.0.0", "0.7.0", target.why)
    assert note.startswith("target SDK 1.0.0: the newest release the requirement")
    assert "(the code's: 0.7.0)" in note


def test_no_requirement_and_no_name_is_no_target() -> None:
    target, note = choose_target(None, "", [])
    assert target is None and note.startswith("no target SDK: the project states no requirement")
    assert choose_target(None, "", [requirement("agent-client-protocol>=2")])[0] is None


def test_a_named_target_wins_over_the_requirement() -> None:
    pin = requirement("agent-client-protocol==0.8.0")
    target, note = choose_target("1.0", "--target-sdk", [pin])
    assert (target.version, target.written_for) == ("1.0.0", "0.8.0")
    assert note.startswith("target SDK 1.0.0: named by --target-sdk; the requirement")
    assert choose_target("0.9", "--target-sdk", [])[0] == Target("0.9.0", None, "named by --target-sdk")


@pytest.mark.parametrize(
    ("target", "written_for", "crossed"),
    [
        ("1.0.0", None, {"0.8.0", "0.9.0", "1.0.0"}),
        ("0.9.0", None, {"0.8.0", "0.9.0"}),
        ("1.0.0", "0.8.1", {"0.9.0", "1.0.0"}),  # the code's release already has 0.8's change
        ("1.0.0", "0.9.0", {"1.0.0"}),
    ],
)
def test_a_target_crosses_the_releases_between_the_codes_and_itself(
    target: str, written_for: str | None, crossed: set[str]
) -> None:
    assert {r for r in ("0.8.0", "0.9.0", "1.0.0") if Target(target, written_for, "").crosses(r)} == crossed


def test_a_rule_of_an_sdk_move_runs_only_when_the_target_crosses_its_release() -> None:
    class Move(ALL_RULES[0]):  # any rule, declaring a release
        sdk_release = "0.9.0"

    assert not Move.runs_with(RuleSettings())
    assert Move.runs_with(RuleSettings(sdk=Target("0.9.0", None, "")))
    assert not Move.runs_with(RuleSettings(sdk=Target("0.8.1", None, "")))
    assert not Move.runs_with(RuleSettings(sdk=Target("1.0.0", "0.9.0", "")))
    assert not Move.runs_with(RuleSettings(sdk=Target("1.0.0", None, ""), ignore=(Move.code,)))
    # The slash-command rules declare no release: they run without a target.
    assert all(rule.runs_with(RuleSettings()) for rule in ALL_RULES if rule.sdk_release is None)


def test_a_rule_of_several_sdk_moves_runs_when_the_target_crosses_any_of_them() -> None:
    class Moves(ALL_RULES[0]):  # any rule, declaring releases (ACP220: each reorder)
        sdk_release = ("0.8.0", "0.11.0")

    assert Moves.runs_with(RuleSettings(sdk=Target("0.10.1", "0.7.0", "")))  # 0.8.0
    assert Moves.runs_with(RuleSettings(sdk=Target("1.0.0", "0.9.0", "")))  # 0.11.0
    assert not Moves.runs_with(RuleSettings(sdk=Target("0.10.1", "0.8.0", "")))
    assert not Moves.runs_with(RuleSettings(sdk=Target("1.0.0", "0.11.0", "")))
    assert not Moves.runs_with(RuleSettings())


def test_requirements_are_read_from_pyproject_requirements_files_and_setup_cfg(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "a"\ndependencies = [\n  "pydantic>=2",\n  "agent-client-protocol>=0.7",\n]\n'
        '[project.optional-dependencies]\nnew = ["agent-client-protocol<0.13"]\n'
    )
    (tmp_path / "requirements-dev.txt").write_text("-r requirements.txt\nagent_client_protocol!=0.9.0\n")
    (tmp_path / "setup.cfg").write_text("[options]\ninstall_requires =\n    typer\n    agent-client-protocol>=0.8\n")
    found = read_requirements(tmp_path, ConfigFiles())
    assert [(Path(r.path).name, r.line, r.text) for r in found] == [
        ("pyproject.toml", 5, "agent-client-protocol>=0.7"),
        ("pyproject.toml", 8, "agent-client-protocol<0.13"),
        ("setup.cfg", 4, "agent-client-protocol>=0.8"),
        ("requirements-dev.txt", 2, "agent_client_protocol!=0.9.0"),
    ]
    assert admitted(found)[0] == "0.8.0" and admitted(found)[-1] == "0.12.1" and "0.9.0" not in admitted(found)


def test_the_target_comes_from_the_flag_the_file_or_the_requirement(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "requirements.txt").write_text("agent-client-protocol==0.8.0\n")

    # No configuration file: the requirement, found in the first folder up that holds one.
    by_requirement = load_options([project / "src"])
    assert (by_requirement.settings.sdk.version, by_requirement.settings.sdk.written_for) == ("0.8.0", "0.8.0")

    (project / "pyproject.toml").write_text("[tool.acp-migrate]\ntarget-sdk = '0.9'\n")
    by_file = load_options([project / "src"])
    assert (by_file.settings.sdk.version, by_file.settings.sdk.written_for) == ("0.9.0", "0.8.0")
    assert f"named by target-sdk in {project / 'pyproject.toml'}" in by_file.target_note

    by_flag = load_options([project / "src"], overrides=Overrides(target_sdk="1"))
    assert by_flag.settings.sdk.version == "1.0.0" and "named by --target-sdk" in by_flag.target_note
    assert load_options([project / "src"], isolated=True).settings.sdk is None


def test_a_bad_target_is_an_error_naming_the_key(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.acp-migrate]\ntarget-sdk = 'latest'\n")
    with pytest.raises(ConfigError, match=r"'target-sdk': 'latest' is not a release number"):
        load_options([tmp_path])
    with pytest.raises(ValueError, match="--target-sdk"):
        Overrides(target_sdk="1.0rc")


def _check(folder: Path, *args: str) -> tuple[int, str, set[str]]:
    """`acp-migrate check` in `folder`: its exit, its findings, the modules it imported."""
    script = (
        "import sys\n"
        "from acp_migrate.cli import run_command\n"
        f"sys.argv = ['acp-migrate', 'check', '--output-format', 'concise', *{list(args)!r}, '.']\n"
        "print('EXIT', run_command(), file=sys.stderr)\n"
        "print('MODULES', *sorted(sys.modules), file=sys.stderr)\n"
    )
    run = subprocess.run([sys.executable, "-c", script], cwd=folder, capture_output=True, text=True, timeout=60)
    lines = run.stderr.splitlines()
    (modules,) = [line.split()[1:] for line in lines if line.startswith("MODULES ")]
    (code,) = [int(line.split()[1]) for line in lines if line.startswith("EXIT ")]
    return code, run.stdout, set(modules)


HELPERS_AGENT = "from acp import text_block\n\nBLOCK = text_block('hi')\n"


def test_nothing_to_migrate_for_the_target_imports_no_libcst(tmp_path: Path) -> None:
    (tmp_path / "agent.py").write_text(HELPERS_AGENT)
    (tmp_path / "requirements.txt").write_text("agent-client-protocol>=0.11,<0.13\n")

    code, out, modules = _check(tmp_path)  # the target: 0.12.1, which has acp.helpers
    assert (code, out) == (0, "")
    assert "libcst" not in modules

    code, out, modules = _check(tmp_path, "--target-sdk", "1.0")
    assert code == 1 and "libcst" in modules
    assert "agent.py:1:1: ACP205" in out and "requirements.txt:1:1: ACP200" in out


def test_the_walk_reads_the_requirement_files_only_with_a_target(tmp_path: Path) -> None:
    (tmp_path / "requirements-dev.txt").write_text("agent-client-protocol==0.9.0\n")
    (tmp_path / "notes.txt").write_text("agent-client-protocol==0.9.0\n")

    assert _check(tmp_path)[:2] == (0, "")
    code, out, _ = _check(tmp_path, "--target-sdk", "0.10")
    assert code == 1 and out.splitlines() == [
        "requirements-dev.txt:1:1: ACP200 [*] `agent-client-protocol==0.9.0` excludes the target SDK 0.10.0:"
        " `agent-client-protocol>=0.9.0,<0.11` admits it"
    ]


def test_the_models_join_the_modules_parenthesized_import_in_order() -> None:
    from acp_migrate.engine.analysis.codemod import analyze_source

    source = (
        "from acp import text_block\n"
        "from acp.schema import (\n"
        "    AudioContentBlock,\n"
        "    ZedThing,\n"
        ")\n"
        "from acp.schema import InitializeResponse\n"
        "\n"
        "BLOCK = text_block('hi')\n"
    )
    settings = RuleSettings(sdk=Target("1.0.0", None, ""))
    fixed = analyze_source(source.encode(), path="agent.py", settings=settings).fixed_source
    assert fixed.decode() == (
        "from acp.schema import (\n"
        "    AudioContentBlock,\n"
        "    TextContentBlock,\n"
        "    ZedThing,\n"
        ")\n"
        "from acp.schema import InitializeResponse\n"
        "\n"
        "BLOCK = TextContentBlock(type=\"text\", text='hi')\n"
    )


def test_without_a_target_the_prefilter_scans_for_no_sdk_rules_token() -> None:
    from acp_migrate.engine.analysis.prefilter import may_contain_legacy

    source = HELPERS_AGENT.encode()
    assert not may_contain_legacy(source, None)
    assert not may_contain_legacy(source, Target("0.12.1", None, ""))  # 1.0's move not crossed
    assert may_contain_legacy(source, Target("1.0.0", None, ""))
    assert may_contain_legacy(source)  # a caller giving no target: every rule counts


def test_the_prefilter_scans_a_file_for_the_tokens_of_the_rules_reading_its_kind() -> None:
    from acp_migrate.engine.analysis.prefilter import may_contain_legacy

    requirement = b"agent-client-protocol>=0.7\n"  # ACP200's token: it reads requirements, not code
    assert may_contain_legacy(requirement, None, ".txt")
    assert not may_contain_legacy(requirement, None, ".py")
    assert not may_contain_legacy(requirement, None, "")  # no document's suffix: Python
    spy = b"patch.object(Agent, 'get_commands', wraps=Agent.get_commands)\n"  # ACP008's, a Python rule's
    assert may_contain_legacy(spy, None, ".py")
    assert may_contain_legacy(spy, None, ".pyi")
    assert not may_contain_legacy(spy, None, ".md")
    assert may_contain_legacy(b'{"slashCommands": []}\n', None, ".json")  # the census reads JSON
    assert may_contain_legacy(requirement, None)  # a caller giving no suffix: every rule counts
