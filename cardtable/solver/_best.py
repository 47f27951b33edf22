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
its link in the open list (14 bytes); to expand one, the search rebuilds it
by replaying the moves from the nearest state on the path it built last
(usually its parent). It uses the same move generator, safe moves and
transposition table as the depth-first core. On a win it records the node
it was expanding and the winning move (``ctl[B_WIN_NODE]``,
``ctl[B_WIN_MOVE]``); :func:`winning_path` walks the parents from there.
When it tries every move of every state, running out of open states means
it has searched every reachable state: a proof that the position is lost.
It can also try only the few best moves of each state by the depth-first
priorities (a narrow search, often the quickest to a win, which proves
nothing when it runs out).

numba's on-disk cache of these kernels is keyed by this file alone, not by
the :mod:`cardtable.solver._core` functions they inline: a change to the
move codes or the state key there must come with a change here (the
``CORE_REVISION`` below) so that stale kernels are not loaded.
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
#: that may be non-empty, the estimate weight, the width; on a win, the node
#: whose child won and the move to that child (both -1 when the root itself
#: is won).
B_NODES, B_LOW, B_WEIGHT, B_WIDTH, B_WIN_NODE, B_WIN_MOVE = 8, 9, 10, 11, 12, 13
B_CTL_SIZE = 14
NEED_ROOM = 4

#: Bumped with every change to the core functions these kernels inline.
CORE_REVISION = 5

#: The arrays :func:`best_start` takes, in order (then ``weight`` and
#: ``width``), by their names in :func:`new_best_context`.
START_ARGS = ("states", "auto", "na", "table", "ctl", "v", "parent", "code", "depth", "link", "head", "path", "ph1",
              "ph2")
#: The arrays :func:`best_run` takes, in order, before its ``budget``.
RUN_ARGS = ("states", "auto", "na", "table", "ctl", "v", "parent", "code", "depth", "link", "head", "path", "chain",
            "moves", "prio", "acc", "ph1", "ph2")
#: The arrays indexed by node; :func:`best_run` returns ``NEED_ROOM`` when
#: they may not hold the children of one more node.
NODE_ARRAYS = ("parent", "code", "depth", "link")


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
    ctl[B_WIN_NODE] = -1
    ctl[B_WIN_MOVE] = -1
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


@njit(cache=True, _nrt=False, nogil=True)
def best_run(states, auto, na, table, ctl, v, parent, code, depth, link, head, path, chain, moves, prio, acc, ph1, ph2,
             budget):
    """Expand open states until ``budget`` new states have been found, a win,
    no open state (exhausted), a full table or full node arrays. On a win
    ``ctl[B_WIN_NODE]`` and ``ctl[B_WIN_MOVE]`` say where (see
    :func:`winning_path`)."""
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
                ctl[B_WIN_NODE] = x
                ctl[B_WIN_MOVE] = m
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


def winning_path(parent: np.ndarray, code: np.ndarray, ctl: np.ndarray) -> list[int]:
    """The move codes from the root to the won state of a search that
    :func:`best_run` (or :func:`best_start`) left at ``WON``."""
    last = int(ctl[B_WIN_MOVE])
    if last < 0:
        return []  # the root was won
    codes = [last]
    node = int(ctl[B_WIN_NODE])
    while parent[node] >= 0:
        codes.append(int(code[node]))
        node = int(parent[node])
    codes.reverse()
    return codes


def new_best_context(table_bits: int, nodes: int, v: np.ndarray) -> dict[str, np.ndarray]:
    """Fresh arrays for a best-first search with a table of ``2**table_bits``
    entries, room for ``nodes`` nodes and variant parameters ``v``, by the
    names of :data:`START_ARGS` and :data:`RUN_ARGS`."""
    depth = MAX_DEPTH + 2
    return {
        "v": v,
        "states": np.zeros((depth, STATE_SIZE), dtype=np.int8),
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
