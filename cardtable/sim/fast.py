"""The compiled fast path of the ``priority`` bot.

The strategy is stated once, in :mod:`cardtable.bots.klondike.priority`
(seed 002's order of moves), and played there through the rules engine. The
kernel here is its compiled copy: :func:`priority_choice` picks the same move
in any position of any Klondike variant, and the batches play seed 002's game
(draw 1, a single pass through the stock, kings only in empty piles, no
foundation return, Vegas money: $52 to play, $5 a card) many deals at a time.
``tests/sim/test_fast_priority.py`` holds the kernel to the bot, move for move.

The kernel is C, on Klondike's one compiled rules library (the solver's
array state, shuffle, deal and move codes: ``cardtable/solver/klondike.h``),
compiled when the package is installed; a batch runs in one call with the
GIL released.

Deals here are arrays of 52 card indices (``Card.index``) in dealing order,
as in :meth:`cardtable.klondike.Position.from_deal_cards`.

>>> result = priority_batch(np.arange(1000))
>>> bool((result.foundation <= 52).all()), result.foundation.dtype.name
(True, 'int8')
>>> priority_game_moves(shuffled_deck_indices(7))[0]
'D'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from cardtable.klondike.game import KlondikeGame
from cardtable.klondike.moves import Move
from cardtable.klondike.variant import Scoring, Variant
from cardtable.solver import _ccore
from cardtable.solver._state import params, plain_move, state_bytes

__all__ = [
    "PriorityBatch",
    "deals_from_seeds",
    "move_code_to_string",
    "net_dollars",
    "priority_batch",
    "priority_batch_deals",
    "priority_choice",
    "priority_game_moves",
    "priority_games_moves",
    "shuffled_deck_indices",
    "warm_up",
]

#: The game this kernel plays: seed 002's rules and Vegas money.
SEED_002 = Variant.preset("seed-002")
_SEED_002_RULES = params(SEED_002)


class PriorityBatch(NamedTuple):
    """Per-game results of a batch: cards on the foundations (0..52, int8)
    and moves made (draws included, int16). Unpacks as ``foundation, moves``."""

    foundation: np.ndarray
    moves: np.ndarray

    @property
    def won(self) -> np.ndarray:
        """True for the games that ended with all 52 cards on the foundations."""
        return self.foundation == 52

    @property
    def net(self) -> np.ndarray:
        """Each game's Vegas net in dollars under seed 002's money
        (:meth:`cardtable.klondike.Scoring.money`: $5 a card, $52 to play)."""
        return net_dollars(self.foundation)


def net_dollars(foundation: np.ndarray, scoring: Scoring = SEED_002.scoring) -> np.ndarray:
    """Vegas net per game (int64) from foundation counts, under ``scoring``'s
    amounts (seed 002's by default)."""
    return scoring.money(np.asarray(foundation, dtype=np.int64))


def warm_up() -> None:
    """Run every kernel once on two games (the kernels are compiled at
    install, so this only loads the module and touches its code)."""
    seeds = np.arange(2, dtype=np.uint64)
    priority_batch(seeds)
    deals = deals_from_seeds(seeds)
    priority_batch_deals(deals)
    priority_games_moves(deals)


def _seeds_array(seeds: np.ndarray | Sequence[int]) -> np.ndarray:
    array = np.asarray(seeds)
    if array.ndim != 1:
        raise ValueError(f"seeds must be one-dimensional, not shape {array.shape}")
    if array.dtype.kind == "i" and array.size and array.min() < 0:
        raise ValueError(f"seeds must be non-negative integers, not {int(array.min())}")
    if array.dtype.kind not in "iu" and array.size:
        raise ValueError(f"seeds must be integers, not {array.dtype}")
    return np.ascontiguousarray(array, dtype=np.uint64)


def _deals_array(deals: np.ndarray | Sequence[Sequence[int]]) -> np.ndarray:
    array = np.asarray(deals)
    if array.ndim == 1:
        array = array.reshape(1, -1)
    if array.ndim != 2 or array.shape[1] != 52:
        raise ValueError(f"deals must have shape (n, 52), not {array.shape}")
    if array.dtype.kind not in "iu" and array.size:
        raise ValueError(f"deals must hold integer card indices, not {array.dtype}")
    if array.size and (array.min() < 0 or array.max() > 51):
        raise ValueError("deals must hold card indices 0..51")
    array = np.ascontiguousarray(array, dtype=np.int8)
    bad = _ccore.first_invalid_deal(array)
    if bad >= 0:
        raise ValueError(f"deal {bad} is not a permutation of the card indices 0..51: {array[bad].tolist()}")
    return array


def deals_from_seeds(seeds: np.ndarray | Sequence[int]) -> np.ndarray:
    """The deals of many seeds, shuffled in compiled code: an ``(n, 52)`` int8
    array whose row ``i`` is ``[c.index for c in shuffled_deck(seeds[i])]``."""
    array = _seeds_array(seeds)
    out = np.empty((array.shape[0], 52), dtype=np.int8)
    _ccore.deals_from_seeds(array, out)
    return out


def shuffled_deck_indices(seed: int) -> np.ndarray:
    """One seed's deal as 52 int8 card indices (compiled :func:`~cardtable.cards.shuffled_deck`)."""
    return deals_from_seeds([seed])[0]


def priority_batch(seeds: np.ndarray | Sequence[int]) -> PriorityBatch:
    """Play the deal of each seed (as :meth:`KlondikeGame.from_seed`) by the
    priority strategy; deals are shuffled in compiled code, nothing is recorded."""
    array = _seeds_array(seeds)
    foundation = np.empty(array.shape[0], dtype=np.int8)
    moves = np.empty(array.shape[0], dtype=np.int16)
    _ccore.priority(array, True, _SEED_002_RULES, foundation, moves, None)
    return _checked(foundation, moves)


def priority_batch_deals(deals: np.ndarray | Sequence[Sequence[int]]) -> PriorityBatch:
    """Play each deal (an ``(n, 52)`` array of card indices in dealing order)."""
    array = _deals_array(deals)
    foundation = np.empty(array.shape[0], dtype=np.int8)
    moves = np.empty(array.shape[0], dtype=np.int16)
    _ccore.priority(array, False, _SEED_002_RULES, foundation, moves, None)
    return _checked(foundation, moves)


def _checked(foundation: np.ndarray, moves: np.ndarray) -> PriorityBatch:
    if moves.size and moves.min() < 0:
        raise RuntimeError(f"game {int(np.argmin(moves))} ran past {_ccore.PRIORITY_MAX_MOVES} moves; "
                           "the fast path has a bug")
    return PriorityBatch(foundation, moves)


def move_code_to_string(code: int) -> str:
    """A kernel move code (the solver core's packed code of a plain move) in
    the engine's move notation (``D``, ``W>F``, ``2>6:3``, ...)."""
    return str(plain_move(code))


def priority_games_moves(deals: np.ndarray | Sequence[Sequence[int]]) -> list[list[str]]:
    """The moves of each deal's game, written as the engine writes them."""
    array = _deals_array(deals)
    foundation = np.empty(array.shape[0], dtype=np.int8)
    moves = np.empty(array.shape[0], dtype=np.int16)
    codes = np.zeros((array.shape[0], _ccore.PRIORITY_MAX_MOVES), dtype=np.int32)
    _ccore.priority(array, False, _SEED_002_RULES, foundation, moves, codes)
    _checked(foundation, moves)
    # The codes played (0: no move), without np.unique: its import of numpy.ma costs more than two games.
    names = {code: move_code_to_string(code) for code in set(codes[codes != 0].tolist())}
    return [[names[code] for code in row[:n].tolist()] for row, n in zip(codes, moves.tolist(), strict=True)]


def priority_game_moves(deal: np.ndarray | Sequence[int]) -> list[str]:
    """The moves of one deal's game (52 card indices in dealing order)."""
    return priority_games_moves(np.asarray(deal).reshape(1, -1))[0]


def priority_choice(game: KlondikeGame, memory: int = 0) -> tuple[Move | None, int]:
    """The compiled strategy's move in ``game`` under its variant (``None``:
    it stops) and the strategy's memory after that move. ``memory`` is what
    it remembers of its own earlier moves: 0 when it starts playing, then
    what the previous call returned.

    >>> game = KlondikeGame.from_seed(7)
    >>> move, memory = priority_choice(game)
    >>> str(move)
    'D'
    """
    code, after = _ccore.priority_choice(state_bytes(game), params(game.variant), memory)
    return (None if code < 0 else plain_move(code)), after
