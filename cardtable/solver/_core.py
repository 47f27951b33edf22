"""The compiled search core: move generation, moves, safe foundation moves,
state hashing and a resumable depth-first search with a transposition table.

Everything here works on the array state of :mod:`cardtable.solver._state`
and is compiled by numba (``cache=True``: a second run starts at once). The
depth-first searches of :func:`cardtable.solver.solve` run in the C port of
these functions, :mod:`cardtable.solver._ccore`, which generates the same
moves and keys (``tests/solver/test_ccore.py`` checks that both visit the
same states); the kernels here serve the best-first probes
(:mod:`cardtable.solver._best`), the environments and the tests.

Soundness notes (each pruning keeps every win reachable):

- *Safe foundation moves* are played without branching. Without foundation
  return a tableau card of rank ``r`` is safe when ``r <= 2`` or both
  foundations of the other colour reach ``r - 1``: the only cards that could
  ever be built on it are already on foundations for good. With foundation
  return those cards could come back, so the other foundation of the card's
  own colour must also reach ``r - 2``: then every card that could ever stand
  on it is a foundation card, and foundation cards are only ever brought back
  to hold other cards, none of which could need this one. The waste top is
  never auto-played (except with a free talon, below): in draw 3 taking a
  card out of the talon shifts which cards later passes can reach.
- *Draws are compressed*: a talon move draws (recycling at most once) until a
  given card is the waste top and plays it. Draws commute with every other
  move, so any winning line can be reordered to draw just before each waste
  play; a second recycle reaches no waste top the first did not.
- *Free talon*: in draw 1 with unlimited passes every talon card can be made
  the waste top at any time, so the waste pointer is left out of the state,
  safe talon cards are auto-played too, and a talon card goes to the tableau
  only when a card that could be built on it (one rank lower, other colour)
  is face up, in the talon or on a foundation: otherwise the move can wait.
  (Take a winning line that plays talon card ``c`` onto ``g`` and first
  builds on ``c`` later, with card ``h``. Until then ``g`` stays covered, so
  the line never uses it; play ``c`` just before ``h`` instead, when ``h``
  is at hand. If nothing is ever built on ``c``, play it from the talon to
  wherever the line next moves it.)
- With unlimited passes, waste pointers at 0, at a multiple of the draw and
  at the end of the talon reach one another by drawing and recycling: one
  state.
- *Empty piles are interchangeable* (the state hash ignores pile order), so
  only the first empty pile is tried as a target. With kings only, a pile is
  emptied only when some king could fill it (face up on face-down cards, in
  the talon, or on a foundation): otherwise the move can wait. (A king can
  only be the lowest face-up card of a pile, so these are the kings whose
  move to an empty pile changes anything. Until one moves there, the line
  can keep the run where it was: what it builds on the run's top, or moves
  from inside the run, it can do there just as well.)
- *Probes* (see :mod:`cardtable.solver.search`) search the same position in
  other orders; one that tries only some moves of each state (``V_WIDTH``)
  can find a win but never proves a loss.
- *The state key forgets twins.* The key is built from the foundation
  heights, each pile's face-down cards and its lowest face-up card, the
  talon, the waste position and the pass: not from the rest of the face-up
  tableau. That rest follows from the key up to *twins* (two cards of the
  same rank and colour): the face-up tableau cards are the cards that are
  nowhere else, and each one that is not the lowest of its pile lies on a
  card of the rank above and the other colour, one of at most two twins.
  So two layouts with one key differ only in which twin holds which run.
  Such layouts are one state of the search, because every search step of
  one has a counterpart in the other that reaches the same key (the key is
  a bisimulation of the steps, so a depth-first search with a set of
  visited keys still finds a win whenever there is one):

  * a run moved onto a pile top has its counterpart: both layouts have as
    many tops of each rank and colour (each face-up card not lowest in its
    pile covers one card of the rank above), and moving a lowest card turns
    up or empties the same pile in both. The talon, the foundations and
    the empty piles are the same;
  * a card ``x`` going home from a pile top: in the other layout ``x`` may
    hold the run that lies on its twin ``y`` here. Then ``y`` is a top
    there (at most one card of the rank below and the other colour is not
    lowest in its pile, and here ``x`` holds it not), so the run can move
    onto ``y`` and ``x`` go home: one search step, a move code carrying
    ``HOME_FLAG``. Moving part of a run onto a pile is tried only in this
    form: the target's top is the twin of the card uncovered, so the move
    alone would not change the key;
  * safe moves do not tell the layouts apart: a safe card ready for its
    foundation never has a card on it when autoplay stops (the cards that
    could lie on it, one rank lower and the other colour, are on their
    foundations, or are aces, which autoplay sends home first), so it is a
    top in every layout of its key.

  Every pruning below and above reads only what the key holds (the ranks
  and colours of the face-up cards, kings lowest in their piles, the
  talon, the foundations), so it treats both layouts alike.
- A foundation card is not brought back when autoplay would send it home at
  once.
- The transposition table keys are two independent 64-bit hashes of the
  state key above (the foundation heights hashed in, as the face-up cards
  no longer are); a false match needs a 128-bit collision.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cardtable.solver._state import (
    DOWN,
    FOUND,
    LEN,
    LOC_FOUNDATION,
    PASS,
    PILE_CAP,
    SRC_TALON,
    STATE_SIZE,
    TALON,
    TLEN,
    V_ANY_EMPTY,
    V_DRAW,
    V_PASSES,
    V_RETURN,
    V_SALT,
    V_WIDTH,
    WP,
)

RANK = np.array([i % 13 + 1 for i in range(52)], dtype=np.int64)
SUIT = np.array([i // 13 for i in range(52)], dtype=np.int64)
RED = np.array([1 if i // 13 in (1, 2) else 0 for i in range(52)], dtype=np.int64)

_rng = np.random.Generator(np.random.PCG64(20261125))
Z1 = _rng.integers(0, 2**63, size=(2, PILE_CAP, 52), dtype=np.int64).astype(np.uint64) * np.uint64(2) + np.uint64(1)
Z2 = _rng.integers(0, 2**63, size=(2, PILE_CAP, 52), dtype=np.int64).astype(np.uint64) * np.uint64(2) + np.uint64(1)
ZT1 = _rng.integers(0, 2**63, size=52, dtype=np.int64).astype(np.uint64) * np.uint64(2)
ZT2 = _rng.integers(0, 2**63, size=52, dtype=np.int64).astype(np.uint64) * np.uint64(2)
ZW1 = _rng.integers(0, 2**63, size=64, dtype=np.int64).astype(np.uint64) * np.uint64(2)
ZW2 = _rng.integers(0, 2**63, size=64, dtype=np.int64).astype(np.uint64) * np.uint64(2)
ZP1 = _rng.integers(0, 2**63, size=128, dtype=np.int64).astype(np.uint64) * np.uint64(2)
ZP2 = _rng.integers(0, 2**63, size=128, dtype=np.int64).astype(np.uint64) * np.uint64(2)
ZF1 = _rng.integers(0, 2**63, size=(4, 14), dtype=np.int64).astype(np.uint64) * np.uint64(2)
ZF2 = _rng.integers(0, 2**63, size=(4, 14), dtype=np.int64).astype(np.uint64) * np.uint64(2)

#: Move-code flag: after the move, the card it uncovers goes to its foundation.
HOME_FLAG = 1 << 21

MAX_MOVES = 1024
TALON_MARK = 64
MAX_DEPTH = 4000
PASS_CAP = 100

# Search status codes (ctl[C_STATUS]).
RUNNING, WON, EXHAUSTED, TABLE_FULL = 0, 1, 2, 3
C_DEPTH, C_STATES, C_STATUS, C_FILLED, C_CUT, C_PEAK, C_TRIED = 0, 1, 2, 3, 4, 5, 6
CTL_SIZE = 8


@njit(cache=True, inline="always", _nrt=False)
def _pack(src, dst, count, card, recycle):
    return src | (dst << 4) | (count << 8) | (card << 14) | (recycle << 20)


@njit(cache=True, _nrt=False)
def _take(s, i, k):
    """Remove the top ``k`` cards of pile ``i`` and turn up a card left face down on top."""
    n = s[LEN + i] - k
    s[LEN + i] = n
    if n > 0 and s[DOWN + i] == n:
        s[DOWN + i] = n - 1


@njit(cache=True, _nrt=False)
def _put(s, card, dst):
    if dst == LOC_FOUNDATION:
        s[FOUND + SUIT[card]] += 1
    else:
        n = s[LEN + dst]
        s[PILE_CAP * dst + n] = card
        s[LEN + dst] = n + 1


@njit(cache=True, _nrt=False)
def apply_move(s, code, v):
    """Play move ``code`` on state ``s`` in place (no legality checks)."""
    src = code & 15
    dst = (code >> 4) & 15
    count = (code >> 8) & 63
    card = (code >> 14) & 63
    recycle = (code >> 20) & 1
    if src == 8:  # plain draw
        wp = s[WP] + v[V_DRAW]
        s[WP] = min(wp, s[TLEN])
        return
    if dst == 8:  # plain recycle
        s[WP] = 0
        s[PASS] = min(s[PASS] + 1, PASS_CAP)
        return
    if src == SRC_TALON:
        tlen = s[TLEN]
        q = 0
        while s[TALON + q] != card:
            q += 1
        for k in range(q, tlen - 1):
            s[TALON + k] = s[TALON + k + 1]
        s[TLEN] = tlen - 1
        s[WP] = q
        if recycle:
            s[PASS] = min(s[PASS] + 1, PASS_CAP)
        _put(s, card, dst)
        return
    if src == LOC_FOUNDATION:
        s[FOUND + SUIT[card]] -= 1
        _put(s, card, dst)
        return
    n = s[LEN + src]
    if dst == LOC_FOUNDATION:
        s[FOUND + SUIT[s[PILE_CAP * src + n - 1]]] += 1
    else:
        m = s[LEN + dst]
        base = PILE_CAP * src + n - count
        for k in range(count):
            s[PILE_CAP * dst + m + k] = s[base + k]
        s[LEN + dst] = m + count
    _take(s, src, count)
    if code & HOME_FLAG:  # then the card uncovered goes home
        s[FOUND + SUIT[s[PILE_CAP * src + s[LEN + src] - 1]]] += 1
        _take(s, src, 1)


@njit(cache=True, _nrt=False)
def _safe(s, card, fret):
    r = RANK[card]
    if r <= 2:
        return True
    if RED[card]:
        o1, o2 = 0, 3
    else:
        o1, o2 = 1, 2
    if s[FOUND + o1] < r - 1 or s[FOUND + o2] < r - 1:
        return False
    if fret:
        return s[FOUND + 3 - SUIT[card]] >= r - 2
    return True


@njit(cache=True, _nrt=False)
def free_talon(v):
    """Draw 1 with unlimited passes: every talon card can be made the waste
    top at any time, so the waste pointer does not matter."""
    return v[V_DRAW] == 1 and v[V_PASSES] == 0


@njit(cache=True, _nrt=False)
def autoplay(s, v, log, start):
    """Send safe tableau tops (and, when :func:`free_talon`, safe talon
    cards) to the foundations until none is left. Each is written to ``log``
    from ``start``: a pile index, or ``TALON_MARK + card`` for a talon card.
    Returns the new end."""
    fret = v[V_RETURN]
    end = start
    changed = True
    free = free_talon(v)
    while changed:
        changed = False
        if free:
            q = 0
            while q < s[TLEN]:
                card = s[TALON + q]
                if s[FOUND + SUIT[card]] + 1 == RANK[card] and _safe(s, card, fret):
                    apply_move(s, _pack(SRC_TALON, LOC_FOUNDATION, 1, card, 0), v)
                    log[end] = TALON_MARK + card
                    end += 1
                    changed = True
                else:
                    q += 1
        for i in range(7):
            n = s[LEN + i]
            if n == 0:
                continue
            card = s[PILE_CAP * i + n - 1]
            if s[FOUND + SUIT[card]] + 1 == RANK[card] and _safe(s, card, fret):
                s[FOUND + SUIT[card]] += 1
                _take(s, i, 1)
                log[end] = i
                end += 1
                changed = True
    return end


@njit(cache=True, _nrt=False)
def safe_moves_along(s, codes, v, log, ends):
    """Replay the line ``codes`` on ``s`` as a search plays it: :func:`autoplay`
    first and after each move. ``log`` gets every safe move in order and
    ``ends[i]`` is its end after step ``i`` (step 0 is the start). Returns
    the number logged, or -1 when ``log`` is too small."""
    cap = log.shape[0] - 52
    end = autoplay(s, v, log, 0)
    ends[0] = end
    for i in range(codes.shape[0]):
        if end > cap:
            return -1
        apply_move(s, codes[i], v)
        end = autoplay(s, v, log, end)
        ends[i + 1] = end
    return end


@njit(cache=True, _nrt=False)
def trivially_won(s, v):
    """No face-down card left and every talon card reachable at will: playing
    the lowest card left each time then wins."""
    for i in range(7):
        if s[DOWN + i] > 0:
            return False
    return s[TLEN] == 0 or (v[V_DRAW] == 1 and v[V_PASSES] == 0)


@njit(cache=True, _nrt=False)
def _add(mv, pr, n, code, priority):
    mv[n] = code
    pr[n] = priority
    return n + 1


@njit(cache=True, inline="always", _nrt=False)
def _key(card):
    """Cards that fit on the same tops share a key: rank and colour."""
    return RANK[card] * 2 + RED[card]


@njit(cache=True, _nrt=False)
def _talon_targets(s, v, mv, pr, n, q, recycle, cost, plain, acc, empty_mask, hosting):
    card = s[TALON + q]
    if s[FOUND + SUIT[card]] + 1 == RANK[card]:
        n = _add(mv, pr, n, _pack(SRC_TALON, LOC_FOUNDATION, 1, card, recycle), 900 - cost)
    if hosting and acc[32 + (RANK[card] - 1) * 2 + 1 - RED[card]] == 0:
        return n  # nothing could ever need it on the tableau now
    mask = acc[_key(card)]
    j = 0
    while mask:
        if mask & 1:
            n = _add(mv, pr, n, _pack(SRC_TALON, j, 1, card, recycle), 500 - cost)
        mask >>= 1
        j += 1
    if empty_mask and (v[V_ANY_EMPTY] != 0 or RANK[card] == 13):
        mask = empty_mask
        j = 0
        while mask:
            if mask & 1:
                n = _add(mv, pr, n, _pack(SRC_TALON, j, 1, card, recycle), 450 - cost)
                if not plain:
                    break
            mask >>= 1
            j += 1
    return n


@njit(cache=True, _nrt=False)
def generate(s, v, mv, pr, plain, acc):
    """Write the moves of ``s`` to ``mv`` (with priorities in ``pr``, higher
    first); returns how many. ``plain`` gives the engine's moves exactly
    (draw, recycle, every empty target); otherwise talon moves are macros and
    only the first empty pile is a target. ``acc`` is scratch space (64
    integers): for each rank and colour, the piles whose top accepts it."""
    n = 0
    any_empty = v[V_ANY_EMPTY]
    for k in range(32):
        acc[k] = 0
    empty_mask = 0
    for i in range(7):
        m = s[LEN + i]
        if m > 0:
            card = s[PILE_CAP * i + m - 1]
            if RANK[card] > 1:
                acc[(RANK[card] - 1) * 2 + 1 - RED[card]] |= 1 << i
            if s[FOUND + SUIT[card]] + 1 == RANK[card]:
                n = _add(mv, pr, n, _pack(i, LOC_FOUNDATION, 1, card, 0), 1000)
        else:
            empty_mask |= 1 << i
    tlen = s[TLEN]
    wp = s[WP]
    draw = v[V_DRAW]
    limit = v[V_PASSES]
    # Emptying a pile (kings only) can wait until a king is ready to fill it:
    # one face up with cards under it, in the talon, or on a foundation.
    king_waiting = plain or any_empty != 0
    if not king_waiting:
        for q in range(tlen):
            if RANK[s[TALON + q]] == 13:
                king_waiting = True
        for i in range(7):
            down = s[DOWN + i]
            if down > 0 and RANK[s[PILE_CAP * i + down]] == 13:
                king_waiting = True
        if v[V_RETURN]:
            for suit in range(4):
                if s[FOUND + suit] == 13:
                    king_waiting = True
    # With a free talon a card leaves it for the tableau only to hold another
    # card: one of rank one lower and the other colour must be face up, in
    # the talon, or (with foundation return) on a foundation. acc[32 + key]
    # marks the rank and colours at hand.
    hosting = not plain and free_talon(v)
    if hosting:
        for k in range(32, 64):
            acc[k] = 0
        for i in range(7):
            for k in range(s[DOWN + i], s[LEN + i]):
                acc[32 + _key(s[PILE_CAP * i + k])] = 1
        for q in range(tlen):
            acc[32 + _key(s[TALON + q])] = 1
        if v[V_RETURN]:
            for suit in range(4):
                for r in range(s[FOUND + suit]):
                    acc[32 + _key(suit * 13 + r)] = 1
    if plain:
        if wp > 0:
            n = _talon_targets(s, v, mv, pr, n, wp - 1, 0, 0, True, acc, empty_mask, False)
    elif tlen > 0:
        if wp > 0:
            n = _talon_targets(s, v, mv, pr, n, wp - 1, 0, 0, False, acc, empty_mask, hosting)
        pos = wp
        steps = 0
        while pos < tlen:
            pos = min(pos + draw, tlen)
            steps += 1
            n = _talon_targets(s, v, mv, pr, n, pos - 1, 0, steps, False, acc, empty_mask, hosting)
        if limit == 0 or s[PASS] < limit:
            # After a recycle: waste tops draw, 2*draw, ... (and the last card),
            # skipping those this pass reaches anyway.
            pos = 0
            rsteps = steps + 1
            while pos < tlen:
                pos = min(pos + draw, tlen)
                rsteps += 1
                reached = pos == wp or (pos > wp and ((pos - wp) % draw == 0 or pos == tlen))
                if not reached:
                    n = _talon_targets(s, v, mv, pr, n, pos - 1, 1, rsteps, False, acc, empty_mask, hosting)
    for i in range(7):
        m = s[LEN + i]
        down = s[DOWN + i]
        for k in range(1, m - down + 1):
            base = s[PILE_CAP * i + m - k]
            whole = k == m
            partial = k < m - down
            exposed_home = False
            if partial:
                e = s[PILE_CAP * i + m - k - 1]
                exposed_home = s[FOUND + SUIT[e]] + 1 == RANK[e]
            if k == m - down and down > 0:
                priority = 800 + down
            elif whole:
                priority = 700
            else:
                priority = 200
            # A partial move onto a pile can only go onto the twin (same rank
            # and colour) of the card it uncovers, which leaves an equivalent
            # position unless that card can then go to its foundation.
            if (plain or not partial or exposed_home) and (king_waiting or not whole):
                mask = acc[_key(base)] & ~(1 << i)
                j = 0
                while mask:
                    if mask & 1:
                        n = _add(mv, pr, n, _pack(i, j, k, base, 0) | (0 if plain or not partial else HOME_FLAG),
                                 priority)
                    mask >>= 1
                    j += 1
            if not whole and empty_mask and (any_empty != 0 or RANK[base] == 13):
                mask = empty_mask
                j = 0
                while mask:
                    if mask & 1:
                        n = _add(mv, pr, n, _pack(i, j, k, base, 0), priority - 50)
                        if not plain:
                            break
                    mask >>= 1
                    j += 1
    if v[V_RETURN]:
        for suit in range(4):
            f = s[FOUND + suit]
            if f > 0:
                card = suit * 13 + f - 1
                if not plain and _safe(s, card, 1):
                    continue  # autoplay would send it straight back
                mask = acc[_key(card)]
                j = 0
                while mask:
                    if mask & 1:
                        n = _add(mv, pr, n, _pack(LOC_FOUNDATION, j, 1, card, 0), 100)
                    mask >>= 1
                    j += 1
                if empty_mask and (any_empty != 0 or RANK[card] == 13):
                    mask = empty_mask
                    j = 0
                    while mask:
                        if mask & 1:
                            n = _add(mv, pr, n, _pack(LOC_FOUNDATION, j, 1, card, 0), 50)
                            if not plain:
                                break
                        mask >>= 1
                        j += 1
    if plain:
        if wp < tlen:
            n = _add(mv, pr, n, _pack(8, SRC_TALON, 1, 0, 0), 0)
        elif tlen > 0 and (limit == 0 or s[PASS] < limit):
            n = _add(mv, pr, n, _pack(SRC_TALON, 8, 1, 0, 0), 0)
    return n


@njit(cache=True, inline="always", _nrt=False)
def _mix(x):
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return x


@njit(cache=True, _nrt=False)
def _pile_hash(s, i):
    n = s[LEN + i]
    down = s[DOWN + i]
    p1 = np.uint64(0x9E3779B97F4A7C15)
    p2 = np.uint64(0xD1B54A32D192ED03)
    # The face-down cards and the lowest face-up card only: the rest of the
    # face-up tableau follows from the other parts of the state, up to twins.
    for k in range(min(down + 1, n)):
        up = 1 if k >= down else 0
        card = s[PILE_CAP * i + k]
        p1 ^= Z1[up, k, card]
        p2 ^= Z2[up, k, card]
    return _mix(p1), _mix(p2 ^ np.uint64(0x632BE59BD9B4E019))


@njit(cache=True, _nrt=False)
def _talon_hash(s):
    t1 = np.uint64(0)
    t2 = np.uint64(0)
    for k in range(s[TLEN]):
        card = s[TALON + k]
        t1 ^= ZT1[card]
        t2 ^= ZT2[card]
    return t1, t2


@njit(cache=True, _nrt=False)
def _combine(s, v, ph1, ph2, t1, t2):
    h1 = t1
    h2 = t2
    for i in range(7):
        h1 += ph1[i]
        h2 += ph2[i]
    for f in range(4):
        h1 ^= ZF1[f, s[FOUND + f]]
        h2 ^= ZF2[f, s[FOUND + f]]
    wp = s[WP]
    if v[V_PASSES] == 0 and (wp % v[V_DRAW] == 0 or wp == s[TLEN]):
        # With unlimited passes these waste positions are all reachable from
        # one another by drawing and recycling: one state.
        wp = 0
    h1 ^= ZW1[wp]
    h2 ^= ZW2[wp]
    if v[V_PASSES] != 0:
        h1 ^= ZP1[s[PASS]]
        h2 ^= ZP2[s[PASS]]
    return h1 | np.uint64(1), h2


@njit(cache=True, _nrt=False)
def hash_at(states, d, v, ph1, ph2, th1, th2):
    """The state hash of ``states[d]``, reusing the pile and talon hashes of
    ``states[d - 1]`` for what did not change (a pile changes exactly when
    its size or face-down count does)."""
    s = states[d]
    if d == 0:
        for i in range(7):
            ph1[d, i], ph2[d, i] = _pile_hash(s, i)
        th1[d], th2[d] = _talon_hash(s)
    else:
        p = states[d - 1]
        for i in range(7):
            if s[LEN + i] != p[LEN + i] or s[DOWN + i] != p[DOWN + i]:
                ph1[d, i], ph2[d, i] = _pile_hash(s, i)
            else:
                ph1[d, i] = ph1[d - 1, i]
                ph2[d, i] = ph2[d - 1, i]
        if s[TLEN] != p[TLEN]:
            th1[d], th2[d] = _talon_hash(s)
        else:
            th1[d] = th1[d - 1]
            th2[d] = th2[d - 1]
    return _combine(s, v, ph1[d], ph2[d], th1[d], th2[d])


@njit(cache=True, _nrt=False)
def _insert(table, h1, h2):
    """Add a key to the open-addressing table (rows of two words, so one
    probe touches one cache line); False when it was there already."""
    size = table.shape[0]
    idx = np.int64(h1 & np.uint64(size - 1))
    while table[idx, 0] != 0:
        if table[idx, 0] == h1 and table[idx, 1] == h2:
            return False
        idx = (idx + 1) & (size - 1)
    table[idx, 0] = h1
    table[idx, 1] = h2
    return True


@njit(cache=True, _nrt=False)
def sort_moves(mv, pr, n):
    """Sort the first ``n`` moves by priority, highest first (an insertion
    sort, stable: there are few moves)."""
    for a in range(1, n):
        c = mv[a]
        p = pr[a]
        b = a - 1
        while b >= 0 and pr[b] < p:
            mv[b + 1] = mv[b]
            pr[b + 1] = pr[b]
            b -= 1
        mv[b + 1] = c
        pr[b + 1] = p


@njit(cache=True, _nrt=False)
def _expand(states, mv, nm, mi, pr_tmp, mv_tmp, d, v, acc):
    """Generate and order the moves of ``states[d]``."""
    n = generate(states[d], v, mv_tmp, pr_tmp, False, acc)
    salt = v[V_SALT]
    if salt != 0:
        # Another order for a probe search: a pseudo-random bonus of up to
        # 250 per move, fixed by the salt, the move and the depth.
        for a in range(n):
            x = np.uint64(salt) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(mv_tmp[a]) * np.uint64(64)
            x = _mix(x + np.uint64(d))
            pr_tmp[a] += np.int32(x % np.uint64(251))
    sort_moves(mv_tmp, pr_tmp, n)
    if v[V_WIDTH] > 0 and n > v[V_WIDTH]:
        n = v[V_WIDTH]
    for a in range(n):
        mv[d, a] = mv_tmp[a]
    nm[d] = n
    mi[d] = 0


#: The arrays :func:`start` takes, in order, by their names in :func:`new_context`
#: (``v`` is the variant parameters array, :func:`cardtable.solver._state.variant_params`).
START_ARGS = ("states", "mv", "nm", "mi", "auto", "na", "table", "ctl", "v", "pr_tmp", "mv_tmp", "ph1", "ph2", "th1",
              "th2", "acc")


@njit(cache=True, _nrt=False)
def start(states, mv, nm, mi, auto, na, table, ctl, v, pr_tmp, mv_tmp, ph1, ph2, th1, th2, acc):
    """Set up a search from ``states[0]`` (safe moves are played first)."""
    na[0] = autoplay(states[0], v, auto[0], 0)
    ctl[C_DEPTH] = 0
    ctl[C_STATES] = 1
    ctl[C_CUT] = 0
    ctl[C_PEAK] = 0
    if trivially_won(states[0], v):
        ctl[C_STATUS] = WON
        return
    ctl[C_STATUS] = RUNNING
    h1, h2 = hash_at(states, 0, v, ph1, ph2, th1, th2)
    _insert(table, h1, h2)
    ctl[C_FILLED] = 1
    _expand(states, mv, nm, mi, pr_tmp, mv_tmp, 0, v, acc)


#: The arrays :func:`run` takes, in order, before its ``budget``.
RUN_ARGS = START_ARGS


@njit(cache=True, _nrt=False, nogil=True)  # other threads (an app's event loop) run meanwhile
def run(states, mv, nm, mi, auto, na, table, ctl, v, pr_tmp, mv_tmp, ph1, ph2, th1, th2, acc, budget):
    """Search on for up to ``budget`` new states; the whole search lives in
    the arrays, so calling again resumes it. Returns the status.

    On a win ``ctl[C_DEPTH]`` is the depth of the won state, and the move
    played at each depth ``d`` below it is ``mv[d, mi[d] - 1]`` (see
    :func:`winning_path`). The safe moves logged in ``auto`` and ``na`` are
    scratch: a caller re-derives them with :func:`autoplay`."""
    if ctl[C_STATUS] != RUNNING:
        return ctl[C_STATUS]
    d = ctl[C_DEPTH]
    limit = ctl[C_STATES] + budget
    full = (table.shape[0] * 3) // 4
    max_depth = states.shape[0] - 1
    while True:
        if ctl[C_FILLED] >= full:
            ctl[C_DEPTH] = d
            ctl[C_STATUS] = TABLE_FULL
            return TABLE_FULL
        if mi[d] >= nm[d]:
            d -= 1
            if d < 0:
                ctl[C_STATUS] = EXHAUSTED
                ctl[C_DEPTH] = 0
                return EXHAUSTED
            continue
        code = mv[d, mi[d]]
        mi[d] += 1
        ctl[C_TRIED] += 1
        child = states[d + 1]
        parent = states[d]
        for k in range(STATE_SIZE):
            child[k] = parent[k]
        apply_move(child, code, v)
        na[d + 1] = autoplay(child, v, auto[d + 1], 0)
        if trivially_won(child, v):
            ctl[C_DEPTH] = d + 1
            ctl[C_STATUS] = WON
            return WON
        h1, h2 = hash_at(states, d + 1, v, ph1, ph2, th1, th2)
        if not _insert(table, h1, h2):
            continue
        ctl[C_STATES] += 1
        ctl[C_FILLED] += 1
        if d + 1 >= max_depth:
            ctl[C_CUT] = 1
            continue
        d += 1
        if d > ctl[C_PEAK]:
            ctl[C_PEAK] = d
        _expand(states, mv, nm, mi, pr_tmp, mv_tmp, d, v, acc)
        if ctl[C_STATES] >= limit:
            ctl[C_DEPTH] = d
            return RUNNING


@njit(cache=True, _nrt=False)
def rehash(table, bigger):
    """Copy every key of a table into a bigger one."""
    for idx in range(table.shape[0]):
        if table[idx, 0] != 0:
            _insert(bigger, table[idx, 0], table[idx, 1])


def winning_path(mv: np.ndarray, mi: np.ndarray, ctl: np.ndarray) -> list[int]:
    """The move codes from the root to the won state of a search that
    :func:`run` (or :func:`start`) left at ``WON``."""
    return [int(mv[d, mi[d] - 1]) for d in range(int(ctl[C_DEPTH]))]


def new_context(table_bits: int, v: np.ndarray) -> dict[str, np.ndarray]:
    """Fresh arrays for one search with a table of ``2**table_bits`` entries
    and variant parameters ``v``, by the names of :data:`START_ARGS`."""
    depth = MAX_DEPTH + 1
    return {
        "v": v,
        "states": np.zeros((depth, STATE_SIZE), dtype=np.int8),
        "mv": np.zeros((depth, MAX_MOVES), dtype=np.int32),
        "nm": np.zeros(depth, dtype=np.int32),
        "mi": np.zeros(depth, dtype=np.int32),
        "auto": np.zeros((depth, 52), dtype=np.int16),
        "na": np.zeros(depth, dtype=np.int32),
        "table": np.zeros((1 << table_bits, 2), dtype=np.uint64),
        "ctl": np.zeros(CTL_SIZE, dtype=np.int64),
        "pr_tmp": np.zeros(MAX_MOVES, dtype=np.int32),
        "mv_tmp": np.zeros(MAX_MOVES, dtype=np.int32),
        "ph1": np.zeros((depth, 7), dtype=np.uint64),
        "ph2": np.zeros((depth, 7), dtype=np.uint64),
        "th1": np.zeros(depth, dtype=np.uint64),
        "th2": np.zeros(depth, dtype=np.uint64),
        "acc": np.zeros(64, dtype=np.int64),
    }
