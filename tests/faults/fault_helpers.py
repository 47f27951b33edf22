"""What the fault tests share: the real command started in a process group
of its own with its data in the test's folder, its child processes, and an
end awaited within a bound that leaves no process of it behind."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from test_signals import _group_members

__all__ = ["alive", "children", "finish", "run", "start"]


def start(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """``cardtable ARGS`` in a process group of its own, its data in ``tmp_path``."""
    return subprocess.Popen([sys.executable, "-m", "cardtable", *args], cwd=tmp_path, env=_env(tmp_path, env),
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardtable", *args], cwd=tmp_path, env=_env(tmp_path, None),
                          capture_output=True, text=True, timeout=120, check=False)


def _env(tmp_path: Path, extra: dict[str, str] | None) -> dict[str, str]:
    env = {**os.environ, "CARDTABLE_DATA": str(tmp_path / "data"), **(extra or {})}
    env.pop("CARDTABLE_DEBUG", None)
    return env


def children(pid: int) -> list[int]:
    """The live child processes of ``pid``."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def alive(pid: int) -> bool:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return False
    return fields[0] != "Z"


def finish(process: subprocess.Popen[str], timeout: float = 60) -> tuple[str, str]:
    stdout, stderr = process.communicate(timeout=timeout)
    deadline = time.monotonic() + 5
    while _group_members(process.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _group_members(process.pid) == [], "a worker process outlived the command"
    return stdout, stderr


