"""Commands that print a lot into a pipe nobody reads end on one SIGTERM:
``simulate --record K`` stopped while its games are played (it then prints
the summary of the games kept, not their records) or while its records are
printed, and ``runs`` listing many runs. Each ends with status 143 and its
one line on stderr, its finished games kept in the store. A second SIGTERM
is never ignored."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from test_signals import _group_members

from cardtable import cli

#: Far above the command's end after the signal (under 3 s: an interrupted run
#: waits up to 2 s for the games under way), far below a hang.
BOUND = 12.0


def _runs(store: Path) -> list[tuple[int, str, int]]:
    with sqlite3.connect(f"{store.as_uri()}?mode=ro", uri=True) as db:
        return list(db.execute("SELECT id, status, games_played FROM runs ORDER BY id"))


def _stored_games(store: Path) -> int:
    try:
        return sum(played for _, _, played in _runs(store))
    except sqlite3.Error:  # not made yet
        return 0


def _terminate_unread(tmp_path: Path, args: tuple[str, ...], ready: Callable[[], bool]) -> tuple[int, str, float]:
    """``cardtable ARGS`` writing into a pipe nobody reads, sent SIGTERM once
    ``ready()``: (status, stderr, seconds from the signal to its end)."""
    env = {**os.environ, "CARDTABLE_DATA": str(tmp_path / "data")}
    env.pop("CARDTABLE_DEBUG", None)
    read_end, write_end = os.pipe()
    process = subprocess.Popen([sys.executable, "-m", "cardtable", *args], cwd=tmp_path, env=env, stdout=write_end,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    os.close(write_end)
    try:
        deadline = time.monotonic() + 60
        while not ready():
            assert time.monotonic() < deadline and process.poll() is None, "the command never got under way"
            time.sleep(0.05)
        assert process.poll() is None, "the command ended before the signal"
        signalled = time.monotonic()
        process.send_signal(signal.SIGTERM)  # the command alone, as `kill PID` does
        try:
            _, stderr = process.communicate(timeout=BOUND)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running {BOUND:g} s after SIGTERM") from None
        took = time.monotonic() - signalled
    finally:
        os.close(read_end)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    deadline = time.monotonic() + 5
    while _group_members(process.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _group_members(process.pid) == [], "a worker process outlived the command"
    return process.returncode, stderr, took


def test_sigterm_while_the_games_are_played_ends_a_run_whose_records_nobody_reads(tmp_path: Path) -> None:
    status, stderr, _ = _terminate_unread(
        tmp_path, ("simulate", "--games", "200000", "--record", "200000", "--store", "s.sqlite", "--no-progress"),
        lambda: _stored_games(tmp_path / "s.sqlite") > 0)  # some games kept, whose records would be printed
    assert status == 143, stderr
    [(run_id, state, played)] = _runs(tmp_path / "s.sqlite")
    assert state == "interrupted" and 0 < played < 200000
    assert stderr.strip().splitlines() == [
        f"cardtable: interrupted by SIGTERM: kept the {played:,} of 200,000 games that finished; "
        f"finish it with 'cardtable simulate --resume {run_id} --store s.sqlite'"]


def test_sigterm_while_the_records_are_printed_ends_the_command(tmp_path: Path) -> None:
    args = ("simulate", "--games", "3000", "--record", "3000", "--workers", "1", "--store", "s.sqlite",
            "--no-progress")
    started = time.monotonic()
    status, stderr, _ = _terminate_unread(tmp_path, args, lambda: time.monotonic() - started > 6)
    assert status == 143, stderr
    assert _runs(tmp_path / "s.sqlite") == [(1, "finished", 3000)]  # every game was kept before the records
    assert stderr.strip().splitlines() == ["cardtable: interrupted by SIGTERM"]


def test_sigterm_ends_a_long_listing_nobody_reads(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    made = subprocess.run([sys.executable, "-m", "cardtable", "simulate", "--games", "1", "--record", "0",
                           "--store", str(store)], capture_output=True, text=True, check=False)
    assert made.returncode == 0, made.stderr
    with sqlite3.connect(store) as db:  # 30,000 more runs, as many simulations would leave
        db.executemany("INSERT INTO runs (created, kind, strategy, variant, game, rules, seed, games_requested, "
                       "games_played, status) SELECT created, kind, strategy, variant, game, rules, seed, 1, 1, "
                       "'finished' FROM runs WHERE id = 1",
                       [()] * 30000)
    started = time.monotonic()
    status, stderr, _ = _terminate_unread(tmp_path, ("runs", "--store", str(store), "--limit", "30001"),
                                          lambda: time.monotonic() - started > 3)
    assert (status, stderr) == (143, "cardtable: interrupted by SIGTERM\n")


def test_a_second_sigterm_is_acted_on(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("_terminated", "_raised", "_deferred"):
        monkeypatch.setattr(cli, name, None)
    for _ in range(2):  # the first stops the work; the second, in what the command says after it, ends it too
        with pytest.raises(cli.Terminated):
            cli._on_terminate(signal.SIGTERM, None)
        assert cli.interruption() == ("interrupted by SIGTERM", 143)
    held = []
    with pytest.raises(cli.Terminated), cli.signals_deferred():  # a block not to cut: the signal waits for its end
        cli._on_terminate(signal.SIGTERM, None)
        held.append(True)
    assert held == [True]


#: A command's shape reduced to its signal handling: SIGTERM's handler as :func:`cardtable.cli.main` installs it,
#: and last words (a megabyte, far more than a pipe holds) said after the signal into a pipe that had room when
#: it came.
_LAST_WORDS_AFTER_THE_SIGNAL = """
import signal, sys, time
from cardtable import cli
signal.signal(signal.SIGTERM, cli._on_terminate)
try:
    print("ready", file=sys.stderr, flush=True)
    time.sleep(60)
except KeyboardInterrupt:
    sys.stdout.write("x" * 2**20)
    sys.stdout.flush()
    sys.exit(143)
"""


def test_last_words_that_fill_the_pipe_after_the_signal_do_not_wait_on_it() -> None:
    """The pipe is empty when SIGTERM comes; the last words then fill it and nobody reads them: they are
    dropped once the pipe stays full, and the command ends."""
    read_end, write_end = os.pipe()
    process = subprocess.Popen([sys.executable, "-c", _LAST_WORDS_AFTER_THE_SIGNAL], stdout=write_end,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    os.close(write_end)
    try:
        assert process.stderr is not None and process.stderr.readline() == "ready\n"
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=BOUND)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still writing its last words {BOUND:g} s after SIGTERM") from None
    finally:
        os.close(read_end)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        _, stderr = process.communicate()
    assert process.returncode == 143, stderr
