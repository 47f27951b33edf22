"""Cards, suits, ranks, a deck, card notation and seeded shuffles.

A :class:`Card` is a small immutable value. There are exactly 52 of them and
each is interned, so ``Card.parse("Ah") is Card.parse("A♥")``.

Card notation
-------------
A card is written rank then suit. Ranks read ``A 2 3 4 5 6 7 8 9 T J Q K``
(``10`` is accepted for ``T``, case does not matter); suits read ``c d h s`` or
the Unicode symbols ``♣ ♦ ♥ ♠`` (``♧ ♢ ♡ ♤`` too). The canonical written form is
two ASCII characters, rank upper case and suit lower case: ``Th``.

>>> Card.parse("10d")
Card.parse('Td')
>>> str(Card.parse("A♥"))
'Ah'
>>> Card.parse("Qs").symbol()
'Q♠'

Seeded shuffles
---------------
:func:`shuffled_deck` gives the same order for the same seed on every platform
and Python version, because it depends on nothing but integer arithmetic
defined here (it never uses :mod:`random`):

1. The generator is SplitMix64: a 64-bit state starts at ``seed mod 2**64``;
   each step adds ``0x9E3779B97F4A7C15`` to the state (mod 2**64) and returns
   the state mixed by ``z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9``,
   ``z = (z ^ (z >> 27)) * 0x94D049BB133111EB``, ``z ^ (z >> 31)`` (all mod
   2**64).
2. A number below ``n`` is drawn without bias by rejection: draw ``x``; if
   ``x >= 2**64 - (2**64 mod n)`` draw again; otherwise return ``x mod n``.
3. Starting from :func:`new_deck` order (clubs, diamonds, hearts, spades, each
   ace to king), Fisher–Yates runs ``for i = 51 down to 1: swap(deck[i],
   deck[j])`` with ``j`` drawn below ``i + 1``.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import ClassVar

from cardtable._text import clip
from cardtable.errors import NotationError

__all__ = [
    "MAX_SEED",
    "RANK_NAMES",
    "Card",
    "CardError",
    "Colour",
    "SplitMix64",
    "Suit",
    "format_cards",
    "new_deck",
    "parse_cards",
    "shuffled_deck",
]


class CardError(NotationError):
    """A card (or list of cards) could not be read or is not allowed."""


class Colour(IntEnum):
    """The colour of a suit."""

    BLACK = 0
    RED = 1


class Suit(IntEnum):
    """The four suits, in the order used for deck order and foundations."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def colour(self) -> Colour:
        """Clubs and spades are black, diamonds and hearts red."""
        return Colour.RED if self in (Suit.DIAMONDS, Suit.HEARTS) else Colour.BLACK

    @property
    def letter(self) -> str:
        """The one-letter ASCII name: ``c``, ``d``, ``h`` or ``s``."""
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol."""
        return "♣♦♥♠"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from a letter (``c d h s``) or a symbol (``♣ ♦ ♥ ♠``)."""
        try:
            return cls(_SUIT_CHARS[text.strip().lower()])
        except KeyError:
            raise CardError(f"unknown suit {clip(text)}: use c, d, h or s (or ♣ ♦ ♥ ♠)") from None


_SUIT_CHARS = {
    "c": 0, "♣": 0, "♧": 0,
    "d": 1, "♦": 1, "♢": 1,
    "h": 2, "♥": 2, "♡": 2,
    "s": 3, "♠": 3, "♤": 3,
}

#: The written rank of each rank number (index 0 unused).
RANK_NAMES = ("?", "A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
_RANK_WORDS = ("?", "ace", "two", "three", "four", "five", "six", "seven", "eight",
               "nine", "ten", "jack", "queen", "king")
_RANKS = {name: number for number, name in enumerate(RANK_NAMES) if number}
_RANKS["10"] = 10
_RANKS["1"] = 1


class Card:
    """One of the 52 playing cards.

    Cards are interned: build them with ``Card(rank, suit)``, :meth:`parse` or
    :meth:`from_index`; equal cards are the same object. ``rank`` runs from 1
    (ace) to 13 (king).
    """

    __slots__ = ("_text", "colour", "index", "rank", "suit")
    _all: ClassVar[list[Card]] = []

    rank: int
    suit: Suit
    index: int
    colour: Colour
    _text: str

    def __new__(cls, rank: int, suit: Suit | int) -> Card:
        if not isinstance(rank, int) or not 1 <= rank <= 13:
            raise CardError(f"rank must be 1 (ace) to 13 (king), not {rank!r}")
        if not isinstance(suit, int) or not 0 <= suit <= 3:
            raise CardError(f"suit must be one of clubs, diamonds, hearts, spades, not {suit!r}")
        return cls._all[int(suit) * 13 + rank - 1]

    @classmethod
    def _make(cls, rank: int, suit: Suit) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "index", int(suit) * 13 + rank - 1)
        object.__setattr__(card, "colour", suit.colour)
        object.__setattr__(card, "_text", RANK_NAMES[rank] + suit.letter)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int, int]]:
        return (Card, (self.rank, int(self.suit)))

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with this deck index (0..51: clubs A..K, diamonds, hearts, spades)."""
        if not 0 <= index < 52:
            raise CardError(f"card index must be 0..51, not {index}")
        return cls._all[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card: ``Ah``, ``Td``, ``10d``, ``A♥`` (case-insensitive).

        Raises :class:`CardError` naming the text when it is not a card.
        """
        s = text.strip()
        if len(s) < 2:
            raise CardError(f"unknown card {clip(text)}: write rank then suit, e.g. Ah, Td, 10d, A♥")
        rank = _RANKS.get(s[:-1].upper())
        suit = _SUIT_CHARS.get(s[-1].lower())
        if rank is None or suit is None:
            raise CardError(f"unknown card {clip(text)}: write rank then suit, e.g. Ah, Td, 10d, A♥")
        return cls._all[suit * 13 + rank - 1]

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts."""
        return self.colour is Colour.RED

    def symbol(self) -> str:
        """Rank and Unicode suit symbol, e.g. ``T♥``."""
        return RANK_NAMES[self.rank] + self.suit.symbol

    def name(self) -> str:
        """The card in words, e.g. ``queen of spades``."""
        return f"{_RANK_WORDS[self.rank]} of {self.suit.name.lower()}"

    def fits_on(self, other: Card) -> bool:
        """True when this card may be built on ``other`` in a tableau: one rank
        lower and the other colour. This is the one source of the building
        rule: Klondike asks it through :meth:`cardtable.klondike.Variant.fits`,
        Kings Corner through :func:`cardtable.kings_corner.table.can_place`."""
        return self.rank + 1 == other.rank and self.colour != other.colour

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({self._text!r})"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index


Card._all = [Card._make(rank, suit) for suit in Suit for rank in range(1, 14)]


def new_deck() -> list[Card]:
    """The 52 cards in deck order: clubs, diamonds, hearts, spades, each ace to king."""
    return list(Card._all)


_MASK = (1 << 64) - 1

#: The largest deal seed: seeds are 64-bit words, the generator's whole state.
MAX_SEED = _MASK


class SplitMix64:
    """The SplitMix64 generator, defined here so shuffles never change.

    >>> SplitMix64(0).next()
    16294208416658607535
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniformly drawn integer in ``0 .. n-1`` (rejection sampling, no bias)."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n


def shuffled_deck(seed: int) -> list[Card]:
    """The deck shuffled by seed ``seed``; see the module documentation for the
    exact algorithm, which every cardtable version keeps."""
    if not 0 <= seed <= MAX_SEED:
        raise CardError(f"a seed is a whole number from 0 to 2**64 - 1, not {seed}")
    rng = SplitMix64(seed)
    deck = new_deck()
    for i in range(51, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def parse_cards(text: str | Iterable[str], *, where: str = "") -> list[Card]:
    """Read whitespace-separated cards; errors name the position of the bad card."""
    tokens = text.split() if isinstance(text, str) else list(text)
    cards = []
    for position, token in enumerate(tokens, 1):
        try:
            cards.append(Card.parse(token))
        except CardError as error:
            prefix = f"{where}: " if where else ""
            raise CardError(f"{prefix}card {position}: {error}") from None
    return cards


def format_cards(cards: Iterable[Card], *, unicode: bool = False) -> str:
    """Write cards separated by single spaces, canonical (``Th``) or with symbols."""
    return " ".join(card.symbol() if unicode else str(card) for card in cards)

