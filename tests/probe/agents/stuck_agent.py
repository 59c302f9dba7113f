"""Never answers: starts a child that blocks too (its pid in the file given as the
argument), then reads stdin forever without replying. The probe must kill both."""

import subprocess
import sys

# The child waits on an event nobody sets: it does not end when its parent does.
child = subprocess.Popen([sys.executable, "-c", "import threading; threading.Event().wait()"])
with open(sys.argv[1], "w") as pid_file:
    pid_file.write(str(child.pid))
print("stuck agent: ignoring everything", file=sys.stderr, flush=True)
for line in sys.stdin:
    pass
child.wait()  # stdin closed: still never exits on its own
