"""The results store: every simulation run and its games, and the games a
person played, in SQLite.

By default the store lives in the per-user data directory
(``$CARDTABLE_DATA``, else ``$XDG_DATA_HOME/cardtable``, else
``~/.local/share/cardtable``) as ``results.sqlite``. Each batch of games is
written in one transaction, so an interrupted run keeps every batch it
finished and the file is never left half-written.

Anything wrong with the file (not a store, unreadable, read-only, corrupt)
raises :class:`~cardtable.errors.StoreError` naming it. Opening with
``create=False`` (for listing runs) never creates or changes a file.

Each run keeps the process id and host name of the process that started it.
A run still ``running`` whose process is gone from this host (killed with
``kill -9``, or the machine lost power) is shown as ``interrupted`` by
:meth:`ResultsStore.runs` and :meth:`ResultsStore.run`; a store opened for
writing also records that, a read-only one is left as it is. A store made
before runs kept their process gains the two columns the first time it is
opened for writing; its older runs (and every run, read-only) are shown as
stored, since nobody can tell whether their process still runs.

A person's games (:class:`PlayedGame`, one row each, written by
:meth:`ResultsStore.record_played`) are kept under their variant's label
(:func:`variant_label`), and :meth:`ResultsStore.play_stats` sums them up per
label (:class:`PlayStats`). A store made before played games were kept gains
their table the first time it is opened for writing; read-only, it simply has
no played games.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "results.sqlite"
>>> with ResultsStore(path) as store:
...     run_id = store.start_run(kind="simulate", strategy="priority", variant={"name": "seed-002"},
...                              seed=1, deals_file=None, games=10)
>>> with ResultsStore(path, create=False) as store:
...     [(run.id, run.strategy, run.status) for run in store.runs()]
[(1, 'priority', 'running')]
>>> draw1 = Variant.preset("draw1")
>>> with ResultsStore(path) as store:
...     for won in (True, False, True, True):
...         store.record_played(PlayedGame.of(draw1, start="seed 7", won=won, seconds=200.0 if won else 30.0,
...                                           moves=120 if won else 15, foundation=52 if won else 4))
>>> with ResultsStore(path, create=False) as store:
...     stats, = store.play_stats()
>>> (stats.variant, stats.played, stats.won, stats.current_streak, stats.best_streak, stats.fewest_moves)
('draw1', 4, 3, 2, 2, 120)
"""

from __future__ import annotations

import json
import math
import os
import socket
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from cardtable.errors import StoreError
from cardtable.klondike.variant import PRESETS, Variant
from cardtable.sim.runner import Batch

__all__ = ["PlayStats", "PlayedGame", "ResultsStore", "RunInfo", "default_store_path", "variant_label"]

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
    summary TEXT,
    pid INTEGER,
    host TEXT
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

#: A person's games, in the order they finished (``id``); ``options`` is the
#: variant's options as JSON.
_PLAYED_SCHEMA = """
CREATE TABLE IF NOT EXISTS played (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    finished TEXT NOT NULL,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    start TEXT NOT NULL,
    won INTEGER NOT NULL,
    seconds REAL NOT NULL,
    moves INTEGER NOT NULL,
    foundation INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS played_by_variant ON played (variant, id);
"""


_RUN_COLUMNS = ("id, created, kind, strategy, variant, seed, deals_file, games_requested, games_played, status,"
                " summary")


def _process_alive(pid: int) -> bool:
    """Whether process ``pid`` runs on this host (a zombie does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    except OSError:
        return True  # cannot tell: leave the run as it is
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rpartition(")")[2].split()[:1] != ["Z"]
    except OSError:
        return True


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


def variant_label(variant: Variant) -> str:
    """The name a person's games of ``variant`` are kept under: the preset's
    name when ``variant`` is that preset exactly, else ``custom:`` and its
    description.

    >>> variant_label(Variant.preset("draw3"))
    'draw3'
    >>> variant_label(Variant.preset("draw3").replace(passes=3))
    'custom: draw 3, 3 passes, kings in empty piles, no foundation return, no scoring'
    """
    if PRESETS.get(variant.name) == variant:
        return variant.name
    return f"custom: {variant.describe()}"


@dataclass(frozen=True)
class PlayedGame:
    """One game a person played to its end (won, or given up).

    ``variant`` is the label of :func:`variant_label` and ``options`` the
    variant's :meth:`~cardtable.klondike.variant.Variant.options`; ``start``
    is the deal or position string the game began from; ``seconds`` the time
    it took, ``moves`` the moves made and ``foundation`` the cards on the
    foundations at the end (52 exactly when ``won``). ``finished`` is when it
    ended (``YYYY-MM-DD HH:MM:SS``, local time); left empty, the store fills
    it in. :meth:`of` builds one from a :class:`Variant`.

    A value that cannot describe a game raises :class:`ValueError` when built.
    """

    variant: str
    options: dict[str, object]
    start: str
    won: bool
    seconds: float
    moves: int
    foundation: int
    finished: str = ""

    def __post_init__(self) -> None:
        if not self.variant:
            raise ValueError("a played game needs its variant's label")
        if isinstance(self.moves, bool) or not isinstance(self.moves, int) or self.moves < 0:
            raise ValueError(f"moves must be a whole number >= 0, not {self.moves!r}")
        if isinstance(self.foundation, bool) or not isinstance(self.foundation, int) \
                or not 0 <= self.foundation <= 52:
            raise ValueError(f"foundation must be a whole number from 0 to 52, not {self.foundation!r}")
        if not isinstance(self.seconds, int | float) or not math.isfinite(self.seconds) or self.seconds < 0:
            raise ValueError(f"seconds must be a number >= 0, not {self.seconds!r}")
        if self.won != (self.foundation == 52):
            raise ValueError(f"a game is won exactly when all 52 cards are on the foundations "
                             f"(won={self.won!r}, foundation={self.foundation})")
        try:
            json.dumps(self.options)
        except (TypeError, ValueError) as error:
            raise ValueError(f"the variant options must be plain JSON values: {error}") from None

    @classmethod
    def of(cls, variant: Variant, *, start: str, won: bool, seconds: float, moves: int, foundation: int,
           finished: str = "") -> PlayedGame:
        """A played game of ``variant``, its label and options filled in."""
        return cls(variant_label(variant), variant.options(), start, won, seconds, moves, foundation, finished)


@dataclass(frozen=True)
class PlayStats:
    """A person's record in one variant (by label).

    ``current_streak`` counts the wins in a row up to the latest game (0 when
    it was lost), ``best_streak`` the longest run of wins; ``best_seconds`` is
    the fastest win and ``fewest_moves`` the fewest moves in a win (each None
    before the first win). ``win_rate`` is ``won / played`` (0.0 before any
    game).
    """

    variant: str
    played: int
    won: int
    win_rate: float
    current_streak: int
    best_streak: int
    best_seconds: float | None
    fewest_moves: int | None

    def to_dict(self) -> dict[str, object]:
        """The figures as a plain dictionary (for JSON)."""
        return asdict(self)


def _play_stats(label: str, games: list[tuple[bool, float, int]]) -> PlayStats:
    """Sum up ``(won, seconds, moves)`` of one label's games, oldest first."""
    streak = best = 0
    for won, _, _ in games:
        streak = streak + 1 if won else 0
        best = max(best, streak)
    wins = [(seconds, moves) for won, seconds, moves in games if won]
    return PlayStats(
        variant=label, played=len(games), won=len(wins), win_rate=len(wins) / len(games) if games else 0.0,
        current_streak=streak, best_streak=best,
        best_seconds=min(s for s, _ in wins) if wins else None,
        fewest_moves=min(m for _, m in wins) if wins else None)


class ResultsStore:
    """A SQLite file of runs and games, and of the games a person played.

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
                    self._db.executescript(f"BEGIN; {_SCHEMA} {_PLAYED_SCHEMA} COMMIT;")
                tables |= {"runs", "games", "played"}
            elif "played" not in tables and create:  # a store from before played games were kept
                with self._guard("add the played games table to the results store"):
                    self._db.executescript(f"BEGIN; {_PLAYED_SCHEMA} COMMIT;")
                tables.add("played")
            self._has_played = "played" in tables
            with self._guard("read the results store"):
                columns = {row[1] for row in self._db.execute("PRAGMA table_info(runs)")}
            if not {"pid", "host"} <= columns and create:  # a store from before runs kept their process
                with self._guard("add the process columns to the results store"):
                    self._db.executescript("BEGIN; ALTER TABLE runs ADD COLUMN pid INTEGER;"
                                           " ALTER TABLE runs ADD COLUMN host TEXT; COMMIT;")
                columns |= {"pid", "host"}
            self._has_process = {"pid", "host"} <= columns
            self._writable = create
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
                "INSERT INTO runs (created, kind, strategy, variant, seed, deals_file, games_requested, status,"
                " pid, host) VALUES (?, ?, ?, ?, ?, ?, ?, 'running', ?, ?)",
                (time.strftime("%Y-%m-%d %H:%M:%S"), kind, strategy, json.dumps(variant), seed, deals_file, games,
                 os.getpid(), socket.gethostname()))
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
        """The newest runs first (a run whose process died shown as interrupted)."""
        with self._guard("list runs"):
            rows = self._db.execute(f"SELECT {self._columns()} FROM runs ORDER BY id DESC LIMIT ?",
                                    (limit,)).fetchall()
            return [self._info(self._settle(row)) for row in rows]

    def run(self, run_id: int) -> RunInfo:
        """One run; :class:`StoreError` naming the id when there is none."""
        with self._guard("read a run"):
            row = self._db.execute(f"SELECT {self._columns()} FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            raise StoreError(f"no run {run_id} in {self.path}")
        with self._guard("read a run"):
            return self._info(self._settle(row))

    def _columns(self) -> str:
        return _RUN_COLUMNS + (", pid, host" if self._has_process else ", NULL, NULL")

    def _settle(self, row: tuple[Any, ...]) -> tuple[Any, ...]:
        """``row`` with a ``running`` status made ``interrupted`` when the
        process that started the run is gone from this host (and the change
        stored, when the store is open for writing)."""
        *fields, pid, host = row
        if fields[9] != "running" or pid is None or host != socket.gethostname() or _process_alive(int(pid)):
            return tuple(fields)
        if self._writable:
            with self._db:
                self._db.execute("UPDATE runs SET status = 'interrupted' WHERE id = ? AND status = 'running'",
                                 (fields[0],))
        fields[9] = "interrupted"
        return tuple(fields)

    def games(self, run_id: int) -> list[tuple[int, bool, int, int]]:
        """(index, won, foundation, net) of every stored game of a run."""
        with self._guard("read games"):
            rows = self._db.execute("SELECT idx, won, foundation, net FROM games WHERE run_id = ? ORDER BY idx",
                                    (run_id,)).fetchall()
        return [(i, bool(w), f, n) for i, w, f, n in rows]

    def record_played(self, game: PlayedGame) -> None:
        """Keep one game a person played (in one transaction), stamping it
        with the time now when its ``finished`` is empty."""
        if not self._has_played:
            raise StoreError(f"{self.path}: cannot record a played game: the store is open read-only "
                             "and has no played games table")
        finished = game.finished or time.strftime("%Y-%m-%d %H:%M:%S")
        with self._guard("record a played game"), self._db:
            self._db.execute(
                "INSERT INTO played (finished, variant, options, start, won, seconds, moves, foundation)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (finished, game.variant, json.dumps(game.options), game.start, int(game.won), float(game.seconds),
                 game.moves, game.foundation))

    def played_games(self, variant: str | None = None) -> list[PlayedGame]:
        """Every played game (or those of one variant label), oldest first."""
        if not self._has_played:
            return []
        query = "SELECT finished, variant, options, start, won, seconds, moves, foundation FROM played"
        with self._guard("read played games"):
            if variant is None:
                rows = self._db.execute(query + " ORDER BY id").fetchall()
            else:
                rows = self._db.execute(query + " WHERE variant = ? ORDER BY id", (variant,)).fetchall()
            return [PlayedGame(str(label), json.loads(str(options)), str(start), bool(won), float(seconds),
                               int(moves), int(foundation), str(finished))
                    for finished, label, options, start, won, seconds, moves, foundation in rows]

    def play_stats(self, variant: str | None = None) -> list[PlayStats]:
        """A person's record in each variant label played, ordered by label;
        given a label, just that one (all zeros when it was never played)."""
        games: dict[str, list[tuple[bool, float, int]]] = {} if variant is None else {variant: []}
        if self._has_played:
            query = "SELECT variant, won, seconds, moves FROM played"
            with self._guard("read played games"):
                if variant is None:
                    rows = self._db.execute(query + " ORDER BY id").fetchall()
                else:
                    rows = self._db.execute(query + " WHERE variant = ? ORDER BY id", (variant,)).fetchall()
            for label, won, seconds, moves in rows:
                games.setdefault(str(label), []).append((bool(won), float(seconds), int(moves)))
        return [_play_stats(label, games[label]) for label in sorted(games)]

    @staticmethod
    def _info(row: tuple[Any, ...]) -> RunInfo:
        (rid, created, kind, strategy, variant, seed, deals_file, requested, played, status, summary) = row
        return RunInfo(int(rid), str(created), str(kind), str(strategy), json.loads(str(variant)),
                       None if seed is None else int(seed), None if deals_file is None else str(deals_file),
                       int(requested), int(played), str(status), json.loads(str(summary)) if summary else None)
