"""Deals of any patience game proven winnable: ``deal --game NAME --winnable``
and ``--daily``, as Klondike's (:mod:`cardtable.solver.winnable`,
:mod:`cardtable.solver.daily`).

Both try candidate seeds in a fixed order and take the first deal
(:meth:`PatienceGame.from_seed <cardtable.patience.PatienceGame.from_seed>`)
that the patience search (:func:`~cardtable.solver.patience.solve_game`,
every card known) wins within :data:`PATIENCE_PROOF_STATES` states: a state
budget, not a time limit, so the same number (or date) gives the same deal
on every machine.

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

__all__ = ["PATIENCE_PROOF_STATES", "ProvenDeal", "daily_game", "winnable_game"]

#: States the search may spend proving each candidate winnable: most
#: winnable deals are won best first in a few thousand states, and a
#: candidate that is not costs the whole budget, so it is kept small.
PATIENCE_PROOF_STATES = 50_000
#: Candidates tried before giving up.
MAX_CANDIDATES = 1000


@dataclass(frozen=True)
class ProvenDeal:
    """A deal proven winnable: its ``seed``, which candidate it was
    (``tries``: 1 for the first), the ``states`` the proof took and the
    winning line (``moves``, in move notation)."""

    seed: int
    tries: int
    states: int
    moves: tuple[str, ...]

    def game(self, description: Description) -> PatienceGame:
        """The deal itself."""
        return PatienceGame.from_seed(description, self.seed)


def _first_won(description: Description, candidates: Iterable[int], what: str) -> ProvenDeal:
    from cardtable.solver.patience import solve_game

    for tries, seed in enumerate(candidates, start=1):
        if tries > MAX_CANDIDATES:
            break
        result = solve_game(PatienceGame.from_seed(description, seed), max_states=PATIENCE_PROOF_STATES)
        if result.result == "won":
            return ProvenDeal(seed, tries, result.states, tuple(str(move) for move in result.moves))
    raise SolverError(f"no deal {what} proven winnable among {MAX_CANDIDATES} candidates for {description.title} "
                      f"within {PATIENCE_PROOF_STATES:,} states each")


def winnable_game(n: int, description: Description) -> ProvenDeal:
    """The deal of number ``n`` proven winnable: always the same for the
    same ``n`` and game rules (see the module documentation)."""
    from cardtable.solver.winnable import candidate_seeds

    return _first_won(description, candidate_seeds(n), f"from seed {n}")


def daily_game(day: datetime.date, description: Description) -> ProvenDeal:
    """The deal of ``day`` for the game, proven winnable: always the same
    for the same date and game rules, different for another game or option."""
    from cardtable.solver.daily import day_candidates
    from cardtable.solver.patience_study import study_key

    return _first_won(description, day_candidates(day, "|".join(study_key(description))), f"of {day.isoformat()}")
