"""The table of Kings Corner: the seed's object model (deck, piles, players).

These are the nouns the seed's authors built the game from, each with the
behaviour their spec fixed. :class:`~cardtable.kings_corner.game.KingsCornerGame`
is built from them; they are usable (and tested) on their own:

>>> from cardtable.cards import Card
>>> north = Pile(PilePosition.N, [Card.parse("9s")])
>>> north.accepts(Card.parse("8h")), north.accepts(Card.parse("8c"))
(True, False)
>>> corner = Pile(PilePosition.NE)
>>> corner.accepts(Card.parse("Kd")), corner.accepts(Card.parse("Qd"))
(True, False)

Cards are the shared :class:`cardtable.cards.Card`: ``card.rank`` is the value
(ace 1 ... king 13), ``card.suit`` the suit, ``card.colour`` the colour.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

from cardtable._text import clip
from cardtable.cards import Card, new_deck
from cardtable.kings_corner.errors import ActionNotationError, DeckError, IllegalActionError

__all__ = [
    "CORNERS",
    "HAND_SIZE",
    "KING",
    "REGULAR",
    "Deck",
    "Pile",
    "PilePosition",
    "Player",
    "can_move",
    "can_place",
    "penalty_points",
]

#: Cards dealt to each player.
HAND_SIZE = 7
#: The rank of a king.
KING = 13


class PilePosition(IntEnum):
    """Where a pile lies: four regular piles in a cross, four corners between them.

    The regular piles are ``N E S W``; the corners ``NE SE SW NW``.
    """

    N = 0
    E = 1
    S = 2
    W = 3
    NE = 4
    SE = 5
    SW = 6
    NW = 7

    @property
    def is_corner(self) -> bool:
        """True for the four corner piles."""
        return self >= PilePosition.NE

    @classmethod
    def parse(cls, text: str) -> PilePosition:
        """Read a position name (``N``, ``ne``, ...); raises :class:`ActionNotationError`."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ActionNotationError(
                f"unknown pile {clip(text)}: use N, E, S, W or a corner NE, SE, SW, NW"
            ) from None

    def __str__(self) -> str:
        return self.name


#: The four regular piles, in order.
REGULAR = (PilePosition.N, PilePosition.E, PilePosition.S, PilePosition.W)
#: The four corner piles, in order.
CORNERS = (PilePosition.NE, PilePosition.SE, PilePosition.SW, PilePosition.NW)


def can_place(card: Card, top: Card | None, *, corner: bool) -> bool:
    """Whether ``card`` may be played on a pile whose top is ``top`` (None: empty).

    On a card: one rank lower and the other colour. On an empty regular pile:
    anything. On an empty corner: only a king.
    """
    if top is not None:
        return card.fits_on(top)
    return not corner or card.rank == KING


def can_move(bottom: Card, top: Card | None, *, corner: bool) -> bool:
    """Whether a pile with bottom card ``bottom`` may move onto a pile whose top is
    ``top`` (None: empty): the bottom must fit the top; onto an empty pile, only a
    king-bottomed pile onto a corner (moving onto an empty regular pile would only
    rename the pile, so it is not a move). Where it may go, it goes as
    :func:`can_place` places its bottom card."""
    return (top is not None or corner) and can_place(bottom, top, corner=corner)


def _describe(card: Card | None) -> str:
    return "nothing" if card is None else str(card)


class Pile:
    """A pile on the table, cards bottom to top, built down in alternating colours.

    A card may go on a pile when it is one rank lower than the top card and of
    the other colour (so nothing goes on an ace). An empty regular pile takes any
    card; an empty corner takes only a king.
    """

    __slots__ = ("_cards", "position")

    def __init__(self, position: PilePosition, cards: Iterable[Card] = ()) -> None:
        self.position = PilePosition(position)
        self._cards: list[Card] = list(cards)

    @property
    def is_corner(self) -> bool:
        """True for a corner pile, False for a regular one."""
        return self.position.is_corner

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards, bottom first."""
        return tuple(self._cards)

    @property
    def top(self) -> Card | None:
        """The top (playable-on) card, or None when the pile is empty."""
        return self._cards[-1] if self._cards else None

    @property
    def bottom(self) -> Card | None:
        """The bottom card, or None when the pile is empty."""
        return self._cards[0] if self._cards else None

    def __len__(self) -> int:
        return len(self._cards)

    @property
    def is_empty(self) -> bool:
        """True when no card lies here."""
        return not self._cards

    def accepts(self, card: Card) -> bool:
        """Whether ``card`` may be placed on this pile."""
        return can_place(card, self.top, corner=self.position.is_corner)

    def accepts_pile(self, other: Pile) -> bool:
        """Whether all of ``other`` may be moved onto this pile.

        The moving pile's bottom card must fit this pile's top card; onto an
        empty corner only a king-bottomed pile moves. Moving a pile onto an empty
        regular pile would only rename it, so that is not a move.
        """
        bottom = other.bottom
        if bottom is None or other is self:
            return False
        return can_move(bottom, self.top, corner=self.position.is_corner)

    def place(self, card: Card) -> None:
        """Put ``card`` on top; raises :class:`IllegalActionError` when it does not fit."""
        if not self.accepts(card):
            raise IllegalActionError(self._why_not(card))
        self._cards.append(card)

    def _why_not(self, card: Card) -> str:
        top = self.top
        if top is None:
            return f"{card} cannot start corner {self.position}: only a king can"
        if top.rank == 1:
            return f"{card} cannot go on {top} ({self.position}): nothing goes on an ace"
        return (
            f"{card} does not fit on {top} ({self.position}): {top} takes only a "
            f"{'black' if top.is_red else 'red'} {_rank_word(top.rank - 1)}"
        )

    def move_onto(self, other: Pile) -> None:
        """Move all of this pile's cards onto ``other``, leaving this pile empty.

        Raises :class:`IllegalActionError` ``Invalid pile move`` when this pile's
        bottom card does not fit there.
        """
        if not other.accepts_pile(self):
            raise IllegalActionError(
                f"Invalid pile move: {self.position} (bottom {_describe(self.bottom)}) "
                f"onto {other.position} (top {_describe(other.top)})"
            )
        other._cards.extend(self._cards)
        self._cards.clear()

    def copy(self) -> Pile:
        """An independent copy."""
        return Pile(self.position, self._cards)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pile):
            return NotImplemented
        return self.position == other.position and self._cards == other._cards

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Pile({self.position.name}, [{' '.join(map(str, self._cards))}])"


def _rank_word(rank: int) -> str:
    return ("", "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten", "jack", "queen", "king")[rank]


class Deck:
    """The face-down deck: the 52 distinct cards (or the cards given), top first."""

    __slots__ = ("_cards",)

    def __init__(self, cards: Iterable[Card] | None = None) -> None:
        cards = new_deck() if cards is None else list(cards)
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise DeckError(f"card {card} appears twice in the deck")
            seen.add(card)
        self._cards: list[Card] = cards[::-1]  # top at the end, so drawing is cheap

    def __len__(self) -> int:
        return len(self._cards)

    @property
    def is_empty(self) -> bool:
        """True when no card is left to draw."""
        return not self._cards

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards, top first."""
        return tuple(reversed(self._cards))

    def take(self, n: int) -> list[Card]:
        """Take ``n`` cards from the top, in order; raises ``not enough cards``."""
        if n < 0:
            raise DeckError(f"cannot take {n} cards")
        if n > len(self._cards):
            raise DeckError(f"not enough cards: asked for {n}, {len(self._cards)} left")
        taken = self._cards[len(self._cards) - n:]
        del self._cards[len(self._cards) - n:]
        taken.reverse()
        return taken

    def draw(self) -> Card | None:
        """Take the top card, or None when the deck is empty."""
        return self._cards.pop() if self._cards else None

    def deal_hand(self, player: Player) -> None:
        """Give ``player`` a hand of seven cards from the top."""
        player.take(self.take(HAND_SIZE))

    def copy(self) -> Deck:
        """An independent copy."""
        return Deck(self.cards)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deck):
            return NotImplemented
        return self._cards == other._cards

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Deck({len(self)} cards)"


class Player:
    """A player at the table and the cards in their hand (in the order received)."""

    __slots__ = ("_hand", "name")

    def __init__(self, name: str = "", hand: Iterable[Card] = ()) -> None:
        self.name = name
        self._hand: list[Card] = list(hand)

    @property
    def hand(self) -> tuple[Card, ...]:
        """The cards held, in the order received."""
        return tuple(self._hand)

    def __len__(self) -> int:
        return len(self._hand)

    @property
    def has_won(self) -> bool:
        """True once the hand is empty."""
        return not self._hand

    def take(self, cards: Iterable[Card]) -> None:
        """Add cards to the hand."""
        self._hand.extend(cards)

    def draw(self, deck: Deck) -> Card | None:
        """Draw one card from ``deck`` to end a turn; None when the deck is empty."""
        card = deck.draw()
        if card is not None:
            self._hand.append(card)
        return card

    def play(self, card: Card, pile: Pile) -> None:
        """Play ``card`` from the hand onto ``pile``, checking the move.

        Raises :class:`IllegalActionError` when the card is not held or does not fit.
        """
        if card not in self._hand:
            raise IllegalActionError(f"{card} is not in {self.name or 'the'} hand")
        pile.place(card)
        self._hand.remove(card)

    def move_pile(self, source: Pile, target: Pile) -> None:
        """Move the whole of ``source`` onto ``target``.

        Raises ``Can't move a corner pile`` for a corner source and
        ``Invalid pile move`` when the bottom card does not fit.
        """
        if source.is_corner:
            raise IllegalActionError(f"Can't move a corner pile ({source.position})")
        source.move_onto(target)

    def copy(self) -> Player:
        """An independent copy."""
        return Player(self.name, self._hand)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Player):
            return NotImplemented
        return self.name == other.name and self._hand == other._hand

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Player({self.name!r}, [{' '.join(map(str, self._hand))}])"


def penalty_points(cards: Iterable[Card]) -> int:
    """Penalty points for cards left in a hand: 10 for each king, 1 for any other card."""
    return sum(10 if card.rank == KING else 1 for card in cards)
