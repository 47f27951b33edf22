"""A best-first search in the compiled core, used as a probe by
:func:`cardtable.solver.search.solve`.

Depth-first search commits to its first moves; when an early choice is
wrong it can spend its whole budget below it. Best-first search instead
always expands the open state that looks closest to a win, wherever it is in
the tree. The estimate is a count of the moves still needed: each card not
yet on its foundation needs one, each face-down card needs the cards on it
moved, and a card lying above a lower card of its own suit must move before
that card can go home. States are ranked by ``weight * estimate + moves
made`` (open states of equal rank are taken newest first, so the search
dives).

A state is stored as its parent, the move that reached it, its depth and
its link in the open list (14 bytes); to expand one, the search rebuilds it by replaying the moves
from the nearest state on the path it built last (usually its parent). It
uses the same move generator, safe moves and transposition table as the
depth-first core. When it tries every move of every state, running out of
open states means it has searched every reachable state: a proof that the
position is lost. It can also try only the few best moves of each state by
the depth-first priorities (a narrow search, often the quickest to a win,
which proves nothing when it runs out).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cardtable.solver._core import (
    C_CUT,
    C_DEPTH,
    C_STATES,
    C_STATUS,
    EXHAUSTED,
    MAX_DEPTH,
    MAX_MOVES,
    RANK,
    RUNNING,
    SUIT,
    TABLE_FULL,
    WON,
    _combine,
    _insert,
    _pile_hash,
    _talon_hash,
    apply_move,
    autoplay,
    generate,
    sort_moves,
    trivially_won,
)
from cardtable.solver._state import DOWN, FOUND, LEN, PILE_CAP, STATE_SIZE

#: Open states are kept in buckets by rank, which is capped here.
BUCKETS = 4096
#: ctl entries beyond the depth-first ones: nodes in use, the lowest bucket
#: that may be non-empty, the estimate weight, the width.
B_NODES, B_LOW, B_WEIGHT, B_WIDTH = 8, 9, 10, 11
B_CTL_SIZE = 12
NEED_ROOM = 4


@njit(cache=True, _nrt=False)
def estimate(s):
    """A count of the moves still needed to win ``s`` (see the module notes)."""
    h = 0
    for suit in range(4):
        h += 13 - s[FOUND + suit]
    for i in range(7):
        n = s[LEN + i]
        h += s[DOWN + i]
        for k in range(1, n):
            card = s[PILE_CAP * i + k]
            for j in range(k):
                below = s[PILE_CAP * i + j]
                if SUIT[below] == SUIT[card] and RANK[below] < RANK[card]:
                    h += 1
                    break
    return h


@njit(cache=True, _nrt=False)
def full_hash(s, v, ph1, ph2):
    """The transposition-table key of ``s`` (``ph1``/``ph2``: scratch, 7 entries)."""
    for i in range(7):
        ph1[i], ph2[i] = _pile_hash(s, i)
    t1, t2 = _talon_hash(s)
    return _combine(s, v, ph1, ph2, t1, t2)


@njit(cache=True, _nrt=False)
def _push(head, link, node, f, ctl):
    if f >= BUCKETS:
        f = BUCKETS - 1
    link[node] = head[f]
    head[f] = node
    if f < ctl[B_LOW]:
        ctl[B_LOW] = f


@njit(cache=True, _nrt=False)
def _materialize(x, parent, code, depth, path, states, auto, na, v, chain):
    """Rebuild node ``x``'s state in ``states[depth[x]]``, replaying moves
    from the deepest node it shares with the path built last."""
    n = 0
    y = x
    while path[depth[y]] != y:
        chain[n] = y
        n += 1
        y = parent[y]
    for a in range(n - 1, -1, -1):
        z = chain[a]
        d = depth[z]
        child = states[d]
        par = states[d - 1]
        for k in range(STATE_SIZE):
            child[k] = par[k]
        apply_move(child, code[z], v)
        na[d] = autoplay(child, v, auto[d], 0)
        path[d] = z
    d = depth[x] + 1
    while path[d] != -1:  # the rest of the old path is stale now
        path[d] = -1
        d += 1


@njit(cache=True, _nrt=False)
def best_start(states, auto, na, table, ctl, v, parent, code, depth, link, head, path, ph1, ph2, weight, width):
    """Set up a best-first search from ``states[0]``: open states are ranked
    by ``weight * estimate + moves made``; ``width`` > 0 tries only that
    many of the best moves of each state (by the depth-first move
    priorities)."""
    na[0] = autoplay(states[0], v, auto[0], 0)
    ctl[C_DEPTH] = 0
    ctl[C_STATES] = 1
    ctl[B_WEIGHT] = weight
    ctl[B_WIDTH] = width
    for b in range(BUCKETS):
        head[b] = -1
    ctl[B_LOW] = BUCKETS
    if trivially_won(states[0], v):
        ctl[C_STATUS] = WON
        return
    ctl[C_STATUS] = RUNNING
    h1, h2 = full_hash(states[0], v, ph1, ph2)
    _insert(table, h1, h2)
    parent[0] = -1
    code[0] = 0
    depth[0] = 0
    path[0] = 0
    path[1] = -1
    ctl[B_NODES] = 1
    _push(head, link, 0, 0, ctl)


@njit(cache=True, _nrt=False)
def best_run(states, mv, mi, auto, na, table, ctl, v, parent, code, depth, link, head, path, chain, moves, prio,
             acc, ph1, ph2, budget):
    """Expand open states until ``budget`` new states have been found, a win,
    no open state (exhausted), a full table or full node arrays."""
    if ctl[C_STATUS] != RUNNING:
        return ctl[C_STATUS]
    limit = ctl[C_STATES] + budget
    full = (table.shape[0] * 3) // 4
    capacity = parent.shape[0]
    weight = ctl[B_WEIGHT]
    max_depth = states.shape[0] - 2
    while ctl[C_STATES] < limit:
        if ctl[C_STATES] >= full:
            ctl[C_STATUS] = TABLE_FULL
            return TABLE_FULL
        if ctl[B_NODES] + MAX_MOVES >= capacity:
            return NEED_ROOM
        b = ctl[B_LOW]
        while b < BUCKETS and head[b] < 0:
            b += 1
        if b >= BUCKETS:
            ctl[C_STATUS] = EXHAUSTED
            return EXHAUSTED
        ctl[B_LOW] = b
        x = head[b]
        head[b] = link[x]
        dx = depth[x]
        if dx >= max_depth:
            ctl[C_CUT] = 1
            continue
        _materialize(x, parent, code, depth, path, states, auto, na, v, chain)
        s = states[dx]
        n = generate(s, v, moves, prio, False, acc)
        width = ctl[B_WIDTH]
        if width > 0:
            sort_moves(moves, prio, n)
            if n > width:
                n = width
        child = states[dx + 1]
        for a in range(n):
            m = moves[a]
            for k in range(STATE_SIZE):
                child[k] = s[k]
            apply_move(child, m, v)
            na[dx + 1] = autoplay(child, v, auto[dx + 1], 0)
            if trivially_won(child, v):
                for d in range(dx + 1):
                    mi[d] = 1
                    if d < dx:
                        mv[d, 0] = code[path[d + 1]]
                mv[dx, 0] = m
                ctl[C_DEPTH] = dx + 1
                ctl[C_STATUS] = WON
                return WON
            h1, h2 = full_hash(child, v, ph1, ph2)
            if not _insert(table, h1, h2):
                continue
            node = ctl[B_NODES]
            ctl[B_NODES] = node + 1
            ctl[C_STATES] += 1
            parent[node] = x
            code[node] = m
            depth[node] = dx + 1
            _push(head, link, node, weight * estimate(child) + dx + 1, ctl)
    return RUNNING


def new_best_context(table_bits: int, nodes: int) -> dict[str, np.ndarray]:
    """Fresh arrays for a best-first search."""
    depth = MAX_DEPTH + 2
    return {
        "states": np.zeros((depth, STATE_SIZE), dtype=np.int8),
        "mv": np.zeros((depth, 1), dtype=np.int32),
        "mi": np.zeros(depth, dtype=np.int32),
        "auto": np.zeros((depth, 52), dtype=np.int16),
        "na": np.zeros(depth, dtype=np.int32),
        "table": np.zeros((1 << table_bits, 2), dtype=np.uint64),
        "ctl": np.zeros(B_CTL_SIZE, dtype=np.int64),
        "parent": np.zeros(nodes, dtype=np.int32),
        "code": np.zeros(nodes, dtype=np.int32),
        "depth": np.zeros(nodes, dtype=np.int16),
        "link": np.zeros(nodes, dtype=np.int32),
        "head": np.zeros(BUCKETS, dtype=np.int32),
        "path": np.full(depth + 1, -1, dtype=np.int32),
        "chain": np.zeros(depth, dtype=np.int32),
        "moves": np.zeros(MAX_MOVES, dtype=np.int32),
        "prio": np.zeros(MAX_MOVES, dtype=np.int32),
        "acc": np.zeros(64, dtype=np.int64),
        "ph1": np.zeros(7, dtype=np.uint64),
        "ph2": np.zeros(7, dtype=np.uint64),
    }
