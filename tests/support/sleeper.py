"""A stand-in for a long proof step with a worker of its own, for the manifest's
interruption test: writes its process id and its child's to the file given, then
waits (``python -m tests.support.sleeper FILE``)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

if __name__ == "__main__":
    worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    Path(sys.argv[1]).write_text(f"{os.getpid()} {worker.pid}\n")
    time.sleep(600)
