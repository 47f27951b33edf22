"""No orphans: every command that runs ``--workers`` processes takes them
with it when it is killed outright (``kill -9``, the OOM killer), so no
worker goes on weighing, solving or playing for nobody.

Each test starts the real command in a process group of its own, waits for
its two workers, kills the command with SIGKILL and checks that the workers
are gone within a few seconds.
"""

from __future__ import annotations

import os
import signal
import time
from contextlib import suppress
from pathlib import Path

import pytest
from faults.fault_helpers import alive, children, start
from test_signals import _wait_for

RECORD = Path(__file__).resolve().parent.parent / "data" / "recorded" / "ks_draw1_100.txt"

#: Each command with --workers, given enough work to be busy when it is killed.
COMMANDS = {
    "review": ["review", str(RECORD), "--samples", "500", "--no-progress"],
    "study": ["study", "winnability", "--deals", "5000", "--no-progress"],
    "solve": ["solve", "--deals", "deals.txt", "--no-progress"],
    "simulate": ["simulate", "--games", "3000000", "--no-fast", "--record", "0", "--no-progress"],
    "kings-corner match": ["kings-corner", "match", "--games", "300000", "--quiet"],
    "compare": ["compare", "priority", "greedy", "--games", "3000000"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_workers_die_with_their_killed_command(tmp_path: Path, command: str) -> None:
    (tmp_path / "deals.txt").write_text("".join(f"{seed}\n" for seed in range(1, 2000)))
    process = start(tmp_path, *COMMANDS[command], "--workers", "2")
    workers: list[int] = []
    try:
        _wait_for(lambda: len(children(process.pid)) == 2, timeout=60)
        workers = children(process.pid)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)  # (its pipes stay open while an orphan holds them)
        deadline = time.monotonic() + 5
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(alive(pid) for pid in workers), f"a worker of {command} outlived its killed parent"
    finally:
        for pid in workers + children(process.pid):  # an orphan too, should one be left
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.communicate(timeout=10)
