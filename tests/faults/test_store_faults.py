"""Faults of the shared results store, done to the real commands in real
processes: many writers and readers on one store, a damaged store, and runs
whose process died where its process id and host name say nothing (PID 1 of
a container, another host)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from cardtable.errors import StoreError
from cardtable.runs.store import ResultsStore


def _env(tmp_path: Path) -> dict[str, str]:
    env = {**os.environ, "CARDTABLE_DATA": str(tmp_path / "data")}
    env.pop("CARDTABLE_DEBUG", None)
    return env


def _cardtable(tmp_path: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardtable", *args], cwd=tmp_path, env=_env(tmp_path),
                          capture_output=True, text=True, timeout=timeout, check=False)


def _runs(store: Path) -> list[tuple[int, str, int, int]]:
    """(id, status, units stored, units asked for) of every run, oldest first, read-only."""
    with ResultsStore(store, create=False) as opened:
        return sorted((run.id, run.status, run.games_played, run.games_requested) for run in opened.runs())


#: A reader that keeps one read transaction open for seconds (a slow report, an open ``sqlite3`` shell).
_LONG_READER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN")
db.execute("SELECT COUNT(*) FROM games").fetchone()
print("reading", flush=True)
time.sleep(float(sys.argv[2]))
db.execute("COMMIT")
"""


def test_four_writers_and_two_readers_share_one_store(tmp_path: Path) -> None:
    store = tmp_path / "shared.sqlite"
    made = _cardtable(tmp_path, "simulate", "--strategy", "greedy", "--games", "3", "--workers", "1", "--record", "0",
                      "--store", str(store))
    assert made.returncode == 0, made.stderr
    long_reader = subprocess.Popen([sys.executable, "-c", _LONG_READER, str(store), "8"], stdout=subprocess.PIPE,
                                   text=True)
    assert long_reader.stdout is not None and long_reader.stdout.readline() == "reading\n"
    writers = [subprocess.Popen([sys.executable, "-m", "cardtable", "simulate", "--strategy", "greedy", "--games",
                                 "150", "--workers", "1", "--record", "0", "--no-progress", "--seed", str(1000 * n),
                                 "--store", str(store)], cwd=tmp_path, env=_env(tmp_path), text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
               for n in range(4)]
    failures: list[str] = []
    reads = [0, 0]

    def read(slot: int) -> None:
        while any(writer.poll() is None for writer in writers):
            if store.exists():
                listed = _cardtable(tmp_path, "runs", "--store", str(store), *(["--json"] if slot else []))
                if listed.returncode != 0:
                    failures.append(listed.stderr)
                reads[slot] += 1

    readers = [threading.Thread(target=read, args=(slot,)) for slot in range(2)]
    for reader in readers:
        reader.start()
    try:
        outcomes = [writer.communicate(timeout=180) for writer in writers]
    finally:
        for writer in writers:
            if writer.poll() is None:
                os.killpg(writer.pid, signal.SIGKILL)
        for reader in readers:
            reader.join(timeout=60)
        long_reader.kill()
        long_reader.wait(timeout=30)
    assert [writer.returncode for writer in writers] == [0] * 4, [err for _, err in outcomes]
    assert failures == []
    assert min(reads) >= 1  # the readers read while the writers wrote
    assert _runs(store) == [(1, "finished", 3, 3)] + [(n, "finished", 150, 150) for n in range(2, 6)]
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT run_id, COUNT(*) FROM games GROUP BY run_id").fetchall() == \
            [(1, 3)] + [(n, 150) for n in range(2, 6)]
    db.close()
    checked = _cardtable(tmp_path, "runs", "check", "--store", str(store))
    assert (checked.returncode, checked.stdout) == (0, f"{store}: OK\n")


def test_a_damaged_store_is_refused_and_never_written_into(tmp_path: Path) -> None:
    store = tmp_path / "damaged.sqlite"
    made = _cardtable(tmp_path, "simulate", "--strategy", "greedy", "--games", "300", "--workers", "1",
                      "--record", "0", "--store", str(store))
    assert made.returncode == 0, made.stderr
    pages = store.stat().st_size // 4096
    assert pages > 12
    with open(store, "r+b") as file:  # a few pages of the file overwritten, as a bad disk or a stray write does
        for page in (3, pages // 2, pages - 2):
            file.seek(page * 4096)
            file.write(bytes(range(256)) * 16)
    before = store.read_bytes()
    refused = _cardtable(tmp_path, "simulate", "--strategy", "greedy", "--games", "5", "--workers", "1",
                         "--store", str(store))
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1
    assert refused.stderr.startswith(f"cardtable: error: {store}: the results store is damaged (")
    assert store.read_bytes() == before
    checked = _cardtable(tmp_path, "runs", "check", "--store", str(store))
    assert checked.returncode == 1
    assert checked.stdout.startswith(f"{store}: damaged (")
    assert store.read_bytes() == before


def _start_run(tmp_path: Path, store: Path, games: int) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "cardtable", "simulate", "--strategy", "greedy", "--games",
                             str(games), "--workers", "1", "--record", "0", "--no-progress", "--store", str(store)],
                            cwd=tmp_path, env=_env(tmp_path), text=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def _wait_for_run(store: Path, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and process.poll() is None:
        with contextlib.suppress(StoreError):  # the store is still being made
            if _runs(store):
                return
        time.sleep(0.05)
    raise AssertionError("the run never appeared in the store")


def test_a_run_killed_in_a_container_or_on_another_host_is_resumed(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    process = _start_run(tmp_path, store, 400)
    try:
        _wait_for_run(store, process)
        os.killpg(process.pid, signal.SIGSTOP)  # held still, so it cannot finish before it is killed
        assert _runs(store)[0][1] == "running"  # alive: its process holds the run's lock
        resumed_too_soon = _cardtable(tmp_path, "simulate", "--resume", "1", "--store", str(store), "--force")
        assert resumed_too_soon.returncode == 2
        assert "run 1 is still running" in resumed_too_soon.stderr
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # the run's process, and any worker of it
        process.wait(timeout=30)
    with sqlite3.connect(store) as db:  # what a run started as a container's PID 1 on another host leaves
        db.execute("UPDATE runs SET pid = 1, host = 'container-7f3a' WHERE id = 1")
    db.close()
    assert _runs(store)[0][1] == "interrupted"
    resumed = _cardtable(tmp_path, "simulate", "--resume", "1", "--store", str(store), "--no-progress", "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stderr == ""
    assert json.loads(resumed.stdout)["games"] == 400
    assert _runs(store) == [(1, "finished", 400, 400)]
    assert not list((tmp_path / "s.sqlite.runs").iterdir())  # no lock file left


def test_a_run_that_cannot_be_checked_is_taken_only_with_force(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    made = _cardtable(tmp_path, "simulate", "--strategy", "greedy", "--games", "20", "--workers", "1",
                      "--record", "0", "--store", str(store))
    assert made.returncode == 0, made.stderr
    with sqlite3.connect(store) as db:  # a run of a cardtable that kept no lock, marked running on another host
        db.execute("UPDATE runs SET status = 'running', pid = 1, host = 'elsewhere' WHERE id = 1")
    db.close()
    assert _runs(store)[0][1] == "running"
    refused = _cardtable(tmp_path, "simulate", "--resume", "1", "--store", str(store))
    assert refused.returncode == 2
    assert refused.stderr == ("cardtable: error: run 1 may still be running (process 1 on elsewhere, which cannot be "
                              "checked from here); if it is not, take it over with --resume 1 --force\n")
    assert _runs(store)[0][1] == "running"
    forced = _cardtable(tmp_path, "simulate", "--resume", "1", "--store", str(store), "--force", "--json")
    assert forced.returncode == 0, forced.stderr
    assert forced.stderr.startswith("cardtable: warning: run 1 was marked running by a process that cannot be checked")
    assert _runs(store) == [(1, "finished", 20, 20)]
    alone = _cardtable(tmp_path, "simulate", "--games", "3", "--force", "--store", str(store))
    assert (alone.returncode, alone.stderr) == (2, "cardtable: error: --force only goes with --resume RUN: it takes "
                                                   "up a run that may still be running\n")


#: A writer of an older store (rollback journal) killed in the middle of a transaction big enough to spill into
#: the file: it leaves a hot journal.
_KILLED_WRITER = """
import os, sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA journal_mode = DELETE")
db.execute("PRAGMA cache_size = 1")
db.execute("BEGIN")
db.executemany("INSERT INTO games (run_id, idx, won, foundation, net) VALUES (1, ?, 0, 0, 0)",
               [(index,) for index in range(1000, 21000)])
os.kill(os.getpid(), 9)
"""


def test_read_only_commands_work_beside_the_hot_journal_of_a_killed_writer(tmp_path: Path) -> None:
    store = tmp_path / "old.sqlite"
    made = _cardtable(tmp_path, "simulate", "--strategy", "greedy", "--games", "20", "--workers", "1",
                      "--record", "0", "--store", str(store))
    assert made.returncode == 0, made.stderr
    killed = subprocess.run([sys.executable, "-c", _KILLED_WRITER, str(store)], timeout=60, check=False)
    assert killed.returncode == -signal.SIGKILL
    assert Path(f"{store}-journal").stat().st_size > 0
    listed = _cardtable(tmp_path, "runs", "--store", str(store), "--json")
    assert listed.returncode == 0, listed.stderr
    assert [(run["id"], run["status"], run["games_played"]) for run in json.loads(listed.stdout)] == \
        [(1, "finished", 20)]
    for command in (("runs", "show", "1"), ("stats",), ("study", "show"), ("runs", "check")):
        shown = _cardtable(tmp_path, *command, "--store", str(store))
        assert shown.returncode == 0, (command, shown.stderr)
    with sqlite3.connect(store) as db:  # the dead writer's rows were rolled back, the run's kept
        assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (20,)
    db.close()


def test_workers_left_behind_do_not_keep_a_dead_run_alive(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    process = subprocess.Popen([sys.executable, "-m", "cardtable", "simulate", "--strategy", "greedy", "--games",
                                "100000", "--workers", "2", "--record", "0", "--no-progress", "--store", str(store)],
                               cwd=tmp_path, env=_env(tmp_path), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and process.poll() is None:  # its workers are forked by now
            with contextlib.suppress(StoreError):
                if _runs(store) and _runs(store)[0][2] > 0:
                    break
            time.sleep(0.1)
        assert process.poll() is None and _runs(store)[0][2] > 0
        process.kill()  # the main process only: its workers live on for now
        process.wait(timeout=30)
        assert _runs(store)[0][1] == "interrupted"
    finally:
        with contextlib.suppress(ProcessLookupError):  # the workers, if they outlived it
            os.killpg(process.pid, signal.SIGKILL)
