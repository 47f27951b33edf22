"""The results store's core: one SQLite file of runs and their units, and of
the other records the library keeps (a person's games and hands, studies).

By default the store lives in the per-user data directory
(``$CARDTABLE_DATA``, else ``$XDG_DATA_HOME/cardtable``, else
``~/.local/share/cardtable``) as ``results.sqlite``
(:func:`default_store_path`). Each call that writes does so in one
transaction, so an interrupted run keeps every unit it stored and the file
is never left half-written.

Anything wrong with the file (not a store, unreadable, read-only, corrupt)
raises :class:`~cardtable.errors.StoreError` naming it. Opening with
``create=False`` (for listing runs) never creates or changes a file.

The core knows the file's tables and their columns, never a game: it takes
and returns plain rows (tuples and dictionaries of plain values), and each
client turns its own values into rows and back (a simulation's games, a
batch's solved deals, a match's hands, a study's deals, a person's games).

Runs
    Each run keeps its kind, who played, the variant, the units asked for
    and stored, its status and summary, the options it was started with
    (:meth:`ResultsStore.run_params`, to finish it later with ``--resume``)
    and the process id and host name of the process that started it. A run
    still ``running`` whose process is gone from this host (killed with
    ``kill -9``, or the machine lost power) is shown as ``interrupted`` by
    :meth:`ResultsStore.runs` and :meth:`ResultsStore.run`; a store opened
    for writing also records that, a read-only one is left as it is. A run's
    life from the command line goes through
    :class:`~cardtable.runs.stored.StoredRun`.

Units
    A run's units live in one of the :data:`UNIT_TABLES` (``games``,
    ``solves``, ``hands``), keyed by (run, index) with a uniqueness
    constraint, so a unit that comes back twice (a worker that died after
    sending it, a resumed run) is stored once
    (:meth:`ResultsStore.add_units`, :meth:`ResultsStore.units`).

Other records
    ``played`` and ``played_hands`` (a person's games and Kings Corner
    hands, in the order they finished), ``study_deals`` and ``studies`` (a
    study's solved deals and the studies asked for): written with
    :meth:`ResultsStore.append`, :meth:`ResultsStore.put` and
    :meth:`ResultsStore.upsert`, read with :meth:`ResultsStore.select`.

Versions
    Stores are versioned (``PRAGMA user_version``, :data:`SCHEMA_VERSION`).
    An older store gains the new columns and tables the first time it is
    opened for writing (nothing is removed or rewritten, so its runs read
    as before), and stays readable read-only: a table it lacks reads as
    empty, a column it lacks as its stand-in (a game's points as its net).

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "results.sqlite"
>>> with ResultsStore(path) as store:
...     run_id = store.start_run(kind="solve", strategy="solver", variant={"name": "draw1"},
...                              seed=None, deals_file="deals.txt", games=2)
...     store.add_units("solves", run_id, [(0, "5", "won", "[]", 120, 0.5, None)])
>>> with ResultsStore(path, create=False) as store:
...     [(run.id, run.strategy, run.status, run.games_played) for run in store.runs()]
...     store.units("solves", run_id)
[(1, 'solver', 'running', 1)]
[(0, '5', 'won', '[]', 120, 0.5, None)]
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardtable.errors import StoreError

__all__ = ["SCHEMA_VERSION", "UNIT_TABLES", "ResultsStore", "RunInfo", "default_store_path"]

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
    host TEXT,
    params TEXT
);
CREATE TABLE IF NOT EXISTS games (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    idx INTEGER NOT NULL,
    deal TEXT,
    won INTEGER NOT NULL,
    foundation INTEGER NOT NULL,
    net INTEGER NOT NULL,
    moves INTEGER,
    score INTEGER,
    detail TEXT,
    PRIMARY KEY (run_id, idx)
);
"""

#: Solved deals and Kings Corner hands, one row per unit of a run.
_UNIT_SCHEMA = """
CREATE TABLE IF NOT EXISTS solves (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    idx INTEGER NOT NULL,
    deal TEXT NOT NULL,
    result TEXT NOT NULL,
    moves TEXT NOT NULL,
    states INTEGER NOT NULL,
    seconds REAL NOT NULL,
    reason TEXT,
    PRIMARY KEY (run_id, idx)
);
CREATE TABLE IF NOT EXISTS hands (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    idx INTEGER NOT NULL,
    seating TEXT NOT NULL,
    winner INTEGER,
    penalties TEXT NOT NULL,
    turns INTEGER NOT NULL,
    PRIMARY KEY (run_id, idx)
);
"""

#: The schema version this module writes (``PRAGMA user_version``): 0 for
#: stores made before versions were kept, 2 once runs could be resumed, 3
#: once a person's Kings Corner hands were kept, 4 once studies were kept, 5
#: once the browser table kept its players' games.
SCHEMA_VERSION = 5

#: Columns added since the first stores, by table: (name, type, what an
#: older store reads in its place).
_ADDED_COLUMNS = {
    "runs": (("pid", "INTEGER", "NULL"), ("host", "TEXT", "NULL"), ("params", "TEXT", "NULL")),
    "games": (("score", "INTEGER", "net"), ("detail", "TEXT", "NULL")),
}

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

#: A person's Kings Corner hands, in the order they finished (``id``): the
#: table they sat at (its label), the match (its seed) and the hand in it,
#: whether they emptied their hand first, their penalty points, the seconds
#: the hand took; on a match's last hand, whether they won the match.
_PLAYED_HANDS_SCHEMA = """
CREATE TABLE IF NOT EXISTS played_hands (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    finished TEXT NOT NULL,
    label TEXT NOT NULL,
    match_seed TEXT NOT NULL,
    hand INTEGER NOT NULL,
    won INTEGER NOT NULL,
    penalty INTEGER NOT NULL,
    seconds REAL NOT NULL,
    match_won INTEGER
);
CREATE INDEX IF NOT EXISTS played_hands_by_label ON played_hands (label, id);
"""

#: Studies: each deal solved under one budget (``study_deals``: ``rules`` is
#: the JSON of the rules that decide winnability, ``budget`` the budget's
#: key, ``moves`` the winning line, space-separated), and each study asked
#: for (``studies``: what, under which rules, which seeds and budget;
#: ``label`` names the variant as it was last given).
_STUDY_SCHEMA = """
CREATE TABLE IF NOT EXISTS study_deals (
    rules TEXT NOT NULL,
    seed INTEGER NOT NULL,
    budget TEXT NOT NULL,
    timeout REAL,
    max_states INTEGER NOT NULL,
    result TEXT NOT NULL,
    states INTEGER NOT NULL,
    seconds REAL NOT NULL,
    reason TEXT,
    moves TEXT NOT NULL,
    solved TEXT NOT NULL,
    PRIMARY KEY (rules, seed, budget)
);
CREATE TABLE IF NOT EXISTS studies (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    rules TEXT NOT NULL,
    label TEXT NOT NULL,
    first_seed INTEGER NOT NULL,
    deals INTEGER NOT NULL,
    budget TEXT NOT NULL,
    timeout REAL,
    max_states INTEGER NOT NULL,
    updated TEXT NOT NULL,
    UNIQUE (kind, rules, first_seed, budget)
);
"""

#: The browser table's games in progress: one row per player and game, the
#: game's saved text (a Klondike record), when its first move was played
#: (seconds since the epoch) and when it was last saved.
_WEB_SCHEMA = """
CREATE TABLE IF NOT EXISTS web_games (
    player TEXT NOT NULL,
    game TEXT NOT NULL,
    saved TEXT NOT NULL,
    started REAL,
    updated TEXT NOT NULL,
    PRIMARY KEY (player, game)
);
"""

#: The tables of a run's units, each with its columns after ``run_id`` (the
#: unit's index first) and what its units are called in messages.
UNIT_TABLES: Mapping[str, tuple[tuple[str, ...], str]] = {
    "games": (("idx", "deal", "won", "foundation", "net", "moves", "score", "detail"), "games"),
    "solves": (("idx", "deal", "result", "moves", "states", "seconds", "reason"), "solved deals"),
    "hands": (("idx", "seating", "winner", "penalties", "turns"), "hands"),
}

#: The other tables' names in messages.
_RECORD_TABLES = {"played": "played games", "played_hands": "played hands", "study_deals": "study deals",
                  "studies": "studies", "web_games": "browser games"}

_TABLES_SINCE_FIRST = {"played", "played_hands", "solves", "hands", "study_deals", "studies", "web_games"}

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
    """One stored run: ``games_requested`` and ``games_played`` count its
    units (games, deals or hands), whatever their kind."""

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
    """A SQLite file of runs and their units, and of the other records.

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
                    self._db.executescript(f"BEGIN; {_SCHEMA} {_PLAYED_SCHEMA} {_PLAYED_HANDS_SCHEMA} {_UNIT_SCHEMA}"
                                           f" {_STUDY_SCHEMA} {_WEB_SCHEMA}"
                                           f" PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
                tables |= {"runs", "games"} | _TABLES_SINCE_FIRST
            elif create:
                self._migrate(tables)
                tables |= _TABLES_SINCE_FIRST
            # The unit tables came together, as did the study tables: a store has both of a pair or neither.
            if not {"solves", "hands"} <= tables:
                tables -= {"solves", "hands"}
            if not {"study_deals", "studies"} <= tables:
                tables -= {"study_deals", "studies"}
            self._tables = frozenset(tables)
            with self._guard("read the results store"):
                self._columns = {table: {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
                                 for table in ("runs", "games")}
            self._has_process = {"pid", "host"} <= self._columns["runs"]
            self._writable = create
        except BaseException:
            self._db.close()
            raise

    def _migrate(self, tables: set[str]) -> None:
        """Bring a store made by an older cardtable up to :data:`SCHEMA_VERSION`
        in one transaction: missing tables and columns are added, nothing is
        removed or rewritten, so its runs read as before."""
        with self._guard("read the results store"):
            version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
            present = {table: {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
                       for table in _ADDED_COLUMNS}
        missing = [f"ALTER TABLE {table} ADD COLUMN {name} {kind};" for table, columns in _ADDED_COLUMNS.items()
                   for name, kind, _ in columns if name not in present[table]]
        if version >= SCHEMA_VERSION and not missing and tables >= _TABLES_SINCE_FIRST:
            return
        script = "".join(missing) + (_PLAYED_SCHEMA if "played" not in tables else "") + _PLAYED_HANDS_SCHEMA \
            + _UNIT_SCHEMA + _STUDY_SCHEMA + _WEB_SCHEMA
        with self._guard("upgrade the results store"):
            self._db.executescript(f"BEGIN; {script} PRAGMA user_version = {max(version, SCHEMA_VERSION)}; COMMIT;")

    @contextmanager
    def _guard(self, action: str) -> Iterator[None]:
        """Turn SQLite's errors into a :class:`StoreError` naming the file."""
        try:
            yield
        except (sqlite3.Error, OSError, json.JSONDecodeError) as error:
            raise StoreError(f"{self.path}: cannot {action}: {error}") from None

    @property
    def writable(self) -> bool:
        """Whether the store is open for writing (``create=True``)."""
        return self._writable

    def has_table(self, table: str) -> bool:
        """Whether the file has ``table`` (a read-only older store may not)."""
        return table in self._tables

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _need_writable(self, action: str) -> None:
        if not self._writable:
            raise StoreError(f"{self.path}: cannot {action}: the store is open read-only")

    # ----- runs ------------------------------------------------------------------------------------

    def start_run(self, *, kind: str, strategy: str, variant: dict[str, object], seed: int | None,
                  deals_file: str | None, games: int, params: dict[str, object] | None = None) -> int:
        """Record a new run of ``games`` units; returns its id. ``params``
        (plain JSON values) are the options a later :meth:`resume_run` needs
        to finish it."""
        self._need_writable("record a run")
        with self._guard("record a run"), self._db:
            cursor = self._db.execute(
                "INSERT INTO runs (created, kind, strategy, variant, seed, deals_file, games_requested, status,"
                " pid, host, params) VALUES (?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?)",
                (time.strftime("%Y-%m-%d %H:%M:%S"), kind, strategy, json.dumps(variant), seed, deals_file, games,
                 os.getpid(), socket.gethostname(), None if params is None else json.dumps(params)))
        return int(cursor.lastrowid or 0)

    def run_params(self, run_id: int) -> dict[str, object] | None:
        """The options run ``run_id`` was started with (None for a run stored
        before runs kept them); :class:`StoreError` when there is no such run."""
        self.run(run_id)
        if "params" not in self._columns["runs"]:
            return None
        with self._guard("read a run"):
            (params,) = self._db.execute("SELECT params FROM runs WHERE id = ?", (run_id,)).fetchone()
        return None if params is None else dict(json.loads(str(params)))

    def resume_run(self, run_id: int, kind: str) -> tuple[RunInfo, dict[str, object]]:
        """Take up run ``run_id`` of ``kind`` again in this process: it is
        marked ``running`` under this process id and host. Returns the run and
        its options. A :class:`StoreError` says why when there is no such run,
        it is of another kind, it was stored before runs kept their options,
        or it is still running (its process is alive on this host, or it runs
        on another host)."""
        self._need_writable("resume a run")
        info = self.run(run_id)
        if info.kind != kind:
            raise StoreError(f"run {run_id} is a {info.kind} run, not a {kind} run")
        params = self.run_params(run_id)
        if params is None:
            raise StoreError(f"run {run_id} was stored by an older cardtable that kept no options: start it again")
        if info.status == "running":
            with self._guard("read a run"):
                pid, host = self._db.execute("SELECT pid, host FROM runs WHERE id = ?", (run_id,)).fetchone()
            raise StoreError(f"run {run_id} is still running (process {pid} on {host}); stop it first")
        with self._guard("resume a run"), self._db:
            self._db.execute("UPDATE runs SET status = 'running', pid = ?, host = ? WHERE id = ?",
                             (os.getpid(), socket.gethostname(), run_id))
        return self.run(run_id), params

    def finish_run(self, run_id: int, status: str, summary: dict[str, object]) -> None:
        """Mark a run finished or interrupted, with its summary."""
        with self._guard("finish a run"), self._db:
            self._db.execute("UPDATE runs SET status = ?, summary = ? WHERE id = ?",
                             (status, json.dumps(summary), run_id))

    def runs(self, limit: int = 50) -> list[RunInfo]:
        """The newest runs first (a run whose process died shown as interrupted)."""
        with self._guard("list runs"):
            rows = self._db.execute(f"SELECT {self._run_columns()} FROM runs ORDER BY id DESC LIMIT ?",
                                    (limit,)).fetchall()
            return [self._info(self._settle(row)) for row in rows]

    def run(self, run_id: int) -> RunInfo:
        """One run; :class:`StoreError` naming the id when there is none."""
        with self._guard("read a run"):
            row = self._db.execute(f"SELECT {self._run_columns()} FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            raise StoreError(f"no run {run_id} in {self.path}")
        with self._guard("read a run"):
            return self._info(self._settle(row))

    def _run_columns(self) -> str:
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

    @staticmethod
    def _info(row: tuple[Any, ...]) -> RunInfo:
        (rid, created, kind, strategy, variant, seed, deals_file, requested, played, status, summary) = row
        return RunInfo(int(rid), str(created), str(kind), str(strategy), json.loads(str(variant)),
                       None if seed is None else int(seed), None if deals_file is None else str(deals_file),
                       int(requested), int(played), str(status), json.loads(str(summary)) if summary else None)

    # ----- a run's units ---------------------------------------------------------------------------

    def add_units(self, table: str, run_id: int, rows: Sequence[Sequence[object]]) -> None:
        """Store units of run ``run_id`` in ``table`` (one of
        :data:`UNIT_TABLES`) in one transaction, each row its columns after
        ``run_id`` in order, its index first. A unit already stored for the
        run is left as it is: the same seeds give the same unit. The run's
        count of stored units follows."""
        columns, what = UNIT_TABLES[table]
        self._need_writable(f"store {what}")
        names = ", ".join(("run_id", *columns))
        marks = ", ".join("?" * (len(columns) + 1))
        with self._guard(f"store {what}"), self._db:
            self._db.executemany(f"INSERT OR IGNORE INTO {table} ({names}) VALUES ({marks})",
                                 [(run_id, *row) for row in rows])
            self._db.execute(f"UPDATE runs SET games_played = (SELECT COUNT(*) FROM {table} WHERE run_id = ?)"
                             " WHERE id = ?", (run_id, run_id))

    def units(self, table: str, run_id: int) -> list[tuple[Any, ...]]:
        """Every stored unit of run ``run_id`` in ``table``, in index order,
        as :meth:`add_units` was given it (a column an older store lacks
        reads as its stand-in); none when the store has no such table."""
        columns, what = UNIT_TABLES[table]
        if table not in self._tables:
            return []
        present = self._columns.get(table)
        added = {name: stand_in for name, _, stand_in in _ADDED_COLUMNS.get(table, ())}
        chosen = ", ".join(added[name] if present is not None and name not in present else name for name in columns)
        with self._guard(f"read {what}"):
            return self._db.execute(f"SELECT {chosen} FROM {table} WHERE run_id = ? ORDER BY idx",
                                    (run_id,)).fetchall()

    # ----- other records ---------------------------------------------------------------------------

    def append(self, table: str, row: Mapping[str, object], *, action: str) -> None:
        """Add ``row`` (column: value) to ``table`` in one transaction; a
        :class:`StoreError` says ``action`` failed, and why."""
        if table not in self._tables:
            raise StoreError(f"{self.path}: cannot {action}: the store is open read-only "
                             f"and has no {_RECORD_TABLES[table]} table")
        with self._guard(action), self._db:
            self._db.execute(f"INSERT INTO {table} ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                             tuple(row.values()))

    def put(self, table: str, row: Mapping[str, object], *, action: str) -> None:
        """Add ``row`` to ``table`` in one transaction, replacing the row
        with the same key (``action`` as in :meth:`append`)."""
        self._need_writable(action)
        with self._guard(action), self._db:
            self._db.execute(f"INSERT OR REPLACE INTO {table} ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                             tuple(row.values()))

    def put_rows(self, table: str, rows: Sequence[Mapping[str, object]], *, action: str) -> None:
        """:meth:`put` for several rows (each with the same columns) in one
        transaction: one commit for them all."""
        if not rows:
            return
        self._need_writable(action)
        columns = list(rows[0])
        with self._guard(action), self._db:
            self._db.executemany(f"INSERT OR REPLACE INTO {table} ({', '.join(columns)}) "
                                 f"VALUES ({', '.join('?' * len(columns))})",
                                 [tuple(row[name] for name in columns) for row in rows])

    def upsert(self, table: str, row: Mapping[str, object], *, key: Sequence[str], most: Sequence[str] = (),
               action: str) -> tuple[Any, ...]:
        """Bring the row of ``table`` with ``row``'s ``key`` columns up to
        ``row`` (the ``most`` columns to the larger of the stored value and
        ``row``'s), or add it, in one transaction; returns the row as stored,
        every column in the table's order."""
        self._need_writable(action)
        where = " AND ".join(f"{name} = ?" for name in key)
        known = tuple(row[name] for name in key)
        changes = [name for name in row if name not in key]
        sets = ", ".join(f"{name} = MAX({name}, ?)" if name in most else f"{name} = ?" for name in changes)
        with self._guard(action), self._db:
            found = self._db.execute(f"UPDATE {table} SET {sets} WHERE {where}",
                                     (*(row[name] for name in changes), *known)).rowcount
            if not found:
                self._db.execute(f"INSERT INTO {table} ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                                 tuple(row.values()))
            stored: tuple[Any, ...] = self._db.execute(f"SELECT * FROM {table} WHERE {where}", known).fetchone()
        return stored

    def select(self, table: str, columns: Sequence[str], *, where: Mapping[str, object] | None = None,
               between: tuple[str, int, int] | None = None, order: str = "id", action: str) -> list[tuple[Any, ...]]:
        """The ``columns`` of the rows of ``table`` whose columns equal
        ``where``'s values (and whose ``between[0]`` lies from
        ``between[1]`` to ``between[2]``), ordered by ``order``; none when
        the store has no such table."""
        if table not in self._tables:
            return []
        conditions = [f"{name} = ?" for name in where or {}]
        values: list[object] = list((where or {}).values())
        if between is not None:
            conditions.append(f"{between[0]} BETWEEN ? AND ?")
            values += between[1:]
        query = f"SELECT {', '.join(columns)} FROM {table}" + (f" WHERE {' AND '.join(conditions)}" if conditions
                                                                 else "")
        with self._guard(action):
            return self._db.execute(f"{query} ORDER BY {order}", values).fetchall()
