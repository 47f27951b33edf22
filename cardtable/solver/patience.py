"""Exact search over any patience game of the registry (or a user's description).

A game's :class:`~cardtable.patience.description.Description` is compiled
into flat tables (:func:`rules_blob`: pile counts by kind, what fits on what
as 52 x 52 tables for the tableau's builds and runs, the foundations and the
hole, the move unit, what fills a space, the stock, redeals, pairs, covers,
reach and the win rule); the C core (:mod:`cardtable.solver._pcore`, on
``patience.h``) reads them, generates the engine's legal moves, plays and
undoes them in place and searches (depth first, then best first: see
:func:`solve_game`) with a transposition table of exact canonical keys. Its
soundness notes (safe moves to the foundations, symmetry of piles and cells)
are in ``cardtable/solver/patience.h``.

Like Klondike's solver it solves the full deal: face-down cards and the
stock's order are known to it ("thoughtful" patience). Every winning line is
replayed in the rules engine (:class:`~cardtable.patience.PatienceGame`)
before it is returned; a line the engine refuses is a bug and raises.

A game whose description gives Klondike's rules, whatever it is called
(:func:`~cardtable.klondike.patience.variant_of` reads its fields: draw 1
or 3, any pass limit, kings or any card in a space, foundation cards
coming back or not), is handed to Klondike's own compiled core
(:func:`cardtable.solver.solve`), which decides far more of its deals in
the same time; its line comes back as the patience engine's moves, played
in the engine one by one. ``core="patience"`` keeps such a game on the
patience core.

>>> from cardtable.patience import PatienceGame, get
>>> game = PatienceGame.from_seed(get("bakers-game"), 7)
>>> result = solve_game(game, max_states=100_000)
>>> result.result, result.replays(game)
('won', True)
"""

from __future__ import annotations

import struct
import time
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Literal

from cardtable.cards import Card
from cardtable.errors import IllegalMoveError, SolverError
from cardtable.patience.description import Build, Description, Direction, Fill, Kind, MoveUnit, StockTo, SuitRule, Win
from cardtable.patience.engine import PatienceGame
from cardtable.patience.moves import ANY_FOUNDATION, DEAL, RECYCLE, Move, Place
from cardtable.solver import _pcore

if TYPE_CHECKING:
    from cardtable.klondike.variant import Variant

__all__ = ["DEFAULT_MAX_STATES", "SEARCHES", "TIMED_MAX_STATES", "Core", "PatienceSolveResult", "Search", "core_of",
           "move_of", "replayed_line", "rules_blob", "solve_game"]

#: The state budget with neither a budget nor a time limit: the same answer
#: on any machine. At some 60 to 120 bytes a state (the exact keys and the
#: table), about 1 GiB.
DEFAULT_MAX_STATES = 10_000_000
#: The state budget under a time limit alone: the clock governs, this caps memory.
TIMED_MAX_STATES = 10_000_000

#: The order of pile kinds in the engine's (and the core's) flat list of piles.
_KIND_ORDER = (Kind.TABLEAU, Kind.FOUNDATION, Kind.CELL, Kind.RESERVE, Kind.STOCK, Kind.WASTE, Kind.HOLE)
_UNITS = (MoveUnit.ONE, MoveUnit.RUN, MoveUnit.FACE_UP, MoveUnit.SUPERMOVE, MoveUnit.WHOLE_PILE, MoveUnit.PILE)
_FILLS = (Fill.ANY, Fill.KINGS, Fill.NONE, Fill.RESERVE)
_STOCK_TO = (StockTo.NONE, StockTo.WASTE, StockTo.TABLEAU, StockTo.HOLE)
_WINS = (Win.FOUNDATIONS, Win.TABLEAU_EMPTY, Win.ONE_PILE)
_DIRECTIONS = (Direction.DOWN, Direction.UP, Direction.EITHER, Direction.NONE, Direction.MATCH)
_HEADER = _pcore.HEADER
_MAX_REACH = 8

Result = Literal["won", "unwinnable", "unknown"]
#: The orders of the search: ``hybrid`` (depth first for part of the budget,
#: then best first over the same table), ``best-first`` or ``depth-first``.
Search = Literal["hybrid", "best-first", "depth-first"]
#: Each search's code in the core.
SEARCHES: dict[Search, int] = {"depth-first": 0, "best-first": 1, "hybrid": 2}
#: Which compiled core searches: ``auto``, Klondike's for a game of
#: Klondike's rules and the patience core for every other; ``patience``,
#: the patience core for every game.
Core = Literal["auto", "patience"]


def _fits(rule: Build, base: int = 1) -> bytes:
    """``rule.fits`` for every pair of card indices (the foundations' base
    rank ``base``): row ``onto``, column ``card``."""
    cards = [Card.from_index(i) for i in range(52)]
    return bytes(rule.fits(card, onto, base) for onto in cards for card in cards)


@cache
def rules_blob(description: Description, face_down: bool = True, base: int = 1) -> bytes:
    """The description as the C core's tables (the layout ``patience.h``
    reads: a header of 32-bit fields, then the fit tables of the tableau's
    build, its run rule, the foundations and the hole, then the covers).
    ``face_down``: whether positions may hold face-down cards outside the
    stock (their counts then go into the state key); ``base``: the
    foundations' base rank, which a tableau rule that counts ranks from it
    (``from_base``) reads."""
    d = description
    if len(d.tableau.reach or ()) > _MAX_REACH:
        raise SolverError(f"{d.name}: the solver takes at most {_MAX_REACH} reach distances")
    if d.tableau.count > 128:
        raise SolverError(f"{d.name}: the solver takes at most 128 tableau piles")
    header = [0] * _HEADER
    for i, kind in enumerate(_KIND_ORDER):
        header[i] = d.count(kind)
    tableau, foundations, stock = d.tableau, d.foundations, d.stock
    header[7] = _UNITS.index(tableau.moves)
    header[8] = _FILLS.index(tableau.empty)
    header[9] = int(tableau.pile_to_space)
    header[10] = int(tableau.covers is not None)
    reach = tableau.reach or ()
    header[11] = len(reach)
    header[12:12 + len(reach)] = reach
    header[20] = foundations.base or 0
    header[21] = int(foundations.may_return)
    header[22] = int(foundations.complete_runs)
    header[23] = _STOCK_TO.index(stock.to)
    header[24] = stock.draw
    header[25] = stock.passes or 0
    header[26] = int(stock.needs_no_empty_pile)
    header[27] = d.redeals.count
    header[28] = d.redeals.per_pile
    header[29] = d.hole_pairs or 0
    header[30] = _WINS.index(d.win)
    header[31] = int(d.move_order.value == "foundations-first")
    header[32] = d.cards.total
    header[33] = d.cards.copies
    header[34] = _DIRECTIONS.index(foundations.build.direction)
    header[35] = int(foundations.build.suit is SuitRule.SAME)
    header[36] = int(foundations.build.wrap)
    header[37] = _DIRECTIONS.index(d.hole_build.direction)
    header[38] = int(face_down)
    blob = struct.pack(f"<{_HEADER}i", *header)
    blob += (_fits(tableau.build, base) + _fits(tableau.run_rule, base) + _fits(foundations.build)
             + _fits(d.hole_build))
    if tableau.covers is not None:
        for over in tableau.covers:
            mask = sum(1 << pile for pile in over)
            blob += struct.pack("<QQ", mask & (2**64 - 1), mask >> 64)
    return blob


@dataclass(frozen=True)
class _Compiled:
    """What a description compiles to once: its flat list of places, where
    its stock lies, whether its deal lays cards face down, its rules blobs
    (with and without face-down counts in the key), and the engine's move of
    each core move code met so far (moves are immutable: one object a code).
    ``from_base``: whether a tableau rule counts ranks from the foundations'
    base, so that the blobs depend on the deal's base (see :meth:`blob`)."""

    places: tuple[Place, ...]
    stock: int
    deals_down: bool
    blobs: tuple[bytes, bytes]
    from_base: bool = False
    moves: dict[int, Move] = field(default_factory=dict)

    def blob(self, description: Description, face_down: bool, base: int | None) -> bytes:
        """The rules blob of a position of ``description`` (the one this
        compiles) with foundations based on ``base``."""
        if self.from_base and base is not None and base != 1:
            return rules_blob(description, face_down, base)
        return self.blobs[face_down]


#: Compiled descriptions by identity: hashing a description (every field,
#: every call) costs more than a deal's search in FreeCell, so a batch of
#: deals of one game looks its rules up by the object itself.
_COMPILED: dict[int, tuple[Description, _Compiled]] = {}
_COMPILED_MAX = 64


def _compiled(description: Description) -> _Compiled:
    known = _COMPILED.get(id(description))
    if known is not None and known[0] is description:
        return known[1]
    d = description
    places = tuple(Place(kind, i) for kind in _KIND_ORDER for i in range(d.count(kind)))
    compiled = _Compiled(places, places.index(Place(Kind.STOCK)) if d.stock.count else -1,
                         any(any(step.face_down) for step in d.deal), (rules_blob(d, False), rules_blob(d, True)),
                         d.tableau.build.from_base or d.tableau.run_rule.from_base)
    if len(_COMPILED) >= _COMPILED_MAX:
        _COMPILED.clear()
    _COMPILED[id(description)] = (description, compiled)
    return compiled


def core_of(game: PatienceGame) -> _pcore.Core:
    """The C core's copy of ``game``'s position (its rules compiled once a game)."""
    compiled = _compiled(game.description)
    stock = compiled.stock
    # the stock's cards are always face down; elsewhere face-down counts go into the key
    face_down = compiled.deals_down or any(n for i, n in enumerate(game.down) if i != stock)
    blob = compiled.blob(game.description, face_down, game.foundation_base)
    return _pcore.Core(blob, [bytes([card.index for card in pile]) for pile in game.piles],
                       bytes([min(n, 255) for n in game.down]), game.pass_number, game.redeals_used,
                       game.shuffle_seed & (2**64 - 1))


def move_of(description: Description, code: int) -> Move:
    """The engine's move for a core move code."""
    return _moves_of(_compiled(description), [code])[0]


def _moves_of(compiled: _Compiled, codes: list[int]) -> list[Move]:
    known = compiled.moves
    moves = []
    for code in codes:
        move = known.get(code)
        if move is None:
            move = known[code] = _move(compiled.places, code)
        moves.append(move)
    return moves


def replayed_line(game: PatienceGame, moves: list[Move]) -> list[Move] | None:
    """``moves`` (a line of the core's, :func:`move_of` each) replayed from
    ``game`` (left as it is) with the free cells named as a player would,
    where they win it; None where the engine refuses a move or the line does
    not end won. :func:`solve_game` returns every winning line this way.

    A card goes into the first empty cell. The core sorts the cells in its
    keys (any cell is as good as another: a description gives them a count
    and a layout, no rule of their own), so its line may put a card in cell
    d while cell a is empty. Each move into a cell swaps the names of two
    empty cells where it must, and every later move follows the new names,
    so the renamed line plays the same positions; a move is made anew only
    where a cell's name changed."""
    places = game.places(Kind.CELL)
    names = list(range(len(places)))  # names[i]: the engine's cell for the core's cell i

    def named(place: Place) -> Place:
        return places[names[place.index]] if place.kind is Kind.CELL else place

    copy = game.clone()
    out = []
    try:
        for move in moves:
            source, target, pair = move.source, move.target, move.pair
            into = target is not None and target.kind is Kind.CELL
            if target is not None and into:
                first = next((i for i, place in enumerate(places) if not copy.pile(place)), names[target.index])
                if first < names[target.index]:
                    other = names.index(first)
                    names[target.index], names[other] = first, names[target.index]
            if into or source.kind is Kind.CELL or (pair is not None and pair.kind is Kind.CELL):
                to = None if target is None else named(target)
                new_source, new_pair = named(source), None if pair is None else named(pair)
                if new_source != source or to != target or new_pair != pair:
                    move = Move(new_source, to, move.count, new_pair)
            copy.play(move)
            out.append(move)
    except IllegalMoveError:
        return None
    return out if copy.is_won() else None


def _move(places: tuple[Place, ...], code: int) -> Move:
    source, target, count, pair = code & 0xFF, (code >> 8) & 0xFF, (code >> 16) & 0xFF, code >> 24
    if target == _pcore.NONE:
        return DEAL
    if target == _pcore.ANY_FOUNDATION:
        return Move(places[source], ANY_FOUNDATION)
    if places[target].kind is Kind.STOCK:
        return RECYCLE
    return Move(places[source], places[target], count, None if pair == _pcore.NONE else places[pair])


@dataclass(frozen=True)
class PatienceSolveResult:
    """What a search found, in the form of Klondike's
    :class:`~cardtable.solver.SolveResult`: ``result`` is ``won`` (``moves``
    win from the position; the engine replayed them), ``unwinnable`` (the
    search was exhaustive) or ``unknown`` (``reason`` names the budget that
    ran out); ``states`` counts the distinct states searched and ``memory``
    the bytes the search's table took."""

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
        data: dict[str, object] = {"result": self.result, "moves": [str(m) for m in self.moves],
                                   "states": self.states, "seconds": round(self.seconds, 6)}
        if self.reason:
            data["reason"] = self.reason
        return data

    def replays(self, game: PatienceGame) -> bool:
        """True when ``moves`` played from ``game`` (left as it is) win it."""
        copy = game.clone()
        try:
            for move in self.moves:
                copy.play(move)
        except IllegalMoveError:
            return False
        return copy.is_won()


def _check_budget(timeout: float | None, max_states: int | None) -> int:
    if timeout is not None and not timeout > 0:
        raise SolverError(f"timeout must be positive, not {timeout}")
    if max_states is not None and max_states < 1:
        raise SolverError(f"max_states must be at least 1, not {max_states}")
    if max_states is not None:
        return max_states
    return DEFAULT_MAX_STATES if timeout is None else TIMED_MAX_STATES


def solve_game(game: PatienceGame, *, timeout: float | None = None, max_states: int | None = None,
               search: Search = "hybrid", first_states: int | None = None,
               focus_states: int | None = None, core: Core = "auto",
               stock_macros: bool = True, commute: bool = True,
               through_spaces: bool = True, cell_onto: bool = True) -> PatienceSolveResult:
    """Decide whether ``game`` can be won from its position, every card known.

    ``timeout`` (seconds) and ``max_states`` bound the search; when one runs
    out the result is ``unknown``. With neither, the budget is
    :data:`DEFAULT_MAX_STATES` (the same answer on any machine); with a time
    limit alone, :data:`TIMED_MAX_STATES` only caps memory (a game of
    Klondike's rules, which Klondike's core searches, gets that core's
    defaults instead: :data:`cardtable.solver.DEFAULT_MAX_STATES` and
    :data:`cardtable.solver.TIMED_MAX_STATES`). The winning
    line is replayed in the engine before it is returned: a move the engine
    refuses raises :class:`SolverError` (a bug in the core, never a verdict).
    ``game`` is left as it was.

    ``search`` orders the search. ``best-first`` expands the most promising
    open state first (cards home, cards under the next ones the foundations
    take, breaks in the piles' builds and runs, filled cells, face-down cards,
    cards still to be dealt onto the tableau); ``depth-first`` follows each
    state's moves in the order of the positions they lead to; ``hybrid`` (the
    default) searches depth first for ``first_states`` states, then hands its
    table and its stack to the best-first search for the rest of the budget.
    With ``first_states=None`` the depth-first part takes half the budget
    where the deal has face-down cards or a stock that deals onto the tableau
    and cards are built on the tableau, unless a card may be built on one it
    cannot move with (Spider's builds out of suit, in two and four suits and
    Spiderette: there its first choices build out of suit and bury the cards
    the best-first search needs), and none elsewhere (the best-first
    search alone: every card open, even beside a stock dealt to a waste, as
    in Forty Thieves); and where every
    card is open and free cells hold cards (FreeCell, Baker's Game, Eight Off,
    Seahaven Towers) or most cards take two cards or more on them (Baker's
    Dozen, Beleaguered Castle, Streets and Alleys, King Albert) the hybrid is
    preceded by quick depth-first scans, each from scratch in a cheap move
    order of its own with a small budget, which find most wins in a few
    hundred states (their states count in ``states``); where no cells hold
    cards the hybrid does not wait for them but takes turns with them, each
    turn as many states as the scan before it, so that a lost deal costs
    at most about twice what the hybrid alone would take. Where every move
    takes a top card to the hole (Black Hole, Golf), ``hybrid`` with
    ``first_states=None`` is the lengths search: depth first, each position
    keyed by the piles' lengths and what the hole takes on its top card, the
    move that leaves the most moves tried first. Where
    only whole piles move, each by its top card, every card lies in the
    tableau's row and one pile wins (Accordion), it is the row search: depth
    first, each position keyed by its row of top cards, going no further
    from a position whose top cards fall into two groups that no card joins
    (neither can ever cover the other's). All are exhaustive: the verdicts
    are the same, the states and lines differ.

    ``focus_states`` (the hybrid only) is the budget of its focused pass,
    which runs the hybrid first without the sideways moves (a tableau move
    that turns no card up, empties no pile and leaves its cards lying no
    better, unless the card it uncovers can go home or take a run at once):
    the best-first search then reopens every state that pass expanded and
    goes on with every move in the same table, so the verdict is the same.
    With ``None`` it is half the budget where the hybrid goes depth first and
    ``first_states`` is ``None``, else 0 (no focused pass). That default also
    keeps the probe: the hybrid gets 95% of the budget, and when that runs
    out the last 5% go to a plain depth-first search from scratch with every
    move, which finds some wins the focused pass hides (a win or, run to its
    end, "unwinnable"; else ``unknown``, the budget spent).

    ``stock_macros`` (the patience core only): where the stock deals to a
    waste, the search makes no stock move on its own but one move of each
    card the waste can reach, "turn the stock k times, then play the waste's
    top card" (the positions between the turns are never states; the line
    holds each of the engine's moves); with ``False`` it turns the stock one
    move at a time. The verdicts are the same, the states and lines differ.

    ``commute`` (the patience core's best-first search): where single cards
    move between open piles and cells and nothing else is read (one deck, no
    face-down cards, stock, covers or reach: Beleaguered Castle, Streets and
    Alleys, King Albert, Baker's Dozen, FreeCell, Baker's Game, La Belle
    Lucie), two single moves of four different piles, after which no card
    goes home by itself, are tried in one order only; with ``False`` in both.
    The positions searched are the same set (an exhaustive search counts the
    same states), only the order differs; the proof is in ``patience.h``.
    Where the rule is off, the best-first search still leaves unmade a move
    that takes the last move's cards straight back (the position it came
    from, in the table already): the same states and order, only less work;
    ``False`` turns that off too.

    ``through_spaces`` (the patience core): where a space takes any card and
    there are no cells, and the rules move one card or a run of one suit at
    a time (Spider in two and four suits, Spiderette, Forty Thieves; in one
    suit every sequence is one run), a sequence that builds down but holds
    several such units, moved onto a card it builds on or into a space
    through the other spaces, is one move of the search (its line holds each
    of the engine's moves), where it gains: it turns a card up or leaves a
    space, or (in Spider's games) joins a run of its suit. With ``False``,
    the engine's moves alone. The engine's moves are all still made and the
    new ones reach no other position, so the verdicts are the same (a proof
    counts the same states); the states and lines of a win differ.

    ``cell_onto`` (the patience core): where each card takes only the card
    one rank below it in its suit, runs move by the free cells and spaces
    take nothing or only Kings (Seahaven Towers, Eight Off), a card in a
    free cell goes at once onto the top card it builds on, as the only move,
    and a pile's top cards that lie each on the card it builds on go into
    free cells together, as one move of the search (its line holds each of
    the engine's moves). With ``False``, neither. The verdicts are the same
    (the proof is in ``patience.h``); a proof counts fewer states with it.

    ``core``: with ``auto`` (the default), a game of Klondike's rules (see
    the module's notes) is searched by Klondike's core, under the budget
    given (else that core's default); ``search``, ``first_states``,
    ``focus_states``, ``stock_macros=False``, ``commute=False``,
    ``through_spaces=False`` and ``cell_onto=False`` order the patience core's search only, so
    giving one for such a game raises :class:`SolverError` unless ``core`` is ``patience``. What is defined by
    a search within a state budget and must stay as it was picked (the
    patience games' daily and winnable deals, their grades, the patience
    players' guesses) asks for ``patience``.
    """
    budget = _check_budget(timeout, max_states)
    if search not in SEARCHES:
        raise SolverError(f"search must be one of {', '.join(SEARCHES)}, not {search!r}")
    if first_states is not None and first_states < 0:
        raise SolverError(f"first_states must be at least 0, not {first_states}")
    if focus_states is not None and focus_states < 0:
        raise SolverError(f"focus_states must be at least 0, not {focus_states}")
    if core not in ("auto", "patience"):
        raise SolverError(f"core must be auto or patience, not {core!r}")
    began = time.perf_counter()
    if game.is_won():
        return PatienceSolveResult("won", [], 0, time.perf_counter() - began)
    if core == "auto":
        from cardtable.klondike.patience import variant_of

        variant = variant_of(game.description)
        if variant is not None:
            if (search != "hybrid" or first_states is not None or focus_states is not None or not stock_macros
                    or not commute or not through_spaces or not cell_onto):
                raise SolverError(f"{game.description.title} has Klondike's rules, which Klondike's core searches: "
                                  "search, first_states, focus_states, stock_macros, commute, through_spaces and "
                                  "cell_onto "
                                  "order the patience core's search (pass core='patience' for it)")
            return _solve_klondike(game, variant, timeout, max_states, began)
    first = -1 if first_states is None else first_states
    focus = -1 if focus_states is None else focus_states
    status, states, codes, memory = core_of(game).solve(budget, timeout or 0.0, SEARCHES[search], first, focus,
                                                        stock_macros, commute, through_spaces, cell_onto)
    seconds = time.perf_counter() - began
    if status == "won":
        moves = _moves_of(_compiled(game.description), codes)
        replayed = replayed_line(game, moves)
        if replayed is None:
            raise SolverError(f"bug: the solver's winning line for {game.description.name} does not replay in "
                              f"the engine: {' '.join(map(str, moves))}")
        return PatienceSolveResult("won", replayed, states, seconds, memory=memory)
    if status == "unwinnable":
        return PatienceSolveResult("unwinnable", [], states, seconds, memory=memory)
    reason = (f"state budget of {budget} states reached" if status == "states"
              else f"time limit of {timeout:g} s reached")
    return PatienceSolveResult("unknown", [], states, seconds, reason, memory)


def _solve_klondike(game: PatienceGame, variant: Variant, timeout: float | None, max_states: int | None,
                    began: float) -> PatienceSolveResult:
    """``game`` (of Klondike's rules, ``variant``) searched by Klondike's
    core, under Klondike's own default budget where none is given (see
    :func:`cardtable.solver.search.default_max_states`); a winning line is
    translated into the patience engine's moves while it is played in a
    copy of ``game``, which must end won."""
    from cardtable.klondike.patience import from_klondike_move, klondike_position
    from cardtable.solver.search import solve

    found = solve(klondike_position(game), variant, timeout=timeout, max_states=max_states)
    seconds = time.perf_counter() - began
    if found.result != "won":
        return PatienceSolveResult(found.result, [], found.states, seconds, found.reason, found.memory)
    moves: list[Move] = []
    copy = game.clone()
    try:
        for move in found.moves:
            moves.append(from_klondike_move(copy, move))
            copy.play(moves[-1])
    except IllegalMoveError as error:
        raise SolverError(f"bug: Klondike's core's winning line for {game.description.name} does not replay in "
                          f"the engine at move {len(moves)} ({error})") from None
    if not copy.is_won():
        raise SolverError(f"bug: Klondike's core's winning line for {game.description.name} does not win in the "
                          f"engine: {' '.join(map(str, moves))}")
    return PatienceSolveResult("won", moves, found.states, time.perf_counter() - began, memory=found.memory)
