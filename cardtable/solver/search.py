"""Solving a position: the Python side of the search.

:func:`solve` runs the compiled core (:mod:`cardtable.solver._core`) in
slices, checking the clock between them, turns a win into engine moves and
replays them in :class:`~cardtable.klondike.KlondikeGame` before it reports
``won``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from cardtable.cards import Card
from cardtable.klondike.game import KlondikeGame
from cardtable.klondike.moves import FOUNDATION, WASTE, Move
from cardtable.klondike.position import Position
from cardtable.klondike.variant import Variant
from cardtable.solver import _core
from cardtable.solver._state import LOC_FOUNDATION, SRC_TALON, encode, unpack, variant_params

__all__ = ["DEFAULT_MAX_STATES", "SolveResult", "SolverError", "solve"]

#: The state budget when none is given; the transposition table is sized for it.
DEFAULT_MAX_STATES = 20_000_000

Result = Literal["won", "unwinnable", "unknown"]


class SolverError(ValueError):
    """The solver was asked something it cannot do (a bad budget, say)."""


@dataclass(frozen=True)
class SolveResult:
    """What a search found.

    ``result`` is ``"won"`` (``moves`` win when played from the position, and
    were checked by replaying them in the engine), ``"unwinnable"`` (the
    search was exhaustive) or ``"unknown"`` (``reason`` says which budget ran
    out). ``states`` counts the distinct states searched.
    """

    result: Result
    moves: list[Move] = field(default_factory=list)
    states: int = 0
    seconds: float = 0.0
    reason: str = ""

    @property
    def decided(self) -> bool:
        """Won or proven unwinnable."""
        return self.result != "unknown"

    def to_dict(self) -> dict[str, object]:
        """The JSON form: result, moves (strings), states, seconds, reason."""
        data: dict[str, object] = {
            "result": self.result,
            "moves": [str(m) for m in self.moves],
            "states": self.states,
            "seconds": round(self.seconds, 6),
        }
        if self.reason:
            data["reason"] = self.reason
        return data


_START_BITS = 18


def _table_bits(max_states: int) -> int:
    """The smallest table that holds ``max_states`` states at 3/4 load."""
    bits = 10
    while (1 << bits) * 3 // 4 <= max_states + 1:
        bits += 1
    return bits


def solve(position: Position, variant: Variant, *, timeout: float | None = None,
          max_states: int | None = None) -> SolveResult:
    """Decide whether ``position`` can be won under ``variant``.

    ``timeout`` (seconds) and ``max_states`` bound the search; when one runs
    out the result is ``unknown``. The transposition table is sized for
    ``max_states`` (16 bytes a state), so memory stays bounded.

    >>> from cardtable.klondike import Position, Variant
    >>> solve(Position.from_seed(2), Variant.preset("thoughtful1")).result
    'won'
    """
    began = time.perf_counter()
    budget = DEFAULT_MAX_STATES if max_states is None else max_states
    if budget < 1:
        raise SolverError(f"the state budget must be at least 1, not {budget}")
    if timeout is not None and timeout <= 0:
        raise SolverError(f"the timeout must be positive, not {timeout}")
    max_bits = _table_bits(budget)
    ctx = _core.new_context(min(max_bits, _START_BITS))
    ctx["states"][0] = encode(position)
    v = variant_params(variant)
    args = (ctx["states"], ctx["mv"], ctx["nm"], ctx["mi"], ctx["auto"], ctx["na"], ctx["table"],
            ctx["ctl"], v, ctx["pr_tmp"], ctx["mv_tmp"], ctx["ph1"], ctx["ph2"], ctx["th1"],
            ctx["th2"], ctx["acc"])
    _core.start(*args)
    ctl = ctx["ctl"]
    step = 20_000
    reason = ""
    while ctl[_core.C_STATUS] == _core.RUNNING:
        left = budget - int(ctl[_core.C_STATES])
        if left <= 0:
            reason = f"state budget of {budget} states reached"
            break
        if timeout is not None and time.perf_counter() - began >= timeout:
            reason = f"time limit of {timeout:g} s reached"
            break
        if _core.run(*args, min(step, left)) == _core.TABLE_FULL:
            bits = int(ctx["table"].shape[0]).bit_length()  # one more than now
            if bits > max_bits:
                break
            bigger = np.zeros((1 << bits, 2), dtype=np.uint64)
            _core.rehash(ctx["table"], bigger)
            ctx["table"] = bigger
            args = (*args[:6], bigger, *args[7:])
            ctl[_core.C_STATUS] = _core.RUNNING
        step = min(step * 2, 200_000)
    status = int(ctl[_core.C_STATUS])
    states = int(ctl[_core.C_STATES])
    if status == _core.WON:
        moves = _solution(position, variant, ctx)
        return SolveResult("won", moves, states, time.perf_counter() - began)
    if status == _core.EXHAUSTED and not ctl[_core.C_CUT]:
        return SolveResult("unwinnable", [], states, time.perf_counter() - began)
    if status == _core.EXHAUSTED:
        reason = f"search paths longer than {_core.MAX_DEPTH} moves were cut"
    elif status == _core.TABLE_FULL:
        reason = "transposition table full"
    return SolveResult("unknown", [], states, time.perf_counter() - began, reason)


def _solution(position: Position, variant: Variant, ctx: dict) -> list[Move]:
    """The engine moves of the winning path in ``ctx``, replayed and completed
    (a trivially won end is finished by playing the lowest card each time)."""
    game = KlondikeGame(position, variant)
    depth = int(ctx["ctl"][_core.C_DEPTH])
    for d in range(depth + 1):
        if d > 0:
            code = int(ctx["mv"][d - 1, ctx["mi"][d - 1] - 1])
            for move in _expand_code(game, code):
                game.play(move)
        for k in range(int(ctx["na"][d])):
            mark = int(ctx["auto"][d, k])
            if mark >= _core.TALON_MARK:
                _play_from_talon(game, Card.from_index(mark - _core.TALON_MARK), FOUNDATION)
            else:
                game.play(Move(mark, FOUNDATION))
    _finish(game)
    if not game.is_won():
        raise AssertionError("solver bug: the solution does not win when replayed")
    return game.moves


def _expand_code(game: KlondikeGame, code: int) -> list[Move]:
    """The engine moves of one core move code, played on a copy to find the draws."""
    src, dst, count, card, recycle = unpack(code)
    target = FOUNDATION if dst == LOC_FOUNDATION else dst
    if src == LOC_FOUNDATION:
        return [Move(FOUNDATION, target, 1, Card.from_index(card).suit)]
    if src != SRC_TALON:
        return [Move(src, target, count)]
    probe = game.clone()
    moves: list[Move] = []
    draw = Move.parse("D")
    if recycle:
        while probe.stock:
            probe.play(draw)
            moves.append(draw)
        probe.play(Move.parse("R"))
        moves.append(Move.parse("R"))
    want = Card.from_index(card)
    while not probe.waste or probe.waste[-1] is not want:
        probe.play(draw)  # raises if the stock runs out: a core bug
        moves.append(draw)
    moves.append(Move(WASTE, target))
    return moves


def _play_from_talon(game: KlondikeGame, card: Card, target: int) -> None:
    """Draw (recycling when the stock runs out) until ``card`` is the waste top, then play it."""
    draw, recycle = Move.parse("D"), Move.parse("R")
    for _ in range(3 * 52):
        if game.waste and game.waste[-1] is card:
            game.play(Move(WASTE, target))
            return
        game.play(draw if game.stock else recycle)
    raise AssertionError(f"solver bug: {card} never reached the waste top")


def _finish(game: KlondikeGame) -> None:
    """Win a game with no face-down card whose talon cards are all reachable:
    play the lowest card left each time (it is a pile top or in the talon)."""
    draw, recycle = Move.parse("D"), Move.parse("R")
    while not game.is_won():
        lowest = min((c for pile in game.tableau for c in pile), key=lambda c: c.rank, default=None)
        talon_low = min(list(game.stock) + list(game.waste), key=lambda c: c.rank, default=None)
        if talon_low is not None and (lowest is None or talon_low.rank < lowest.rank):
            lowest = talon_low
        assert lowest is not None
        for i, pile in enumerate(game.tableau):
            if pile and pile[-1] is lowest:
                game.play(Move(i, FOUNDATION))
                break
        else:
            while not game.waste or game.waste[-1] is not lowest:
                game.play(draw if game.stock else recycle)
            game.play(Move(WASTE, FOUNDATION))
