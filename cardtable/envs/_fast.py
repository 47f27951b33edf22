"""The compiled step of ``cardtable/Klondike-v0`` (numba, ``cache=True``).

Private: :class:`cardtable.envs.klondike.KlondikeEnv` is the only caller. The
position lives in the solver's array state (:mod:`cardtable.solver._state`);
the solver core lists its moves (``generate`` with ``plain`` set gives
exactly the engine's moves) and plays them (``apply_move``). This module only
numbers the moves as actions, writes the observation, pays the reward and
keeps the episode's clock, one compiled call a step. The rules engine stays
the authority: ``tests/envs/test_fast_matches_engine.py`` plays random
episodes through both and compares every mask, observation, reward and end.

An environment keeps five arrays (see :func:`new_arrays`), so a call unboxes
few arguments:

- ``b8`` (``int8``): row 0 the array state, row 1 the action mask (its
  first :data:`ACTIONS` entries) and room for a shuffled deck;
- ``obs`` (``int16``): the observation;
- ``b32`` (``int32``): rows 0 and 1 the move generator's scratch, row 2 the
  move code of each legal action;
- ``b64`` (``int64``): row 0 the counters (``C_*``), row 1 the generator's
  scratch, row 2 the variant parameters, row 3 a position key (for
  ``truncate_on_repeat``), row 4 the Vegas money of 0..52 foundation cards;
- ``hist`` (``int16``): the action of every move played this episode, so the
  engine's copy of the game can be brought up to date when asked for.

numba keys its on-disk cache of a kernel by the kernel's own file, but these
kernels inline the solver core and the simulator's shuffle: the cache of the
entry points is keyed by those files too (:func:`_key_cache_by_dependencies`),
so a change there compiles them afresh instead of loading stale code.
"""

from __future__ import annotations

import os

import numpy as np
from numba import njit

from cardtable.sim import _fast as _sim_fast
from cardtable.sim._fast import shuffle_into
from cardtable.solver import _core, _state
from cardtable.solver._core import MAX_MOVES, apply_move, generate
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
    V_PASSES,
    WP,
)

ACTIONS = 592
STOP = 591
DRAW = 589
RECYCLE = 590
CAP = 32_767
WIDTH = 128
DECK = 600  # where row 1 of b8 holds a shuffled deck
assert STATE_SIZE <= ACTIONS and MAX_MOVES >= ACTIONS  # the rows of b8 and b32

# Counters: b64[0, C_*].
C_PASS_LIMIT = 0  # 0: unlimited
C_PASS = 1
C_MOVES = 2
C_STEPS = 3
C_MAX_STEPS = 4
C_STALL = 5
C_STALL_LIMIT = 6  # 0: none
C_BEST = 7
C_FEWEST = 8
C_REWARD = 9  # 0 foundation, 1 win, 2 vegas
C_BANKED = 10
C_RAISE = 11
C_REPEAT = 12
C_PROGRESS = 13
C_FOUND = 14

REWARD_KINDS = ("foundation", "win", "vegas")

# Step results: RUNNING needs nothing more; the others end the episode or ask
# the caller to finish the step.
RUNNING = 0
WON = 1
NO_MOVES = 2
STOPPED = 3
STALLED = 4  # the stall limit: the caller runs the dead-position search
MAX_STEPS = 5
ILLEGAL = 6  # illegal_action="raise": nothing was done
CLOCK = 7  # truncate_on_repeat: the caller checks for a repeat and the step limit
GROW = 8  # the move history is full: the caller makes room


def new_arrays() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Fresh ``(b8, obs, b32, b64, hist)`` for one environment."""
    return (np.zeros((2, DECK + 52), dtype=np.int8), np.zeros(130, dtype=np.int16),
            np.zeros((3, MAX_MOVES), dtype=np.int32), np.zeros((5, WIDTH), dtype=np.int64),
            np.zeros(1024, dtype=np.int16))


@njit(cache=True)
def _action(code):
    """The action index of a plain move code."""
    src = code & 15
    dst = (code >> 4) & 15
    if src == 8:
        return DRAW
    if dst == 8:
        return RECYCLE
    if src == SRC_TALON:
        return 7 if dst == LOC_FOUNDATION else 8 + dst
    if src == LOC_FOUNDATION:
        return 561 + 7 * (((code >> 14) & 63) // 13) + dst
    if dst == LOC_FOUNDATION:
        return src
    place = dst if dst < src else dst - 1
    return 15 + 78 * src + 13 * place + ((code >> 8) & 63) - 1


@njit(cache=True)
def _look(b8, obs, b32, b64):
    """Write the mask, the move code of each legal action and the
    observation; returns how many moves are legal (the stop action aside)."""
    s = b8[0]
    mask = b8[1]
    ctl = b64[0]
    mv = b32[0]
    codes = b32[2]
    for a in range(STOP):
        mask[a] = 0
    n = generate(s, b64[2], mv, b32[1], True, b64[1])
    limit = ctl[C_PASS_LIMIT]
    legal = 0
    for q in range(n):
        a = _action(mv[q])
        if a == RECYCLE and limit != 0 and ctl[C_PASS] >= limit:
            continue
        mask[a] = 1
        codes[a] = mv[q]
        legal += 1
    for i in range(7):
        m = s[LEN + i]
        down = s[DOWN + i]
        at = 13 * i
        for q in range(down, m):
            obs[at] = s[PILE_CAP * i + q] + 1
            at += 1
        for q in range(at, 13 * i + 13):
            obs[q] = 0
        obs[91 + i] = down
    wp = s[WP]
    obs[98] = s[TLEN] - wp
    for q in range(wp):
        obs[99 + q] = s[TALON + wp - 1 - q] + 1
    for q in range(wp, 24):
        obs[99 + q] = 0
    for f in range(4):
        obs[123 + f] = s[FOUND + f]
    number = ctl[C_PASS]
    obs[127] = min(number, CAP)
    obs[128] = -1 if limit == 0 else min(max(limit - number, 0), CAP)
    obs[129] = min(ctl[C_MOVES], CAP)
    return legal


@njit(cache=True)
def _write_key(s, b64):
    """A key of the position (the same facts as the engine's ``key()``)."""
    key = b64[3]
    at = 0
    for i in range(7):
        m = s[LEN + i]
        key[at] = m
        key[at + 1] = s[DOWN + i]
        at += 2
        for q in range(m):
            key[at] = s[PILE_CAP * i + q]
            at += 1
    t = s[TLEN]
    key[at] = t
    key[at + 1] = s[WP]
    at += 2
    for q in range(t):
        key[at] = s[TALON + q]
        at += 1
    for f in range(4):
        key[at] = s[FOUND + f]
        at += 1
    key[at] = b64[0, C_PASS] if b64[0, C_PASS_LIMIT] != 0 else 0
    for q in range(at + 1, WIDTH):
        key[q] = 0


@njit(cache=True)
def _found(s):
    return s[FOUND] + s[FOUND + 1] + s[FOUND + 2] + s[FOUND + 3]


@njit(cache=True)
def _down(s):
    total = 0
    for i in range(7):
        total += s[DOWN + i]
    return total


@njit(cache=True)
def deal(b8, seed):
    """Write the deal of cardtable's deal number ``seed`` (a ``uint64``) as
    the array state ``b8[0]``: what ``encode(Position.from_seed(seed))`` gives."""
    s = b8[0]
    deck = b8[1, DECK:DECK + 52]
    shuffle_into(seed, deck)
    for q in range(s.shape[0]):
        s[q] = 0
    k = 0
    for row in range(7):
        for i in range(row, 7):
            s[PILE_CAP * i + row] = deck[k]
            k += 1
    for i in range(7):
        s[LEN + i] = i + 1
        s[DOWN + i] = i
    for q in range(24):  # the stock, top card first
        s[TALON + q] = deck[28 + q]
    s[TLEN] = 24
    s[PASS] = 1


@njit(cache=True)
def reset(b8, obs, b32, b64):
    """Start an episode from the state in ``b8[0]`` (counters already set):
    mask, observation and key; returns ``RUNNING``, ``WON`` or ``NO_MOVES``."""
    s = b8[0]
    ctl = b64[0]
    ctl[C_FOUND] = _found(s)
    ctl[C_BEST] = ctl[C_FOUND]
    ctl[C_FEWEST] = _down(s)
    legal = _look(b8, obs, b32, b64)
    _write_key(s, b64)
    if ctl[C_FOUND] == 52:
        return WON
    if legal == 0:
        return NO_MOVES
    return RUNNING


@njit(cache=True)
def step(b8, obs, b32, b64, hist, action):
    """Take action ``action`` (-1 for one out of range); returns the result
    code and the reward."""
    s = b8[0]
    ctl = b64[0]
    legal = action >= 0 and b8[1, action] != 0
    if not legal and ctl[C_RAISE] != 0:
        return ILLEGAL, 0.0
    ctl[C_STEPS] += 1
    before = _found(s)
    stopped = False
    if legal:
        if action == STOP:
            stopped = True
        else:
            apply_move(s, b32[2, action], b64[2])
            if action == RECYCLE:
                ctl[C_PASS] += 1
            moves = ctl[C_MOVES]
            hist[moves] = action
            ctl[C_MOVES] = moves + 1
    after = _found(s)
    ctl[C_FOUND] = after
    kind = ctl[C_REWARD]
    if kind == 0:
        reward = float(after - before)
    elif kind == 1:
        reward = 1.0 if after == 52 and before < 52 else 0.0
    else:
        money = b64[4, after]
        reward = float(money - ctl[C_BANKED])
        ctl[C_BANKED] = money
    count = _look(b8, obs, b32, b64)
    if after == 52:  # won, even where kings could come back from the foundations
        return WON, reward
    if count == 0:
        return NO_MOVES, reward
    if stopped:
        return STOPPED, reward
    down = _down(s)
    if after > ctl[C_BEST] or down < ctl[C_FEWEST]:
        ctl[C_BEST] = max(after, ctl[C_BEST])
        ctl[C_FEWEST] = min(down, ctl[C_FEWEST])
        ctl[C_STALL] = 0
        ctl[C_PROGRESS] = 1
    else:
        ctl[C_STALL] += 1
        ctl[C_PROGRESS] = 0
        if ctl[C_STALL_LIMIT] != 0 and ctl[C_STALL] >= ctl[C_STALL_LIMIT]:
            return STALLED, reward
    if ctl[C_REPEAT] != 0:
        _write_key(s, b64)
        return CLOCK, reward
    if ctl[C_STEPS] >= ctl[C_MAX_STEPS]:
        return MAX_STEPS, reward
    if ctl[C_MOVES] == hist.shape[0]:
        return GROW, reward
    return RUNNING, reward


def variant_row(draw: int, any_empty: bool, foundation_return: bool) -> np.ndarray:
    """The variant parameters as the solver core reads them, with no pass
    limit: the environment counts passes itself (the core's count stops at
    100) and drops the recycle move when none is left."""
    v = np.zeros(WIDTH, dtype=np.int64)
    v[:4] = (draw, 0, any_empty, foundation_return)
    assert v[V_PASSES] == 0
    return v



def _key_cache_by_dependencies(*kernels: object) -> None:
    """Make each kernel's on-disk cache stale when a file it inlines changes
    (numba checks only the kernel's own file). Where numba's cache objects
    look different, nothing changes."""
    try:
        stats = [os.stat(module.__file__ or "") for module in (_core, _state, _sim_fast)]
    except OSError:  # not plain files: numba's own rule stands
        return
    stamp = tuple((stat.st_mtime, stat.st_size) for stat in stats)
    for kernel in kernels:
        index = getattr(getattr(kernel, "_cache", None), "_cache_file", None)
        if index is not None and hasattr(index, "_source_stamp"):
            index._source_stamp = (index._source_stamp, stamp)


_key_cache_by_dependencies(deal, reset, step)
