"""The one engine that plays any patience description.

:class:`PatienceGame` is a mutable game with a move stack, and speaks the
shared game interface (:class:`cardtable.game.GameState`): legal moves in a
fixed order, :meth:`~PatienceGame.play`, an exact :meth:`~PatienceGame.undo`,
:meth:`~PatienceGame.outcome`, :meth:`~PatienceGame.view` (face-down cards
and the stock hidden), :meth:`~PatienceGame.clone` and move notation both
ways. Every rule it applies is read from the game's
:class:`~cardtable.patience.description.Description`; no game is named here.

>>> from cardtable.patience.registry import get
>>> game = PatienceGame.from_seed(get("freecell"), 1)
>>> [len(game.pile(Place(Kind.TABLEAU, i))) for i in range(8)]
[7, 7, 7, 7, 6, 6, 6, 6]
>>> move = game.legal_moves()[0]
>>> game.play(move)
>>> game.undo() == move
True

What the engine does by itself after every move, in this order: a
complete run (with ``foundations.complete-runs``) goes to a foundation; an
empty tableau pile takes the reserve's top card (``tableau.empty:
reserve``); a pile whose cards are all face down turns its top card up.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from functools import cache
from typing import Any

from cardtable.cards import Card, SplitMix64, Suit
from cardtable.errors import IllegalMoveError, RulesError
from cardtable.game import HiddenCards
from cardtable.patience.description import (
    Build,
    DealOrder,
    DealStep,
    Description,
    Direction,
    Fill,
    Kind,
    MoveOrder,
    MoveUnit,
    StockTo,
    Win,
)
from cardtable.patience.moves import ANY_FOUNDATION, DEAL, RECYCLE, Move, Place

__all__ = ["PYSOL_MAX", "PatienceGame", "PatienceOutcome", "PatienceView", "PileView", "deal_cards", "ms_deal_order",
           "pysol_deal_order", "shows_turned"]

#: The order of pile kinds in the engine's flat list of piles (and in legal_moves' sources).
_KIND_ORDER = (Kind.TABLEAU, Kind.FOUNDATION, Kind.CELL, Kind.RESERVE, Kind.STOCK, Kind.WASTE, Kind.HOLE)
_RANKS = 13  # ranks in a suit: a complete run is this long


class PatienceOutcome(Enum):
    """How a finished game ended."""

    WON = "won"
    NO_MOVES = "lost: no legal move left"

    @property
    def is_win(self) -> bool:
        return self is PatienceOutcome.WON


# An undo log entry: ("t", source, target, count, source_down, target_down) moves
# cards, ("f", pile) turned a card up, ("p",) began a new pass.
_Op = tuple[object, ...]


#: Microsoft's deck before the shuffle: by rank, aces first, each rank clubs diamonds hearts spades.
_MS_DECK = tuple(Card(rank, suit) for rank in range(1, 14) for suit in Suit)


def ms_deal_order(number: int) -> list[Card]:
    """The 52 cards of Microsoft FreeCell deal ``number`` in the order they
    are dealt (card ``i`` to column ``i mod 8``), ``number`` from 1 to
    2**33 - 1 (numbers from 2**31 on as fc-solve and pysol-cards extend them).

    The generator is Microsoft's linear congruential one (multiplier 214013,
    increment 2531011), drawing a card from the rest of a deck in rank order
    (aces first, clubs diamonds hearts spades) and filling the gap with the
    last card.

    >>> " ".join(map(str, ms_deal_order(1)[:8]))
    'Jd 2d 9h Jc 5d 7h 7c 5h'
    """
    if not 1 <= number < 1 << 33:
        raise RulesError(f"a Microsoft deal number is 1 to {(1 << 33) - 1}, not {number}")
    state = number if number < 1 << 32 else number - (1 << 32)
    mask = (1 << 33) - 1
    deck = list(_MS_DECK)
    order = []
    while deck:
        state = (state * 214013 + 2531011) & mask
        if number < 1 << 32:
            draw = (state >> 16) & 0x7FFF
            if number >= 1 << 31:
                draw |= 0x8000
        else:
            draw = ((state >> 16) & 0xFFFF) + 1
        index = draw % len(deck)
        order.append(deck[index])
        deck[index] = deck[-1]
        deck.pop()
    return order


#: The largest PySolFC deal number is just under this (twenty digits).
PYSOL_MAX = 10**20


def pysol_deal_order(number: int) -> list[Card]:
    """The 52 cards of PySolFC deal ``number`` in dealing order, as
    pysol-cards numbers them: 1 to 32,000 are Microsoft's deals
    (:func:`ms_deal_order`); larger numbers shuffle the deck in PySolFC's
    order (suits clubs, spades, hearts, diamonds, each Ace to King) with
    Python's Mersenne Twister seeded by the number, drawing ``j`` below
    ``n + 1`` as ``int(random() * (n + 1))`` for ``n`` from 51 down to 1,
    and deal from the end of the shuffled deck.

    >>> " ".join(map(str, pysol_deal_order(1)[:4])), len(pysol_deal_order(10**6))
    ('Jd 2d 9h Jc', 52)
    """
    import random  # PySolFC's numbering is defined by Python's Mersenne Twister

    if not 1 <= number < PYSOL_MAX:
        raise RulesError(f"a PySolFC deal number is 1 to {PYSOL_MAX - 1}, not {number}")
    if number <= 32000:
        return ms_deal_order(number)
    rng = random.Random(number)
    deck = [Card(rank, suit) for suit in (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
            for rank in range(1, 14)]
    for n in range(len(deck) - 1, 0, -1):
        j = int(rng.random() * (n + 1))
        deck[n], deck[j] = deck[j], deck[n]
    return deck[::-1]


@dataclass(frozen=True, slots=True)
class PileView:
    """A pile as the player sees it: its place, how many cards lie face down
    and the face-up cards bottom to top (the stock shows only its count), a
    foundation of whole runs in its build direction (:func:`shows_turned`)."""

    place: Place
    face_down: int
    cards: tuple[Card, ...]

    def __len__(self) -> int:
        return self.face_down + len(self.cards)


@dataclass(frozen=True, slots=True)
class PatienceView:
    """What the player of a patience game sees: every pile's face-up cards
    and counts of the hidden ones, the pass number, the legal moves and the
    redeals used (La Belle Lucie's)."""

    description: Description
    piles: tuple[PileView, ...]
    pass_number: int
    legal_moves: tuple[Move, ...]
    moves_played: int
    redeals_used: int = 0

    @property
    def player(self) -> int:
        """Always seat 0: patience has one player."""
        return 0

    @property
    def passes_left(self) -> int | None:
        """Passes through the stock still to come after this one (``None``:
        no limit); 0 for a stock that deals elsewhere than to the waste, whose
        cards never come back to it."""
        stock = self.description.stock
        if stock.to is not StockTo.WASTE:
            return 0
        return None if stock.passes is None else stock.passes - self.pass_number

    @property
    def foundation_base(self) -> int | None:
        """The rank every foundation starts with, as the player sees it
        (None: not set yet), which a tableau rule ``from_base`` reads."""
        base = self.description.foundations.base
        if base is not None:
            return base
        started = [pile.cards[0].rank for pile in self.piles if pile.place.kind is Kind.FOUNDATION and pile.cards]
        return started[0] if started else None

    def legal_actions(self) -> list[Move]:
        """The legal moves, as a list (the shared interface's name)."""
        return list(self.legal_moves)

    def hidden_cards(self) -> HiddenCards[Card]:
        """The cards not seen, in deck order, to fill each pile's face-down
        cards pile by pile (stock excluded); the rest is the stock."""
        deck = self.description.cards.deck()
        left = Counter(deck)
        for pile in self.piles:
            left.subtract(pile.cards)
        unseen = []
        for card in deck:
            if left[card] > 0:
                left[card] -= 1
                unseen.append(card)
        cards = tuple(unseen)
        slots = tuple(pile.face_down for pile in self.piles if pile.place.kind is not Kind.STOCK)
        return HiddenCards(cards, slots)


def shows_turned(description: Description, kind: Kind) -> bool:
    """True when the player sees a pile of ``kind`` the other way up from
    how its cards lie in the engine: foundations that take whole runs get
    them King to Ace, as they lay on the tableau, and when they build up
    they show the run as a foundation built up would, the King on top
    (Spider, Scorpion); built down, they show the Ace on top."""
    foundations = description.foundations
    return (kind is Kind.FOUNDATION and foundations.complete_runs
            and foundations.build.direction is Direction.UP)


def deal_cards(description: Description, deck: Sequence[Card],
               steps: Sequence[DealStep] | None = None) -> tuple[list[list[Card]], list[int]]:
    """The piles (in the engine's order) and their face-down counts after
    dealing ``deck`` (dealing order: ``deck[0]`` is dealt first) by
    ``steps`` (the description's deal unless given); the stock takes the
    cards left over, the next one on top."""
    d = description
    piles: list[list[Card]] = []
    first: dict[Kind, int] = {}
    for kind in _KIND_ORDER:
        first[kind] = len(piles)
        piles.extend([] for _ in range(d.count(kind)))
    down = [0] * len(piles)
    rest = list(deck)
    if len(rest) != d.cards.total:
        raise RulesError(f"a deal of {d.name} has {d.cards.total} cards, not {len(rest)}")
    steps = d.deal if steps is None else steps
    for step in steps:
        if step.card is not None:
            rest.remove(step.card)
    for step in steps:
        start = first[step.to]
        if step.card is not None:
            pile = start + step.cards.index(1)
            piles[pile].append(step.card)
            continue
        order = range(len(step.cards) - 1, -1, -1) if step.right_to_left else range(len(step.cards))
        parts = ([step.face_down, [n - f for n, f in zip(step.cards, step.face_down, strict=True)]]
                 if step.face_down_first else [step.cards])
        for part in parts:
            if step.order is DealOrder.ROWS:
                for row in range(max(part, default=0)):
                    for i in order:
                        if part[i] > row:
                            piles[start + i].append(rest.pop(0))
            else:
                for i in order:
                    piles[start + i].extend(rest[:part[i]])
                    del rest[:part[i]]
        for i, n in enumerate(step.face_down):
            down[start + i] += n
        if step.kings_to_bottom:  # each King, bottom up, changes places with the lowest other card under it
            for i in range(len(step.cards)):
                pile_cards = piles[start + i]
                for row, card in enumerate(pile_cards):
                    if card.rank == _RANKS:
                        lower = next((q for q in range(row) if pile_cards[q].rank != _RANKS), None)
                        if lower is not None:
                            pile_cards[lower], pile_cards[row] = card, pile_cards[lower]
    if d.stock.count:
        stock = first[Kind.STOCK]
        piles[stock] = rest[::-1]
        down[stock] = len(rest)
    return piles, down


@cache
def _fit_table(rule: Build, base: int = 1) -> tuple[bytes, ...]:
    """``rule.fits`` for every pair of cards (the foundations' base rank
    ``base``), by card index: row ``onto``, column ``card``; a look-up
    instead of the rule's arithmetic in the engine's hot loops."""
    cards = [Card.from_index(i) for i in range(52)]
    return tuple(bytes(rule.fits(card, onto, base) for card in cards) for onto in cards)


@dataclass(frozen=True, slots=True)
class _Rules:
    """A description's build rules as look-up tables (see :func:`_fit_table`)."""

    build_lists: tuple[tuple[int, ...], ...]
    build: tuple[bytes, ...]
    run: tuple[bytes, ...]
    home: tuple[bytes, ...]
    home_lists: tuple[tuple[int, ...], ...]
    hole_lists: tuple[tuple[int, ...], ...]

    @staticmethod
    def of(description: Description, base: int = 1) -> _Rules:
        """The tables of ``description`` whose foundations' base rank is
        ``base`` (read by a tableau rule that counts ranks from it)."""
        d = description
        return _Rules(_fit_lists(d.tableau.build, base), _fit_table(d.tableau.build, base),
                      _fit_table(d.tableau.run_rule, base),
                      _fit_table(d.foundations.build), _fit_lists(d.foundations.build), _fit_lists(d.hole_build))


#: The card indices of each rank (index 0 unused).
_RANK_INDICES: tuple[tuple[int, ...], ...] = ((), *(
    tuple(Card(rank, suit).index for suit in Suit) for rank in range(1, _RANKS + 1)))


@cache
def _rank_step(description: Description) -> int:
    """1 when a tableau run goes down one rank a card and builds go down too,
    -1 when both go up, else 0: then the card of a run that may go on a pile
    follows from the ranks alone."""
    tableau = description.tableau
    build, run = tableau.build, tableau.run_rule
    if (tableau.moves not in (MoveUnit.RUN, MoveUnit.SUPERMOVE) or build.wrap or run.wrap
            or build.from_base or run.from_base
            or build.direction is not run.direction):
        return 0
    return {Direction.DOWN: 1, Direction.UP: -1}.get(build.direction, 0)


def _first_item(pair: tuple[int, Move]) -> int:
    return pair[0]


@cache
def _fit_lists(rule: Build, base: int = 1) -> tuple[tuple[int, ...], ...]:
    """By card index ``onto``: the indices of the cards that ``rule`` lets go on it."""
    return tuple(tuple(i for i, fits in enumerate(row) if fits) for row in _fit_table(rule, base))


#: What a game reads of its description, worked out once a description
#: (by identity: hashing a description, every field, costs more than a deal):
#: see :func:`_shape_of`.
_SHAPES: dict[int, tuple[Description, tuple[Any, ...]]] = {}
_SHAPES_MAX = 64


def _shape_of(description: Description) -> tuple[Any, ...]:
    """The flat layout of a description's piles and what the engine reads of
    its rules, in the order :class:`PatienceGame` keeps them: the first flat
    index of each kind, the places, the moves built so far (shared by every
    game of the description: moves are immutable), each kind's range, each
    pile's kind, the rule tables, the sources, the sources to the
    foundations, whether moves list by count, each kind's count, the plain
    order of sources, what ``_legal_moves`` reads, the piles that turn a
    card up."""
    known = _SHAPES.get(id(description))
    if known is not None and known[0] is description:
        return known[1]
    d = description
    first: dict[Kind, int] = {}
    kinds: list[Place] = []
    for kind in _KIND_ORDER:
        first[kind] = len(kinds)
        kinds.extend(Place(kind, i) for i in range(d.count(kind)))
    ranges = {kind: range(first[kind], first[kind] + d.count(kind)) for kind in _KIND_ORDER}
    kind_of = tuple(place.kind for place in kinds)
    sources = [*ranges[Kind.TABLEAU], *ranges[Kind.CELL], *ranges[Kind.RESERVE], *ranges[Kind.WASTE]]
    if d.foundations.may_return:
        sources.extend(ranges[Kind.FOUNDATION])
    source_list = tuple(sources)
    home_sources = tuple(source for source in sources if kind_of[source] is not Kind.FOUNDATION)
    by_count = d.move_order is MoveOrder.FOUNDATIONS_FIRST
    counts_of = {kind: d.count(kind) for kind in _KIND_ORDER}
    # the order of sources when it does not hang on the foundations' cards
    plain_sources = (*ranges[Kind.WASTE], *ranges[Kind.TABLEAU], *ranges[Kind.CELL],
                     *ranges[Kind.RESERVE]) if by_count else source_list
    home_rank = [0] * len(kinds)
    for rank, source in enumerate(home_sources):
        home_rank[source] = rank
    plan = (d.tableau.count, tuple(ranges[Kind.CELL]), tuple(ranges[Kind.RESERVE]),
            first[Kind.HOLE] if d.hole.count else -1, d.tableau.empty,
            d.tableau.empty is Fill.KINGS, d.tableau.moves,
            d.tableau.moves in (MoveUnit.RUN, MoveUnit.SUPERMOVE), d.tableau.covers is not None,
            by_count, d.tableau.pile_to_space, d.tableau.reach is not None, d.hole_pairs,
            tuple(home_rank), _rank_step(d))
    flippable = (*ranges[Kind.TABLEAU], *ranges[Kind.RESERVE])
    moves: dict[int, Move] = {}
    shape = (first, kinds, moves, ranges, kind_of, _Rules.of(d), source_list, home_sources, by_count, counts_of,
             plain_sources, plan, flippable)
    if len(_SHAPES) >= _SHAPES_MAX:
        _SHAPES.clear()
    _SHAPES[id(description)] = (description, shape)
    return shape


class PatienceGame:
    """A game of patience under one description (see the module documentation).

    ``piles`` lists every pile, bottom to top, in the order tableau,
    foundations, cells, reserve, stock, waste, hole (each kind left to
    right); ``down[i]`` counts pile ``i``'s face-down cards (its bottom
    ones). Read them through :meth:`pile` and :meth:`face_down`; change the
    game only through :meth:`play` and :meth:`undo`.
    """

    __slots__ = ("_by_count", "_counts_of", "_first", "_flippable", "_home", "_home_sources", "_kind_of", "_kinds",
                 "_legal", "_moves", "_plain_sources", "_plan", "_ranges", "_rules", "_runs", "_source_list", "_stack",
                 "description", "down", "pass_number", "piles", "redeals_used", "shuffle_seed", "start")

    def __init__(self, description: Description, piles: Sequence[Sequence[Card]], down: Sequence[int],
                 shuffle_seed: int = 0) -> None:
        self.description = description
        #: What seeds the shuffle of a redeal (the deal's seed when dealt from one).
        self.shuffle_seed = shuffle_seed
        self.redeals_used = 0
        (self._first, self._kinds, self._moves, self._ranges, self._kind_of, self._rules, self._source_list,
         self._home_sources, self._by_count, self._counts_of, self._plain_sources, self._plan,
         self._flippable) = _shape_of(description)
        if len(piles) != len(self._kinds) or len(down) != len(piles):
            raise RulesError(f"{description.name} has {len(self._kinds)} piles, not {len(piles)}")
        self.piles: list[list[Card]] = [list(p) for p in piles]
        self.down: list[int] = list(down)
        self.start: tuple[tuple[tuple[Card, ...], ...], tuple[int, ...]] = (
            tuple(tuple(p) for p in self.piles), tuple(self.down))
        if description.tableau.build.from_base or description.tableau.run_rule.from_base:
            # the tableau counts ranks from the foundations' base, which the deal sets (see Build)
            self._rules = _Rules.of(description, self.foundation_base or 1)
        self.pass_number = 1
        self._stack: list[tuple[Move, list[_Op]]] = []
        self._legal: list[Move] | None = None  # legal_moves of this position, once asked
        self._fresh()

    def _fresh(self) -> None:
        """Forget what is kept of the position between moves: the legal moves,
        the cards the foundations take and each pile's run length."""
        self._legal = None
        self._home: set[int] | frozenset[int] | None = None
        self._runs = [-1] * len(self.piles)  # -1: not known

    # ----- construction --------------------------------------------------------------

    @classmethod
    def from_deck(cls, description: Description, deck: Sequence[Card]) -> PatienceGame:
        """A game dealt from ``deck`` in dealing order (see :func:`deal_cards`)."""
        piles, down = deal_cards(description, deck)
        return cls(description, piles, down)

    @classmethod
    def from_seed(cls, description: Description, seed: int | str) -> PatienceGame:
        """A game dealt from a seed: a whole number shuffles the game's cards
        with :class:`~cardtable.cards.SplitMix64` exactly as
        :func:`~cardtable.cards.shuffled_deck` does (the same order for one
        deck of four suits); ``"ms:N"`` is Microsoft FreeCell deal ``N`` and
        ``"pysol:N"`` PySolFC's deal ``N`` (see :func:`pysol_deal_order`), for
        the games whose description lists ``ms`` or ``pysol`` among its ``deals``."""
        if isinstance(seed, str):
            text = seed.strip().lower()
            for prefix, what, order in (("ms", "Microsoft", ms_deal_order), ("pysol", "PySolFC", pysol_deal_order)):
                if text.startswith(prefix + ":"):
                    # "pysol-reversed": PySolFC deals this game from the other end of its shuffled deck
                    reversed_ = prefix + "-reversed" in description.deals
                    if prefix not in description.deals and not reversed_:
                        raise RulesError(f"{description.name} has no {what} deal numbers ({prefix}:N)")
                    try:
                        number = int(text[len(prefix) + 1:])
                    except ValueError:
                        raise RulesError(f"cannot read deal {seed!r}: write {prefix}:N, N a whole number") from None
                    cards = order(number)
                    change = description.pysol_deal if prefix == "pysol" else None
                    steps = None if change is None else [
                        replace(step, right_to_left=change.right_to_left, face_down_first=change.face_down_first)
                        for step in description.deal]
                    piles, down = deal_cards(description, cards[::-1] if reversed_ else cards, steps)
                    game = cls(description, piles, down)
                    game.shuffle_seed = number
                    return game
            try:
                seed = int(text)
            except ValueError:
                raise RulesError(f"cannot read deal {seed!r}: a whole number, ms:N or pysol:N") from None
        if not 0 <= seed < 1 << 64:
            raise RulesError(f"a seed is a whole number from 0 to 2**64 - 1, not {seed}")
        rng = SplitMix64(seed)
        deck = description.cards.deck()
        for i in range(len(deck) - 1, 0, -1):
            j = rng.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        game = cls.from_deck(description, deck)
        game.shuffle_seed = seed
        return game

    def clone(self) -> PatienceGame:
        """An independent copy, move stack included."""
        other = PatienceGame.__new__(PatienceGame)
        other.description = self.description
        other._first = self._first
        other._kinds = self._kinds
        other.piles = [list(p) for p in self.piles]
        other.down = list(self.down)
        other.start = self.start
        other.pass_number = self.pass_number
        other.redeals_used = self.redeals_used
        other.shuffle_seed = self.shuffle_seed
        other._stack = [(move, list(ops)) for move, ops in self._stack]
        other._legal = None
        other._moves = self._moves
        other._ranges = self._ranges
        other._kind_of = self._kind_of
        other._rules = self._rules
        other._source_list = self._source_list
        other._home_sources = self._home_sources
        other._by_count = self._by_count
        other._counts_of = self._counts_of
        other._plain_sources = self._plain_sources
        other._plan = self._plan
        other._flippable = self._flippable
        other._home = self._home
        other._runs = list(self._runs)
        return other

    # ----- queries -------------------------------------------------------------------

    def index(self, place: Place) -> int:
        """The flat index of ``place``; an unknown pile raises :class:`IllegalMoveError`."""
        count = self._counts_of[place.kind]
        if not 0 <= place.index < count:
            raise IllegalMoveError(f"{self.description.title} has no pile {place}")
        return self._first[place.kind] + place.index

    def places(self, kind: Kind) -> list[Place]:
        """The places of every pile of ``kind``, left to right."""
        start = self._first[kind]
        return self._kinds[start:start + self.description.count(kind)]

    def pile(self, place: Place) -> list[Card]:
        """A copy of a pile's cards, bottom to top."""
        return list(self.piles[self.index(place)])

    def face_down(self, place: Place) -> int:
        """How many of a pile's cards lie face down."""
        return self.down[self.index(place)]

    @property
    def moves(self) -> list[Move]:
        """The moves played so far."""
        return [move for move, _ in self._stack]

    def key(self) -> tuple[object, ...]:
        """A hashable key of the whole position (equal positions, equal keys)."""
        return (tuple(tuple(p) for p in self.piles), tuple(self.down), self.pass_number, self.redeals_used)

    def foundation_cards(self) -> int:
        """How many cards lie on the foundations and the hole."""
        d = self.description
        start = self._first[Kind.FOUNDATION]
        hole = self._first[Kind.HOLE]
        return sum(len(p) for p in self.piles[start:start + d.foundations.count]) + \
            sum(len(p) for p in self.piles[hole:hole + d.hole.count])

    def home_move(self) -> Move | None:
        """The first legal move that sends cards onto a foundation from
        elsewhere, or None (always None in a game with no foundations).
        Playing it until it is None is auto-finish, as every face offers it.

        >>> from cardtable.patience import get
        >>> game = PatienceGame.from_seed(get("golf"), 1)
        >>> game.home_move() is None
        True
        """
        for move in self.legal_moves():
            if move.target is not None and move.target.kind is Kind.FOUNDATION \
                    and move.source.kind is not Kind.FOUNDATION:
                return move
        return None

    def is_won(self) -> bool:
        """True when the description's win condition holds."""
        d = self.description
        if d.win is Win.TABLEAU_EMPTY:
            return not any(self.piles[:d.tableau.count])
        if d.win is Win.ONE_PILE:
            tableau = self.piles[:d.tableau.count]
            return sum(1 for pile in tableau if pile) == 1 and sum(map(len, tableau)) == d.cards.total
        return self.foundation_cards() == d.cards.total

    # ----- the rules -----------------------------------------------------------------

    def _run_length(self, pile: int) -> int:
        """How many top cards of a pile form a run under the run rule (face up
        only); kept until the pile changes."""
        known = self._runs[pile]
        if known >= 0:
            return known
        cards = self.piles[pile]
        up = len(cards) - self.down[pile]
        if not up:
            return 0
        fits = self._rules.run
        length = 1
        while length < up and fits[cards[-length - 1].index][cards[-length].index]:
            length += 1
        self._runs[pile] = length
        return length

    def _counts(self, pile: int) -> list[int]:
        """The numbers of cards that may move together off a tableau pile."""
        cards = self.piles[pile]
        up = len(cards) - self.down[pile]
        if not up:
            return []
        unit = self.description.tableau.moves
        if unit is MoveUnit.ONE:
            return [1]
        if unit is MoveUnit.PILE:
            return [len(cards)] if up == len(cards) else []
        if unit is MoveUnit.FACE_UP:
            return list(range(1, up + 1))
        run = self._run_length(pile)
        if unit is MoveUnit.WHOLE_PILE:
            return [1, run] if run == len(cards) and run > 1 else [1]
        return list(range(1, run + 1))

    @property
    def foundation_base(self) -> int | None:
        """The rank every foundation starts with (None: not set yet: no card
        went to a foundation of a game whose base is the first card's rank)."""
        base = self.description.foundations.base
        if base is not None:
            return base
        start = self._first[Kind.FOUNDATION]
        for pile in self.piles[start:start + self.description.foundations.count]:
            if pile:
                return pile[0].rank
        return None

    def _foundation_for(self, card: Card) -> int | None:
        """The first foundation that takes ``card`` now, or None."""
        d = self.description.foundations
        if d.complete_runs:
            return None
        base = self.foundation_base
        fits = self._rules.home
        piles = self.piles
        for pile in self._ranges[Kind.FOUNDATION]:
            cards = piles[pile]
            if cards[-1:]:
                if fits[cards[-1].index][card.index]:
                    return pile
            elif base is None or card.rank == base:
                return pile
        return None

    def _free(self) -> tuple[int, int]:
        """Free cells, and empty tableau piles that take any card."""
        first = self._first
        start = first[Kind.CELL]
        cells = sum(1 for p in range(start, start + self.description.cells.count) if not self.piles[p])
        if self.description.tableau.empty is not Fill.ANY:
            return cells, 0  # an empty pile that takes only some cards carries no run's middle
        return cells, sum(1 for p in range(self.description.tableau.count) if not self.piles[p])

    def _takes(self, target: int, card: Card, count: int) -> bool:
        """True when tableau pile ``target`` takes ``count`` cards headed by ``card``."""
        cards = self.piles[target]
        tableau = self.description.tableau
        if cards:
            if self.down[target] == len(cards) or not self._rules.build[cards[-1].index][card.index]:
                return False
            if count == 1 or tableau.moves is not MoveUnit.SUPERMOVE:
                return True
            cells, empty = self._free()
        else:
            fill = tableau.empty
            if fill is Fill.NONE or (fill is Fill.KINGS and card.rank != _RANKS):
                return False
            if fill is Fill.RESERVE and any(self.piles[p] for p in self._range(Kind.RESERVE)):
                return False
            if count == 1 or tableau.moves is not MoveUnit.SUPERMOVE:
                return True
            cells, empty = self._free()
            empty = max(empty - 1, 0)
        # FreeCell's supermove: what the free cells and other empty piles carry one card at a time
        return count <= (cells + 1) << empty

    def _carries(self, pile: int, count: int) -> bool:
        """True when the top ``count`` cards of a pile may move together
        (``count`` is among :meth:`_counts`)."""
        cards = self.piles[pile]
        up = len(cards) - self.down[pile]
        if not up or count < 1:
            return False
        unit = self.description.tableau.moves
        if unit is MoveUnit.ONE:
            return count == 1
        if unit is MoveUnit.PILE:
            return up == len(cards) and count == len(cards)
        if unit is MoveUnit.FACE_UP:
            return count <= up
        if count == 1:
            return True
        run = self._run_length(pile)
        if unit is MoveUnit.WHOLE_PILE:
            return run == len(cards) and count == run
        return count <= run

    def _reach(self) -> dict[int, set[int]]:
        """For each tableau pile that holds cards, the piles it may move onto
        under ``tableau.reach`` (counting only the piles that hold cards)."""
        reach = self.description.tableau.reach or ()
        held = [pile for pile in range(self.description.tableau.count) if self.piles[pile]]
        return {pile: {held[i - r] for r in reach if i - r >= 0} for i, pile in enumerate(held)}

    def _covered(self, pile: int) -> bool:
        """True when a tableau pile lies under a pile that still holds cards."""
        covers = self.description.tableau.covers
        return covers is not None and pile < len(covers) and any(self.piles[p] for p in covers[pile])

    def _range(self, kind: Kind) -> range:
        return self._ranges[kind]

    def _home_takes(self) -> set[int] | frozenset[int]:
        """The indices of the cards some foundation takes now."""
        d = self.description.foundations
        if d.complete_runs or not d.count:
            return frozenset()
        base = self.foundation_base
        fit_lists = self._rules.home_lists
        takes: set[int] = set()
        for pile in self._ranges[Kind.FOUNDATION]:
            cards = self.piles[pile]
            if cards:
                takes.update(fit_lists[cards[-1].index])
            elif base is None:
                return frozenset(range(52))
            else:
                takes.update(_RANK_INDICES[base])
        return takes

    def _hole_set(self) -> frozenset[int] | tuple[int, ...]:
        """The indices of the cards the hole takes now."""
        cards = self.piles[self._first[Kind.HOLE]]
        return self._rules.hole_lists[cards[-1].index] if cards else frozenset(range(52))

    def _hole_takes(self, card: Card) -> bool:
        hole = self._first[Kind.HOLE]
        cards = self.piles[hole]
        return not cards or self.description.hole_build.fits(card, cards[-1])

    def _sources(self) -> tuple[int, ...]:
        """The piles cards may come from, in the order legal moves list them."""
        return self._source_list

    def _may_deal(self) -> bool:
        d = self.description
        if d.stock.count and not d.stock.needs_no_empty_pile:
            return bool(self.piles[self._first[Kind.STOCK]])
        if not d.stock.count:  # D redeals the tableau, where the game allows it
            return self.redeals_used < d.redeals.count and any(self.piles[:d.tableau.count])
        stock = self._first[Kind.STOCK]
        if not self.piles[stock]:
            return False
        return not (d.stock.needs_no_empty_pile and not all(self.piles[:d.tableau.count]))

    def _may_recycle(self) -> bool:
        d = self.description
        if d.stock.to is not StockTo.WASTE:
            return False
        passes = d.stock.passes
        return (not self.piles[self._first[Kind.STOCK]] and bool(self.piles[self._first[Kind.WASTE]])
                and (passes is None or self.pass_number < passes))

    def legal_moves(self) -> list[Move]:
        """Every legal move, in the order the description's ``move-order``
        names (:class:`~cardtable.patience.description.MoveOrder`); by
        default by source (tableau piles, cells, reserve, waste, then
        foundations where cards may come back), then by target (the
        foundations, the hole, tableau piles, cells), then by count (fewest
        first); last the deal (``D``) and the recycle (``R``)."""
        if self._legal is None:
            self._legal = self._legal_moves()
        return list(self._legal)

    def _legal_moves(self) -> list[Move]:
        (tableau_count, cell_range, reserve_range, hole, fill, kings_only, unit, runs, covers, by_count,
         pile_to_space, reach_rule, hole_pairs, home_rank, rank_step) = self._plan
        piles, down = self.piles, self.down
        moves: list[Move] = []
        cells = [cell for cell in cell_range if not piles[cell]] if cell_range else cell_range
        fit_lists = self._rules.build_lists
        build_fits = self._rules.build
        space_ok = fill is not Fill.NONE and not (fill is Fill.RESERVE and any(piles[p] for p in reserve_range))
        if unit is MoveUnit.SUPERMOVE:
            empty = 0 if fill is not Fill.ANY else sum(1 for target in range(tableau_count) if not piles[target])
            onto_pile, onto_space = (len(cells) + 1) << empty, (len(cells) + 1) << max(empty - 1, 0)
        else:
            onto_pile = onto_space = 1 << 30
        # which piles take each card on their top (by card index), and the spaces that take a card
        takers: dict[int, list[int]] = {}
        spaces: list[int] = []
        # with a rank step, instead: by rank, each pile that takes a card and its top card
        by_rank: dict[int, list[tuple[int, Card]]] = {}
        covered = self._covered
        for target in range(tableau_count):
            onto = piles[target]
            if covers and covered(target):
                continue
            if onto:
                if down[target] != len(onto):
                    if rank_step:
                        on = onto[-1]
                        ranked = by_rank.get(on.rank)
                        if ranked is None:
                            by_rank[on.rank] = [(target, on)]
                        else:
                            ranked.append((target, on))
                        continue
                    for index in fit_lists[onto[-1].index]:
                        listed = takers.get(index)
                        if listed is None:
                            takers[index] = [target]
                        else:
                            listed.append(target)
            elif space_ok:
                spaces.append(target)
        home = self._home
        if home is None:
            home = self._home = self._home_takes()
        hole_takes = self._hole_set() if hole >= 0 and hole_pairs is None else ()
        known, make = self._moves, self._move
        kind_of = self._kind_of
        reach = self._reach() if reach_rule else None
        known_runs = self._runs
        home_moves: list[tuple[int, Move]] = []  # foundations-first: by the source's rank among the sources
        for source in self._ordered_sources():
            cards = piles[source]
            size = len(cards)
            up = size - down[source]
            if not up:
                continue
            kind = kind_of[source]
            if covers and kind is Kind.TABLEAU and covered(source):
                continue
            top = cards[-1].index
            if kind is not Kind.FOUNDATION:
                if top in home:
                    move = known.get((source << 16) | 1) or make(source, -1, 1)
                    if by_count:
                        home_moves.append((home_rank[source], move))
                    else:
                        moves.append(move)
                if top in hole_takes:
                    if by_count:
                        home_moves.append((home_rank[source], make(source, hole, 1)))
                    else:
                        moves.append(make(source, hole, 1))
            if kind is not Kind.TABLEAU or unit is MoveUnit.ONE:
                found: Sequence[int]
                if rank_step:
                    found = [target for target, on in by_rank.get(cards[-1].rank + rank_step, ())
                             if build_fits[on.index][top]]
                else:
                    found = takers.get(top, ())
                if spaces and not (kings_only and cards[-1].rank != _RANKS) and (
                        pile_to_space or kind is not Kind.TABLEAU or size > 1):
                    found = sorted((*found, *spaces))
                if reach is not None and kind is Kind.TABLEAU:
                    found = [target for target in found if target in reach[source]]
                for target in found:
                    if target != source:
                        moves.append(known.get((source << 16) | ((target + 1) << 8) | 1) or make(source, target, 1))
            else:
                if runs:
                    length = known_runs[source]
                    if length < 0:
                        length = self._run_length(source)
                    counts: Sequence[int] = range(1, length + 1)
                else:
                    counts = self._counts(source)
                # each (target, count) as one number that sorts in the listing's order
                if rank_step:
                    # a run's ranks step by one, so on each pile at most the card one rank
                    # off its top can go, and where that card lies in the run is known
                    bottom = cards[-1].rank
                    keyed = []
                    # the count whose card lies one rank off a pile's top, while ranks last
                    last = min(length, onto_pile, _RANKS - bottom if rank_step > 0 else bottom - 1)
                    for count in range(1, last + 1):
                        ranked = by_rank.get(bottom + count * rank_step)
                        if ranked:
                            index = cards[-count].index
                            for target, on in ranked:
                                if build_fits[on.index][index]:
                                    keyed.append((count << 8) | target if by_count else (target << 8) | count)
                elif unit is MoveUnit.PILE:  # the whole pile goes by its top card
                    keyed = [((count << 8) | target) if by_count else ((target << 8) | count)
                             for count in counts for target in takers.get(top, ())]
                elif by_count:
                    keyed = [(count << 8) | target for count in counts if count <= onto_pile
                             for target in takers.get(cards[-count].index, ())]
                else:
                    keyed = [(target << 8) | count for count in counts if count <= onto_pile
                             for target in takers.get(cards[-count].index, ())]
                if spaces:
                    for count in counts:
                        lead = cards[-1 if unit is MoveUnit.PILE else -count]
                        if (count <= onto_space and (not kings_only or lead.rank == _RANKS)
                                and (pile_to_space or count != size)):
                            keyed.extend(((count << 8) | target) if by_count else ((target << 8) | count)
                                         for target in spaces)
                if reach is not None:
                    allowed = reach[source]
                    keyed = [key for key in keyed if (key & 0xFF if by_count else key >> 8) in allowed]
                if keyed:
                    if len(keyed) > 1:
                        keyed.sort()
                    for key in keyed:
                        target, count = (key & 0xFF, key >> 8) if by_count else (key >> 8, key & 0xFF)
                        if target != source:
                            code = (source << 16) | ((target + 1) << 8) | count
                            moves.append(known.get(code) or make(source, target, count))
            if cells and kind is not Kind.CELL and kind is not Kind.FOUNDATION:
                for cell in cells:
                    moves.append(make(source, cell, 1))
        if home_moves:
            if len(home_moves) > 1:
                home_moves.sort(key=_first_item)
            moves[:0] = [move for _, move in home_moves]
        if hole_pairs is not None:
            moves.extend(self._pair_moves(hole_pairs))
        if self._may_deal():
            moves.append(DEAL)
        if self._may_recycle():
            moves.append(RECYCLE)
        return moves

    def _ordered_sources(self) -> Sequence[int]:
        """The piles cards may come from, in the order the move listing takes them."""
        if not self._by_count or not self.description.foundations.may_return:
            return self._plain_sources
        piles = self.piles
        held = sorted((piles[pile][-1].suit, pile) for pile in self._ranges[Kind.FOUNDATION] if piles[pile])
        return (*self._plain_sources, *(pile for _, pile in held))

    def _move(self, source: int, target: int, count: int, pair: int = -1) -> Move:
        """The move of ``count`` cards from flat pile ``source`` to ``target``
        (-1: the foundations), with the top card of ``pair`` when it is not
        -1, built once per game and shared by its clones."""
        key = ((pair + 1) << 24) | (source << 16) | ((target + 1) << 8) | count
        move = self._moves.get(key)
        if move is None:
            move = self._moves[key] = Move(self._kinds[source],
                                           ANY_FOUNDATION if target < 0 else self._kinds[target], count,
                                           None if pair < 0 else self._kinds[pair])
        return move

    def _pair_moves(self, total: int) -> list[Move]:
        """The hole's moves when it takes pairs that make ``total``: a free
        card of that rank alone, or two free cards whose ranks add up to it."""
        hole = self._first[Kind.HOLE]
        free = []
        for source in self._sources():
            cards = self.piles[source]
            kind = self._kinds[source].kind
            if (cards and self.down[source] < len(cards) and kind is not Kind.FOUNDATION
                    and not (kind is Kind.TABLEAU and self._covered(source))):
                free.append((source, cards[-1].rank))
        moves = []
        for i, (source, rank) in enumerate(free):
            if rank == total:
                moves.append(self._move(source, hole, 1))
            for other, other_rank in free[i + 1:]:
                if rank + other_rank == total:
                    moves.append(self._move(source, hole, 1, other))
        return moves

    def why_illegal(self, move: Move) -> str | None:
        """Why ``move`` may not be played now, or None when it may."""
        return self._check(move)[0]

    def _no_pile(self, place: Place) -> str:
        return f"{self.description.title} has no pile {place}"

    def _check(self, move: Move) -> tuple[str | None, int, int]:
        """Why ``move`` may not be played now (None when it may) and, for a
        move of cards from a pile to a pile checked here, its flat source and
        target (for the foundations, the one that takes the card); -1 and -1
        for the other moves and for a move found among the listed ones."""
        legal = self._legal
        if legal is not None:
            for known in legal:  # the listed moves are shared objects: identity first, no field compares
                if known is move:
                    return None, -1, -1
            if move in legal:
                return None, -1, -1
        d = self.description
        source_place, target_place = move.source, move.target
        if move.pair is not None or (target_place is not None and target_place.kind is Kind.HOLE
                                     and d.hole_pairs is not None):
            return (None if move in self.legal_moves() else f"{move} is not a free card or pair that makes "
                    f"{d.hole_pairs} here"), -1, -1
        kind = source_place.kind
        if kind is Kind.STOCK:  # the deal
            if self._may_deal():
                return None, -1, -1
            return ("no redeal is left" if d.redeals.count else "the stock cannot deal now"), -1, -1
        assert target_place is not None
        target_kind = target_place.kind
        if target_kind is Kind.STOCK:  # the recycle
            return (None if self._may_recycle() else "the waste cannot be turned over now"), -1, -1
        counts, first = self._counts_of, self._first
        if not 0 <= source_place.index < counts[kind]:
            return self._no_pile(source_place), -1, -1
        source = first[kind] + source_place.index
        to_foundations = target_kind is Kind.FOUNDATION and target_place.index == -1
        target = -1
        if not to_foundations:
            if not 0 <= target_place.index < counts[target_kind]:
                return self._no_pile(target_place), -1, -1
            target = first[target_kind] + target_place.index
        cards = self.piles[source]
        if not cards or self.down[source] == len(cards):
            return f"pile {source_place} has no face-up card", -1, -1
        covers = self._plan[8]
        if covers and kind is Kind.TABLEAU and self._covered(source):
            return f"pile {source_place} lies under another pile", -1, -1
        if covers and target_kind is Kind.TABLEAU and self._covered(target):
            return f"pile {target_place} lies under another pile", -1, -1
        reach = d.tableau.reach
        if (reach is not None and kind is Kind.TABLEAU and target_kind is Kind.TABLEAU
                and target not in self._reach().get(source, ())):
            distances = " or ".join(map(str, sorted(reach)))
            return f"pile {target_place} is not {distances} piles to the left of pile {source_place}", -1, -1
        if source not in self._source_list:
            return f"no card comes back from the {kind.value} in {d.title}", -1, -1
        count = move.count
        if count > 1 and not self._carries(source, count):
            return f"the top {count} cards of pile {source_place} do not move together", -1, -1
        # the card that must fit: the moving cards' bottom one, but a whole
        # pile (tableau.moves "pile") goes by its top card
        card = cards[-1] if kind is Kind.TABLEAU and d.tableau.moves is MoveUnit.PILE else cards[-count]
        if target_kind is Kind.FOUNDATION:
            if kind is Kind.FOUNDATION:
                return "foundation to foundation is not a move", -1, -1
            home = self._foundation_for(card)
            if home is None:
                return f"{card} does not go to a foundation now", -1, -1
            return None, source, home if to_foundations else target
        if target_kind is Kind.HOLE:
            return (None, source, target) if self._hole_takes(card) else (f"{card} does not go to the hole now",
                                                                           -1, -1)
        if target_kind is Kind.CELL:
            if kind is Kind.CELL or kind is Kind.FOUNDATION:
                return f"no {kind.value} card goes to a free cell", -1, -1
            return (None, source, target) if not self.piles[target] else (f"cell {target_place} is not free", -1, -1)
        if target_kind is Kind.TABLEAU:
            if kind is Kind.TABLEAU and not self._carries(source, count):
                return f"the top {count} cards of pile {source_place} do not move together", -1, -1
            if (kind is Kind.TABLEAU and count == len(cards) and not d.tableau.pile_to_space
                    and not self.piles[target]):
                return f"moving all of pile {source_place} to an empty pile changes nothing", -1, -1
            if self._takes(target, card, count):
                return None, source, target
            return f"{card} does not go on pile {target_place} now", -1, -1
        return f"nothing goes to the {target_kind.value}", -1, -1

    def is_legal(self, move: Move) -> bool:
        """True when ``move`` may be played now."""
        return self.why_illegal(move) is None

    # ----- playing -------------------------------------------------------------------

    def _transfer(self, ops: list[_Op], source: int, target: int, count: int) -> None:
        src, dst = self.piles[source], self.piles[target]
        ops.append(("t", source, target, count, self.down[source], self.down[target]))
        dst.extend(src[-count:])
        del src[-count:]
        self.down[source] = min(self.down[source], len(src))
        kind_of = self._kind_of
        if kind_of[target] is Kind.STOCK:
            self.down[target] = len(dst)
        self._runs[source] = self._runs[target] = -1
        if kind_of[source] is Kind.FOUNDATION or kind_of[target] is Kind.FOUNDATION:
            self._home = None

    def play(self, move: Move) -> None:
        """Play ``move``; an illegal one raises :class:`IllegalMoveError` and
        changes nothing."""
        reason, source, target = self._check(move)
        if reason is not None:
            raise IllegalMoveError(f"illegal move {move}: {reason}")
        d = self.description
        ops: list[_Op] = []
        first = self._first
        to = move.target
        if to is not None and to.kind is not Kind.STOCK:  # the usual move: cards from a pile to a pile
            if source < 0:  # a listed move: the check left its piles to find
                source = self.index(move.source)
                if to.index < 0:  # the foundations: the first that takes the card
                    found = self._foundation_for(self.piles[source][-1])
                    assert found is not None
                    target = found
                else:
                    target = self.index(to)
            self._transfer(ops, source, target, move.count)
            if move.pair is not None:
                self._transfer(ops, self.index(move.pair), target, 1)
        elif move.is_deal and not d.stock.count:
            self._redeal(ops)
        elif move.is_deal:
            stock = first[Kind.STOCK]
            if d.stock.to is StockTo.WASTE:
                for _ in range(min(d.stock.draw, len(self.piles[stock]))):
                    self._transfer(ops, stock, first[Kind.WASTE], 1)
            elif d.stock.to is StockTo.HOLE:
                for _ in range(min(d.stock.draw, len(self.piles[stock]))):
                    self._transfer(ops, stock, first[Kind.HOLE], 1)
            else:
                for pile in range(d.tableau.count):
                    if self.piles[stock]:
                        self._transfer(ops, stock, pile, 1)
        elif move.is_recycle:
            waste = first[Kind.WASTE]
            ops.append(("p",))
            self.pass_number += 1
            for _ in range(len(self.piles[waste])):
                self._transfer(ops, waste, first[Kind.STOCK], 1)
        self._settle(ops)
        self._stack.append((move, ops))
        self._legal = None

    def _settle(self, ops: list[_Op]) -> None:
        """What happens by itself after a move (see the module documentation)."""
        d = self.description
        if d.foundations.complete_runs:
            foundations = list(self._range(Kind.FOUNDATION))
            for pile in range(d.tableau.count):
                if self._complete_run_on(pile):
                    free = next((f for f in foundations if not self.piles[f]), None)
                    if free is not None:
                        self._transfer(ops, pile, free, _RANKS)
        if d.tableau.empty is Fill.RESERVE:
            reserves = list(self._range(Kind.RESERVE))
            for pile in range(d.tableau.count):
                if not self.piles[pile]:
                    source = next((r for r in reserves if self.piles[r]), None)
                    if source is None:
                        break
                    self._transfer(ops, source, pile, 1)
        piles, down, kind_of = self.piles, self.down, self._kind_of
        if d.tableau.covers is None and self._stack:
            # only a pile that lost cards can have been left face down (all of them at the first move:
            # a description may deal a pile face down)
            check: Sequence[int] = [op[1] for op in ops if op[0] == "t"]  # type: ignore[misc]
        else:
            check = self._flippable
        for pile in check:
            cards = piles[pile]
            if cards and down[pile] == len(cards) and (kind_of[pile] is Kind.TABLEAU or kind_of[pile] is Kind.RESERVE):
                if kind_of[pile] is Kind.TABLEAU and self._covered(pile):
                    continue
                down[pile] -= 1
                self._runs[pile] = -1
                ops.append(("f", pile))

    def _complete_run_on(self, pile: int) -> bool:
        cards = self.piles[pile]
        if len(cards) - self.down[pile] < _RANKS:
            return False
        run = cards[-_RANKS:]
        suit = run[0].suit
        return all(card.suit == suit and card.rank == _RANKS - i for i, card in enumerate(run))

    def undo(self) -> Move:
        """Take back the last move and return it; the position before it is
        restored exactly. With nothing to undo it raises :class:`IllegalMoveError`."""
        if not self._stack:
            raise IllegalMoveError("nothing to undo")
        move, ops = self._stack.pop()
        for op in reversed(ops):
            if op[0] == "t":
                _, source, target, count, source_down, target_down = op
                assert isinstance(source, int) and isinstance(target, int) and isinstance(count, int)
                dst = self.piles[target]
                self.piles[source].extend(dst[-count:])
                del dst[-count:]
                self.down[source] = int(source_down)  # type: ignore[call-overload]
                self.down[target] = int(target_down)  # type: ignore[call-overload]
            elif op[0] == "f":
                pile = op[1]
                assert isinstance(pile, int)
                self.down[pile] += 1
            elif op[0] == "r":
                _, piles, down = op
                count = self.description.tableau.count
                self.piles[:count] = [list(p) for p in piles]  # type: ignore[attr-defined]
                self.down[:count] = list(down)  # type: ignore[call-overload]
                self.redeals_used -= 1
            else:
                self.pass_number -= 1
        self._fresh()
        return move

    def _redeal(self, ops: list[_Op]) -> None:
        """Gather the tableau's cards, pile by pile, shuffle them (a seeded
        SplitMix64 Fisher-Yates, seeded by the game's shuffle seed and the
        redeal's number) and deal them again, ``per_pile`` to a pile."""
        count = self.description.tableau.count
        ops.append(("r", tuple(tuple(p) for p in self.piles[:count]), tuple(self.down[:count])))
        self.redeals_used += 1
        self._runs = [-1] * len(self.piles)
        cards = [card for pile in self.piles[:count] for card in pile]
        rng = SplitMix64(self.shuffle_seed * 0x100 + self.redeals_used)
        for i in range(len(cards) - 1, 0, -1):
            j = rng.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        per_pile = self.description.redeals.per_pile
        for pile in range(count):
            self.piles[pile] = cards[pile * per_pile:(pile + 1) * per_pile]
            self.down[pile] = 0

    def outcome(self) -> PatienceOutcome | None:
        """``WON``, ``NO_MOVES`` (no legal move left), or None while the game goes on."""
        if self.is_won():
            return PatienceOutcome.WON
        if not self.legal_moves():
            return PatienceOutcome.NO_MOVES
        return None

    def is_over(self) -> bool:
        """True when :meth:`outcome` is not None."""
        return self.outcome() is not None

    # ----- the shared game interface (cardtable.game.GameState) ---------------------------

    @property
    def num_players(self) -> int:
        """Patience is a one-player game."""
        return 1

    def current_player(self) -> int | None:
        """0 while the game goes on, else None."""
        return None if self.is_over() else 0

    def legal_actions(self) -> list[Move]:
        """The same as :meth:`legal_moves`."""
        return self.legal_moves()

    def returns(self) -> tuple[float, ...]:
        """The cards on the foundations and the hole; in a game won with one
        pile (Accordion), the cards less the piles left."""
        d = self.description
        if d.win is Win.ONE_PILE:
            return (float(d.cards.total - sum(1 for pile in self.piles[:d.tableau.count] if pile)),)
        return (float(self.foundation_cards()),)

    def view(self, player: int | None = None) -> PatienceView:
        """What the player sees: face-up cards, counts of the face-down ones
        (the stock only as a count), the pass number, the legal moves and the
        redeals used."""
        if player not in (None, 0):
            raise IllegalMoveError(f"patience has one player, seat 0, not seat {player}")
        turned = shows_turned(self.description, Kind.FOUNDATION)
        piles = tuple(PileView(place, self.down[i], tuple(self.piles[i][self.down[i]:][::-1]
                                                          if turned and place.kind is Kind.FOUNDATION
                                                          else self.piles[i][self.down[i]:]))
                      for i, place in enumerate(self._kinds))
        return PatienceView(self.description, piles, self.pass_number, tuple(self.legal_moves()),
                            len(self._stack), self.redeals_used)

    def action_to_string(self, action: Move) -> str:
        """The move in move notation (``3>F``, ``1>a``, ``2>7:3``, ``D``)."""
        return str(action)

    def parse_action(self, text: str) -> Move:
        """Read a move in move notation (see :mod:`cardtable.patience.moves`)."""
        return Move.parse(text)
