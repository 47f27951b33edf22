"""Workers that die and parents that die: never a hang, never an orphan.

Each test runs the real ``cardtable`` command in a process group of its own,
does the fault to real processes (``kill -9`` of a worker found as a child
of the command, of the command itself, SIGHUP, a unit whose policy kills
its own worker), and checks, within a bound of seconds: how the command
ended, what it kept and stored, and that no process of it is left.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from contextlib import suppress
from pathlib import Path

from faults.fault_helpers import alive, children, finish, run, start
from test_signals import _store_rows, _wait_for

#: A policy whose worker process dies (SIGKILL, as the OOM killer sends) on
#: deal 120, in a worker only: the command itself never runs a game.
KILLER = '''
import multiprocessing
import os
import signal

import numpy as np


class KillsOnDeal:
    def new_game(self, seed):
        if seed == 120 and multiprocessing.parent_process() is not None:
            os.kill(os.getpid(), signal.SIGKILL)

    def __call__(self, observation, action_mask):
        return int(np.flatnonzero(action_mask)[0])
'''


def _kill_one_worker(process: subprocess.Popen[str], tmp_path: Path) -> None:
    """Once the command has stored some work, kill -9 one of its workers."""
    _wait_for(lambda: len(children(process.pid)) == 2 and any(n > 0 for _, _, n in _store_rows(tmp_path)),
              timeout=30)
    with suppress(ProcessLookupError):  # it had just finished: the test then checks a plain run
        os.kill(children(process.pid)[0], signal.SIGKILL)


def test_a_killed_worker_is_replaced_and_the_games_are_those_of_an_unbroken_run(tmp_path: Path) -> None:
    games = ["simulate", "--games", "1500", "--no-fast", "--record", "0", "--no-progress"]
    process = start(tmp_path, *games, "--workers", "2", "--output", "killed.jsonl")
    _kill_one_worker(process, tmp_path)
    _, stderr = finish(process)
    assert process.returncode == 0, stderr
    [(_, status, played)] = _store_rows(tmp_path)
    assert (status, played) == ("finished", 1500)
    unbroken = run(tmp_path, *games, "--workers", "1", "--no-store", "--output", "unbroken.jsonl")
    assert unbroken.returncode == 0, unbroken.stderr
    assert (tmp_path / "killed.jsonl").read_text() == (tmp_path / "unbroken.jsonl").read_text()
    assert list(tmp_path.glob("*.tmp")) == []


def test_a_match_with_a_killed_worker_plays_every_hand(tmp_path: Path) -> None:
    match = ["kings-corner", "match", "--players", "greedy,random", "--games", "600", "--json"]
    process = start(tmp_path, *match, "--workers", "2")
    _kill_one_worker(process, tmp_path)
    stdout, stderr = finish(process)
    assert process.returncode == 0, stderr
    [(_, status, played)] = _store_rows(tmp_path)
    assert (status, played) == ("finished", 600)
    unbroken = run(tmp_path, *match, "--workers", "1", "--no-store")
    assert unbroken.returncode == 0, unbroken.stderr
    killed, whole = json.loads(stdout), json.loads(unbroken.stdout)
    killed.pop("seconds"), whole.pop("seconds")
    assert killed == whole


def test_a_unit_that_kills_its_worker_twice_stops_the_run_cleanly(tmp_path: Path) -> None:
    (tmp_path / "ct_killer.py").write_text(KILLER, encoding="utf-8")
    env = {"PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    process = start(tmp_path, "simulate", "--strategy", "ct_killer:KillsOnDeal", "--games", "300",
                     "--workers", "2", "--output", "games.jsonl", "--record", "0", "--no-progress", env=env)
    _, stderr = finish(process)
    assert process.returncode == 1, stderr
    [(run, status, played)] = _store_rows(tmp_path)
    assert status == "interrupted" and 0 < played < 300
    assert stderr.strip().splitlines()[-1] == (
        f"cardtable: a worker process died (killed by signal 9) twice on the same unit; kept the {played:,} of "
        f"300 games that finished; finish it with 'cardtable simulate --resume {run}'")
    assert "Traceback" not in stderr
    kept = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert len(kept) == played and all(game["index"] != 119 for game in kept)  # deal 120
    assert list(tmp_path.glob("*.tmp")) == []


def test_workers_die_with_a_killed_parent(tmp_path: Path) -> None:
    process = start(tmp_path, "simulate", "--games", "3000000", "--no-fast", "--workers", "2", "--record", "0",
                     "--no-progress")
    _wait_for(lambda: len(children(process.pid)) == 2, timeout=30)
    workers = children(process.pid)
    os.kill(process.pid, signal.SIGKILL)
    process.communicate(timeout=10)
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in workers), "a worker outlived its killed parent"


def test_a_hangup_ends_a_run_as_sigterm_does(tmp_path: Path) -> None:
    process = start(tmp_path, "simulate", "--games", "3000000", "--no-fast", "--workers", "2", "--record", "0",
                     "--output", "games.jsonl", "--no-progress")
    _wait_for(lambda: any(played > 0 for _, _, played in _store_rows(tmp_path)), timeout=30)
    os.killpg(process.pid, signal.SIGHUP)
    _, stderr = finish(process, timeout=20)
    assert process.returncode == 129, stderr
    [(run, status, played)] = _store_rows(tmp_path)
    assert status == "interrupted" and played > 0
    assert stderr.strip().splitlines()[-1] == (
        f"cardtable: interrupted by SIGHUP: kept the {played:,} of 3,000,000 games that finished; "
        f"finish it with 'cardtable simulate --resume {run}'")
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == played
    assert list(tmp_path.glob("*.tmp")) == []
