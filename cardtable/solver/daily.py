"""The daily deal: one deal a day for each set of rules, the same for everyone,
proven winnable.

The deal of a day depends only on the date and on the rules that decide whether
a deal can be won (:attr:`Variant.winnability_key
<cardtable.klondike.Variant.winnability_key>`), so every variant that shares
those rules (``draw1`` and ``standard1``, say) shares its daily deal, and the
same date gives the same deal on every machine:

1. the date (``YYYY-MM-DD``) and the winnability key, joined by ``|``, are
   hashed with BLAKE2b (8 bytes, little-endian) into a 64-bit number ``h``;
2. the candidates are the successive outputs of
   :class:`cardtable.cards.SplitMix64` seeded with ``h``, each with its top
   bit cleared (``x >> 1``), as deal seeds (:meth:`Position.from_seed
   <cardtable.klondike.Position.from_seed>`);
3. the first candidate the solver proves winnable within
   :data:`DAILY_STATE_BUDGET` states is the day's deal.

The budget counts states, not seconds, so the answer never depends on the
machine; it is small (a fifth of a second of search at most per candidate)
because most winnable deals are proven in a few hundred states, and a deal
that needs more is simply passed over.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass

from cardtable.cards import SplitMix64
from cardtable.errors import SolverError, UsageError
from cardtable.klondike.position import Position
from cardtable.klondike.variant import Variant
from cardtable.solver.search import solve

__all__ = ["DAILY_STATE_BUDGET", "DailyDeal", "daily_candidates", "daily_deal", "day_candidates", "parse_date"]

#: States the solver may spend proving each candidate of a day winnable.
DAILY_STATE_BUDGET = 20_000
_MAX_CANDIDATES = 1000


def parse_date(text: str) -> datetime.date:
    """A date written ``YYYY-MM-DD``; anything else is a :class:`UsageError`
    naming the text.

    >>> parse_date("2026-11-27")
    datetime.date(2026, 11, 27)
    """
    from cardtable._text import clip

    try:
        if len(text) != 10:
            raise ValueError
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise UsageError(f"a date is written YYYY-MM-DD (such as 2026-01-31), not {clip(text)}") from None


def daily_candidates(day: datetime.date, variant: Variant) -> Iterator[int]:
    """The deal seeds tried for ``day`` under ``variant``'s rules, in order
    (see the module documentation)."""
    return day_candidates(day, variant.winnability_key)


def day_candidates(day: datetime.date, key: str) -> Iterator[int]:
    """The deal seeds tried for ``day`` under the rules keyed by ``key``
    (a winnability key: Klondike's, or a patience study's), in order."""
    text = f"{day.isoformat()}|{key}"
    start = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
    rng = SplitMix64(start)
    while True:
        yield rng.next() >> 1


@dataclass(frozen=True)
class DailyDeal:
    """The deal of ``day`` under the rules of ``variant``: the deal ``seed``
    (``position`` is :meth:`Position.from_seed` of it), the candidate it was
    (``tries``: 1 for the first), and the states the solver spent proving it
    winnable (``states``)."""

    day: datetime.date
    seed: int
    tries: int
    states: int

    @property
    def position(self) -> Position:
        """The deal itself."""
        return Position.from_seed(self.seed)


def daily_deal(day: datetime.date, variant: Variant) -> DailyDeal:
    """The deal of ``day`` under ``variant``'s rules, proven winnable; always
    the same for the same date and winnability key.

    >>> import datetime
    >>> rules = Variant.preset("draw1")
    >>> deal = daily_deal(datetime.date(2026, 1, 1), rules)
    >>> deal == daily_deal(datetime.date(2026, 1, 1), Variant.preset("standard1"))
    True
    >>> deal.seed == daily_deal(datetime.date(2026, 1, 2), rules).seed
    False
    """
    for tries, seed in enumerate(daily_candidates(day, variant), start=1):
        if tries > _MAX_CANDIDATES:
            break
        # wide=False: the search as it was, so that a day keeps its deal on every version
        result = solve(Position.from_seed(seed), variant, max_states=DAILY_STATE_BUDGET, wide=False)
        if result.result == "won":
            return DailyDeal(day, seed, tries, result.states)
    raise SolverError(f"no deal of {day.isoformat()} proven winnable among {_MAX_CANDIDATES} candidates "
                      f"for {variant.describe()}")
