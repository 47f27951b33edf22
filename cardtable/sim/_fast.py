"""Numba kernels for the ``priority`` bot in seed 002's game (draw 1, one pass).

Private: use :mod:`cardtable.sim.fast`. Everything here works on plain arrays
so that a whole batch of games runs inside one compiled loop with no Python
objects and no allocation per game.

State of one game
-----------------
- ``tab[p, i]``: card indices of pile ``p`` bottom to top, ``plen[p]`` cards,
  of which the bottom ``pdown[p]`` are face down. A pile holds at most
  6 face-down cards plus a 13-card run, so 20 slots are enough.
- ``sw``: the 24 stock cards in drawing order. With no recycle, stock and
  waste share it: ``sw[sp:]`` is the stock (``sw[sp]`` next to draw) and
  ``sw[:wtop]`` the waste (``sw[wtop - 1]`` its top). A draw copies
  ``sw[sp]`` to ``sw[wtop]``, and ``wtop <= sp`` always holds.
- ``found[suit]``: the top rank on each foundation (0 when empty).

Move codes
----------
A move is one ``int16``: ``count << 8 | source << 4 | target`` with locations
``0..6`` for the piles, :data:`WASTE`, :data:`STOCK` and :data:`FOUNDATION`.
A draw is ``STOCK -> WASTE``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

WASTE = 7
STOCK = 8
FOUNDATION = 9

#: Room for one game's moves. A game has at most 24 draws, 52 foundation
#: moves and 24 waste-to-tableau moves; a pile move either turns a card up
#: (21 at most) or empties a pile that had nothing face down, which can only
#: happen again after a king refills it, so ~160 moves is a hard ceiling.
MAX_MOVES = 256

_PILE_SLOTS = 20
_STOCK_SIZE = 24
_TABLEAU_CARDS = 28

_RANK = np.array([i % 13 + 1 for i in range(52)], dtype=np.int8)
_SUIT = np.array([i // 13 for i in range(52)], dtype=np.int8)
_RED = np.array([1 if i // 13 in (1, 2) else 0 for i in range(52)], dtype=np.int8)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
# _REJECT[n] = 2**64 - (2**64 mod n): draws at or above it are rejected
# (0 stands for 2**64, i.e. never reject, when n divides 2**64).
_REJECT = np.array([0] + [((1 << 64) - ((1 << 64) % n)) & ((1 << 64) - 1) for n in range(1, 53)],
                   dtype=np.uint64)


@njit(cache=True)
def shuffle_into(seed: np.uint64, deck: np.ndarray) -> None:
    """Write ``shuffled_deck(seed)`` as card indices into ``deck`` (52 int8)."""
    for i in range(52):
        deck[i] = i
    state = np.uint64(seed)
    for i in range(51, 0, -1):
        n = np.uint64(i + 1)
        reject = _REJECT[i + 1]
        while True:
            state = state + _GOLDEN
            z = state
            z = (z ^ (z >> _S30)) * _MIX1
            z = (z ^ (z >> _S27)) * _MIX2
            z = z ^ (z >> _S31)
            if reject == 0 or z < reject:
                break
        j = np.int64(z % n)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp


@njit(cache=True)
def deals_from_seeds(seeds: np.ndarray) -> np.ndarray:
    """The deals (n x 52 int8 card indices in dealing order) of many seeds."""
    out = np.empty((seeds.shape[0], 52), dtype=np.int8)
    for g in range(seeds.shape[0]):
        shuffle_into(np.uint64(seeds[g]), out[g])
    return out


@njit(cache=True)
def first_invalid_deal(deals) -> int:
    """The row of the first deal that is not a permutation of 0..51, or -1."""
    seen = np.zeros(52, dtype=np.int64)
    for g in range(deals.shape[0]):
        for i in range(52):
            c = deals[g, i]
            if c < 0 or c >= 52 or seen[c] == g + 1:
                return g
            seen[c] = g + 1
    return -1


@njit(cache=True)
def _draw(sw, wtop, sp, moves, n, record):
    """Turn the next stock card onto the waste; returns (wtop, sp, n)."""
    sw[wtop] = sw[sp]
    if record:
        moves[n] = (1 << 8) | (STOCK << 4) | WASTE
    return wtop + 1, sp + 1, n + 1


@njit(cache=True)
def _play(deal, tab, plen, pdown, sw, found, moves, record):
    """Play one deal by the priority strategy; returns (foundation cards, moves).

    When ``record`` is true the move codes go to ``moves[0 : count]``.
    """
    # Lay out the deal: round r gives one card to each of piles r..6.
    k = 0
    for r in range(7):
        for p in range(r, 7):
            tab[p, r] = deal[k]
            k += 1
    for p in range(7):
        plen[p] = p + 1
        pdown[p] = p
    for i in range(_STOCK_SIZE):
        sw[i] = deal[_TABLEAU_CARDS + i]
    for s in range(4):
        found[s] = 0
    nfound = 0
    wtop = 1  # step 0: draw one card (sw[0] is already where it belongs)
    sp = 1
    n = 0
    if record:
        moves[n] = (1 << 8) | (STOCK << 4) | WASTE
    n += 1

    while True:
        if n > MAX_MOVES - 2:  # cannot happen (see MAX_MOVES); guards the buffer all the same
            return nfound, -1
        # (a) tableau tops left to right, then the waste top, to a foundation.
        played = -1
        for p in range(7):
            size = plen[p]
            if size > 0:
                c = tab[p, size - 1]
                if found[_SUIT[c]] + 1 == _RANK[c]:
                    played = p
                    break
        if played >= 0:
            c = tab[played, plen[played] - 1]
            found[_SUIT[c]] += 1
            nfound += 1
            size = plen[played] - 1
            plen[played] = size
            if size > 0 and pdown[played] == size:
                pdown[played] = size - 1
            if record:
                moves[n] = (1 << 8) | (played << 4) | FOUNDATION
            n += 1
            continue
        if wtop > 0:
            c = sw[wtop - 1]
            if found[_SUIT[c]] + 1 == _RANK[c]:
                found[_SUIT[c]] += 1
                nfound += 1
                wtop -= 1
                if record:
                    moves[n] = (1 << 8) | (WASTE << 4) | FOUNDATION
                n += 1
                if wtop == 0 and sp < _STOCK_SIZE:  # the waste emptied: draw one card
                    wtop, sp, n = _draw(sw, wtop, sp, moves, n, record)
                continue

            # (b) the waste top onto the leftmost pile that takes it.
            rank = _RANK[c]
            red = _RED[c]
            target = -1
            for p in range(7):
                size = plen[p]
                if size == 0:
                    if rank == 13:
                        target = p
                        break
                else:
                    t = tab[p, size - 1]
                    if _RANK[t] == rank + 1 and _RED[t] != red:
                        target = p
                        break
            if target >= 0:
                tab[target, plen[target]] = c
                plen[target] += 1
                wtop -= 1
                if record:
                    moves[n] = (1 << 8) | (WASTE << 4) | target
                n += 1
                if wtop == 0 and sp < _STOCK_SIZE:  # the waste emptied: draw one card
                    wtop, sp, n = _draw(sw, wtop, sp, moves, n, record)
                continue

        # (c) a whole face-up run onto another pile: sources, then targets, left to right.
        moved = False
        for src in range(7):
            size = plen[src]
            if size == 0:
                continue
            down = pdown[src]
            base = tab[src, down]
            rank = _RANK[base]
            red = _RED[base]
            for dst in range(7):
                if dst == src:
                    continue
                dsize = plen[dst]
                if dsize == 0:
                    ok = rank == 13 and down > 0
                else:
                    t = tab[dst, dsize - 1]
                    ok = _RANK[t] == rank + 1 and _RED[t] != red
                if ok:
                    count = size - down
                    for i in range(count):
                        tab[dst, dsize + i] = tab[src, down + i]
                    plen[dst] = dsize + count
                    plen[src] = down
                    if down > 0:
                        pdown[src] = down - 1
                    if record:
                        moves[n] = (count << 8) | (src << 4) | dst
                    n += 1
                    moved = True
                    break
            if moved:
                break
        if moved:
            continue

        # (e) nothing moved: draw, or the game is over.
        if sp < _STOCK_SIZE:
            wtop, sp, n = _draw(sw, wtop, sp, moves, n, record)
            continue
        return nfound, n


@njit(cache=True)
def _workspace():
    tab = np.zeros((7, _PILE_SLOTS), dtype=np.int8)
    plen = np.zeros(7, dtype=np.int64)
    pdown = np.zeros(7, dtype=np.int64)
    sw = np.zeros(_STOCK_SIZE, dtype=np.int8)
    found = np.zeros(4, dtype=np.int64)
    return tab, plen, pdown, sw, found


@njit(cache=True)
def priority_seeds(seeds, foundation_out, moves_out):
    """Play the deal of every seed (uint64); fill foundation counts and move counts."""
    tab, plen, pdown, sw, found = _workspace()
    deal = np.empty(52, dtype=np.int8)
    no_moves = np.empty(1, dtype=np.int16)
    for g in range(seeds.shape[0]):
        shuffle_into(seeds[g], deal)
        nfound, n = _play(deal, tab, plen, pdown, sw, found, no_moves, False)
        foundation_out[g] = nfound
        moves_out[g] = n


@njit(cache=True)
def priority_deals(deals, foundation_out, moves_out):
    """Play every deal (rows of 52 int8 card indices); fill the same outputs."""
    tab, plen, pdown, sw, found = _workspace()
    no_moves = np.empty(1, dtype=np.int16)
    for g in range(deals.shape[0]):
        nfound, n = _play(deals[g], tab, plen, pdown, sw, found, no_moves, False)
        foundation_out[g] = nfound
        moves_out[g] = n


@njit(cache=True)
def priority_deals_recorded(deals, foundation_out, moves_out, codes_out):
    """As :func:`priority_deals`, also writing each game's move codes to a row of ``codes_out``."""
    tab, plen, pdown, sw, found = _workspace()
    for g in range(deals.shape[0]):
        nfound, n = _play(deals[g], tab, plen, pdown, sw, found, codes_out[g], True)
        foundation_out[g] = nfound
        moves_out[g] = n
