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

A run can be finished later (``--resume``): each run keeps the options it
was started with (:meth:`ResultsStore.run_params`), and its units are keyed
by (run, index) with a uniqueness constraint, so a unit that comes back twice
(a worker that died after sending it, a resumed run) is stored once. Games
keep their points and, when the run keeps moves, their moves; solved deals
(:meth:`ResultsStore.add_solves`) keep the result, the moves, the states and
the seconds; Kings Corner hands (:meth:`ResultsStore.add_hands`) keep the
seating, the winner, the penalties and the turns. Stores are versioned
(``PRAGMA user_version``); an older store gains the new columns and tables the
first time it is opened for writing, and stays readable read-only.

A person's games (:class:`PlayedGame`, one row each, written by
:meth:`ResultsStore.record_played`) are kept under their variant's label
(:attr:`Variant.label <cardtable.klondike.Variant.label>`), and :meth:`ResultsStore.play_stats` sums them up per
label (:class:`PlayStats`). A store made before played games were kept gains
their table the first time it is opened for writing; read-only, it simply has
no played games. A person's Kings Corner hands (:class:`PlayedHand`, written by
:meth:`ResultsStore.record_hand`) are kept under their table's label
(:func:`kings_corner_label`), and :meth:`ResultsStore.hand_stats` sums them up
(:class:`HandStats`): hands and matches played and won, the mean penalty, and
streaks of matches won.

Studies (:mod:`cardtable.solver.study`) keep one row per deal and solver
budget (:class:`StudyDeal`, written by :meth:`ResultsStore.add_study_deal`
as each deal is solved), keyed by the rules that decide winnability, the
seed and the budget, so a study can be run again, extended or given a
larger budget without solving a deal twice; each study asked for is listed
(:class:`StudyInfo`, :meth:`ResultsStore.record_study`). A store made before
studies were kept gains both tables the first time it is opened for writing;
read-only, it simply has no studies.

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
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardtable.errors import StoreError
from cardtable.klondike.variant import Variant

if TYPE_CHECKING:
    from cardtable.sim.match import HandResult
    from cardtable.sim.runner import Batch

__all__ = ["SCHEMA_VERSION", "STUDY_SEED_LIMIT", "HandStats", "PlayStats", "PlayedGame", "PlayedHand", "ResultsStore",
           "RunInfo", "StudyDeal", "StudyInfo", "default_store_path", "kings_corner_label"]

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
#: once a person's Kings Corner hands were kept, 4 once studies were kept.
SCHEMA_VERSION = 4

#: Columns added since the first stores, by table: (name, type).
_ADDED_COLUMNS = {
    "runs": (("pid", "INTEGER"), ("host", "TEXT"), ("params", "TEXT")),
    "games": (("score", "INTEGER"), ("detail", "TEXT")),
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
#: the JSON of the rules that decide winnability, ``budget`` the budget's key
#: of :func:`_budget_key`, ``moves`` the winning line, space-separated), and
#: each study asked for (``studies``: what, under which rules, which seeds and
#: budget; ``label`` names the variant as it was last given).
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

#: The largest seed a study keeps (SQLite integers are signed 64-bit words).
STUDY_SEED_LIMIT = 2**63 - 1


def _budget_key(timeout: float | None, max_states: int) -> str:
    """The text a budget is keyed by: equal budgets, equal keys.

    >>> _budget_key(30, 50_000), _budget_key(None, 50_000)
    ('timeout=30.0 max_states=50000', 'timeout=none max_states=50000')
    """
    return f"timeout={'none' if timeout is None else repr(float(timeout))} max_states={int(max_states)}"


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


@dataclass(frozen=True)
class PlayedGame:
    """One game a person played to its end (won, or given up).

    ``variant`` is the label of :attr:`~cardtable.klondike.Variant.label` and ``options`` the
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
        return cls(variant.label, variant.options(), start, won, seconds, moves, foundation, finished)


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


def kings_corner_label(opponents: int, level: str, target: int) -> str:
    """The name a person's Kings Corner hands are kept under: the table.

    >>> kings_corner_label(3, "strategic", 25)
    '3 strategic bots, to 25 points'
    """
    return f"{opponents} {level} bot{'s' if opponents != 1 else ''}, to {target} point{'s' if target != 1 else ''}"


@dataclass(frozen=True)
class PlayedHand:
    """One Kings Corner hand a person played to its end.

    ``label`` names the table (:func:`kings_corner_label`), ``match_seed``
    the match and ``hand`` the hand in it (from 1); ``won`` says whether
    they emptied their hand first, ``penalty`` is their penalty points in
    the hand and ``seconds`` the time it took. On the match's last hand
    ``match_won`` says whether their total was the lowest (a tie shares
    the win); else it is None. ``finished`` as in :class:`PlayedGame`.

    A value that cannot describe a hand raises :class:`ValueError` when built.
    """

    label: str
    match_seed: str
    hand: int
    won: bool
    penalty: int
    seconds: float
    match_won: bool | None = None
    finished: str = ""

    def __post_init__(self) -> None:
        if not self.label:
            raise ValueError("a played hand needs its table's label")
        for name in ("hand", "penalty"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < (1 if name == "hand" else 0):
                raise ValueError(f"{name} must be a whole number >= {1 if name == 'hand' else 0}, not {value!r}")
        if not math.isfinite(self.seconds) or self.seconds < 0:
            raise ValueError(f"seconds must be a finite number >= 0, not {self.seconds!r}")
        if self.won and self.penalty:
            raise ValueError("a hand emptied first has no penalty points")


@dataclass(frozen=True)
class HandStats:
    """A person's record at one Kings Corner table: hands played and won,
    the mean penalty a hand, matches finished and won, and the current and
    best streak of matches won."""

    label: str
    hands: int
    hands_won: int
    mean_penalty: float
    matches: int
    matches_won: int
    match_win_rate: float
    current_streak: int
    best_streak: int

    def to_dict(self) -> dict[str, object]:
        """The figures as plain JSON values."""
        return dict(self.__dict__)


def _hand_stats(label: str, hands: list[tuple[bool, int, bool | None]]) -> HandStats:
    """Sum up ``(won, penalty, match_won)`` of one table's hands, oldest first."""
    matches = [match_won for _, _, match_won in hands if match_won is not None]
    streak = best = 0
    for match_won in matches:
        streak = streak + 1 if match_won else 0
        best = max(best, streak)
    return HandStats(
        label=label, hands=len(hands), hands_won=sum(won for won, _, _ in hands),
        mean_penalty=sum(p for _, p, _ in hands) / len(hands) if hands else 0.0,
        matches=len(matches), matches_won=sum(matches), match_win_rate=sum(matches) / len(matches) if matches else 0.0,
        current_streak=streak, best_streak=best)


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


@dataclass(frozen=True)
class StudyDeal:
    """One deal of a study solved under one budget.

    ``rules`` is the JSON text of the rules the deal was solved under (a
    study's key, :attr:`~cardtable.klondike.Variant.winnability_key`), ``seed`` the
    deal number, ``timeout`` (None: no time limit) and ``max_states`` the
    budget. ``result`` is ``won``, ``unwinnable`` or ``unknown`` (then
    ``reason`` says which budget ran out), ``states`` and ``seconds`` what
    the search took, ``moves`` the winning line. ``solved`` is when it was
    stored (``YYYY-MM-DD HH:MM:SS``, local time); left empty, the store fills
    it in.

    A value that cannot describe a solved deal raises :class:`ValueError`.
    """

    rules: str
    seed: int
    timeout: float | None
    max_states: int
    result: str
    states: int
    seconds: float
    reason: str = ""
    moves: tuple[str, ...] = ()
    solved: str = ""

    def __post_init__(self) -> None:
        if self.result not in ("won", "unwinnable", "unknown"):
            raise ValueError(f"result must be won, unwinnable or unknown, not {self.result!r}")
        if not 0 <= self.seed <= STUDY_SEED_LIMIT:
            raise ValueError(f"a study's seeds go from 0 to {STUDY_SEED_LIMIT}, not {self.seed}")
        if self.max_states < 1 or (self.timeout is not None and not 0 < self.timeout < math.inf):
            raise ValueError(f"not a solver budget: timeout {self.timeout!r}, max_states {self.max_states!r}")

    @property
    def decided(self) -> bool:
        """Won or proven unwinnable."""
        return self.result != "unknown"


@dataclass(frozen=True)
class StudyInfo:
    """A study asked for: its ``kind`` (``winnability``), the ``rules`` it
    solves under (as in :class:`StudyDeal`) and the ``label`` of the variant
    as last given, the seeds ``first_seed`` to ``first_seed + deals - 1``
    (the most ever asked for), the budget, and when it was last run."""

    id: int
    kind: str
    rules: str
    label: str
    first_seed: int
    deals: int
    timeout: float | None
    max_states: int
    updated: str


_STUDY_COLUMNS = "id, kind, rules, label, first_seed, deals, timeout, max_states, updated"


def _study_info(row: tuple[Any, ...]) -> StudyInfo:
    sid, kind, rules, label, first_seed, deals, timeout, max_states, updated = row
    return StudyInfo(int(sid), str(kind), str(rules), str(label), int(first_seed), int(deals),
                     None if timeout is None else float(timeout), int(max_states), str(updated))


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
                    self._db.executescript(f"BEGIN; {_SCHEMA} {_PLAYED_SCHEMA} {_PLAYED_HANDS_SCHEMA} {_UNIT_SCHEMA}"
                                           f" {_STUDY_SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
                tables |= {"runs", "games", "played", "played_hands", "solves", "hands", "study_deals", "studies"}
            elif create:
                self._migrate(tables)
                tables |= {"played", "played_hands", "solves", "hands", "study_deals", "studies"}
            self._has_studies = {"study_deals", "studies"} <= tables
            self._has_played = "played" in tables
            self._has_played_hands = "played_hands" in tables
            self._has_units = {"solves", "hands"} <= tables
            with self._guard("read the results store"):
                self._run_columns = {row[1] for row in self._db.execute("PRAGMA table_info(runs)")}
                self._game_columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
            self._has_process = {"pid", "host"} <= self._run_columns
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
                   for name, kind in columns if name not in present[table]]
        if version >= SCHEMA_VERSION and not missing \
                and {"played", "played_hands", "solves", "hands", "study_deals", "studies"} <= tables:
            return
        script = "".join(missing) + (_PLAYED_SCHEMA if "played" not in tables else "") + _PLAYED_HANDS_SCHEMA \
            + _UNIT_SCHEMA + _STUDY_SCHEMA
        with self._guard("upgrade the results store"):
            self._db.executescript(f"BEGIN; {script} PRAGMA user_version = {max(version, SCHEMA_VERSION)}; COMMIT;")

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
                  deals_file: str | None, games: int, params: dict[str, object] | None = None) -> int:
        """Record a new run; returns its id. ``params`` (plain JSON values)
        are the options a later :meth:`resume_run` needs to finish it."""
        self._need_writable("record a run")
        with self._guard("record a run"), self._db:
            cursor = self._db.execute(
                "INSERT INTO runs (created, kind, strategy, variant, seed, deals_file, games_requested, status,"
                " pid, host, params) VALUES (?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?)",
                (time.strftime("%Y-%m-%d %H:%M:%S"), kind, strategy, json.dumps(variant), seed, deals_file, games,
                 os.getpid(), socket.gethostname(), None if params is None else json.dumps(params)))
        return int(cursor.lastrowid or 0)

    def _need_writable(self, action: str) -> None:
        if not self._writable:
            raise StoreError(f"{self.path}: cannot {action}: the store is open read-only")

    def run_params(self, run_id: int) -> dict[str, object] | None:
        """The options run ``run_id`` was started with (None for a run stored
        before runs kept them); :class:`StoreError` when there is no such run."""
        self.run(run_id)
        if "params" not in self._run_columns:
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

    def add_games(self, run_id: int, batch: Batch, variant: Variant) -> None:
        """Store a batch of finished games in one transaction (deal strings
        and moves only when the batch carries them). A game already stored
        for the run is left as it is: the same seeds give the same game."""
        self._need_writable("store games")
        deals = batch.deals if batch.deals is not None else [None] * len(batch)
        moves = batch.moves if batch.moves is not None else [None] * len(batch)
        rows = [(run_id, i, d, int(f == 52), f, variant.scoring.money(f), None if m is None else len(m), score,
                 None if m is None else json.dumps(list(m)))
                for i, d, f, m, score in zip(batch.indices, deals, batch.foundation, moves, batch.score, strict=True)]
        with self._guard("store games"), self._db:
            self._db.executemany("INSERT OR IGNORE INTO games (run_id, idx, deal, won, foundation, net, moves, score,"
                                 " detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
            self._count(run_id, "games")

    def _count(self, run_id: int, table: str) -> None:
        self._db.execute(f"UPDATE runs SET games_played = (SELECT COUNT(*) FROM {table} WHERE run_id = ?)"
                         " WHERE id = ?", (run_id, run_id))

    def game_batch(self, run_id: int) -> Batch:
        """Every stored game of a run as one :class:`Batch`, in index order
        (with moves and deal strings when every game kept them)."""
        from cardtable.sim.runner import Batch  # not at the top: Kings Corner's runs need no Klondike players
        with self._guard("read games"):
            extra = "score, detail" if {"score", "detail"} <= self._game_columns else "net, NULL"
            rows = self._db.execute(f"SELECT idx, deal, foundation, {extra} FROM games WHERE run_id = ?"
                                    " ORDER BY idx", (run_id,)).fetchall()
            moves = [tuple(json.loads(d)) if d is not None else None for *_, d in rows]
        deals = [d for _, d, *_ in rows]
        return Batch([int(i) for i, *_ in rows], [int(f) for _, _, f, _, _ in rows],
                     [int(s or 0) for *_, s, _ in rows],
                     [m for m in moves if m is not None] if rows and None not in moves else None,
                     [str(d) for d in deals] if rows and None not in deals else None)

    def add_solves(self, run_id: int, rows: Sequence[tuple[int, dict[str, object]]]) -> None:
        """Store solved deals ``(index, row)`` in one transaction; ``row`` is
        ``{"deal": label, **SolveResult.to_dict()}``. A deal already stored
        for the run is left as it is."""
        self._need_writable("store solved deals")
        values = [(run_id, index, str(row["deal"]), str(row["result"]), json.dumps(row.get("moves", [])),
                   int(row["states"]), float(row["seconds"]), row.get("reason"))  # type: ignore[call-overload, arg-type]
                  for index, row in rows]
        with self._guard("store solved deals"), self._db:
            self._db.executemany("INSERT OR IGNORE INTO solves VALUES (?, ?, ?, ?, ?, ?, ?, ?)", values)
            self._count(run_id, "solves")

    def solves(self, run_id: int) -> list[tuple[int, dict[str, object]]]:
        """``(index, row)`` of every stored deal of a run, in index order,
        each row as :meth:`add_solves` was given it."""
        if not self._has_units:
            return []
        with self._guard("read solved deals"):
            found = self._db.execute("SELECT idx, deal, result, moves, states, seconds, reason FROM solves"
                                     " WHERE run_id = ? ORDER BY idx", (run_id,)).fetchall()
            rows: list[tuple[int, dict[str, object]]] = []
            for index, deal, result, moves, states, seconds, reason in found:
                row: dict[str, object] = {"deal": deal, "result": result, "moves": json.loads(moves),
                                          "states": int(states), "seconds": float(seconds)}
                if reason:
                    row["reason"] = reason
                rows.append((int(index), row))
        return rows

    def add_hands(self, run_id: int, hands: Sequence[HandResult]) -> None:
        """Store finished Kings Corner hands in one transaction (keyed by hand
        index; a hand already stored for the run is left as it is)."""
        self._need_writable("store hands")
        values = [(run_id, h.index, json.dumps(list(h.seating)), h.winner, json.dumps(list(h.penalties)), h.turns)
                  for h in hands]
        with self._guard("store hands"), self._db:
            self._db.executemany("INSERT OR IGNORE INTO hands VALUES (?, ?, ?, ?, ?, ?)", values)
            self._count(run_id, "hands")

    def hands(self, run_id: int) -> list[HandResult]:
        """Every stored hand of a run, in index order."""
        from cardtable.sim.match import HandResult

        if not self._has_units:
            return []
        with self._guard("read hands"):
            found = self._db.execute("SELECT idx, seating, winner, penalties, turns FROM hands WHERE run_id = ?"
                                     " ORDER BY idx", (run_id,)).fetchall()
            return [HandResult(int(index), tuple(json.loads(seating)), None if winner is None else int(winner),
                               tuple(json.loads(penalties)), int(turns))
                    for index, seating, winner, penalties, turns in found]

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

    def record_hand(self, hand: PlayedHand) -> None:
        """Keep one Kings Corner hand a person played (in one transaction),
        stamped with the time now when its ``finished`` is empty."""
        if not self._has_played_hands:
            raise StoreError(f"{self.path}: cannot record a played hand: the store is open read-only "
                             "and has no played hands table")
        finished = hand.finished or time.strftime("%Y-%m-%d %H:%M:%S")
        with self._guard("record a played hand"), self._db:
            self._db.execute(
                "INSERT INTO played_hands (finished, label, match_seed, hand, won, penalty, seconds, match_won)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (finished, hand.label, hand.match_seed, hand.hand, int(hand.won), hand.penalty, float(hand.seconds),
                 None if hand.match_won is None else int(hand.match_won)))

    def played_hands(self, label: str | None = None) -> list[PlayedHand]:
        """Every Kings Corner hand a person played (or those at one table), oldest first."""
        if not self._has_played_hands:
            return []
        query = "SELECT label, match_seed, hand, won, penalty, seconds, match_won, finished FROM played_hands"
        with self._guard("read played hands"):
            if label is None:
                rows = self._db.execute(query + " ORDER BY id").fetchall()
            else:
                rows = self._db.execute(query + " WHERE label = ? ORDER BY id", (label,)).fetchall()
        return [PlayedHand(str(lab), str(seed), int(number), bool(won), int(penalty), float(seconds),
                           None if match_won is None else bool(match_won), str(finished))
                for lab, seed, number, won, penalty, seconds, match_won, finished in rows]

    def hand_stats(self, label: str | None = None) -> list[HandStats]:
        """A person's record at each Kings Corner table played, ordered by
        label; given a label, just that one (all zeros when never played)."""
        hands: dict[str, list[tuple[bool, int, bool | None]]] = {} if label is None else {label: []}
        for hand in self.played_hands(label):
            hands.setdefault(hand.label, []).append((hand.won, hand.penalty, hand.match_won))
        return [_hand_stats(name, hands[name]) for name in sorted(hands)]

    def add_study_deal(self, deal: StudyDeal) -> None:
        """Keep one solved deal of a study, in a transaction of its own (so a
        study stopped at any moment keeps every deal it finished). A deal
        solved again under the same rules and budget replaces the old row."""
        self._need_writable("store a study's deal")
        solved = deal.solved or time.strftime("%Y-%m-%d %H:%M:%S")
        with self._guard("store a study's deal"), self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO study_deals (rules, seed, budget, timeout, max_states, result, states,"
                " seconds, reason, moves, solved) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (deal.rules, deal.seed, _budget_key(deal.timeout, deal.max_states), deal.timeout, deal.max_states,
                 deal.result, deal.states, float(deal.seconds), deal.reason or None, " ".join(deal.moves), solved))

    def study_deals(self, rules: str, first_seed: int, last_seed: int) -> list[StudyDeal]:
        """Every stored row of the deals ``first_seed`` to ``last_seed`` under
        ``rules``, whatever their budget: by seed, then oldest first."""
        if not self._has_studies:
            return []
        with self._guard("read a study"):
            found = self._db.execute(
                "SELECT seed, timeout, max_states, result, states, seconds, reason, moves, solved FROM study_deals"
                " WHERE rules = ? AND seed BETWEEN ? AND ? ORDER BY seed, solved, rowid",
                (rules, first_seed, min(last_seed, STUDY_SEED_LIMIT))).fetchall()
        return [StudyDeal(rules, int(seed), None if timeout is None else float(timeout), int(states_cap), str(result),
                          int(states), float(seconds), str(reason or ""), tuple(str(moves).split()), str(solved))
                for seed, timeout, states_cap, result, states, seconds, reason, moves, solved in found]

    def record_study(self, *, kind: str, rules: str, label: str, first_seed: int, deals: int,
                     timeout: float | None, max_states: int) -> StudyInfo:
        """List a study as asked for now: a new one, or the same study (kind,
        rules, first seed and budget) with its label and time brought up to
        date and its deals the most ever asked for. Returns it as stored."""
        self._need_writable("record a study")
        now = time.strftime("%Y-%m-%d %H:%M:%S")
        budget = _budget_key(timeout, max_states)
        with self._guard("record a study"), self._db:
            known = self._db.execute(
                "UPDATE studies SET label = ?, deals = MAX(deals, ?), updated = ?"
                " WHERE kind = ? AND rules = ? AND first_seed = ? AND budget = ?",
                (label, deals, now, kind, rules, first_seed, budget)).rowcount
            if not known:
                self._db.execute(
                    "INSERT INTO studies (kind, rules, label, first_seed, deals, budget, timeout, max_states, updated)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (kind, rules, label, first_seed, deals, budget, timeout, max_states, now))
            row = self._db.execute(
                f"SELECT {_STUDY_COLUMNS} FROM studies WHERE kind = ? AND rules = ? AND first_seed = ? AND budget = ?",
                (kind, rules, first_seed, budget)).fetchone()
        return _study_info(row)

    def studies(self, kind: str | None = None, rules: str | None = None) -> list[StudyInfo]:
        """The studies asked for (of one kind, under some rules), oldest first."""
        if not self._has_studies:
            return []
        query, values = f"SELECT {_STUDY_COLUMNS} FROM studies WHERE 1", list[str]()
        if kind is not None:
            query, values = query + " AND kind = ?", [*values, kind]
        if rules is not None:
            query, values = query + " AND rules = ?", [*values, rules]
        with self._guard("list studies"):
            rows = self._db.execute(query + " ORDER BY id", values).fetchall()
        return [_study_info(row) for row in rows]

    @staticmethod
    def _info(row: tuple[Any, ...]) -> RunInfo:
        (rid, created, kind, strategy, variant, seed, deals_file, requested, played, status, summary) = row
        return RunInfo(int(rid), str(created), str(kind), str(strategy), json.loads(str(variant)),
                       None if seed is None else int(seed), None if deals_file is None else str(deals_file),
                       int(requested), int(played), str(status), json.loads(str(summary)) if summary else None)
