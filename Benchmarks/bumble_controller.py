"""Bumble's virtual controllers for the command-path benchmarks (syscalls.py,
instructions.py): Tests/bench/controllers.py on TCP ports, started and waited for."""
import pathlib
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
venv_python = root / "Tests/bench/.venv/bin/python"


def start_controllers(ports, duration):
    """Controllers on `ports`, linked on one virtual radio and listening once this
    returns; they stop after `duration` seconds, or when their stdin closes (terminate()
    the process when done)."""
    process = subprocess.Popen([str(venv_python), str(root / "Tests/bench/controllers.py"), "--ports",
                                ",".join(str(port) for port in ports), "--duration", str(duration)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if not line.startswith("READY"):
        sys.exit(f"controllers.py did not start: {line!r}")
    return process


def start_controller(port, duration):
    """One controller on `port` (`start_controllers`)."""
    return start_controllers([port], duration)
