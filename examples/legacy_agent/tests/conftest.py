"""Make the example's modules (`agent`, `schema`) importable from its tests."""

import sys
from pathlib import Path

EXAMPLE = str(Path(__file__).resolve().parent.parent)
if EXAMPLE not in sys.path:
    sys.path.insert(0, EXAMPLE)
