"""Deals of any patience game proven winnable: ``deal --game NAME --winnable``
and ``--daily``, as Klondike's (:mod:`cardtable.solver.winnable`,
:mod:`cardtable.solver.daily`).

Both try candidate seeds in a fixed order and take the first deal
(:meth:`PatienceGame.from_seed <cardtable.patience.PatienceGame.from_seed>`)
that the patience search (:func:`~cardtable.solver.patience.solve_game`,
every card known) wins within :data:`PATIENCE_PROOF_STATES` states, the
candidates together within :data:`PATIENCE_SEARCH_STATES`: state budgets,
not time limits, so the same number (or date) gives the same deal on every
machine, and a game whose deals the search seldom wins within its budget
costs a few seconds, not a thousand searches.
A winnable deal not found so is a :class:`~cardtable.errors.SolverError`;
the day's deal is then the day's first candidate, said not to be proven
winnable (:attr:`ProvenDeal.proven`), so every game has its deal of the day.

This module is the one place the deals of the day and the winnable deals of
every patience game come from: ``cardtable deal --game NAME --daily``, the
terminal app and the browser table deal the same.

- ``--winnable --seed N``: seed ``N`` itself, then the successive outputs of
  :class:`~cardtable.cards.SplitMix64` seeded with ``N``, top bit cleared
  (:func:`~cardtable.solver.winnable.candidate_seeds`, Klondike's order);
- ``--daily``: the candidates of the date and the game's study key
  (:func:`~cardtable.solver.daily.day_candidates` with
  :func:`~cardtable.solver.patience_study.study_key`), so each game and each
  set of its options has its own deal of the day.

>>> from cardtable.patience import get
>>> found = winnable_game(3, get("golf"))
>>> found.seed == winnable_game(3, get("golf")).seed, found.states > 0
(True, True)
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from cardtable.errors import SolverError
from cardtable.patience.description import Description
from cardtable.patience.engine import PatienceGame

__all__ = ["PATIENCE_PROOF_STATES", "PATIENCE_SEARCH_STATES", "ProvenDeal", "daily_game", "winnable_game"]

#: States the search may spend proving each candidate winnable: most
#: winnable deals are won best first in a few thousand states, and a
#: candidate that is not costs the whole budget, so it is kept small.
PATIENCE_PROOF_STATES = 50_000
#: Candidates tried before giving up.
MAX_CANDIDATES = 1000
#: States the search may spend on all the candidates of one deal asked for.
PATIENCE_SEARCH_STATES = 2_000_000


@dataclass(frozen=True)
class ProvenDeal:
    """A deal proven winnable: its ``seed``, which candidate it was
    (``tries``: 1 for the first), the ``states`` the proof took and the
    winning line (``moves``, in move notation). A day's deal that no search
    won within :data:`PATIENCE_SEARCH_STATES` is not ``proven``: the day's
    first candidate, ``states`` then the states spent on every candidate
    tried (``tries`` of them), and no line."""

    seed: int
    tries: int
    states: int
    moves: tuple[str, ...]
    proven: bool = True

    def game(self, description: Description) -> PatienceGame:
        """The deal itself."""
        return PatienceGame.from_seed(description, self.seed)


class _NoneWon(SolverError):
    """No candidate won within the budgets: ``tries`` candidates, ``states`` states in all."""

    def __init__(self, message: str, tries: int, states: int) -> None:
        super().__init__(message)
        self.tries, self.states = tries, states


def _first_won(description: Description, candidates: Iterable[int], what: str) -> ProvenDeal:
    from cardtable.solver.patience import solve_game

    spent = tried = 0
    for tries, seed in enumerate(candidates, start=1):
        if tries > MAX_CANDIDATES or spent >= PATIENCE_SEARCH_STATES:
            break
        tried = tries
        budget = min(PATIENCE_PROOF_STATES, PATIENCE_SEARCH_STATES - spent)
        # the patience core for every game, Klondike's rules included: a deal picked by its budget stays picked
        result = solve_game(PatienceGame.from_seed(description, seed), max_states=budget, core="patience")
        if result.result == "won":
            return ProvenDeal(seed, tries, result.states, tuple(str(move) for move in result.moves))
        spent += max(result.states, 1)
    raise _NoneWon(f"no deal {what} proven winnable for {description.title}: {tried:,} candidates tried within "
                   f"{PATIENCE_PROOF_STATES:,} states each and {PATIENCE_SEARCH_STATES:,} in all", tried, spent)


def winnable_game(n: int, description: Description) -> ProvenDeal:
    """The deal of number ``n`` proven winnable: always the same for the
    same ``n`` and game rules (see the module documentation)."""
    from cardtable.solver.winnable import candidate_seeds

    return _first_won(description, candidate_seeds(n), f"from seed {n}")


def daily_game(day: datetime.date, description: Description) -> ProvenDeal:
    """The deal of ``day`` for the game, proven winnable when the search
    wins one within its budgets (else the day's first candidate, not
    :attr:`~ProvenDeal.proven`): always the same for the same date and game
    rules, different for another game or option."""
    from cardtable.solver.daily import day_candidates
    from cardtable.solver.patience_study import study_key

    key = "|".join(study_key(description))
    try:
        return _first_won(description, day_candidates(day, key), f"of {day.isoformat()}")
    except _NoneWon as none:
        return ProvenDeal(next(iter(day_candidates(day, key))), none.tries, none.states, (), proven=False)
