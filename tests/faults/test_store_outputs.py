"""The results store's own files as outputs: the journals SQLite keeps
beside a store (``-wal``, ``-shm``, ``-journal``) and its folder of run
locks are refused as outputs, as the store itself is, before any work, and
left as they were: a ``-wal`` still holds committed runs until it is
checkpointed, so emptying it loses them. Real commands in real processes."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest


def _cardtable(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CARDTABLE_DATA": str(folder / "data")}
    env.pop("CARDTABLE_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "cardtable", *args], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=120, check=False)


@pytest.fixture
def live_store(tmp_path: Path) -> sqlite3.Connection:
    """``s.sqlite`` with one run, held open so that its ``-wal`` and ``-shm``
    exist, and a run stored since the last checkpoint lives in the ``-wal`` only."""
    made = _cardtable(tmp_path, "simulate", "--games", "3", "--record", "0", "--store", "s.sqlite")
    assert made.returncode == 0, made.stderr
    holder = sqlite3.connect(tmp_path / "s.sqlite")
    holder.execute("PRAGMA wal_autocheckpoint = 0")
    holder.execute("SELECT COUNT(*) FROM runs").fetchone()
    made = _cardtable(tmp_path, "simulate", "--games", "3", "--record", "0", "--store", "s.sqlite")
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "s.sqlite-wal").stat().st_size > 0 and (tmp_path / "s.sqlite-shm").exists()
    yield holder
    holder.close()


@pytest.mark.parametrize("flag", ["--output", "--plot"])
@pytest.mark.parametrize(("name", "what"), [("s.sqlite-wal", "SQLite write-ahead log"),
                                            ("s.sqlite-shm", "SQLite shared-memory index")])
def test_a_journal_of_the_store_is_refused_and_kept(tmp_path: Path, live_store: sqlite3.Connection, flag: str,
                                                    name: str, what: str) -> None:
    before = (tmp_path / name).read_bytes()
    refused = _cardtable(tmp_path, "simulate", "--games", "3", "--store", "s.sqlite", flag, name)
    assert refused.returncode == 2
    assert refused.stderr == (f"cardtable: error: {flag} {name}: is the same file as --store s.sqlite (its {what} "
                              f"{name}); give another file\n")
    assert (tmp_path / name).read_bytes() == before
    assert live_store.execute("SELECT id FROM runs ORDER BY id").fetchall() == [(1,), (2,)]


@pytest.mark.parametrize("args", [
    ("simulate", "--games", "3", "--store", "s.sqlite", "--output", "s.sqlite-journal"),
    ("simulate", "--games", "3", "--store", "s.sqlite", "--plot", "s.sqlite-journal"),
    ("simulate", "--games", "3", "--store", "link", "--output", "s.sqlite-wal"),
    ("solve", "--deals", "d.txt", "--max-states", "100", "--store", "s.sqlite", "--output", "s.sqlite-wal"),
])
def test_a_journal_that_is_not_there_yet_is_refused_too(tmp_path: Path, args: tuple[str, ...]) -> None:
    (tmp_path / "d.txt").write_text("5\n")
    (tmp_path / "link").symlink_to("s.sqlite")
    refused = _cardtable(tmp_path, *args)
    assert refused.returncode == 2, refused.stderr
    assert "is the same file as --store" in refused.stderr and len(refused.stderr.splitlines()) == 1
    assert not (tmp_path / args[-1]).exists() and not (tmp_path / "s.sqlite").exists()


def test_the_folder_of_run_locks_is_refused(tmp_path: Path) -> None:
    made = _cardtable(tmp_path, "simulate", "--games", "3", "--record", "0", "--store", "s.sqlite")
    assert made.returncode == 0, made.stderr
    refused = _cardtable(tmp_path, "simulate", "--games", "3", "--store", "s.sqlite",
                         "--output", "s.sqlite.runs/2.lock")
    assert refused.returncode == 2
    assert refused.stderr == ("cardtable: error: --output s.sqlite.runs/2.lock: is in a folder of --store s.sqlite, "
                              "which keeps its own files there; give another file\n")
    assert list((tmp_path / "s.sqlite.runs").iterdir()) == []
