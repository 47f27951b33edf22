"""Ctrl-C and SIGTERM end a long command the same way, and a killed run is
never shown as running forever.

Each test runs ``cardtable`` in a subprocess of its own process group (as a
terminal would), signals the whole group once the work is under way, and
checks: exit status 130 (SIGINT) or 143 (SIGTERM), a one-line message and
no traceback, an output file of complete lines only (it is always written,
empty when no unit had finished), no ``*.tmp`` left, the stored run marked
``interrupted`` and no process of the group left behind.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import start

from cardtable.runs.store import ResultsStore


def _store_rows(tmp_path: Path) -> list[tuple[int, str, int]]:
    """(id, status, games played) of every stored run, read without writing."""
    path = tmp_path / "data" / "results.sqlite"
    if not path.is_file():
        return []
    try:
        with sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True) as db:
            return list(db.execute("SELECT id, status, games_played FROM runs ORDER BY id"))
    except sqlite3.OperationalError:  # being created right now
        return []


def _wait_for(condition: object, timeout: float = 15.0) -> None:
    assert callable(condition)
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the command never got under way"
        time.sleep(0.05)


def _group_members(pgid: int) -> list[int]:
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                members.append(int(entry.name))
    return members


def _interrupt(process: subprocess.Popen[str], signum: int) -> tuple[str, str]:
    """Signal the process group; returns (stdout, stderr) once all of it is gone."""
    os.killpg(process.pid, signum)
    stdout, stderr = process.communicate(timeout=20)
    deadline = time.monotonic() + 5
    while _group_members(process.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _group_members(process.pid) == [], "a worker process outlived the command"
    return stdout, stderr


def _check_exit(process: subprocess.Popen[str], signum: int, stderr: str, kept: str) -> None:
    status = 143 if signum == signal.SIGTERM else 130
    assert process.returncode == status, stderr
    assert "Traceback" not in stderr
    what = "interrupted by SIGTERM" if signum == signal.SIGTERM else "interrupted"
    assert f"cardtable: {what}: kept the " in stderr or f"cardtable: {what}: reported the " in stderr, stderr
    assert kept in stderr


def _check_lines(path: Path) -> list[dict[str, object]]:
    text = path.read_text()
    assert text == "" or text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


@pytest.mark.parametrize(("workers", "signum"), [(1, signal.SIGTERM), (2, signal.SIGINT)])
def test_simulate_keeps_the_finished_games(tmp_path: Path, workers: int, signum: int) -> None:
    process = start(tmp_path, "simulate", "--games", "3000000", "--workers", str(workers), "--no-fast",
                     "--output", "games.jsonl", "--record", "0", "--no-progress")
    _wait_for(lambda: any(played > 0 for _, _, played in _store_rows(tmp_path)))
    _, stderr = _interrupt(process, signum)
    _check_exit(process, signum, stderr, "of 3,000,000 games that finished")
    games = _check_lines(tmp_path / "games.jsonl")
    assert 0 < len(games) < 3_000_000
    assert f"kept the {len(games):,} of" in stderr
    assert list(tmp_path.glob("*.tmp")) == []
    [(_, status, played)] = _store_rows(tmp_path)
    assert (status, played) == ("interrupted", len(games))


@pytest.mark.parametrize(("workers", "signum"), [(1, signal.SIGINT), (2, signal.SIGTERM)])
def test_solve_deals_writes_the_rows_solved_so_far(tmp_path: Path, workers: int, signum: int) -> None:
    # Deal 1 is solved quickly; twenty times the hard seed 1000899 (about 2 s a
    # solve, a proof of loss) keep the batch running.
    (tmp_path / "deals.txt").write_text("1\n" + "1000899\n" * 20)
    process = start(tmp_path, "solve", "--deals", "deals.txt", "--timeout", "300", "--output", "rows.jsonl",
                     "--workers", str(workers))
    time.sleep(3.0)
    _, stderr = _interrupt(process, signum)
    _check_exit(process, signum, stderr, "of 21 deals solved")
    rows = _check_lines(tmp_path / "rows.jsonl")
    assert len(rows) < 21 and f"kept the {len(rows)} of 21" in stderr
    assert all(row["deal"] in ("1", "1000899") for row in rows)
    assert list(tmp_path.glob("*.tmp")) == []


@pytest.mark.parametrize(("workers", "signum"), [(2, signal.SIGTERM), (1, signal.SIGINT)])
def test_kings_corner_match_reports_the_hands_played(tmp_path: Path, workers: int, signum: int) -> None:
    process = start(tmp_path, "kings-corner", "match", "--games", "3000000", "--workers", str(workers),
                     "--quiet", "--json")
    # Interrupted once a block of hands is stored (one worker plays blocks of
    # 50 hands, two play blocks of 200), however busy the machine is.
    _wait_for(lambda: any(played > 0 for _, _, played in _store_rows(tmp_path)), timeout=120)
    stdout, stderr = _interrupt(process, signum)
    _check_exit(process, signum, stderr, "of 3,000,000 hands played")
    report = json.loads(stdout)
    assert 1 <= report["games"] < 3_000_000 and report["interrupted"] is True
    assert f"reported the {report['games']:,} of" in stderr
    [(_, status, played)] = _store_rows(tmp_path)
    assert (status, played) == ("interrupted", report["games"])


def test_a_run_killed_outright_is_shown_as_interrupted(tmp_path: Path) -> None:
    process = start(tmp_path, "simulate", "--games", "3000000", "--workers", "2", "--no-fast", "--record", "0",
                     "--no-progress")
    _wait_for(lambda: _store_rows(tmp_path) != [])
    os.killpg(process.pid, signal.SIGKILL)
    process.communicate(timeout=20)
    store = tmp_path / "data" / "results.sqlite"
    before = store.read_bytes()
    listing = start(tmp_path, "runs")
    stdout, stderr = listing.communicate(timeout=20)
    assert listing.returncode == 0, stderr
    assert stdout.splitlines()[-1].endswith(" interrupted")
    assert store.read_bytes() == before  # listing opens the store read-only and writes nothing
    assert _store_rows(tmp_path)[0][1] == "running"
    with ResultsStore(store) as writable:  # opened for writing, the store keeps the correction
        assert writable.run(1).status == "interrupted"
    assert _store_rows(tmp_path)[0][1] == "interrupted"


def test_a_store_from_before_runs_kept_their_process(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(
            "CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL, kind TEXT NOT NULL,"
            " strategy TEXT NOT NULL, variant TEXT NOT NULL, seed INTEGER, deals_file TEXT,"
            " games_requested INTEGER NOT NULL, games_played INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL,"
            " summary TEXT);"
            "CREATE TABLE games (run_id INTEGER NOT NULL, idx INTEGER NOT NULL, deal TEXT, won INTEGER NOT NULL,"
            " foundation INTEGER NOT NULL, net INTEGER NOT NULL, moves INTEGER, PRIMARY KEY (run_id, idx));"
            "INSERT INTO runs (created, kind, strategy, variant, games_requested, status)"
            " VALUES ('2026-01-01 00:00:00', 'simulate', 'priority', '{\"name\": \"draw1\"}', 10, 'running');")
    before = path.read_bytes()
    with ResultsStore(path, create=False) as store:
        assert [run.status for run in store.runs()] == ["running"]  # nobody can tell: shown as stored
    assert path.read_bytes() == before
    with ResultsStore(path) as store:
        new = store.start_run(kind="simulate", game="klondike", rules="{}",
                              strategy="random", variant={"name": "draw1"}, seed=1,
                              deals_file=None, games=5)
        assert [(run.id, run.status) for run in store.runs()] == [(new, "running"), (1, "running")]


#: A command run with a garbage collector's callback that, once the match is
#: being played, sends the signal to its own process and goes on running
#: Python code: the handler runs there, inside the collection, where Python
#: prints and drops any exception. A __del__ run by the collector is such a
#: place too; a busy program meets one by chance.
_DROPPED = r"""
import gc, os, signal, sys
from cardtable.cli import main

signum = int(sys.argv[1])
sent = []

def playing():
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_name != "run_hands":
        frame = frame.f_back
    return frame is not None

def collecting(phase, info):
    if sent or not playing():
        return
    sent.append(signum)
    os.kill(os.getpid(), signum)
    total = 0
    for k in range(100_000):  # the handler runs in this loop, in the collector's callback
        total += k

gc.callbacks.append(collecting)
status = main(sys.argv[2:])
print("sent" if sent else "not sent", file=sys.stderr)
sys.exit(status)
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_whose_handler_runs_where_python_drops_exceptions_still_ends_the_command(
        tmp_path: Path, signum: int) -> None:
    env = {**os.environ, "CARDTABLE_DATA": str(tmp_path / "data")}
    env.pop("CARDTABLE_DEBUG", None)
    process = subprocess.Popen(
        [sys.executable, "-c", _DROPPED, str(int(signum)), "kings-corner", "match", "--games", "3000000",
         "--workers", "1", "--quiet"], cwd=tmp_path, env=env, text=True, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, start_new_session=True)
    try:
        _, stderr = process.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        process.kill()
        _, stderr = process.communicate()
        pytest.fail(f"the command ran on after its signal was dropped: {stderr[-2000:]}")
    assert stderr.splitlines()[-1] == "sent"
    assert process.returncode == 128 + signum, stderr
    assert "Exception ignored" not in stderr and "Traceback" not in stderr
    assert "of 3,000,000 hands played" in stderr
    [(_, status, played)] = _store_rows(tmp_path)
    assert status == "interrupted" and played < 3_000_000


def test_other_exceptions_python_drops_still_reach_the_hook_that_was_there() -> None:
    from types import SimpleNamespace

    from cardtable import cli

    seen: list[object] = []
    cli._raised = (KeyboardInterrupt(), int(signal.SIGINT))
    try:
        dropped = SimpleNamespace(exc_value=ValueError("in a __del__"))
        cli._dropped(seen.append, dropped)
        other = SimpleNamespace(exc_value=KeyboardInterrupt())  # not the one the handlers raised
        cli._dropped(seen.append, other)
        assert seen == [dropped, other]
    finally:
        cli._raised = None
