"""The results store: every simulation run and its games, in SQLite.

By default the store lives in the per-user data directory
(``$CARDTABLE_DATA``, else ``$XDG_DATA_HOME/cardtable``, else
``~/.local/share/cardtable``) as ``results.sqlite``. Each batch of games is
written in one transaction, so an interrupted run keeps every batch it
finished and the file is never left half-written.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

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
    """A SQLite file of runs and games."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path)
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as error:
            raise ValueError(f"{self.path}: not a cardtable results store ({error})") from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start_run(self, *, kind: str, strategy: str, variant: dict[str, object], seed: int | None,
                  deals_file: str | None, games: int) -> int:
        """Record a new run; returns its id."""
        with self._db:
            cursor = self._db.execute(
                "INSERT INTO runs (created, kind, strategy, variant, seed, deals_file, games_requested, status)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, 'running')",
                (time.strftime("%Y-%m-%d %H:%M:%S"), kind, strategy, json.dumps(variant), seed, deals_file, games))
        return int(cursor.lastrowid or 0)

    def add_games(self, run_id: int, batch: Batch, variant: Variant) -> None:
        """Store a batch of finished games in one transaction (deal strings
        only when the batch carries them)."""
        per_card, ante = variant.scoring.per_card, variant.scoring.ante
        deals = batch.deals if batch.deals is not None else [None] * len(batch)
        moves = [len(m) for m in batch.moves] if batch.moves is not None else [None] * len(batch)
        rows = [(run_id, i, d, int(f == 52), f, per_card * f - ante, m)
                for i, d, f, m in zip(batch.indices, deals, batch.foundation, moves, strict=True)]
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
            self._db.execute("UPDATE runs SET games_played = (SELECT COUNT(*) FROM games WHERE run_id = ?)"
                             " WHERE id = ?", (run_id, run_id))

    def finish_run(self, run_id: int, status: str, summary: dict[str, object]) -> None:
        """Mark a run finished or interrupted, with its summary."""
        with self._db:
            self._db.execute("UPDATE runs SET status = ?, summary = ? WHERE id = ?",
                             (status, json.dumps(summary), run_id))

    def runs(self, limit: int = 50) -> list[RunInfo]:
        """The newest runs first."""
        rows = self._db.execute("SELECT * FROM runs ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
        return [self._info(row) for row in rows]

    def run(self, run_id: int) -> RunInfo:
        """One run; ``ValueError`` naming the id when there is none."""
        row = self._db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            raise ValueError(f"no run {run_id} in {self.path}")
        return self._info(row)

    def games(self, run_id: int) -> list[tuple[int, bool, int, int]]:
        """(index, won, foundation, net) of every stored game of a run."""
        rows = self._db.execute("SELECT idx, won, foundation, net FROM games WHERE run_id = ? ORDER BY idx",
                                (run_id,)).fetchall()
        return [(i, bool(w), f, n) for i, w, f, n in rows]

    @staticmethod
    def _info(row: tuple[object, ...]) -> RunInfo:
        (rid, created, kind, strategy, variant, seed, deals_file, requested, played, status, summary) = row
        return RunInfo(int(rid), str(created), str(kind), str(strategy), json.loads(str(variant)),  # type: ignore[arg-type]
                       seed if seed is None else int(seed), deals_file if deals_file is None else str(deals_file),  # type: ignore[arg-type]
                       int(requested), int(played), str(status),  # type: ignore[arg-type]
                       json.loads(str(summary)) if summary else None)
