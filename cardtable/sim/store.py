"""The results store: every simulation run and its games, in SQLite.

By default the store lives in the per-user data directory
(``$CARDTABLE_DATA``, else ``$XDG_DATA_HOME/cardtable``, else
``~/.local/share/cardtable``) as ``results.sqlite``. Each batch of games is
written in one transaction, so an interrupted run keeps every batch it
finished and the file is never left half-written.

Anything wrong with the file (not a store, unreadable, read-only, corrupt)
raises :class:`~cardtable.errors.StoreError` naming it. Opening with
``create=False`` (for listing runs) never creates or changes a file.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "results.sqlite"
>>> with ResultsStore(path) as store:
...     run_id = store.start_run(kind="simulate", strategy="priority", variant={"name": "seed-002"},
...                              seed=1, deals_file=None, games=10)
>>> with ResultsStore(path, create=False) as store:
...     [(run.id, run.strategy, run.status) for run in store.runs()]
[(1, 'priority', 'running')]
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardtable.errors import StoreError
from cardtable.klondike.variant import Variant
from cardtable.sim.runner import Batch

__all__ = ["ResultsStore", "RunInfo", "default_store_path"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    kind TEXT NOT NULL,
    strategy TEXT NOT NULL,
    variant TEXT NOT NULL,
    seed INTEGER,
    deals_file TEXT,
    games_requested INTEGER NOT NULL,
    games_played INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL,
    summary TEXT
);
CREATE TABLE IF NOT EXISTS games (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    idx INTEGER NOT NULL,
    deal TEXT,
    won INTEGER NOT NULL,
    foundation INTEGER NOT NULL,
    net INTEGER NOT NULL,
    moves INTEGER,
    PRIMARY KEY (run_id, idx)
);
"""


def default_store_path() -> Path:
    """Where the store lives unless ``--store`` says otherwise."""
    base = os.environ.get("CARDTABLE_DATA")
    if base:
        return Path(base) / "results.sqlite"
    xdg = os.environ.get("XDG_DATA_HOME")
    root = Path(xdg) if xdg else Path.home() / ".local" / "share"
    return root / "cardtable" / "results.sqlite"


@dataclass(frozen=True)
class RunInfo:
    """One stored run."""

    id: int
    created: str
    kind: str
    strategy: str
    variant: dict[str, object]
    seed: int | None
    deals_file: str | None
    games_requested: int
    games_played: int
    status: str
    summary: dict[str, object] | None


class ResultsStore:
    """A SQLite file of runs and games.

    With ``create`` (the default) a missing file is made, with its directory;
    with ``create=False`` the file is opened read-only and must already be a
    store. A file that is not a store is never changed.
    """

    def __init__(self, path: str | os.PathLike[str], *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise StoreError(f"{self.path}: no results store there")
        with self._guard("open the results store"):
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(self.path)
            else:
                self._db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            with self._guard("read the results store"):
                tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not {"runs", "games"} <= tables:
                if tables or not create:
                    raise StoreError(f"{self.path}: not a cardtable results store (it has no runs and games tables)")
                with self._guard("create the results store"):
                    self._db.executescript(_SCHEMA)
        except BaseException:
            self._db.close()
            raise

    @contextmanager
    def _guard(self, action: str) -> Iterator[None]:
        """Turn SQLite's errors into a :class:`StoreError` naming the file."""
        try:
            yield
        except (sqlite3.Error, OSError, json.JSONDecodeError) as error:
            raise StoreError(f"{self.path}: cannot {action}: {error}") from None

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start_run(self, *, kind: str, strategy: str, variant: dict[str, object], seed: int | None,
                  deals_file: str | None, games: int) -> int:
        """Record a new run; returns its id."""
        with self._guard("record a run"), self._db:
            cursor = self._db.execute(
                "INSERT INTO runs (created, kind, strategy, variant, seed, deals_file, games_requested, status)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, 'running')",
                (time.strftime("%Y-%m-%d %H:%M:%S"), kind, strategy, json.dumps(variant), seed, deals_file, games))
        return int(cursor.lastrowid or 0)

    def add_games(self, run_id: int, batch: Batch, variant: Variant) -> None:
        """Store a batch of finished games in one transaction (deal strings
        only when the batch carries them)."""
        deals = batch.deals if batch.deals is not None else [None] * len(batch)
        moves = [len(m) for m in batch.moves] if batch.moves is not None else [None] * len(batch)
        rows = [(run_id, i, d, int(f == 52), f, variant.scoring.money(f), m)
                for i, d, f, m in zip(batch.indices, deals, batch.foundation, moves, strict=True)]
        with self._guard("store games"), self._db:
            self._db.executemany("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
            self._db.execute("UPDATE runs SET games_played = (SELECT COUNT(*) FROM games WHERE run_id = ?)"
                             " WHERE id = ?", (run_id, run_id))

    def finish_run(self, run_id: int, status: str, summary: dict[str, object]) -> None:
        """Mark a run finished or interrupted, with its summary."""
        with self._guard("finish a run"), self._db:
            self._db.execute("UPDATE runs SET status = ?, summary = ? WHERE id = ?",
                             (status, json.dumps(summary), run_id))

    def runs(self, limit: int = 50) -> list[RunInfo]:
        """The newest runs first."""
        with self._guard("list runs"):
            rows = self._db.execute("SELECT * FROM runs ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
            return [self._info(row) for row in rows]

    def run(self, run_id: int) -> RunInfo:
        """One run; :class:`StoreError` naming the id when there is none."""
        with self._guard("read a run"):
            row = self._db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            raise StoreError(f"no run {run_id} in {self.path}")
        with self._guard("read a run"):
            return self._info(row)

    def games(self, run_id: int) -> list[tuple[int, bool, int, int]]:
        """(index, won, foundation, net) of every stored game of a run."""
        with self._guard("read games"):
            rows = self._db.execute("SELECT idx, won, foundation, net FROM games WHERE run_id = ? ORDER BY idx",
                                    (run_id,)).fetchall()
        return [(i, bool(w), f, n) for i, w, f, n in rows]

    @staticmethod
    def _info(row: tuple[Any, ...]) -> RunInfo:
        (rid, created, kind, strategy, variant, seed, deals_file, requested, played, status, summary) = row
        return RunInfo(int(rid), str(created), str(kind), str(strategy), json.loads(str(variant)),
                       None if seed is None else int(seed), None if deals_file is None else str(deals_file),
                       int(requested), int(played), str(status), json.loads(str(summary)) if summary else None)
