"""Helpers for the probe's tests: drive an agent script of `agents/` and judge it."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # probe_support, also under --import-mode=importlib
