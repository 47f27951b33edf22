"""Independent searches for the games docs/winnability.md gives first figures for.

    python benchmarks/winnability_check.py russian-solitaire --first 1 --deals 1000
    python benchmarks/winnability_check.py pyramid --first 1 --deals 200 --cap 3000000
    python benchmarks/winnability_check.py tripeaks --first 1 --deals 500 --cap 3000000 --max-states 20000000

Each game's rules are written here again, from PySolFC's and pagat's rule pages, apart
from the description and the engine: only the deal (``PatienceGame.from_seed``) comes
from cardtable. Each deal is searched exhaustively (depth first, every state kept; no
pruning but the order of interchangeable piles) up to ``--cap`` states, and compared
with the patience solver's verdict under ``--max-states`` (the table's 200,000): a
deal one calls won and the other proves unwinnable is a disagreement (exit status 1).

- Russian Solitaire and Yukon: seven piles; any face-up card moves with the cards on
  it onto the next rank up (same suit; Yukon: other colour) or, a King, into a space;
  a pile's top card goes to its suit's foundation; a face-down card left on top turns up.
- Pyramid: a free card (none below it in the next row) or the waste's top is discarded
  when it is a King, or in a pair of two making 13; the stock turns one card at a time
  onto the waste, once; won when the pyramid is cleared.
- TriPeaks: three peaks of 28 cards in four rows (3, 6, 9 and 10), each card but the base
  row's lying under two of the next row; a free card goes to the hole when its rank is one
  above or below the hole's top card, King and Ace next to each other; the stock turns one
  card at a time onto the hole, once; won when the peaks are cleared. Every card is known to
  the search (its face-down cards too).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardtable.patience import PatienceGame, get  # noqa: E402
from cardtable.solver.patience import solve_game  # noqa: E402

#: A card as (rank 1..13, suit letter of cdhs).
Card = tuple[int, str]
#: A Yukon position: the piles (cards bottom to top, face-down count), sorted, and the foundations by suit.
YukonState = tuple[tuple[tuple[tuple[Card, ...], int], ...], tuple[int, int, int, int]]

S = TypeVar("S")

SUITS = "cdhs"
RED = "dh"
GAMES = ("russian-solitaire", "yukon", "pyramid", "tripeaks")


def _builds(card: Card, onto: Card, same_suit: bool) -> bool:
    """Whether ``card`` goes on ``onto`` in the tableau."""
    if onto[0] != card[0] + 1:
        return False
    return card[1] == onto[1] if same_suit else (card[1] in RED) != (onto[1] in RED)


def _left(cards: tuple[Card, ...], down: int) -> tuple[tuple[Card, ...], int]:
    """A pile after cards leave its top: a face-down card left on top turns up."""
    down = min(down, len(cards))
    return cards, down - 1 if cards and down == len(cards) else down


def _yukon_next(state: YukonState, same_suit: bool) -> Iterator[YukonState]:
    piles, found = state
    for i, (cards, down) in enumerate(piles):
        if not cards:
            continue
        top = cards[-1]
        suit = SUITS.index(top[1])
        if found[suit] == top[0] - 1:
            after = list(piles)
            after[i] = _left(cards[:-1], down)
            home = list(found)
            home[suit] += 1
            yield tuple(sorted(after)), (home[0], home[1], home[2], home[3])
        for start in range(down, len(cards)):
            head = cards[start]
            for j, (target, target_down) in enumerate(piles):
                if j == i:
                    continue
                if (target and _builds(head, target[-1], same_suit)) or (not target and head[0] == 13 and start):
                    after = list(piles)
                    after[i] = _left(cards[:start], down)
                    after[j] = (target + cards[start:], target_down)
                    yield tuple(sorted(after)), found


def yukon(piles: list[list[Card]], down: list[int], same_suit: bool, cap: int) -> tuple[str, int]:
    """Search a Yukon-type deal: (``won``, ``unwinnable`` or ``unknown`` past ``cap`` states, states)."""
    start: YukonState = (tuple(sorted((tuple(p), d) for p, d in zip(piles, down, strict=True))), (0, 0, 0, 0))
    return _search(start, lambda state: sum(state[1]) == 52, lambda state: _yukon_next(state, same_suit), cap)


#: The two cards below each of the pyramid's 28 (row by row, left to right).
_BELOW = tuple(() if row == 6 else (first + row + 1 + k, first + row + 2 + k)
               for row, first in enumerate((0, 1, 3, 6, 10, 15, 21)) for k in range(row + 1))
PyramidState = tuple[int, int, tuple[int, ...]]


def _pyramid_next(state: PyramidState, ranks: list[int], stock: list[int]) -> Iterator[PyramidState]:
    gone, left, waste = state
    free = [i for i in range(28) if not gone >> i & 1 and all(gone >> b & 1 for b in _BELOW[i])]
    for n, a in enumerate(free):
        if ranks[a] == 13:
            yield gone | 1 << a, left, waste
        for b in free[n + 1:]:
            if ranks[a] + ranks[b] == 13:
                yield gone | 1 << a | 1 << b, left, waste
        if waste and ranks[a] + waste[-1] == 13:
            yield gone | 1 << a, left, waste[:-1]
    if waste and waste[-1] == 13:
        yield gone, left, waste[:-1]
    if left:
        yield gone, left - 1, (*waste, stock[left - 1])


def pyramid(ranks: list[int], stock: list[int], cap: int) -> tuple[str, int]:
    """Search a Pyramid deal: the pyramid's ranks row by row, the stock's bottom to top."""
    start: PyramidState = (0, len(stock), ())
    return _search(start, lambda state: state[0] == (1 << 28) - 1,
                   lambda state: _pyramid_next(state, ranks, stock), cap)


#: The two cards lying over each of TriPeaks' 28 (rows of 3, 6, 9 and 10, left to right): a peak's
#: two in the next row, then two neighbours each row down, the base row none.
_TRIPEAKS_OVER = tuple(
    [(3 + 2 * p, 4 + 2 * p) for p in range(3)]
    + [(9 + k + k // 2, 10 + k + k // 2) for k in range(6)]
    + [(18 + j, 19 + j) for j in range(9)]
    + [() for _ in range(10)])
TriPeaksState = tuple[int, int, int]


def _tripeaks_next(state: TriPeaksState, ranks: list[int], stock: list[int]) -> Iterator[TriPeaksState]:
    gone, left, top = state
    for i in range(28):
        free = not gone >> i & 1 and all(gone >> o & 1 for o in _TRIPEAKS_OVER[i])
        if free and (abs(ranks[i] - top) == 1 or {ranks[i], top} == {1, 13}):
            yield gone | 1 << i, left, ranks[i]
    if left:
        yield gone, left - 1, stock[left - 1]


def tripeaks(ranks: list[int], stock: list[int], hole: int, cap: int) -> tuple[str, int]:
    """Search a TriPeaks deal: the peaks' ranks row by row, the stock's bottom to top, the hole's rank."""
    return _search((0, len(stock), hole), lambda state: state[0] == (1 << 28) - 1,
                   lambda state: _tripeaks_next(state, ranks, stock), cap)


def _search(start: S, won: Callable[[S], bool], following: Callable[[S], Iterable[S]], cap: int) -> tuple[str, int]:
    seen = {start}
    todo = [start]
    while todo:
        state = todo.pop()
        if won(state):
            return "won", len(seen)
        for after in following(state):
            if after not in seen:
                if len(seen) >= cap:
                    return "unknown", len(seen)
                seen.add(after)
                todo.append(after)
    return "unwinnable", len(seen)


def check(game: str, seed: int, cap: int) -> tuple[str, int]:
    """The independent verdict on deal ``seed`` of ``game``, and the states it took."""
    dealt = PatienceGame.from_seed(get(game), seed)
    if game == "pyramid":
        ranks = [dealt.piles[i][0].rank for i in range(28)]
        return pyramid(ranks, [card.rank for card in dealt.piles[28]], cap)
    if game == "tripeaks":
        ranks = [dealt.piles[i][0].rank for i in range(28)]
        return tripeaks(ranks, [card.rank for card in dealt.piles[28]], dealt.piles[29][-1].rank, cap)
    piles = [[(card.rank, card.suit.name[0].lower()) for card in dealt.piles[i]] for i in range(7)]
    return yukon(piles, dealt.down[:7], game == "russian-solitaire", cap)


def main() -> int:
    """Check deals against the patience solver; exit 1 on a disagreement."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=GAMES)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seeds", type=int, nargs="+", help="check these deals instead of --first and --deals")
    parser.add_argument("--cap", type=int, default=1_000_000, help="states the independent search may keep")
    parser.add_argument("--max-states", type=int, default=200_000, help="the patience solver's budget")
    args = parser.parse_args()
    tally: Counter[tuple[str, str]] = Counter()
    for seed in args.seeds or range(args.first, args.first + args.deals):
        mine, states = check(args.game, seed, args.cap)
        theirs = solve_game(PatienceGame.from_seed(get(args.game), seed), max_states=args.max_states).result
        tally[mine, theirs] += 1
        clash = {mine, theirs} == {"won", "unwinnable"}
        print(f"{seed} {mine} ({states:,} states) solver {theirs}{'  DISAGREE' if clash else ''}", flush=True)
    print("independent, solver: " + ", ".join(f"{a}/{b} {n}" for (a, b), n in sorted(tally.items())))
    return 1 if any({a, b} == {"won", "unwinnable"} for a, b in tally) else 0


if __name__ == "__main__":
    raise SystemExit(main())
