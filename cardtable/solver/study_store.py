"""A study's records in the results store: each deal solved under one budget
(:class:`StudyDeal`) and each study asked for (:class:`StudyInfo`).

Deals are kept one row per deal and solver budget (:func:`add_study_deal`,
written as each deal is solved), keyed by the rules that decide
winnability, the seed and the budget, so a study can be run again, extended
or given a larger budget without solving a deal twice (:func:`study_deals`);
each study asked for is listed (:func:`record_study`, :func:`studies`). A
store made before studies were kept gains both tables the first time it is
opened for writing; read-only, it simply has no studies.

>>> import tempfile, pathlib
>>> from cardtable.runs.store import ResultsStore
>>> store = ResultsStore(pathlib.Path(tempfile.mkdtemp()) / "results.sqlite")
>>> add_study_deal(store, StudyDeal('{"draw": 1}', 7, None, 1000, "won", 120, 0.5, moves=("D", "W1")))
>>> [(deal.seed, deal.result, deal.moves) for deal in study_deals(store, '{"draw": 1}', 0, 10)]
[(7, 'won', ('D', 'W1'))]
>>> store.close()
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.klondike.variant import GAME
from cardtable.runs.store import ResultsStore

__all__ = ["STUDY_SEED_LIMIT", "StudyDeal", "StudyInfo", "add_study_deal", "record_study", "studies", "study_deals"]

#: The largest seed a study keeps (SQLite integers are signed 64-bit words).
STUDY_SEED_LIMIT = 2**63 - 1


def _budget_key(timeout: float | None, max_states: int) -> str:
    """The text a budget is keyed by: equal budgets, equal keys.

    >>> _budget_key(30, 50_000), _budget_key(None, 50_000)
    ('timeout=30.0 max_states=50000', 'timeout=none max_states=50000')
    """
    return f"timeout={'none' if timeout is None else repr(float(timeout))} max_states={int(max_states)}"


def _now() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S")


@dataclass(frozen=True)
class StudyDeal:
    """One deal of a study solved under one budget.

    ``rules`` is the JSON text of the rules the deal was solved under (a
    study's key, :attr:`~cardtable.klondike.Variant.winnability_key`), ``game``
    the game they are the rules of (Klondike unless told), ``seed`` the
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
    game: str = GAME

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

    def to_row(self) -> dict[str, object]:
        """The deal as a row of the store's ``study_deals`` table, stamped
        with the time now when its ``solved`` is empty."""
        return {"game": self.game, "rules": self.rules, "seed": self.seed,
                "budget": _budget_key(self.timeout, self.max_states),
                "timeout": self.timeout, "max_states": self.max_states, "result": self.result,
                "states": self.states, "seconds": float(self.seconds), "reason": self.reason or None,
                "moves": " ".join(self.moves), "solved": self.solved or _now()}

    @classmethod
    def from_row(cls, rules: str, row: Sequence[Any], game: str = GAME) -> StudyDeal:
        """The deal of a row of :data:`_DEAL_COLUMNS` of ``game`` under ``rules``."""
        seed, timeout, max_states, result, states, seconds, reason, moves, solved = row
        return cls(rules, int(seed), None if timeout is None else float(timeout), int(max_states), str(result),
                   int(states), float(seconds), str(reason or ""), tuple(str(moves).split()), str(solved), game)


#: The columns of :meth:`StudyDeal.from_row`.
_DEAL_COLUMNS = ("seed", "timeout", "max_states", "result", "states", "seconds", "reason", "moves", "solved")


@dataclass(frozen=True)
class StudyInfo:
    """A study asked for: its ``kind`` (``winnability``), the ``rules`` it
    solves under and their ``game`` (as in :class:`StudyDeal`) and the ``label`` of the variant
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
    game: str = GAME

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> StudyInfo:
        """The study of a row of :data:`_STUDY_COLUMNS`."""
        sid, kind, rules, label, first_seed, deals, timeout, max_states, updated, game = row
        return cls(int(sid), str(kind), str(rules), str(label), int(first_seed), int(deals),
                   None if timeout is None else float(timeout), int(max_states), str(updated), str(game))


#: The columns of :meth:`StudyInfo.from_row`.
_STUDY_COLUMNS = ("id", "kind", "rules", "label", "first_seed", "deals", "timeout", "max_states", "updated", "game")


def add_study_deal(store: ResultsStore, deal: StudyDeal) -> None:
    """Keep one solved deal of a study, in a transaction of its own (so a
    study stopped at any moment keeps every deal it finished). A deal
    solved again under the same rules and budget replaces the old row."""
    store.put("study_deals", deal.to_row(), action="store a study's deal")


def study_deals(store: ResultsStore, rules: str, first_seed: int, last_seed: int, *,
                game: str = GAME) -> list[StudyDeal]:
    """Every stored row of the deals ``first_seed`` to ``last_seed`` of
    ``game`` (Klondike unless told) under ``rules``, whatever their budget:
    by seed, then oldest first."""
    rows = store.select("study_deals", _DEAL_COLUMNS, where={"game": game, "rules": rules},
                        between=("seed", first_seed, min(last_seed, STUDY_SEED_LIMIT)), order="seed, solved, rowid",
                        action="read a study")
    return [StudyDeal.from_row(rules, row, game) for row in rows]


def record_study(store: ResultsStore, *, kind: str, rules: str, label: str, first_seed: int, deals: int,
                 timeout: float | None, max_states: int, game: str = GAME) -> StudyInfo:
    """List a study as asked for now: a new one, or the same study (kind,
    game, rules, first seed and budget) with its label and time brought up
    to date and its deals the most ever asked for. Returns it as stored."""
    row = {"kind": kind, "game": game, "rules": rules, "label": label, "first_seed": first_seed, "deals": deals,
           "budget": _budget_key(timeout, max_states), "timeout": timeout, "max_states": max_states,
           "updated": _now()}
    sid, kind, game, rules, label, first_seed, deals, _, timeout, max_states, updated = store.upsert(
        "studies", row, key=("kind", "game", "rules", "first_seed", "budget"), most=("deals",),
        action="record a study")
    return StudyInfo.from_row((sid, kind, rules, label, first_seed, deals, timeout, max_states, updated, game))


def studies(store: ResultsStore, kind: str | None = None, rules: str | None = None, *,
            game: str | None = None) -> list[StudyInfo]:
    """The studies asked for (of one kind, of one game, under some rules), oldest first."""
    where = {name: value for name, value in (("kind", kind), ("game", game), ("rules", rules))
             if value is not None}
    rows = store.select("studies", _STUDY_COLUMNS, where=where, action="list studies")
    return [StudyInfo.from_row(row) for row in rows]
