"""Older releases of the official ACP SDK, each in a virtualenv of its own, built once.

Tests that run an agent on another SDK release than the suite's (0.12) ask for its
interpreter::

    python = sdk_python("0.6.3")
    subprocess.run([str(python), "agent.py"], env=sdk_env())

The virtualenvs live in ``$ACP_MIGRATE_TEST_VENVS`` (default
``~/.cache/acp-migrate-tests``), one per SDK release and Python version, so only
the first run on a machine installs (from the package index). A virtualenv is
built in a temporary folder and renamed into place, under a file lock, so an
interrupted build or two concurrent test runs never leave a half-built one.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def venvs_root() -> Path:
    root = os.environ.get("ACP_MIGRATE_TEST_VENVS")
    return Path(root) if root else Path.home() / ".cache" / "acp-migrate-tests"


def pyenv_python(series: str) -> Path:
    """The newest interpreter of ``series`` ("3.13") that pyenv installed."""
    root = (
        os.environ.get("PYENV_ROOT")
        or subprocess.run(["pyenv", "root"], capture_output=True, text=True, check=True).stdout.strip()
    )
    found = Path(root).glob(f"versions/{series}.*/bin/python{series}")
    patches = {int(m.group(1)): p for p in found if (m := re.fullmatch(rf"{re.escape(series)}\.(\d+)", p.parts[-3]))}
    if not patches:
        raise RuntimeError(f"no Python {series} under {root}/versions")
    return patches[max(patches)]


def sdk_python(version: str, *extra: str, interpreter: Path | None = None, over_pin: bool = False) -> Path:
    """The interpreter of a virtualenv holding ``agent-client-protocol==version``
    (plus the ``extra`` requirements), built on first use with ``interpreter`` (default: the
    suite's). With ``over_pin``, ``extra`` is installed first with its own pin on the SDK,
    then the release is forced over it: a published agent tried on another SDK release."""
    if interpreter is None:
        interpreter, series = Path(sys.executable), f"{sys.version_info[0]}.{sys.version_info[1]}"
    else:
        asked = [interpreter, "-c", "import sys; print(f'{sys.version_info[0]}.{sys.version_info[1]}')"]
        series = subprocess.run(asked, capture_output=True, text=True, check=True).stdout.strip()
    tag = f"sdk-{version}-py{series}"
    if extra:
        tag += "-" + "-".join(sorted(e.replace("=", "").replace("<", "").replace(">", "") for e in extra))
    if over_pin:
        tag += "-over-pin"
    root = venvs_root()
    root.mkdir(parents=True, exist_ok=True)
    target = root / tag
    python = target / "bin" / "python"
    # One builder at a time per virtualenv (pytest-xdist workers, two test runs): the
    # others wait on the lock, then find it complete.
    with open(root / f".{tag}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (target / ".complete").exists():
            return python
        shutil.rmtree(target, ignore_errors=True)  # an interrupted build's
        building = Path(tempfile.mkdtemp(prefix=f".{tag}-", dir=root))
        try:
            subprocess.run(
                [interpreter, "-m", "venv", "--symlinks", building], check=True, capture_output=True, text=True
            )
            sdk = f"agent-client-protocol=={version}"
            # Over a pin, the second install replaces the SDK alone (its own dependencies being
            # met) and pip warns of the conflict with the pin, exiting 0.
            pip = [str(building / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
            for requirements in ([*extra], [sdk]) if over_pin else ([sdk, *extra],):
                subprocess.run([*pip, *requirements], check=True, capture_output=True, text=True)
        except subprocess.CalledProcessError as exc:
            shutil.rmtree(building, ignore_errors=True)
            raise RuntimeError(f"installing agent-client-protocol=={version} failed:\n{exc.stderr}") from exc
        except BaseException:
            shutil.rmtree(building, ignore_errors=True)
            raise
        building.rename(target)  # atomic; `.complete` last, once its paths are right
        _repoint(target, building)
        (target / ".complete").write_text(version)
        return python


def _repoint(target: Path, built_at: Path) -> None:
    # pyvenv.cfg and the scripts' shebangs name the build folder; the interpreter itself
    # finds its site-packages relative to its own path, so only text files need fixing.
    for path in [target / "pyvenv.cfg", *(target / "bin").iterdir()]:
        if path.is_symlink() or not path.is_file():
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        if str(built_at) in text:
            path.write_text(text.replace(str(built_at), str(target)))


def sdk_env(**extra: str) -> dict[str, str]:
    """Environment for a process on an SDK virtualenv: this checkout importable
    (for ``acp_migrate.runtime``), nothing of the test session's own site-packages."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}}
    env["PYTHONPATH"] = str(REPO)
    env.update(extra)
    return env
