"""Output that blocks or goes away: ``simulate --output -`` into a real pipe
that nobody reads is still ended at once by SIGTERM or Ctrl-C, and one whose
reader closes it stops with the run kept as interrupted and said so; the
resumed run's output is that of an unbroken run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from faults.fault_helpers import run
from test_signals import _group_members, _store_rows, _wait_for

GAMES = ("simulate", "--games", "3000000", "--no-fast", "--workers", "1", "--record", "0", "--no-progress",
         "--output", "-")

#: The most seconds from the signal to the command's end: well under a second
#: on an idle machine (0.3 to 0.4 s measured), with room for a busy one.
BOUND = 3.0


def _env(tmp_path: Path) -> dict[str, str]:
    env = {**os.environ, "CARDTABLE_DATA": str(tmp_path / "data")}
    env.pop("CARDTABLE_DEBUG", None)
    return env


def _waiting(fd: int) -> int:
    """The bytes waiting in the pipe whose read end is ``fd``."""
    import fcntl
    import termios

    waiting = bytearray(4)
    fcntl.ioctl(fd, termios.FIONREAD, waiting)
    return int.from_bytes(waiting, sys.byteorder)


def _wait_until_blocked(fd: int, timeout: float = 60) -> None:
    """Until the pipe holds all it will (over 32 KiB, unchanged for a second): its writer is blocked."""
    deadline = time.monotonic() + timeout
    last, since = -1, time.monotonic()
    while time.monotonic() < deadline:
        now = _waiting(fd)
        if now != last:
            last, since = now, time.monotonic()
        elif now > 32768 and time.monotonic() - since > 1.0:
            return
        time.sleep(0.05)
    raise AssertionError("the command never filled its output pipe")


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_ends_a_run_whose_output_nobody_reads(tmp_path: Path, signum: int, status: int) -> None:
    read_end, write_end = os.pipe()
    process = subprocess.Popen([sys.executable, "-m", "cardtable", *GAMES], cwd=tmp_path, env=_env(tmp_path),
                               stdout=write_end, stderr=subprocess.PIPE, text=True, start_new_session=True)
    os.close(write_end)
    try:
        _wait_until_blocked(read_end)
        _wait_for(lambda: any(n > 0 for _, _, n in _store_rows(tmp_path)), timeout=30)
        signalled = time.monotonic()
        os.killpg(process.pid, signum)
        _, stderr = process.communicate(timeout=20)
        took = time.monotonic() - signalled
    finally:
        os.close(read_end)
        if process.poll() is None:  # it hung: leave nothing behind
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert took < BOUND, f"the command took {took:.2f} s to end"
    assert process.returncode == status, stderr
    [(run_id, state, played)] = _store_rows(tmp_path)
    assert state == "interrupted" and played > 0
    what = "interrupted by SIGTERM" if signum == signal.SIGTERM else "interrupted"
    assert stderr.strip().splitlines()[-1] == (
        f"cardtable: {what}: kept the {played:,} of 3,000,000 games that finished; "
        f"finish it with 'cardtable simulate --resume {run_id}'")
    assert _group_members(process.pid) == []


def test_a_closed_output_pipe_keeps_the_run_to_resume(tmp_path: Path) -> None:
    games = ("simulate", "--games", "400", "--no-fast", "--workers", "1", "--record", "0", "--no-progress",
             "--output", "-")
    process = subprocess.Popen([sys.executable, "-m", "cardtable", *games], cwd=tmp_path, env=_env(tmp_path),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()  # as `| head -1` does
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=60) == 141, stderr
    [(run_id, state, played)] = _store_rows(tmp_path)
    assert state == "interrupted" and 0 < played < 400
    assert stderr.strip().splitlines() == [
        f"cardtable: the output's reader went away (a closed pipe): kept the {played:,} of 400 games that "
        f"finished; finish it with 'cardtable simulate --resume {run_id}'"]
    resumed = run(tmp_path, "simulate", "--resume", str(run_id))
    assert resumed.returncode == 0, resumed.stderr
    unbroken = run(tmp_path, *games[:-2], "--no-store", "--output", "-")
    assert resumed.stdout.splitlines()[:400] == unbroken.stdout.splitlines()[:400]
    assert list(tmp_path.glob("*.tmp")) == []


def test_a_batch_whose_rows_nobody_reads_ends_on_sigterm_and_resumes_to_every_row(tmp_path: Path) -> None:
    (tmp_path / "deals.txt").write_text("".join(f"{seed}\n" for seed in range(1, 151)))
    batch = ("solve", "--deals", "deals.txt", "--max-states", "3000", "--workers", "1")
    read_end, write_end = os.pipe()
    process = subprocess.Popen([sys.executable, "-m", "cardtable", *batch, "--output", "-"], cwd=tmp_path,
                               env=_env(tmp_path), stdout=write_end, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    os.close(write_end)
    try:
        _wait_until_blocked(read_end)
        signalled = time.monotonic()
        os.killpg(process.pid, signal.SIGTERM)
        _, stderr = process.communicate(timeout=20)
        took = time.monotonic() - signalled
    finally:
        os.close(read_end)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert took < BOUND and process.returncode == 143, stderr
    assert stderr.strip().splitlines()[-1] == ("cardtable: interrupted by SIGTERM: kept the 150 of 150 deals solved; "
                                               "finish it with 'cardtable solve --resume 1'")
    assert _store_rows(tmp_path) == [(1, "interrupted", 150)]
    resumed = run(tmp_path, "solve", "--resume", "1")
    unbroken = run(tmp_path, *batch, "--no-store")
    assert resumed.returncode == 0 and unbroken.returncode == 0

    def rows(text: str) -> list[dict[str, object]]:  # as solved, but for the seconds each took
        return [{key: value for key, value in json.loads(line).items() if key != "seconds"}
                for line in text.splitlines()]

    assert len(rows(resumed.stdout)) == 150 and rows(resumed.stdout) == rows(unbroken.stdout)
