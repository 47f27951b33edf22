"""The compiled step of ``cardtable/Klondike-v0``: its arrays and constants.

Private: :class:`cardtable.envs.klondike.KlondikeEnv` is the only caller. The
step itself is C (``EnvCore`` in ``cardtable/solver/_ccore.c``), on
Klondike's one compiled rules library: the position lives in the solver's
array state (:mod:`cardtable.solver._state`), the plain move generator lists
exactly the engine's moves and ``apply_move`` plays them. The step only
numbers the moves as actions, writes the observation, pays the reward and
keeps the episode's clock, one compiled call a step. The rules engine stays
the authority: ``tests/envs/test_fast_matches_engine.py`` plays random
episodes through both and compares every mask, observation, reward and end.

An environment keeps five arrays (see :func:`new_arrays`), which its
:func:`core` holds for its life:

- ``b8`` (``int8``): row 0 the array state, row 1 the action mask (its
  first :data:`ACTIONS` entries) and room for a shuffled deck;
- ``obs`` (``int16``): the observation;
- ``b32`` (``int32``): rows 0 and 1 the move generator's scratch, row 2 the
  move code of each legal action;
- ``b64`` (``int64``): row 0 the counters (``C_*``), row 1 unused (the
  generator needs no scratch now), row 2 the variant parameters, row 3 a position key (for
  ``truncate_on_repeat``), row 4 the Vegas money of 0..52 foundation cards;
- ``hist`` (``int16``): the action of every move played this episode, so the
  engine's copy of the game can be brought up to date when asked for (a
  longer one is handed over with ``set_history``).
"""

from __future__ import annotations

import numpy as np

from cardtable.envs import _layout
from cardtable.klondike.variant import Variant
from cardtable.solver import _ccore
from cardtable.solver._state import STATE_SIZE, params

# The numbers come from their one source, cardtable/envs/_layout.py, which
# also writes them into the compiled step's header (cardtable/solver/env_layout.h).
ACTIONS = _layout.ACTIONS
STOP = _layout.ACTION_BASE["stop"]
DRAW = _layout.ACTION_BASE["draw"]
RECYCLE = _layout.ACTION_BASE["recycle"]
CAP = _layout.CAP
WIDTH = _layout.WIDTH
DECK = _layout.DECK  # where row 1 of b8 holds a shuffled deck
OBS_SIZE = _layout.OBSERVATION_SIZE
assert STATE_SIZE <= ACTIONS and _ccore.MAX_MOVES >= ACTIONS  # the rows of b8 and b32

# Counters, b64[0, C_*] (_layout.COUNTERS names them in order).
(C_PASS_LIMIT,  # 0: unlimited
 C_PASS, C_MOVES, C_STEPS, C_MAX_STEPS, C_STALL,
 C_STALL_LIMIT,  # 0: none
 C_BEST, C_FEWEST,
 C_REWARD,  # 0 foundation, 1 win, 2 vegas
 C_BANKED, C_RAISE, C_REPEAT, C_PROGRESS, C_FOUND) = range(len(_layout.COUNTERS))

REWARD_KINDS = ("foundation", "win", "vegas")

# Step results (_layout.RESULTS names them in order): RUNNING needs nothing
# more; the others end the episode or ask the caller to finish the step.
# STALLED: the stall limit, the caller runs the dead-position search;
# ILLEGAL: illegal_action="raise", nothing was done; CLOCK:
# truncate_on_repeat, the caller checks for a repeat and the step limit;
# GROW: the move history is full, the caller makes room.
RUNNING, WON, NO_MOVES, STOPPED, STALLED, MAX_STEPS, ILLEGAL, CLOCK, GROW = range(len(_layout.RESULTS))


def new_arrays() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Fresh ``(b8, obs, b32, b64, hist)`` for one environment."""
    return (np.zeros((2, DECK + 52), dtype=np.int8), np.zeros(OBS_SIZE, dtype=np.int16),
            np.zeros((3, _ccore.MAX_MOVES), dtype=np.int32), np.zeros((5, WIDTH), dtype=np.int64),
            np.zeros(1024, dtype=np.int16))


def core(b8: np.ndarray, obs: np.ndarray, b32: np.ndarray, b64: np.ndarray, hist: np.ndarray) -> _ccore.EnvCore:
    """The compiled step over these arrays: ``deal(seed)``, ``reset()``,
    ``step(action)`` and ``set_history(hist)``."""
    return _ccore.EnvCore(b8, obs, b32, b64, hist)


def variant_row(variant: Variant) -> np.ndarray:
    """The variant's parameters as the rules library reads them
    (:func:`cardtable.solver._state.params`), with no pass limit: the
    environment counts passes itself (the state's count stops at 100) and
    drops the recycle move when none is left."""
    v = np.zeros(WIDTH, dtype=np.int64)
    rules = params(variant.replace(passes=None))
    v[:len(rules)] = rules
    return v
