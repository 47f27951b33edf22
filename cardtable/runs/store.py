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
``create=False`` (for listing runs) never creates a store or changes what
it holds (SQLite may add its ``-wal`` and ``-shm`` files beside it, and
rolls back the hot journal of a killed writer, see Sharing).

The core knows the file's tables and their columns, never a game: it takes
and returns plain rows (tuples and dictionaries of plain values), and each
client turns its own values into rows and back (a simulation's games, a
batch's solved deals, a match's hands, a study's deals, a person's games).

Runs
    Each run keeps its kind, the game and its rules (as the game names
    them: the store never reads them), who played, the variant, the units asked for
    and stored, its status and summary, the options it was started with
    (:meth:`ResultsStore.run_params`, to finish it later with ``--resume``)
    and the process id and host name of the process that started it. While
    a run is alive its process holds an OS file lock (``flock``) on
    ``<store>.runs/<id>.lock``; the lock goes with the process however it
    dies, in any container or namespace. A run still ``running`` whose lock
    is free is shown as ``interrupted`` by :meth:`ResultsStore.runs` and
    :meth:`ResultsStore.run` (a store opened for writing also records that,
    a read-only one is left as it is), and can be resumed. A run stored
    before runs held locks is judged by its process id on this host, as
    before; when its liveness cannot be decided (another host, or a live
    process id that may belong to someone else) :meth:`ResultsStore.liveness`
    says ``unknown`` and only a forced resume takes it. A run's life from
    the command line goes through :class:`~cardtable.runs.stored.StoredRun`.

Sharing
    Any number of processes may write and read one store at once: it is
    kept in WAL journal mode, every connection waits for a busy file
    (:data:`BUSY_SECONDS`), each write is one short ``BEGIN IMMEDIATE``
    transaction, and a write that still finds the file locked is tried
    again a few times before it fails. Readers see the last committed
    state beside an open writer. A read-only open that meets the hot
    journal of a killed writer (an older store in rollback mode) rolls it
    back through a read-write connection that changes nothing else.

Integrity
    A store opened for writing is checked first (``PRAGMA quick_check``);
    a damaged one is refused with a :class:`~cardtable.errors.StoreError`
    naming the file, and nothing is written into it.
    :func:`check_store` runs the full ``integrity_check``.

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

Games and rules
    Runs, a person's games and hands, and studies are kept by game and
    rules (``game`` and ``rules`` columns): two games of one name under
    other rules (a user's FreeCell with two cells) are kept apart.

Versions
    Stores are versioned (``PRAGMA user_version``, :data:`SCHEMA_VERSION`).
    An older store is upgraded in one transaction the first time it is
    opened for writing: it gains the new columns and tables, and its rows
    their game and rules (every row of a store before version 7 is
    Klondike's, under its variant's rules, or Kings Corner's); nothing is
    removed, so its runs and figures read as before. Read-only it stays
    readable as it is: a table it lacks reads as empty, a column it lacks
    as its stand-in (a game's points as its net, a row's game and rules as
    the upgrade would key it). A store of a newer schema than this
    cardtable knows is refused in one line, read or written. A played game
    of a store before version 8 is one of Klondike's 52 cards, won or
    abandoned (given up), without its moves.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "results.sqlite"
>>> with ResultsStore(path) as store:
...     run_id = store.start_run(kind="solve", game="solitaire", rules="{}",
...                              strategy="solver", variant={"name": "draw1"},
...                              seed=None, deals_file="deals.txt", games=2)
...     store.add_units("solves", run_id, [(0, "5", "won", "[]", 120, 0.5, None)])
>>> with ResultsStore(path, create=False) as store:
...     [(run.id, run.game, run.strategy, run.status, run.games_played) for run in store.runs()]
...     store.units("solves", run_id)
[(1, 'solitaire', 'solver', 'running', 1)]
[(0, '5', 'won', '[]', 120, 0.5, None)]
"""

from __future__ import annotations

import errno
import fcntl
import functools
import json
import os
import socket
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

from cardtable.errors import StoreError

__all__ = ["BUSY_SECONDS", "ONE_RULE_SET", "SCHEMA_VERSION", "UNIT_TABLES", "Liveness", "ResultsStore", "RunInfo",
           "check_store", "default_store_path", "store_files"]

_T = TypeVar("_T")

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
    params TEXT,
    game TEXT NOT NULL,
    rules TEXT NOT NULL
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
#: once the browser table kept its players' games, 6 once a played game
#: (and a played Kings Corner hand) could name its player (the browser
#: table's; NULL: the terminal's person) and a played game said which
#: day's daily deal it was, 7 once runs, a person's games and hands and
#: studies were kept by game and rules (``game`` and ``rules`` columns), 8
#: once a played game said its foundation cards out of its game's
#: (``total``), how it ended (``result``: won, lost with no move left, or
#: abandoned) and its moves (``record``, to review it), and a game's figures
#: from before the store kept its games were kept (``played_before``).
SCHEMA_VERSION = 8

#: Runs, played games and hands, and studies of each game and rules, found without reading the others'.
_BY_GAME = """
CREATE INDEX IF NOT EXISTS runs_by_game ON runs (game, rules, id);
CREATE INDEX IF NOT EXISTS played_by_game ON played (game, rules, variant, id);
"""

#: The game each row of a store made before version 7 is of, as SQL over
#: its row: such stores kept Klondike's simulations, solves, played games
#: and studies, and Kings Corner's matches and played hands.
_LEGACY_RUN_GAME = "CASE kind WHEN 'kings-corner' THEN 'kings-corner' ELSE 'klondike' END"

#: How a played game of a store before version 8 ended: Klondike's, won or
#: given up (its faces kept no other).
_LEGACY_RESULT = "CASE won WHEN 1 THEN 'won' ELSE 'abandoned' END"

#: The SQL function that gives the rules of an old row from its Klondike
#: variant's options (:func:`_legacy_klondike_rules`).
_LEGACY_RULES_FUNCTION = "cardtable_klondike_rules"

#: The rules of a game played under one set of rules only (Kings Corner).
ONE_RULE_SET = "{}"

#: The rules of each row of a store made before version 7, as SQL over its row.
_LEGACY_RUN_RULES = (f"CASE kind WHEN 'kings-corner' THEN '{ONE_RULE_SET}' "
                     f"ELSE {_LEGACY_RULES_FUNCTION}(variant) END")

#: Columns added since the first stores, by table: (name, type, what an
#: older store reads in its place).
_ADDED_COLUMNS = {
    "runs": (("pid", "INTEGER", "NULL"), ("host", "TEXT", "NULL"), ("params", "TEXT", "NULL"),
             ("game", "TEXT", _LEGACY_RUN_GAME), ("rules", "TEXT", _LEGACY_RUN_RULES)),
    "games": (("score", "INTEGER", "net"), ("detail", "TEXT", "NULL")),
    "played": (("player", "TEXT", "NULL"), ("daily", "TEXT", "NULL"), ("game", "TEXT", "'klondike'"),
               ("rules", "TEXT", f"{_LEGACY_RULES_FUNCTION}(options)"), ("total", "INTEGER", "52"),
               ("result", "TEXT", _LEGACY_RESULT), ("record", "TEXT", "NULL")),
    "played_hands": (("player", "TEXT", "NULL"), ("game", "TEXT", "'kings-corner'"),
                     ("rules", "TEXT", f"'{ONE_RULE_SET}'")),
    "study_deals": (("game", "TEXT", "'klondike'"),),
    "studies": (("game", "TEXT", "'klondike'"),),
}

#: The tables whose key gained the ``game`` column in version 7: an older
#: store's are made again with it (keeping every row), since SQLite cannot
#: change a table's key in place.
_REKEYED_TABLES = ("study_deals", "studies")

#: The columns an older store's rows are given on upgrade, each its stand-in:
#: those that key a row by its game and rules (version 7), and a played
#: game's foundation total and result (version 8).
_FILLED = ("game", "rules", "total", "result")

#: The columns of the :data:`_REKEYED_TABLES` before version 7, in their order.
_TABLE_COLUMNS = {
    "study_deals": ("rules", "seed", "budget", "timeout", "max_states", "result", "states", "seconds", "reason",
                    "moves", "solved"),
    "studies": ("id", "kind", "rules", "label", "first_seed", "deals", "budget", "timeout", "max_states", "updated"),
}

#: The options of a Klondike variant that decide how it is played, as
#: stores before version 7 kept them (:func:`_legacy_klondike_rules`).
_KLONDIKE_RULE_OPTIONS = ("draw", "empty", "foundation_return", "passes")


@functools.lru_cache(maxsize=1024)  # a store's rows name few variants: each is read once
def _legacy_klondike_rules(options: object) -> str:
    """The rules of a row of a store made before version 7, from its
    Klondike variant's options (a run's ``variant``, a played game's
    ``options``, as JSON): those of the options that decide how the game is
    played, as JSON with the keys sorted, which is how Klondike names its
    rules (``Variant.winnability_key``, the key its studies were already
    kept under; a test holds the two equal). Text that is no variant's
    options is kept as it is: its row stays apart from every other.

    >>> _legacy_klondike_rules('{"name": "draw3", "draw": 3, "passes": "unlimited", "empty": "king", '
    ...                        '"foundation_return": false, "scoring": "none"}')
    '{"draw": 3, "empty": "king", "foundation_return": false, "passes": "unlimited"}'
    """
    try:
        data = json.loads(str(options))
    except ValueError:
        return str(options)
    if not isinstance(data, dict) or not set(_KLONDIKE_RULE_OPTIONS) <= set(data):
        return str(options)
    return json.dumps({name: data[name] for name in _KLONDIKE_RULE_OPTIONS}, sort_keys=True)


def _connected(db: sqlite3.Connection) -> sqlite3.Connection:
    """``db`` with the SQL function an older store's rows are read and upgraded with."""
    db.create_function(_LEGACY_RULES_FUNCTION, 1, _legacy_klondike_rules, deterministic=True)
    return db

#: A person's games, in the order they finished (``id``); ``options`` is the
#: variant's options as JSON; ``player`` the browser table's player id (NULL:
#: a game of the terminal app, whose person is the store's owner); ``daily``
#: the date (``YYYY-MM-DD``) of the daily deal the game was, or NULL;
#: ``foundation`` the cards on the foundations at the end out of ``total``
#: (the game's cards), ``result`` ``won``, ``lost`` (no move left) or
#: ``abandoned``, ``record`` the game's record (its deal and moves), or NULL.
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
    foundation INTEGER NOT NULL,
    player TEXT,
    daily TEXT,
    game TEXT NOT NULL,
    rules TEXT NOT NULL,
    total INTEGER,
    result TEXT,
    record TEXT
);
CREATE INDEX IF NOT EXISTS played_by_variant ON played (variant, id);
"""
#: One player's games at the browser table, found without reading everyone's (made after the
#: ``player`` column, which an older store gains on upgrade).
_PLAYED_BY_PLAYER = "CREATE INDEX IF NOT EXISTS played_by_player ON played (player, id);"

#: A person's Kings Corner hands, in the order they finished (``id``): the
#: table they sat at (its label), the match (its seed) and the hand in it,
#: whether they emptied their hand first, their penalty points, the seconds
#: the hand took; on a match's last hand, whether they won the match;
#: ``player`` the browser table's player id (NULL: a hand of the terminal app).
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
    match_won INTEGER,
    player TEXT,
    game TEXT NOT NULL,
    rules TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS played_hands_by_label ON played_hands (label, id);
"""
#: One player's hands at the browser table (made after the ``player`` column, as
#: :data:`_PLAYED_BY_PLAYER`).
_PLAYED_HANDS_BY_PLAYER = "CREATE INDEX IF NOT EXISTS played_hands_by_player ON played_hands (player, id);"

#: Studies: each deal solved under one budget (``study_deals``: ``game`` and
#: ``rules`` the game and its rules that decide winnability, ``budget`` the budget's
#: key, ``moves`` the winning line, space-separated), and each study asked
#: for (``studies``: what, under which rules, which seeds and budget;
#: ``label`` names the variant as it was last given).
_STUDY_SCHEMA = """
CREATE TABLE IF NOT EXISTS study_deals (
    game TEXT NOT NULL,
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
    PRIMARY KEY (game, rules, seed, budget)
);
CREATE TABLE IF NOT EXISTS studies (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    game TEXT NOT NULL,
    rules TEXT NOT NULL,
    label TEXT NOT NULL,
    first_seed INTEGER NOT NULL,
    deals INTEGER NOT NULL,
    budget TEXT NOT NULL,
    timeout REAL,
    max_states INTEGER NOT NULL,
    updated TEXT NOT NULL,
    UNIQUE (kind, game, rules, first_seed, budget)
);
"""

#: A game's figures from before the store kept its games (a patience game's
#: statistics file of the terminal app, read once): games played and won,
#: the streak of wins at the end and the best, the fastest win and the
#: fewest moves of a win (NULL before a win), and where they came from.
_PLAYED_BEFORE_SCHEMA = """
CREATE TABLE IF NOT EXISTS played_before (
    game TEXT NOT NULL,
    rules TEXT NOT NULL,
    played INTEGER NOT NULL,
    won INTEGER NOT NULL,
    streak INTEGER NOT NULL,
    best_streak INTEGER NOT NULL,
    fastest REAL,
    fewest INTEGER,
    source TEXT NOT NULL,
    PRIMARY KEY (game, rules)
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
                  "studies": "studies", "web_games": "browser games", "played_before": "earlier figures"}

_TABLES_SINCE_FIRST = {"played", "played_hands", "solves", "hands", "study_deals", "studies", "web_games",
                       "played_before"}

_RUN_COLUMNS = ("id, created, kind, strategy, variant, seed, deals_file, games_requested, games_played, status,"
                " summary")


#: Seeds run from 0 to 2**64 - 1, SQLite's integers from -2**63 to 2**63 - 1:
#: a seed of 2**63 or more is kept as the negative number with its 64 bits
#: (two's complement), which no seed is, and read back as itself.
_SEED_BITS = 64


def _seed_to_sqlite(seed: int | None) -> int | None:
    """A seed as the store keeps it: one of 2**63 or more as its 64 bits read signed.

    >>> _seed_to_sqlite(5), _seed_to_sqlite(2**64 - 1), _seed_to_sqlite(None)
    (5, -1, None)
    """
    if seed is None or seed < 2 ** (_SEED_BITS - 1):
        return seed
    return seed - 2**_SEED_BITS


def _seed_from_sqlite(value: object) -> int | None:
    """A kept seed back as itself (:func:`_seed_to_sqlite` undone).

    >>> _seed_from_sqlite(-1) == 2**64 - 1, _seed_from_sqlite(5)
    (True, 5)
    """
    return None if value is None else int(str(value)) % 2**_SEED_BITS


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


#: How long a connection waits for another process's write before SQLite
#: reports the file busy.
BUSY_SECONDS = 20.0

#: A write that still finds the file busy is tried this many times more,
#: waiting a little longer each time.
_WRITE_RETRIES = 6

#: What is known of a run's process: it holds the run's lock (or its
#: process is alive here), it is gone, or it cannot be decided from here.
Liveness = Literal["alive", "dead", "unknown"]

#: The lock files this process holds, closed in a forked child so that a
#: worker never keeps a run alive after its parent died.
_HELD_LOCKS: set[int] = set()


def _drop_held_locks_in_child() -> None:
    for fd in _HELD_LOCKS:
        with suppress(OSError):
            os.close(fd)
    _HELD_LOCKS.clear()


os.register_at_fork(after_in_child=_drop_held_locks_in_child)


def _is_busy(error: sqlite3.Error) -> bool:
    """Whether ``error`` is SQLite's busy or locked file, worth trying again."""
    text = str(error).lower()
    return "locked" in text or "busy" in text


def _problems(rows: Sequence[tuple[Any, ...]]) -> list[str]:
    """The lines of an ``integrity_check`` or ``quick_check`` answer that
    name a problem (SQLite puts several in one row, under a header)."""
    return [line for row in rows if row[0] != "ok" for line in str(row[0]).splitlines()
            if line.strip() and not line.startswith("*** in database")]


def _check_writable(path: Path) -> None:
    """Refuse, in words, a store that cannot be written: SQLite itself only
    says it is 'unable to open database file'. Reading it still works
    (``create=False``)."""
    folder = path.resolve().parent
    for what, where in (("file", path), ("folder", folder)):
        if where.exists() and not os.access(where, os.W_OK):
            if not path.exists():
                raise StoreError(f"{path}: cannot make the results store: its folder {folder} is read-only")
            raise StoreError(f"{path}: cannot write to the results store: its {what} {where} is read-only "
                             "(listing and showing its runs still work)")


def _unchangeable_without_log(path: Path) -> bool:
    """Whether the store at ``path`` can be read but its folder not written
    (nor its ``-shm`` made), and it has no write-ahead log with anything in it."""
    folder = path.resolve().parent
    try:
        log = os.stat(f"{path.resolve()}-wal").st_size
    except FileNotFoundError:
        log = 0
    except OSError:
        return False
    return log == 0 and os.access(path, os.R_OK) and not os.access(folder, os.W_OK)


def _open_read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection to the store at ``path``. When the file has
    the hot journal of a killed writer (an older store in rollback mode),
    which a read-only connection cannot roll back, the file is opened
    read-write just long enough for SQLite to roll it back: that drops the
    dead writer's unfinished transaction and nothing that was committed.

    A store in WAL mode whose folder cannot be written (a read-only mount)
    cannot get the index SQLite keeps beside it (``-shm``); when it has no
    write-ahead log either, every committed write is in the file itself,
    which is then read as it is (SQLite's ``immutable``: nothing can be
    writing to it there)."""
    uri = path.resolve().as_uri()
    db = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=BUSY_SECONDS, isolation_level=None)
    try:
        db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.OperationalError as error:
        db.close()
        if "unable to open" in str(error).lower() and _unchangeable_without_log(path):
            return sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, timeout=BUSY_SECONDS,
                                   isolation_level=None)
        if "readonly" not in str(error).lower() or not os.access(path, os.W_OK):
            raise
    fixer = sqlite3.connect(f"{uri}?mode=rw", uri=True, timeout=BUSY_SECONDS, isolation_level=None)
    try:
        fixer.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # rolls the hot journal back
    finally:
        fixer.close()
    return sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=BUSY_SECONDS, isolation_level=None)


def check_store(path: str | os.PathLike[str]) -> list[str]:
    """The problems SQLite's full ``integrity_check`` finds in the store at
    ``path`` (none: the file is sound), opened read-only; a file that is
    not a store, or cannot be read, is one problem. Nothing is changed
    (but the hot journal of a killed writer, rolled back as any read-only
    opening does).

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "results.sqlite"
    >>> ResultsStore(path).close()
    >>> check_store(path)
    []
    """
    where = Path(path)
    if not where.is_file():
        raise StoreError(f"{where}: no results store there")
    try:
        db = _open_read_only(where)
    except sqlite3.Error as error:
        return [str(error)]
    try:
        rows = db.execute("PRAGMA integrity_check").fetchall()
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error as error:
        return [str(error)]
    finally:
        db.close()
    problems = _problems(rows)
    if not problems and not {"runs", "games"} <= tables:
        problems.append("not a cardtable results store (it has no runs and games tables)")
    return problems


def store_files(path: str | os.PathLike[str]) -> dict[str, tuple[Path, ...]]:
    """The files a store at ``path`` is made of, by what each is: the store,
    the journals SQLite keeps beside it (they hold committed work until it is
    checkpointed), and the folder of its runs' locks; each as ``path`` names
    it and, when that is a link, beside the file it leads to (where SQLite
    keeps them). Nothing else may be written to any of them.

    >>> [[str(one) for one in part] for part in store_files("s.sqlite").values()][:2]
    [['s.sqlite'], ['s.sqlite-wal']]
    >>> list(store_files("s.sqlite"))
    ['store', 'SQLite write-ahead log', 'SQLite shared-memory index', 'SQLite rollback journal', 'run locks folder']
    """
    names = {"store": "", "SQLite write-ahead log": "-wal", "SQLite shared-memory index": "-shm",
             "SQLite rollback journal": "-journal", "run locks folder": ".runs"}
    given, resolved = str(path), os.path.realpath(path)
    return {what: tuple(dict.fromkeys(Path(f"{base}{suffix}") for base in (given, resolved)))
            if os.path.abspath(given) != resolved else (Path(f"{given}{suffix}"),) for what, suffix in names.items()}


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
    units (games, deals or hands), whatever their kind; ``game`` and
    ``rules`` name the game it played and its rules, as the game names them."""

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
    game: str = "klondike"
    rules: str = ""


def _os_reason(error: OSError, path: Path) -> str:
    """Why ``error`` stopped work on the store at ``path``, in words: a
    folder on its way that is a regular file is named, not left as raw
    ``[Errno 17]``/``[Errno 20]`` text."""
    if error.errno in (errno.EEXIST, errno.ENOTDIR):
        for folder in reversed(path.parents):
            if folder.exists() and not folder.is_dir():
                return f"{folder} is a file, not a folder"
    return (error.strerror or str(error)).lower()


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
        self._locks: dict[int, int] = {}  # the runs this store runs: run id -> its lock file
        self._writable = create
        with self._guard("open the results store"):
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                _check_writable(self.path)
                self._db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
            else:
                self._db = _open_read_only(self.path)
            _connected(self._db)
        try:
            with self._guard("read the results store"):
                tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
            # An empty file is a store being made by another process: read-only, it reads as one with no runs.
            if not {"runs", "games"} <= tables and tables:
                raise StoreError(f"{self.path}: not a cardtable results store (it has no runs and games tables)")
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path}: the results store was written by a newer cardtable (schema version "
                                 f"{version}; this one reads up to {SCHEMA_VERSION}): upgrade cardtable to use it")
            if tables and create:
                self._check_quickly()  # before anything is written into it
            if create:
                self._use_wal()
            if create and not tables:
                self._run_script("create the results store",
                                 f"{_SCHEMA} {_PLAYED_SCHEMA} {_PLAYED_BY_PLAYER} {_PLAYED_HANDS_SCHEMA}"
                                 f" {_PLAYED_HANDS_BY_PLAYER} {_UNIT_SCHEMA}"
                                 f" {_STUDY_SCHEMA}"
                                 f" {_WEB_SCHEMA} {_PLAYED_BEFORE_SCHEMA} {_BY_GAME}"
                                 f" PRAGMA user_version = {SCHEMA_VERSION};")
                tables |= {"runs", "games"} | _TABLES_SINCE_FIRST
            elif create:
                self._migrate()
                tables |= _TABLES_SINCE_FIRST
            # The unit tables came together, as did the study tables: a store has both of a pair or neither.
            if not {"solves", "hands"} <= tables:
                tables -= {"solves", "hands"}
            if not {"study_deals", "studies"} <= tables:
                tables -= {"study_deals", "studies"}
            self._tables = frozenset(tables)
            with self._guard("read the results store"):
                self._columns = {table: {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
                                 for table in tables | {"runs", "games"}
                                 if table in UNIT_TABLES or table in _ADDED_COLUMNS}
            self._has_process = {"pid", "host"} <= self._columns["runs"]
        except BaseException:
            self._db.close()
            raise

    def _check_quickly(self) -> None:
        """Refuse a damaged store before anything is written into it."""
        try:
            rows = self._db.execute("PRAGMA quick_check(5)").fetchall()
        except sqlite3.DatabaseError as error:
            rows = [(str(error),)]
        problems = _problems(rows)
        if problems:
            raise StoreError(f"{self.path}: the results store is damaged ({problems[0]}); nothing was written to it "
                             f"('cardtable runs check --store {self.path}' says more)")

    def _use_wal(self) -> None:
        """Put the file in WAL journal mode (kept in the file), so readers and a writer do not block each other."""
        for attempt in range(_WRITE_RETRIES + 1):
            try:
                mode = self._db.execute("PRAGMA journal_mode").fetchone()[0]
                if str(mode).lower() != "wal":
                    self._db.execute("PRAGMA journal_mode = WAL").fetchone()
                return
            except sqlite3.OperationalError as error:
                if not _is_busy(error) or attempt == _WRITE_RETRIES:
                    raise StoreError(f"{self.path}: cannot open the results store: {error}") from None
                time.sleep(0.05 * 2 ** attempt)
            except sqlite3.Error as error:
                raise StoreError(f"{self.path}: cannot open the results store: {error}") from None

    def _write(self, action: str, body: Callable[[], _T]) -> _T:
        """Run ``body`` in one write transaction (``BEGIN IMMEDIATE``, so
        it waits for other writers up front rather than failing halfway);
        a file still busy after :data:`BUSY_SECONDS` is tried again a few
        times. Errors are :class:`StoreError`\\ s saying ``action`` failed."""
        for attempt in range(_WRITE_RETRIES + 1):
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    result = body()
                    self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        with suppress(sqlite3.Error):
                            self._db.execute("ROLLBACK")
                    raise
                return result
            except sqlite3.OperationalError as error:
                if not _is_busy(error) or attempt == _WRITE_RETRIES:
                    raise StoreError(f"{self.path}: cannot {action}: {error}") from None
                time.sleep(0.05 * 2 ** attempt)
            except (sqlite3.Error, OSError, json.JSONDecodeError) as error:
                raise StoreError(f"{self.path}: cannot {action}: {error}") from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _run_script(self, action: str, script: str) -> None:
        """Run the statements of ``script`` (none holds a ``;`` inside) in one write transaction."""
        statements = [statement for statement in script.split(";") if statement.strip()]

        def run() -> None:
            for statement in statements:
                self._db.execute(statement)

        self._write(action, run)

    def _migrate(self) -> None:
        """Bring a store made by an older cardtable up to :data:`SCHEMA_VERSION`
        in one transaction: missing tables and columns are added, the rows
        of a store made before version 7 are keyed by game and rules (each
        Klondike's under its variant's rules, or Kings Corner's), and the
        study tables, whose key gained the game, are made again with every
        row. Nothing else is rewritten, so the store reads as before; an
        interruption leaves it as it was. The store is read again inside
        the transaction, so two processes upgrading one store at once do it once."""

        def upgrade() -> None:
            version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:  # made newer by another process since this one looked
                raise StoreError(f"{self.path}: the results store was written by a newer cardtable (schema version "
                                 f"{version}; this one reads up to {SCHEMA_VERSION}): upgrade cardtable to use it")
            tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            present = {table: {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
                       for table in _ADDED_COLUMNS if table in tables}
            rekeyed = [table for table in _REKEYED_TABLES if table in present and "game" not in present[table]]
            missing = [(table, name, kind, stand_in) for table, columns in _ADDED_COLUMNS.items()
                       if table in present and table not in rekeyed
                       for name, kind, stand_in in columns if name not in present[table]]
            if version >= SCHEMA_VERSION and not missing and not rekeyed and tables >= _TABLES_SINCE_FIRST:
                return
            for table in rekeyed:
                self._rekey(table, present[table])
            for table, name, kind, _ in missing:
                self._db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
            keyed: dict[str, list[str]] = {}  # every old row keyed by what it read as before, in one pass a table
            for table, name, _, stand_in in missing:
                if name in _FILLED:
                    keyed.setdefault(table, []).append(f"{name} = {stand_in}")
            for table, sets in keyed.items():
                self._db.execute(f"UPDATE {table} SET {', '.join(sets)}")
            script = (_PLAYED_SCHEMA if "played" not in tables else "") + _PLAYED_BY_PLAYER \
                + _PLAYED_HANDS_SCHEMA + _PLAYED_HANDS_BY_PLAYER + _UNIT_SCHEMA + _STUDY_SCHEMA + _WEB_SCHEMA \
                + _PLAYED_BEFORE_SCHEMA + _BY_GAME + f"PRAGMA user_version = {SCHEMA_VERSION};"
            for statement in script.split(";"):
                if statement.strip():
                    self._db.execute(statement)

        self._write("upgrade the results store", upgrade)

    def _rekey(self, table: str, columns: set[str]) -> None:
        """Make ``table`` (one of :data:`_REKEYED_TABLES`) again under its
        current key, its rows copied in their order with their game filled
        in; inside :meth:`_migrate`'s transaction."""
        (statement,) = [part for part in _STUDY_SCHEMA.split(";") if f"EXISTS {table} (" in part]
        kept = [name for name in _TABLE_COLUMNS[table] if name in columns]
        stand_ins = dict((name, stand_in) for name, _, stand_in in _ADDED_COLUMNS[table])
        chosen = [stand_ins[name] for name in stand_ins] + kept
        self._db.execute(f"ALTER TABLE {table} RENAME TO {table}_before_7")
        self._db.execute(statement)
        self._db.execute(f"INSERT INTO {table} ({', '.join([*stand_ins, *kept])}) "
                         f"SELECT {', '.join(chosen)} FROM {table}_before_7 ORDER BY rowid")
        self._db.execute(f"DROP TABLE {table}_before_7")

    @contextmanager
    def _guard(self, action: str) -> Iterator[None]:
        """Turn SQLite's errors into a :class:`StoreError` naming the file."""
        try:
            yield
        except OSError as error:
            raise StoreError(f"{self.path}: cannot {action}: {_os_reason(error, self.path)}") from None
        except (sqlite3.Error, json.JSONDecodeError) as error:
            raise StoreError(f"{self.path}: cannot {action}: {error}") from None

    @property
    def writable(self) -> bool:
        """Whether the store is open for writing (``create=True``)."""
        return self._writable

    def has_table(self, table: str) -> bool:
        """Whether the file has ``table`` (a read-only older store may not)."""
        return table in self._tables

    def close(self) -> None:
        """Close the file, letting go of the runs this store was running
        (a run not finished is then judged interrupted)."""
        for run_id in list(self._locks):
            self._release(run_id)
        self._db.close()

    def __enter__(self) -> ResultsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _need_writable(self, action: str) -> None:
        if not self._writable:
            raise StoreError(f"{self.path}: cannot {action}: the store is open read-only")

    # ----- runs ------------------------------------------------------------------------------------

    def start_run(self, *, kind: str, game: str, rules: str, strategy: str, variant: dict[str, object],
                  seed: int | None, deals_file: str | None, games: int, params: dict[str, object] | None = None) -> int:
        """Record a new run of ``games`` units of ``game`` under ``rules``;
        returns its id. ``params`` (plain JSON values) are the options a
        later :meth:`resume_run` needs to finish it. This store holds the run's lock from before the run
        is seen by anyone until :meth:`finish_run` or :meth:`close`."""
        self._need_writable("record a run")

        def insert() -> int:
            cursor = self._db.execute(
                "INSERT INTO runs (created, kind, strategy, variant, seed, deals_file, games_requested, status,"
                " pid, host, params, game, rules) VALUES (?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?)",
                (time.strftime("%Y-%m-%d %H:%M:%S"), kind, strategy, json.dumps(variant), _seed_to_sqlite(seed),
                 deals_file, games, os.getpid(), socket.gethostname(), None if params is None else json.dumps(params),
                 game, rules))
            run_id = int(cursor.lastrowid or 0)
            self._hold(run_id)  # before the commit: no reader sees the run without its lock
            return run_id

        try:
            return self._write("record a run", insert)
        except BaseException:
            for run_id in [run_id for run_id in self._locks if self._run_missing(run_id)]:
                self._release(run_id)
            raise

    def _run_missing(self, run_id: int) -> bool:
        try:
            return self._db.execute("SELECT 1 FROM runs WHERE id = ?", (run_id,)).fetchone() is None
        except sqlite3.Error:
            return True

    def run_params(self, run_id: int) -> dict[str, object] | None:
        """The options run ``run_id`` was started with (None for a run stored
        before runs kept them); :class:`StoreError` when there is no such run."""
        self.run(run_id)
        if "params" not in self._columns["runs"]:
            return None
        with self._guard("read a run"):
            (params,) = self._db.execute("SELECT params FROM runs WHERE id = ?", (run_id,)).fetchone()
        return None if params is None else dict(json.loads(str(params)))

    def resume_run(self, run_id: int, kind: str, *, force: bool = False) -> tuple[RunInfo, dict[str, object]]:
        """Take up run ``run_id`` of ``kind`` again in this process: it is
        marked ``running`` under this process id and host, and this store
        holds its lock. Returns the run and its options. A
        :class:`StoreError` says why when there is no such run, it is of
        another kind, it was stored before runs kept their options, or it
        is still running (its lock is held, or its process is alive). A run
        whose liveness is ``unknown`` (:meth:`liveness`) is taken only with
        ``force``."""
        self._need_writable("resume a run")
        info = self.run(run_id)
        if info.kind != kind:
            raise StoreError(f"run {run_id} is a {info.kind} run, not a {kind} run")
        params = self.run_params(run_id)
        if params is None:
            raise StoreError(f"run {run_id} was stored by an older cardtable that kept no options: start it again")

        def take() -> None:
            status, pid, host = self._db.execute("SELECT status, pid, host FROM runs WHERE id = ?",
                                                 (run_id,)).fetchone()
            if status == "running":
                alive = self.liveness(run_id)
                if alive == "alive":
                    raise StoreError(f"run {run_id} is still running (process {pid} on {host}); stop it first")
                if alive == "unknown" and not force:
                    raise StoreError(f"run {run_id} may still be running (process {pid} on {host}, which cannot "
                                     f"be checked from here); if it is not, take it over with --resume {run_id} "
                                     "--force")
            self._hold(run_id)
            self._db.execute("UPDATE runs SET status = 'running', pid = ?, host = ? WHERE id = ?",
                             (os.getpid(), socket.gethostname(), run_id))

        try:
            self._write("resume a run", take)
        except BaseException:
            if run_id in self._locks:
                self._release(run_id, remove=False)
            raise
        return self.run(run_id), params

    def finish_run(self, run_id: int, status: str, summary: dict[str, object]) -> None:
        """Mark a run finished or interrupted, with its summary, and let go of its lock."""
        self._write("finish a run", lambda: self._db.execute("UPDATE runs SET status = ?, summary = ? WHERE id = ?",
                                                             (status, json.dumps(summary), run_id)))
        if run_id in self._locks:
            self._release(run_id)

    def runs(self, limit: int = 50, *, game: str | None = None, rules: str | None = None) -> list[RunInfo]:
        """The newest runs first (a run whose process died shown as
        interrupted); with ``game`` (and ``rules``) those of that game only."""
        if "runs" not in self._tables:
            return []
        where = {name: value for name, value in (("game", game), ("rules", rules)) if value is not None}
        condition = " AND ".join(f"{self._column('runs', name)} = ?" for name in where)
        with self._guard("list runs"):
            rows = self._db.execute(f"SELECT {self._run_columns()} FROM runs {'WHERE ' + condition if where else ''}"
                                    " ORDER BY id DESC LIMIT ?", (*where.values(), limit)).fetchall()
        return [self._info(self._settle(row)) for row in rows]

    def run(self, run_id: int) -> RunInfo:
        """One run; :class:`StoreError` naming the id when there is none."""
        with self._guard("read a run"):
            row = None if "runs" not in self._tables else self._db.execute(
                f"SELECT {self._run_columns()} FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            raise StoreError(f"no run {run_id} in {self.path}")
        return self._info(self._settle(row))

    def _run_columns(self) -> str:
        return ", ".join((_RUN_COLUMNS, self._column("runs", "game"), self._column("runs", "rules"),
                          "pid, host" if self._has_process else "NULL, NULL"))

    def _column(self, table: str, name: str) -> str:
        """``name`` as SQL over ``table``'s rows: the column, or in an older
        store (opened read-only) that lacks it, what its rows read in its place."""
        present = self._columns.get(table)
        if present is None or name in present:
            return name
        for added, _, stand_in in _ADDED_COLUMNS.get(table, ()):
            if added == name:
                return stand_in
        return name

    def liveness(self, run_id: int) -> Liveness:
        """Whether the process of run ``run_id`` (as last started or
        resumed) is ``alive``, ``dead`` or ``unknown``: by its lock file
        when it has one (held: alive; free: dead, wherever it ran); for a
        run stored before runs held locks, by its process id on this host
        (gone: dead), else unknown."""
        if run_id in self._locks:
            return "alive"
        try:
            fd = os.open(self._lock_path(run_id), os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            return self._judged_by_process(run_id)
        except OSError:
            return "unknown"
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return "alive"
        except OSError:
            return "unknown"  # a file system without locks
        finally:
            os.close(fd)
        return "dead"

    def _judged_by_process(self, run_id: int) -> Liveness:
        """A run without a lock file, judged as before runs held locks."""
        if not self._has_process:
            return "unknown"
        with self._guard("read a run"):
            row = self._db.execute("SELECT pid, host FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None or row[0] is None or row[1] != socket.gethostname():
            return "unknown"
        return "unknown" if _process_alive(int(row[0])) else "dead"

    def _settle(self, row: tuple[Any, ...]) -> tuple[Any, ...]:
        """``row`` with a ``running`` status made ``interrupted`` when the
        run's process is gone (:meth:`liveness`), and the change stored
        when the store is open for writing."""
        fields = list(row[:-2])
        if fields[9] != "running" or self.liveness(int(fields[0])) != "dead":
            return tuple(fields)
        run_id = int(fields[0])
        if self._writable:
            self._write("settle a run", lambda: self._db.execute(
                "UPDATE runs SET status = 'interrupted' WHERE id = ? AND status = 'running'", (run_id,)))
        with self._guard("read a run"):  # it may have finished while its lock was tried
            (status,) = self._db.execute("SELECT status FROM runs WHERE id = ?", (run_id,)).fetchone()
        fields[9] = "interrupted" if status == "running" else status
        return tuple(fields)

    def _lock_path(self, run_id: int) -> Path:
        return Path(f"{self.path}.runs") / f"{run_id}.lock"

    def _hold(self, run_id: int) -> None:
        """Take run ``run_id``'s lock for this store; a run whose lock is
        held elsewhere is still running. A file system without locks leaves
        the run unlocked (its liveness then reads as unknown)."""
        if run_id in self._locks:
            return
        path = self._lock_path(run_id)
        while True:
            try:
                path.parent.mkdir(exist_ok=True)
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            except OSError as error:
                raise StoreError(f"{path}: cannot lock run {run_id}: {error.strerror}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise StoreError(f"run {run_id} is still running (another process holds {path}); "
                                 "stop it first") from None
            except OSError:
                os.close(fd)
                return
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(path))
            except OSError:
                same = False
            if same:
                break
            os.close(fd)  # a file its last holder removed as it let go: open the new one
        self._locks[run_id] = fd
        _HELD_LOCKS.add(fd)

    def _release(self, run_id: int, *, remove: bool = True) -> None:
        """Let go of run ``run_id``'s lock (and remove its file, once the run is settled)."""
        fd = self._locks.pop(run_id)
        _HELD_LOCKS.discard(fd)
        if remove:
            with suppress(OSError):
                os.unlink(self._lock_path(run_id))
        os.close(fd)

    @staticmethod
    def _info(row: tuple[Any, ...]) -> RunInfo:
        (rid, created, kind, strategy, variant, seed, deals_file, requested, played, status, summary, game,
         rules) = row
        return RunInfo(int(rid), str(created), str(kind), str(strategy), json.loads(str(variant)),
                       _seed_from_sqlite(seed), None if deals_file is None else str(deals_file),
                       int(requested), int(played), str(status), json.loads(str(summary)) if summary else None,
                       str(game), str(rules))

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
        values = [(run_id, *row) for row in rows]

        def store() -> None:
            self._db.executemany(f"INSERT OR IGNORE INTO {table} ({names}) VALUES ({marks})", values)
            self._db.execute(f"UPDATE runs SET games_played = (SELECT COUNT(*) FROM {table} WHERE run_id = ?)"
                             " WHERE id = ?", (run_id, run_id))

        self._write(f"store {what}", store)

    def units(self, table: str, run_id: int) -> list[tuple[Any, ...]]:
        """Every stored unit of run ``run_id`` in ``table``, in index order,
        as :meth:`add_units` was given it (a column an older store lacks
        reads as its stand-in); none when the store has no such table."""
        columns, what = UNIT_TABLES[table]
        if table not in self._tables:
            return []
        chosen = ", ".join(self._column(table, name) for name in columns)
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
        self._write(action, lambda: self._db.execute(
            f"INSERT INTO {table} ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", tuple(row.values())))

    def put(self, table: str, row: Mapping[str, object], *, action: str) -> None:
        """Add ``row`` to ``table`` in one transaction, replacing the row
        with the same key (``action`` as in :meth:`append`)."""
        self._need_writable(action)
        self._write(action, lambda: self._db.execute(
            f"INSERT OR REPLACE INTO {table} ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
            tuple(row.values())))

    def put_rows(self, table: str, rows: Sequence[Mapping[str, object]], *, action: str) -> None:
        """:meth:`put` for several rows (each with the same columns) in one
        transaction: one commit for them all."""
        if not rows:
            return
        self._need_writable(action)
        columns = list(rows[0])
        self._write(action, lambda: self._db.executemany(
            f"INSERT OR REPLACE INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
            [tuple(row[name] for name in columns) for row in rows]))

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

        def bring_up() -> tuple[Any, ...]:
            found = self._db.execute(f"UPDATE {table} SET {sets} WHERE {where}",
                                     (*(row[name] for name in changes), *known)).rowcount
            if not found:
                self._db.execute(f"INSERT INTO {table} ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                                 tuple(row.values()))
            found_row: tuple[Any, ...] = self._db.execute(f"SELECT * FROM {table} WHERE {where}", known).fetchone()
            return found_row

        stored = self._write(action, bring_up)
        return stored

    def columns(self, table: str) -> frozenset[str]:
        """The names of ``table``'s columns (none when the store has no such
        table): a store opened read-only keeps the columns of the cardtable
        that made it."""
        if table not in self._tables:
            return frozenset()
        with self._guard(f"read the {_RECORD_TABLES.get(table, table)} table"):
            return frozenset(row[1] for row in self._db.execute(f"PRAGMA table_info({table})"))

    def commit_without_sync(self) -> None:
        """From now on this connection's commits do not wait for the disk
        (SQLite's ``synchronous = NORMAL`` in WAL mode): a commit survives the
        process being killed, not the machine losing power. For a server
        that commits many small transactions a second, each otherwise
        waiting for an fsync."""
        with self._guard("set how the results store commits"):
            self._db.execute("PRAGMA synchronous = NORMAL")

    def select(self, table: str, columns: Sequence[str], *, where: Mapping[str, object] | None = None,
               between: tuple[str, int, int] | None = None, order: str = "id", action: str) -> list[tuple[Any, ...]]:
        """The ``columns`` of the rows of ``table`` whose columns equal
        ``where``'s values (a None value: whose column is NULL; and whose
        ``between[0]`` lies from ``between[1]`` to ``between[2]``), ordered by
        ``order``; none when the store has no such table."""
        if table not in self._tables:
            return []
        # A column an older store (opened read-only) lacks reads as its stand-in.
        columns = [self._column(table, name) for name in columns]
        conditions = [f"{self._column(table, name)} IS NULL" if value is None else f"{self._column(table, name)} = ?"
                      for name, value in (where or {}).items()]
        values: list[object] = [value for value in (where or {}).values() if value is not None]
        if between is not None:
            conditions.append(f"{between[0]} BETWEEN ? AND ?")
            values += between[1:]
        query = f"SELECT {', '.join(columns)} FROM {table}" + (f" WHERE {' AND '.join(conditions)}" if conditions
                                                                 else "")
        with self._guard(action):
            return self._db.execute(f"{query} ORDER BY {order}", values).fetchall()
