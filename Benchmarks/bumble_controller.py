"""One of Bumble's virtual controllers for the command-path benchmarks (syscalls.py,
instructions.py): Tests/bench/controllers.py on a TCP port, started and waited for."""
import pathlib
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
venv_python = root / "Tests/bench/.venv/bin/python"


def start_controller(port, duration):
    """The controller on `port`, listening once this returns; it stops after `duration`
    seconds, or when its stdin closes (terminate() it when done)."""
    process = subprocess.Popen([str(venv_python), str(root / "Tests/bench/controllers.py"), "--ports", str(port),
                                "--duration", str(duration)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if not line.startswith("READY"):
        sys.exit(f"controllers.py did not start: {line!r}")
    return process
