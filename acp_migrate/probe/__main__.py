"""`python -m acp_migrate.probe [OPTIONS] -- CMD [ARGS...]`: the same as `acp-migrate probe`."""

import sys

from acp_migrate.__main__ import stoppable
from acp_migrate.probe.cli import main

sys.exit(stoppable(lambda: main(sys.argv[1:])))
