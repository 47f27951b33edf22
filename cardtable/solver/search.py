"""Solving a position: the Python side of the search.

:func:`solve` builds a :class:`SearchSchedule` and runs it: the schedule runs
the compiled searches in slices, checking the clock between them, and
shares the state budget among them. Every search runs in the C core
(:mod:`cardtable.solver._ccore`, on Klondike's one compiled rules library):
one ``Search`` (depth-first) or ``BestSearch`` (best-first) object each,
which owns its memory. A search that wins gives its line as a list of core
move codes; :func:`_solution` has the core write it out as engine moves, each
checked against the rules' legal moves where it is played (see
:func:`line_moves`), before ``won`` is reported.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

from cardtable.errors import SolverError
from cardtable.klondike.game import KlondikeGame
from cardtable.klondike.moves import Move
from cardtable.klondike.position import Position
from cardtable.klondike.variant import Variant
from cardtable.solver import _ccore
from cardtable.solver._state import params, plain_move, state_bytes

__all__ = ["DEFAULT_MAX_STATES", "MAX_STATES", "TIMED_MAX_STATES", "SearchSchedule", "SolveResult", "SolverError",
           "check_budget", "line_moves", "relaxation", "search_line", "solve"]

#: The state budget when neither a budget nor a time limit is given (the
#: answer is then the same on any machine; it bounds memory too: see :func:`solve`).
DEFAULT_MAX_STATES = 20_000_000
#: The state budget when a time limit is given but no budget: the clock
#: governs, and this only caps memory, at about 2 GiB (see :func:`solve`).
TIMED_MAX_STATES = 40_000_000
#: The largest state budget a search takes: its table of seen states grows
#: to at most 2**40 slots (kept under 3/4 full), and at some 40 bytes a state
#: a budget this large already asks for terabytes.
MAX_STATES = 10**11

Result = Literal["won", "unwinnable", "unknown"]


@dataclass(frozen=True)
class SolveResult:
    """What a search found.

    ``result`` is ``"won"`` (``moves`` win when played from the position: each
    was checked against the legal moves of the position it is played in, and
    the last position is won; see :func:`line_moves`), ``"unwinnable"`` (the
    search was exhaustive) or ``"unknown"`` (``reason`` says which budget ran
    out). ``states`` counts the distinct states searched, ``memory`` the
    bytes the searches' transposition tables took at the end.
    """

    result: Result
    moves: list[Move] = field(default_factory=list)
    states: int = 0
    seconds: float = 0.0
    reason: str = ""
    memory: int = 0

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


_START_BITS = 14

#: Probe searches (see :class:`SearchSchedule`). The main search runs in
#: slices of a quarter of its states so far (at least ``_FIRST_PROBE``); after
#: each slice the live probes share one ``_PROBE_SHARE``-th of it, an older
#: probe getting more (probe ``k``, from 0, weighs ``1 / (k + 1)``). The first
#: probe joins at ``_FIRST_PROBE`` main states, the next at twice as many, and
#: so on.
_FIRST_PROBE = 5_000
#: Where the first probe joins in a search with ``wide=False`` (see :func:`solve`):
#: the schedule as it was before the wide rule.
_FIRST_PROBE_NARROW = 50_000
#: The main-search states after which the relaxed search (see :attr:`SearchSchedule.relaxed_budget`)
#: joins: most deals are decided sooner. With ``wide=False``, ``_FIRST_RELAXED_NARROW``: the
#: schedule as it was before the reveal-first search.
_FIRST_RELAXED = 10_000
_FIRST_RELAXED_NARROW = 50_000
_PROBE_SHARE = 8
#: The probes in turn: first best-first searches with these estimate weights
#: and widths, then depth-first ones whose widths cycle through
#: ``_PROBE_WIDTHS``. Width 0 tries every move (a depth-first probe then
#: shuffles moves of similar priority); a width above 0 tries only the first
#: moves of each state, a search that finds wins but proves nothing.
_PROBE_BEST = ((1, 3), (1, 4), (2, 0))
_PROBE_WIDTHS = (2, 0, 3)
#: The reveal-first search (see :class:`SearchSchedule`; with ``wide`` only):
#: once the main search has ``_REVEAL_FROM`` states (most deals are decided
#: sooner), the two take turns of ``_REVEAL_SLICE`` states until it has
#: ``_REVEAL_STATES``.
_REVEAL_FROM = 200
_REVEAL_SLICE = 200
_REVEAL_STATES = 2_000
#: The restarts (see :class:`SearchSchedule`; with ``wide`` only): after the
#: reveal-first search, short depth-first searches each in its own shuffled
#: order, ``_RESTART_UNIT`` states times the Luby sequence (1, 1, 2, 1, 1, 2,
#: 4, ...) each, ``_RESTART_STATES`` states in all.
_RESTART_UNIT = 250
_RESTART_STATES = 1_000


def default_max_states(timeout: float | None) -> int:
    """The state budget of a search given no budget: :data:`TIMED_MAX_STATES`
    under a time limit (the clock governs; this caps memory), else
    :data:`DEFAULT_MAX_STATES` (the same answer on any machine).

    >>> default_max_states(None), default_max_states(60.0)
    (20000000, 40000000)
    """
    return DEFAULT_MAX_STATES if timeout is None else TIMED_MAX_STATES


#: The relaxed search may hold this many times the main search's states:
#: when the relaxation is lost too, its proof is usually the shorter one
#: (``benchmarks/solver_heuristics.py``), and when it is won it stops at once.
#: With ``wide`` its free talon brings the pair rule, which makes it cheaper
#: still, and it gets more; with ``wide=False``, as before that rule.
_RELAXED_SHARE = 8
_RELAXED_SHARE_NARROW = 2


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


def check_budget(max_states: int) -> None:
    """Refuse a state budget below 1 or above :data:`MAX_STATES`, in words.

    >>> check_budget(10**12)
    Traceback (most recent call last):
    ...
    cardtable.errors.SolverError: the state budget must be at most 100,000,000,000 (MAX_STATES), not 1,000,000,000,000
    """
    if max_states < 1:
        raise SolverError(f"the state budget must be at least 1, not {max_states}")
    if max_states > MAX_STATES:
        raise SolverError(f"the state budget must be at most {MAX_STATES:,} (MAX_STATES), not {max_states:,}")


def _table_bits(max_states: int) -> int:
    """The smallest table that holds ``max_states`` states at 3/4 load."""
    bits = 10
    while (1 << bits) * 3 // 4 <= max_states + 1:
        bits += 1
    return bits


class _Search:
    """One depth-first search in the compiled core (:mod:`cardtable.solver._ccore`),
    run in slices. ``label`` names it in reports."""

    core: _ccore.Search | _ccore.BestSearch

    def __init__(self, position: Position | bytes, variant: Variant, budget: int, salt: int = 0, width: int = 0, *,
                 label: str = "", wide: bool = False, order: int = 0, path_rules: bool = False) -> None:
        self._setup(budget, width)
        self.core = _ccore.Search(_state_of(position), params(variant, salt, width, wide, order), self.max_bits,
                                  min(self.max_bits, _START_BITS), path=path_rules)
        self.label = label or f"depth-first (salt {salt}, {_width_text(width)})"

    def _setup(self, budget: int, width: int) -> None:
        """Set what every search has."""
        self.budget = budget
        self.width = width
        self.max_bits = _table_bits(budget)
        self.reason = ""
        self.step = 20_000

    def _run(self, budget: int) -> int:
        """Search on for up to ``budget`` states; the status."""
        return int(self.core.run(budget))

    @property
    def status(self) -> int:
        """The core's status: RUNNING, WON, EXHAUSTED or TABLE_FULL."""
        return int(self.core.status)

    @property
    def states(self) -> int:
        return int(self.core.states)

    @property
    def cut(self) -> bool:
        """Some search path was cut at the depth limit."""
        return bool(self.core.cut)

    @property
    def running(self) -> bool:
        return self.status == _ccore.RUNNING and not self.reason

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
            self._run(min(self.step, left))
            self.step = min(self.step * 2, 200_000)

    @property
    def table_bytes(self) -> int:
        """The bytes its transposition table takes now."""
        return int(self.core.table_size) * int(self.core.key_words) * 8

    @property
    def won(self) -> bool:
        return self.status == _ccore.WON

    @property
    def exhausted(self) -> bool:
        """Searched every state, so there is no win (a search of limited
        width, or one with paths cut at the depth limit, proves nothing)."""
        return self.status == _ccore.EXHAUSTED and not self.cut and not self.width

    def winning_path(self) -> list[int]:
        """The core move codes of the win found, from the position searched."""
        if not self.won:
            raise AssertionError("solver bug: no win to read")
        return list(self.core.path())


def _state_of(position: Position | KlondikeGame | bytes) -> bytes:
    """The core's state of a position or of a game's current position (given
    as is when already encoded)."""
    return position if isinstance(position, bytes) else state_bytes(position)


def _width_text(width: int) -> str:
    return "every move" if width == 0 else f"{width} best moves"


class _BestSearch(_Search):
    """A best-first search in the compiled core (``BestSearch`` of
    :mod:`cardtable.solver._ccore`), run in slices: open states are ranked by
    ``weight * estimate + moves made``, and ``width`` > 0 tries only that many
    of the best moves of each state."""

    def __init__(self, position: Position | bytes, variant: Variant, budget: int, weight: int, width: int, *,
                 label: str = "", wide: bool = False) -> None:
        self._setup(budget, width)
        self.core = _ccore.BestSearch(_state_of(position), params(variant, wide=wide), self.max_bits,
                                      min(self.max_bits, _START_BITS), weight, width)
        self.label = label or f"best-first (weight {weight}, {_width_text(width)})"


def luby(i: int) -> int:
    """The ``i``-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1,
    1, 2, 1, 1, 2, 4, 8, ...: the restart lengths that waste at most a
    logarithmic factor against the best fixed length, whatever the deal.

    >>> [luby(i) for i in range(1, 16)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    """
    if i < 1:
        raise ValueError(f"the Luby sequence starts at 1, not {i}")
    while True:
        k = i.bit_length()  # 2 ** (k - 1) <= i < 2 ** k
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1  # the term repeats the sequence from its start


class _Restarts:
    """Short depth-first searches from the same position, one after another,
    each in its own order (moves of like priority shuffled by the run's
    number as salt) with a table of its own, run ``k`` (from 1) searching up
    to ``unit * luby(k)`` states. A depth-first search's time to a win has a
    heavy tail: one early turn can send it into a part of the tree where it
    spends millions of states, and another order finds the win in a few
    hundred. A run's win is a win; a run that searched every state of every
    move (none cut at the depth limit) proves a loss. Read like a
    :class:`_Search` by the schedule: ``states`` counts every run's."""

    def __init__(self, state: bytes, variant: Variant, budget: int, unit: int, *, wide: bool,
                 path_rules: bool = False) -> None:
        self.state = state
        self.variant = variant
        self.budget = budget
        self.unit = unit
        self.wide = wide
        self.path_rules = path_rules
        self.reason = ""
        self.runs = 0
        self.finished_states = 0  # the states of the runs before the current one
        self.current = self._next_run()
        self.label = "restarts"

    def _next_run(self) -> _Search:
        self.runs += 1
        return _Search(self.state, self.variant, self.unit * luby(self.runs), salt=self.runs, wide=self.wide,
                       label=f"restart {self.runs}", path_rules=self.path_rules)

    @property
    def states(self) -> int:
        return self.finished_states + self.current.states

    @property
    def table_bytes(self) -> int:
        """The bytes the current run's table takes (the runs before it freed theirs)."""
        return self.current.table_bytes

    @property
    def won(self) -> bool:
        return self.current.won

    @property
    def exhausted(self) -> bool:
        """The current run searched every state: there is no win."""
        return self.current.exhausted

    @property
    def running(self) -> bool:
        return not self.won and not self.exhausted and not self.reason

    def advance(self, until_states: int, deadline: float | None) -> None:
        """Search on, run after run, until ``until_states`` states in all (or
        a win, a proof of loss, the budget or the deadline: the last two set
        :attr:`reason`)."""
        while self.running and self.states < until_states:
            if self.states >= self.budget:
                self.reason = f"state budget of {self.budget} states reached"
                return
            run = self.current
            if run.states >= run.budget or not run.running:  # its length reached (or paths cut): the next run
                self.finished_states += run.states
                run = self.current = self._next_run()
            # the run's own states: up to its length, and to what is left of until_states and the budget
            run.advance(min(run.budget, until_states - self.finished_states, self.budget - self.finished_states),
                        deadline)
            if run.reason == "time limit reached":
                self.reason = run.reason
                return

    def winning_path(self) -> list[int]:
        """The core move codes of the win found, from the position searched."""
        return self.current.winning_path()


class SearchSchedule:
    """How :func:`solve` shares one state budget among its searches, as an
    object whose budgets can be read between rounds.

    ``SearchSchedule(position, variant, max_states=..., timeout=...)`` starts
    the main search (an exhaustive depth-first search); :meth:`step` runs one
    round, :meth:`run` runs rounds until the question is settled or a budget
    runs out and returns the :class:`SolveResult`. With ``wide``, the first
    round runs the main search alone to 200 states (most deals are decided
    sooner), then it and the *reveal-first* search (the same moves in another
    order: a run that turns a card up first, then a pile card home, a talon
    card to the tableau, a talon card home, a foundation card back, the lower
    card first in each kind) in turns of 200 states until that one has 2,000;
    a win it finds, or its proof of loss, settles the question, and it does
    not run again. Then, with ``wide``, the *restarts* (:class:`_Restarts`)
    search 1,000 states: depth-first searches of 250, 250, 500 states, each
    in its own shuffled order; a win or a proof of loss settles the question,
    and they do not run again. Every other round (and with ``wide=False``
    every round):

    1. the main search runs until it has grown by a quarter (to at least
       5,000 states; 50,000 with ``wide=False``), within the states left;
    2. the search under the :func:`relaxation` (once the main search has
       10,000 states, 50,000 with ``wide=False``, when the variant has one) runs up to
       :attr:`relaxed_budget` states:
       eight times as many as the main search has (twice with ``wide=False``),
       within the states left. When it
       finds no win, there is none;
    3. once the main search has :attr:`next_probe` states, a probe joins and
       the threshold doubles;
    4. the live probes share :attr:`allowance`: an eighth of what the main
       search grew by this round, within the states left, probe ``k`` (from
       0) weighing ``1 / (k + 1)`` and each getting at least one state. A
       win a probe finds, or an exhaustive probe of every move, settles the
       question.

    The arithmetic counts the states of the reveal-first search, the
    restarts, the relaxed search and the probes at the start of a round and
    again after the relaxed search runs; a search that joins during a round
    (with its one root state) is counted from the next count. :attr:`used`
    counts every state now.
    """

    def __init__(self, position: Position, variant: Variant, *, timeout: float | None = None,
                 max_states: int | None = None, wide: bool = True, path_rules: bool = False) -> None:
        self.began = time.perf_counter()
        #: The total state budget of every search together.
        self.budget = default_max_states(timeout) if max_states is None else max_states
        check_budget(self.budget)
        if timeout is not None and timeout <= 0:
            raise SolverError(f"the timeout must be positive, not {timeout}")
        self.position = position
        self.variant = variant
        self.timeout = timeout
        #: Whether every search sends cards home by the wide rule (see :func:`solve`).
        self.wide = wide
        #: Whether the depth-first searches leave out moves by the path rules (see :func:`solve`).
        self.path_rules = path_rules
        self.deadline = None if timeout is None else self.began + timeout
        #: The position as the core reads it, encoded once for every search.
        self.state = state_bytes(position)
        self.main = _Search(self.state, variant, self.budget, label="main", wide=wide, path_rules=path_rules)
        self.easier = relaxation(variant)
        self.relaxed: _Search | None = None
        #: The reveal-first search, once it has joined (with ``wide`` only).
        self.reveal_first: _Search | None = None
        #: The restarts, once they have run (with ``wide`` only).
        self.restarts: _Restarts | None = None
        self.probes: list[_Search] = []
        #: Main-search states at which the next probe joins.
        self.next_probe = _FIRST_PROBE if wide else _FIRST_PROBE_NARROW
        #: Main-search states of the first round (where the first probe joins).
        self.first_round = self.next_probe
        #: The states the probes shared in the latest round (0 before any).
        self.allowance = 0
        #: The states the relaxed search could reach in the latest round in
        #: which it ran (0 before then).
        self.relaxed_budget = 0
        #: The search that settled the question, when not the main search.
        self.finished: _Search | _Restarts | None = None
        #: The rounds run so far.
        self.rounds = 0
        self._counted = 0  # the states of every search but the main one at the last count (_count)

    @property
    def searches(self) -> list[_Search | _Restarts]:
        """Every search so far: the main one, the reveal-first one, the
        restarts, the relaxed one, the probes in the order they joined. Each has a ``label``, ``states``,
        ``won`` and ``exhausted``."""
        return [self.main, *([self.reveal_first] if self.reveal_first is not None else []),
                *([self.restarts] if self.restarts is not None else []),
                *([self.relaxed] if self.relaxed is not None else []), *self.probes]

    @property
    def used(self) -> int:
        """The states searched so far, by every search."""
        return sum(search.states for search in self.searches)

    @property
    def table_bytes(self) -> int:
        """The bytes the transposition tables of every search take now."""
        return sum(search.table_bytes for search in self.searches)

    @property
    def left(self) -> int:
        """The states of the budget not yet used."""
        return self.budget - self.used

    @property
    def done(self) -> bool:
        """Settled, or stopped by a budget (no more rounds)."""
        return self.finished is not None or not self.main.running

    def _out_of_budget(self) -> bool:
        """Say on the main search that the state budget ran out; False (no
        more rounds)."""
        self.main.reason = f"state budget of {self.budget} states reached"
        return False

    def _count(self) -> int:
        """The states of every search but the main one."""
        return sum(search.states for search in self.searches if search is not self.main)

    def _reveal_first_round(self) -> bool:
        """The first round with ``wide``: the main search alone to
        ``_REVEAL_FROM`` states, then it and the reveal-first search in turns
        until that one has ``_REVEAL_STATES`` (see the class notes). False when
        the question is settled or a budget ran out."""
        main, budget = self.main, self.budget
        main.advance(min(_REVEAL_FROM, budget), self.deadline)
        if not main.running or main.states < _REVEAL_FROM:
            return self._out_of_budget() if main.running and main.states >= budget else False
        reveal = self.reveal_first = _Search(self.state, self.variant, budget, label="reveal-first", wide=True,
                                             order=1, path_rules=self.path_rules)
        turn: _Search = reveal
        while reveal.states < _REVEAL_STATES:
            left = budget - main.states - reveal.states
            if left <= 0:
                return self._out_of_budget()
            room = _REVEAL_STATES - reveal.states if turn is reveal else _REVEAL_SLICE
            target = turn.states + min(_REVEAL_SLICE, left, room)
            turn.advance(target, self.deadline)
            if reveal.won or reveal.exhausted:
                self.finished = reveal
                return False
            if not main.running:
                return False
            if not reveal.running:
                if reveal.reason:  # stopped by the clock
                    main.reason = reveal.reason
                    return False
                break  # it ended with no verdict (paths cut): the main search goes on
            turn = main if turn is reveal else reveal
        return True

    def _restart_round(self) -> bool:
        """The second round with ``wide``: the restarts, to ``_RESTART_STATES``
        states (see the class notes). False when the question is settled or a
        budget ran out."""
        left = self.left
        if left <= 0:
            return self._out_of_budget()
        restarts = self.restarts = _Restarts(self.state, self.variant, self.budget, _RESTART_UNIT, wide=True,
                                             path_rules=self.path_rules)
        restarts.advance(min(_RESTART_STATES, left), self.deadline)
        if restarts.won or restarts.exhausted:
            self.finished = restarts
            return False
        if restarts.reason == "time limit reached":
            self.main.reason = restarts.reason
            return False
        return True

    def step(self) -> bool:
        """Run one round (see the class notes); False when no other is due."""
        if self.done:
            return False
        self.rounds += 1
        if self.wide and self.reveal_first is None:
            return self._reveal_first_round()
        if self.wide and self.restarts is None:
            return self._restart_round()
        main, budget = self.main, self.budget
        self._counted = self._count()
        before = main.states
        checkpoint = max(before + before // 4, self.first_round)
        main.advance(min(checkpoint, budget - self._counted), self.deadline)
        if not main.running or main.states < checkpoint:
            return self._out_of_budget() if main.running and main.states + self._counted >= budget else False
        first_relaxed = _FIRST_RELAXED if self.wide else _FIRST_RELAXED_NARROW
        if self.easier is not None and self.relaxed is None and main.states >= first_relaxed:
            # Only now: most deals are decided sooner.
            self.relaxed = _Search(self.state, self.easier, budget, label="relaxed", wide=self.wide,
                                   path_rules=self.path_rules)
        if self.relaxed is not None and self.relaxed.running:
            # Up to a share of the main search's states; a win there proves nothing.
            share = _RELAXED_SHARE if self.wide else _RELAXED_SHARE_NARROW
            self.relaxed_budget = min(share * main.states,
                                      self.relaxed.states + budget - self._counted - main.states)
            self.relaxed.advance(self.relaxed_budget, self.deadline)
            if self.relaxed.exhausted:
                self.finished = self.relaxed
                return False
            self._counted = self._count()
        if main.states >= self.next_probe:
            self.next_probe *= 2
            self.probes.append(self._probe(len(self.probes)))
        self.allowance = min((main.states - before) // _PROBE_SHARE, budget - self._counted - main.states)
        live = [(1 / (k + 1), probe) for k, probe in enumerate(self.probes) if probe.running]
        total = sum(weight for weight, _ in live)
        for weight, probe in live:
            if self.allowance <= 0:
                break
            probe.advance(probe.states + max(int(self.allowance * weight / total), 1), self.deadline)
            if probe.won or probe.exhausted:
                self.finished = probe
                return False
        return True

    def _probe(self, k: int) -> _Search:
        kind, order, width = _probe_order(k)
        if kind == "best":
            search: _Search = _BestSearch(self.state, self.variant, self.budget, order, width, wide=self.wide)
        else:
            search = _Search(self.state, self.variant, self.budget, order, width, wide=self.wide,
                             path_rules=self.path_rules)
        search.label = f"probe {k}: {search.label}"
        return search

    def run(self) -> SolveResult:
        """Run rounds to the end; the answer (a win written out as engine moves, each checked: :func:`line_moves`)."""
        while self.step():
            pass
        search = self.finished or self.main
        if search.won:
            moves = _solution(self.state, self.variant, search.winning_path(), self.wide)
            return SolveResult("won", moves, self.used, time.perf_counter() - self.began, memory=self.table_bytes)
        if search.exhausted:
            return SolveResult("unwinnable", [], self.used, time.perf_counter() - self.began,
                               memory=self.table_bytes)
        main = self.main
        if main.reason == "time limit reached":
            reason = f"time limit of {self.timeout:g} s reached"
        elif main.reason:
            reason = main.reason
        elif main.status == _ccore.EXHAUSTED:
            reason = f"search paths longer than {_ccore.MAX_DEPTH} moves were cut"
        else:
            reason = "transposition table full"
        return SolveResult("unknown", [], self.used, time.perf_counter() - self.began, reason, self.table_bytes)


def solve(position: Position, variant: Variant, *, timeout: float | None = None,
          max_states: int | None = None, wide: bool = True, path_rules: bool = False) -> SolveResult:
    """Decide whether ``position`` can be won under ``variant``.

    ``timeout`` (seconds) and ``max_states`` bound the search; when one runs
    out the result is ``unknown``, and its ``reason`` says which. With
    neither, the budget is :data:`DEFAULT_MAX_STATES` (the same answer on
    any machine); with a time limit alone, the clock governs and the budget
    is :data:`TIMED_MAX_STATES`, which only caps memory. ``max_states``
    counts the states of every search below together, and their tables grow
    with the states they hold, so memory stays bounded: at most about 45
    bytes a state (under 2 GiB at :data:`TIMED_MAX_STATES`). A bad budget or
    timeout raises :class:`SolverError`.

    The main search is one exhaustive depth-first search. Depth-first search
    can sink its time into a lost subtree that another move order would have
    skipped, so with ``wide`` a depth-first search of the same moves in a
    *reveal-first* order (see :class:`SearchSchedule`) first takes turns with
    it, up to 2,000 states, once the main search has 200; then *restarts*
    (short depth-first searches of 250, 250 and 500 states, each in its own
    shuffled order) search 1,000 states; and *probe*
    searches of the same position run beside it: each
    time the main search grows by a quarter, the probes get an eighth of
    what it searched, an older probe getting more. The first probe joins at
    5,000 main states (50,000 with ``wide=False``), and one more each time the main search doubles:
    three best-first searches (``BestSearch`` of the C core: of the three
    and the four best moves of each state, then of every move), then in
    turns depth-first ones that try only the two best moves of each state,
    every move in a shuffled order, or the three best moves. Each
    resumes where it stopped. A win a probe finds, or an exhaustive probe of
    every move, settles the question; otherwise the main search goes on
    where it was.

    Unless the variant already draws one card with unlimited passes, a
    search under its :func:`relaxation` also runs, with up to eight times as many
    states as the main search (twice with ``wide=False``): every line of play under the variant can be played
    there, so when it finds no win there is none. It joins once the main
    search has 10,000 states (50,000 with ``wide=False``). (A loss there is often far
    quicker to prove: the waste pointer drops out of the state. A win there
    proves nothing, and that search then stops.)

    Every search sends a card home without branching when that can never
    cost a win. With ``wide`` (the default) that is the *wide rule*: a card
    of rank ``r`` whose other-colour foundations both reach ``r - 2`` and
    whose twin's foundation reaches ``r - 3`` (the soundness notes of
    ``cardtable/solver/klondike.h`` prove it), which about halves the states of a proof of loss.
    With kings only in empty piles, ``wide`` also brings the *fill rule*: a
    whole pile moves onto another only when no pile is empty, and together
    with the king that fills it at once (proved there too; a tenth to a fifth
    fewer states), and the probes join from 5,000 main states. With a free
    talon (draw 1, unlimited passes: the relaxed search's too) it also brings the *pair rule*: a talon
    card goes onto a pile top on its own only when a talon card or a whole
    pile could be built on it, and otherwise only together with the move that
    builds on it (proved there too; about a third fewer states in a proof of
    loss). With ``wide=False`` it is the rules' own
    :meth:`~cardtable.klondike.Variant.safe_to_foundation`, no fill or pair rule, no
    reveal-first search, and probes and the relaxed search from 50,000 states,
    as the solver searched before these rules: what is defined by a search within a
    state budget (the grades, the daily deals, the winnable deals of
    ``--winnable``) passes it, so that a deal picked once stays picked.

    With ``path_rules`` every depth-first search (not the best-first probes)
    also leaves out the moves the *path rules* read from the path as moves
    to states it meets anyway: a move that undoes the last one, one that
    moves on at once what the last one moved where the parent could have
    moved it, and one of two moves that commute, tried in the other order
    at the parent (the soundness notes of ``cardtable/solver/klondike.h``
    prove that they keep every win and every state a proof of loss
    searches). A state then tries about a fifth fewer children, but the
    search takes about 5% more time (``docs/solver.md``), so they are off
    by default; the verdict is the same either way.

    :class:`SearchSchedule` runs these rounds; its budgets can be read.
    The result is the same for the same position, variant, state budget and
    rule every time (unless the clock stops it).

    >>> from cardtable.klondike import Position, Variant
    >>> solve(Position.from_seed(2), Variant.preset("thoughtful1")).result
    'won'
    """
    position.check_pass_limit(variant.passes)  # a pass the variant never reaches is no game to solve
    return SearchSchedule(position, variant, timeout=timeout, max_states=max_states, wide=wide,
                          path_rules=path_rules).run()


def _solution(position: Position | bytes, variant: Variant, codes: list[int], wide: bool = False) -> list[Move]:
    """The engine moves of the winning line ``codes`` (core move codes from
    ``position``, or from the core's state of it), written out, completed and
    checked (see :func:`line_moves`)."""
    return _line(position, variant, codes, wide)


def line_moves(game: KlondikeGame, codes: list[int], *, wide: bool = False) -> Iterator[Move]:
    """The engine moves of the winning line ``codes`` (core move codes from
    ``game``'s position), completed and checked, all in one compiled call.

    The searches play every safe foundation move after each move without
    logging it, and a talon move is a macro of draws. The compiled core's
    ``line_moves`` (:mod:`cardtable.solver._ccore`) writes the line out as the
    engine's own moves: it plays the line from ``game``'s position as the
    searches did (``wide``: as a search with the wide rule did; see
    :func:`solve`), with the draws and recycles each talon move needs and the
    safe moves after each, finishes a trivially won end by playing the lowest
    card each time, and checks every move against the rules' moves of the
    state it is played in (its ``generate`` with ``plain``, which the tests
    hold equal to the engine's :meth:`~cardtable.klondike.KlondikeGame.legal_moves`).
    Raises AssertionError when a move is not allowed or the line does not
    win (a solver bug): at once, before any move is read.
    """
    return iter(_line(game, game.variant, codes, wide))


def _line(start: Position | KlondikeGame | bytes, variant: Variant, codes: list[int], wide: bool) -> list[Move]:
    """:func:`line_moves` from a position, a game's current position or the core's state of either."""
    plain, why, at = _ccore.line_moves(_state_of(start), codes, params(variant, wide=wide))
    if why:
        where = "at its end" if at >= len(codes) else f"at move {at + 1} of {len(codes)}"
        raise AssertionError(f"solver bug: the winning line has {why} ({where})")
    try:
        return list(map(_PLAIN_MOVES.__getitem__, plain))
    except KeyError:  # a code met for the first time
        return [_PLAIN_MOVES.get(code) or _plain_move(code) for code in plain]


#: The engine move of each plain code met so far (see :func:`_plain_move`).
_PLAIN_MOVES: dict[int, Move] = {}


def _plain_move(code: int) -> Move:
    """:func:`~cardtable.solver._state.plain_move`, each code's move made once."""
    move = _PLAIN_MOVES[code] = plain_move(code)
    return move


def search_line(game: KlondikeGame, max_states: int, *, wide: bool = False) -> list[int] | None:
    """The core move codes of a win from ``game``'s position, found by one
    depth-first search (the main search of :func:`solve`, with the same
    ``wide``) within ``max_states`` states, or None when it finds none (lost,
    or out of budget). For many small searches, such as a player's guessed
    deals: :func:`line_moves` (with the same ``wide``) turns the codes into
    moves. ``wide`` is off by default: the expert's guesses are searched as
    they were when its strength was measured."""
    check_budget(max_states)
    bits = _table_bits(max_states)
    core = _ccore.Search(state_bytes(game), params(game.variant, wide=wide), bits, min(bits, _START_BITS))
    return list(core.path()) if core.run(max_states) == _ccore.WON else None
