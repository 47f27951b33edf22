"""Deals proven winnable, the same one every time for the same number and variant.

``winnable_deal(n, variant)`` tries the deals of these seeds in order and
returns the first one the solver proves winnable within
:data:`WINNABLE_STATE_BUDGET` states (a state budget, not a time limit, so the
answer never depends on the machine):

1. seed ``n`` itself (:meth:`Position.from_seed`);
2. then ``s1, s2, ...``, the successive outputs of
   :class:`cardtable.cards.SplitMix64` seeded with ``n``, each with its top
   bit cleared (``x >> 1``).
"""

from __future__ import annotations

from collections.abc import Iterator

from cardtable.cards import SplitMix64
from cardtable.errors import SolverError
from cardtable.klondike.position import Position
from cardtable.klondike.variant import Variant
from cardtable.solver.search import solve

__all__ = ["WINNABLE_STATE_BUDGET", "candidate_seeds", "winnable_deal", "winnable_seed"]

#: States the solver may spend on each candidate deal.
WINNABLE_STATE_BUDGET = 1_000_000
_MAX_CANDIDATES = 1000


def candidate_seeds(n: int) -> Iterator[int]:
    """The seeds :func:`winnable_deal` tries for number ``n``, in order."""
    if n < 0:
        raise SolverError(f"seed must be >= 0, not {n}")
    yield n
    rng = SplitMix64(n)
    while True:
        yield rng.next() >> 1


def winnable_seed(n: int, variant: Variant) -> int:
    """The deal seed of :func:`winnable_deal`."""
    for tries, seed in enumerate(candidate_seeds(n)):
        if tries >= _MAX_CANDIDATES:
            break
        # wide=False: the search as it was, so that a seed picks the same deal on every version
        result = solve(Position.from_seed(seed), variant, max_states=WINNABLE_STATE_BUDGET, wide=False)
        if result.result == "won":
            return seed
    raise SolverError(f"no deal proven winnable among {_MAX_CANDIDATES} candidates for {variant.describe()}")


def winnable_deal(n: int, variant: Variant) -> Position:
    """A deal proven winnable under ``variant``, always the same for the same
    ``n`` and variant rules (see the module documentation).

    >>> from cardtable.klondike import Variant
    >>> rules = Variant.preset("thoughtful3")
    >>> winnable_deal(2, rules) == Position.from_seed(winnable_seed(2, rules))
    True
    """
    return Position.from_seed(winnable_seed(n, variant))
