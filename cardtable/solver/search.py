"""Solving a position: the Python side of the search.

:func:`solve` runs the compiled core (:mod:`cardtable.solver._core`) in
slices, checking the clock between them, turns a win into engine moves and
replays them in :class:`~cardtable.klondike.KlondikeGame` before it reports
``won``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from cardtable.cards import Card
from cardtable.klondike.game import KlondikeGame
from cardtable.klondike.moves import FOUNDATION, WASTE, Move
from cardtable.klondike.position import Position
from cardtable.klondike.variant import Variant
from cardtable.solver import _best, _core
from cardtable.solver._state import LOC_FOUNDATION, SRC_TALON, encode, unpack, variant_params

__all__ = ["DEFAULT_MAX_STATES", "SolveResult", "SolverError", "relaxation", "solve"]

#: The state budget when none is given (it bounds memory too; see :func:`solve`).
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

#: Probe searches (see :func:`solve`). The main search runs in slices of a
#: quarter of its states so far (at least ``_FIRST_PROBE``); after each slice
#: the live probes share one ``_PROBE_SHARE``-th of it, an older probe getting
#: more (probe ``k``, from 0, weighs ``1 / (k + 1)``). The first probe joins at
#: ``_FIRST_PROBE`` main states, the next at twice as many, and so on.
_FIRST_PROBE = 50_000
_PROBE_SHARE = 8
#: The probes in turn: first best-first searches with these estimate weights
#: and widths, then depth-first ones whose widths cycle through
#: ``_PROBE_WIDTHS``. Width 0 tries every move (a depth-first probe then
#: shuffles moves of similar priority); a width above 0 tries only the first
#: moves of each state, a search that finds wins but proves nothing.
_PROBE_BEST = ((1, 3), (1, 4), (2, 0))
_PROBE_WIDTHS = (2, 0, 3)


def _probe_order(k: int) -> tuple[str, int, int]:
    """The kind (``"best"`` or ``"depth"``), the estimate weight (best-first)
    or salt (depth-first), and the width of the ``k``-th probe, from 0."""
    if k < len(_PROBE_BEST):
        return "best", *_PROBE_BEST[k]
    k -= len(_PROBE_BEST)
    width = _PROBE_WIDTHS[k % len(_PROBE_WIDTHS)]
    return "depth", k // len(_PROBE_WIDTHS) + (1 if width == 0 else 0), width


def relaxation(variant: Variant) -> Variant | None:
    """An easier variant whose loss proves a loss under ``variant``: draw 1
    with unlimited passes (every talon card can then be made the waste top
    whenever it is wanted, so every line of play under ``variant`` can be
    played there too), or None when ``variant`` is that already."""
    if variant.draw == 1 and variant.passes is None:
        return None
    return variant.replace(draw=1, passes=None)


def _table_bits(max_states: int) -> int:
    """The smallest table that holds ``max_states`` states at 3/4 load."""
    bits = 10
    while (1 << bits) * 3 // 4 <= max_states + 1:
        bits += 1
    return bits


class _Search:
    """One depth-first search in the compiled core, run in slices."""

    #: Where the transposition table is in :attr:`args`.
    TABLE_ARG = 6

    def __init__(self, position: Position, variant: Variant, budget: int, salt: int = 0,
                 width: int = 0) -> None:
        ctx = self._begin(position, budget, width, _core.new_context)
        self.args = (ctx["states"], ctx["mv"], ctx["nm"], ctx["mi"], ctx["auto"], ctx["na"], ctx["table"],
                     ctx["ctl"], variant_params(variant, salt, width), ctx["pr_tmp"], ctx["mv_tmp"], ctx["ph1"],
                     ctx["ph2"], ctx["th1"], ctx["th2"], ctx["acc"])
        _core.start(*self.args)

    def _begin(self, position: Position, budget: int, width: int,
               new_context: Callable[[int], dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
        """Set what every search has; returns its fresh arrays."""
        self.budget = budget
        self.width = width
        self.max_bits = _table_bits(budget)
        self.ctx = new_context(min(self.max_bits, _START_BITS))
        self.ctx["states"][0] = encode(position)
        self.ctl = self.ctx["ctl"]
        self.reason = ""
        self.step = 20_000
        return self.ctx

    def _run(self, budget: int) -> int:
        return int(_core.run(*self.args, budget))

    @property
    def states(self) -> int:
        return int(self.ctl[_core.C_STATES])

    @property
    def running(self) -> bool:
        return self.ctl[_core.C_STATUS] == _core.RUNNING and not self.reason

    def advance(self, until_states: int, deadline: float | None) -> None:
        """Search on until ``until_states`` states (or the end, the budget or
        the deadline; the last two set :attr:`reason`)."""
        while self.running and self.states < until_states:
            left = min(self.budget, until_states) - self.states
            if self.states >= self.budget:
                self.reason = f"state budget of {self.budget} states reached"
                return
            if deadline is not None and time.perf_counter() >= deadline:
                self.reason = "time limit reached"
                return
            if self._run(min(self.step, left)) == _core.TABLE_FULL:
                self._grow()
            self.step = min(self.step * 2, 200_000)

    def _grow(self) -> None:
        table = self.args[self.TABLE_ARG]
        bits = int(table.shape[0]).bit_length()  # one more than now
        if bits > self.max_bits:
            return  # stays TABLE_FULL
        bigger = np.zeros((1 << bits, 2), dtype=np.uint64)
        _core.rehash(table, bigger)
        self.ctx["table"] = bigger
        self.args = (*self.args[:self.TABLE_ARG], bigger, *self.args[self.TABLE_ARG + 1:])
        self.ctl[_core.C_STATUS] = _core.RUNNING

    @property
    def won(self) -> bool:
        return self.ctl[_core.C_STATUS] == _core.WON

    @property
    def exhausted(self) -> bool:
        """Searched every state, so there is no win (a search of limited
        width, or one with paths cut at the depth limit, proves nothing)."""
        return self.ctl[_core.C_STATUS] == _core.EXHAUSTED and not self.ctl[_core.C_CUT] and not self.width


class _BestSearch(_Search):
    """A best-first search (:mod:`cardtable.solver._best`), run in slices."""

    TABLE_ARG = 5
    _NODE_ARGS = (8, 9, 10, 11)

    def __init__(self, position: Position, variant: Variant, budget: int, weight: int, width: int) -> None:
        ctx = self._begin(position, budget, width, lambda bits: _best.new_best_context(bits, 1 << _START_BITS))
        self.args = (ctx["states"], ctx["mv"], ctx["mi"], ctx["auto"], ctx["na"], ctx["table"], ctx["ctl"],
                     variant_params(variant), ctx["parent"], ctx["code"], ctx["depth"], ctx["link"], ctx["head"],
                     ctx["path"], ctx["chain"], ctx["moves"], ctx["prio"], ctx["acc"], ctx["ph1"], ctx["ph2"])
        _best.best_start(ctx["states"], ctx["auto"], ctx["na"], ctx["table"], ctx["ctl"], self.args[7],
                         ctx["parent"], ctx["code"], ctx["depth"], ctx["link"], ctx["head"], ctx["path"],
                         ctx["ph1"], ctx["ph2"], weight, width)

    def _run(self, budget: int) -> int:
        status = int(_best.best_run(*self.args, budget))
        if status == _best.NEED_ROOM:
            self._grow_nodes()
        return status

    def _grow_nodes(self) -> None:
        args = list(self.args)
        for index in self._NODE_ARGS:
            old = args[index]
            new = np.zeros(2 * old.shape[0], dtype=old.dtype)
            new[:old.shape[0]] = old
            args[index] = new
        for name, index in zip(("parent", "code", "depth", "link"), self._NODE_ARGS, strict=True):
            self.ctx[name] = args[index]
        self.args = tuple(args)


def solve(position: Position, variant: Variant, *, timeout: float | None = None,
          max_states: int | None = None) -> SolveResult:
    """Decide whether ``position`` can be won under ``variant``.

    ``timeout`` (seconds) and ``max_states`` bound the search; when one runs
    out the result is ``unknown``. ``max_states`` counts the states of every
    search below together, and their tables grow with the states they hold,
    so memory stays bounded: at most about 70 bytes a state (2.4 GB for 52
    million states, say).

    The main search is one exhaustive depth-first search. Depth-first search
    can sink its time into a lost subtree that another move order would have
    skipped, so *probe* searches of the same position run beside it: each
    time the main search grows by a quarter, the probes get an eighth of
    what it searched, an older probe getting more. The first probe joins at
    50,000 main states, and one more each time the main search doubles:
    three best-first searches (:mod:`cardtable.solver._best`: of the three
    and the four best moves of each state, then of every move), then in
    turns depth-first ones that try only the two best moves of each state,
    every move in a shuffled order, or the three best moves. Each
    resumes where it stopped. A win a probe finds, or an exhaustive probe of
    every move, settles the question; otherwise the main search goes on
    where it was.

    Unless the variant already draws one card with unlimited passes, a
    search under its :func:`relaxation` also runs, with as many states as
    the main search: every line of play under the variant can be played
    there, so when it finds no win there is none. (A loss there is often far
    quicker to prove: the waste pointer drops out of the state. A win there
    proves nothing, and that search then stops.)

    The result is the same for the same position, variant and state budget
    every time (unless the clock stops it).

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
    deadline = None if timeout is None else began + timeout
    main = _Search(position, variant, budget)
    probes: list[_Search] = []
    easier = relaxation(variant)
    relaxed: _Search | None = None
    next_probe = _FIRST_PROBE
    finished: _Search | None = None
    while main.running and finished is None:
        probed = sum(probe.states for probe in probes) + (relaxed.states if relaxed else 0)
        before = main.states
        checkpoint = max(before + before // 4, _FIRST_PROBE)
        main.advance(min(checkpoint, budget - probed), deadline)
        if not main.running or main.states < checkpoint:
            if main.running and main.states + probed >= budget:
                main.reason = f"state budget of {budget} states reached"
            break
        if easier is not None and relaxed is None:
            relaxed = _Search(position, easier, budget)  # only now: most deals are decided sooner
        if relaxed is not None and relaxed.running:
            # As many states as the main search has; a win there proves nothing.
            relaxed.advance(min(main.states, relaxed.states + budget - probed - main.states), deadline)
            if relaxed.exhausted:
                finished = relaxed
                break
            probed = sum(probe.states for probe in probes) + relaxed.states
        if main.states >= next_probe:
            next_probe *= 2
            kind, order, width = _probe_order(len(probes))
            if kind == "best":
                probes.append(_BestSearch(position, variant, budget, order, width))
            else:
                probes.append(_Search(position, variant, budget, order, width))
        allowance = min((main.states - before) // _PROBE_SHARE, budget - probed - main.states)
        live = [(1 / (k + 1), probe) for k, probe in enumerate(probes) if probe.running]
        total = sum(weight for weight, _ in live)
        for weight, probe in live:
            if allowance <= 0:
                break
            probe.advance(probe.states + max(int(allowance * weight / total), 1), deadline)
            if probe.won or probe.exhausted:
                finished = probe
                break
    search_ = finished or main
    states = main.states + sum(probe.states for probe in probes) + (relaxed.states if relaxed else 0)
    if search_.won:
        moves = _solution(position, variant, search_.ctx)
        return SolveResult("won", moves, states, time.perf_counter() - began)
    if search_.exhausted:
        return SolveResult("unwinnable", [], states, time.perf_counter() - began)
    if main.reason == "time limit reached":
        reason = f"time limit of {timeout:g} s reached"
    elif main.reason:
        reason = main.reason
    elif main.ctl[_core.C_STATUS] == _core.EXHAUSTED:
        reason = f"search paths longer than {_core.MAX_DEPTH} moves were cut"
    else:
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
