"""Starts a helper that starts a grandchild in a session of its own (it leaves the
agent's process group) holding the agent's stdout, then exits, so the grandchild's
parent is gone; the grandchild's pid goes to the file given as the argument. The probe
must end it: it holds stdout open, and nothing else would."""

import subprocess
import sys

from tiny_agent import TinyAgent

GRANDCHILD = "import threading; threading.Event().wait()"
HELPER = (
    "import subprocess, sys\n"
    f"child = subprocess.Popen([sys.executable, '-c', {GRANDCHILD!r}], start_new_session=True, stdin=subprocess.DEVNULL)\n"
    "open(sys.argv[1], 'w').write(str(child.pid))\n"
)

subprocess.run([sys.executable, "-c", HELPER, sys.argv[1]], check=True, stdin=subprocess.DEVNULL)
TinyAgent().serve()
