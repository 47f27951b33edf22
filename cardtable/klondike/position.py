"""Static Klondike layouts: a deal, and any position, with their notations.

Deal string
-----------
The 52 cards in dealing order, canonical two-character cards separated by
single spaces. Dealing follows seed 002: round ``r`` (``r = 0..6``) deals one
card to each of piles ``r..6`` left to right; the first card of each round,
landing on pile ``r``, is face up, the rest face down. Cards 29..52 form the
stock, card 29 on top (drawn first).

Position string
---------------
One line, five fields separated by single spaces, in the spirit of chess FEN::

    PILES STOCK WASTE FOUNDATIONS PASS

- ``PILES``: the seven tableau piles left to right, separated by ``/``; each is
  its face-down cards, ``|``, then its face-up cards, bottom to top, cards
  written without spaces (``9S7D|6H``; an empty pile is ``|``).
- ``STOCK``: the stock from top (next drawn) to bottom, or ``-`` when empty.
- ``WASTE``: the waste from top (the playable card) to bottom, or ``-``.
- ``FOUNDATIONS``: the top rank on each foundation in the order clubs,
  diamonds, hearts, spades, ``-`` for an empty one (``A-3K``).
- ``PASS``: which pass through the stock this is (1 for the first).
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtable._text import clip
from cardtable.cards import RANK_NAMES, Card, CardError, shuffled_deck
from cardtable.errors import NotationError, RulesError

__all__ = ["PILE_COUNT", "DealError", "Position", "deal_cards_from_string"]

PILE_COUNT = 7
TABLEAU_CARDS = 28


class DealError(NotationError):
    """A deal or position could not be read, or is not a legal layout."""


def _check_cards(cards: list[Card], what: str) -> None:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise DealError(f"{what}: card {card} appears twice")
        seen.add(card)
    if len(cards) != 52:
        missing = [str(c) for c in Card._all if c not in seen]
        raise DealError(f"{what}: {len(cards)} cards, not 52; missing {' '.join(missing)}")


def deal_cards_from_string(text: str) -> list[Card]:
    """Read the 52 cards of a deal string; errors name the bad, duplicated or missing card."""
    tokens = text.split()
    cards = []
    for number, token in enumerate(tokens, 1):
        try:
            cards.append(Card.parse(token))
        except CardError as error:
            raise DealError(f"deal string, card {number}: {error}") from None
    _check_cards(cards, "deal string")
    return cards


@dataclass(frozen=True, slots=True)
class Position:
    """A Klondike layout: piles (bottom to top) with face-down counts, stock
    and waste (bottom to top: the last card is the top), foundation top ranks
    by suit, and the current pass number.

    Build one with :meth:`from_deal`, :meth:`from_seed`, :meth:`parse` or a
    format reader in :mod:`cardtable.klondike.formats`.
    """

    tableau: tuple[tuple[Card, ...], ...]
    face_down: tuple[int, ...]
    stock: tuple[Card, ...]
    waste: tuple[Card, ...]
    foundation: tuple[int, int, int, int]
    pass_number: int = 1

    def __post_init__(self) -> None:
        if len(self.tableau) != PILE_COUNT or len(self.face_down) != PILE_COUNT:
            raise DealError(f"a layout has {PILE_COUNT} tableau piles, not {len(self.tableau)}")
        for pile, (cards, down) in enumerate(zip(self.tableau, self.face_down, strict=True), 1):
            if not 0 <= down <= len(cards):
                raise DealError(f"pile {pile}: {down} face-down cards but only {len(cards)} cards")
            if cards and down == len(cards):
                raise DealError(f"pile {pile}: its top card {cards[-1]} must be face up")
            for lower, upper in zip(cards[down:], cards[down + 1:], strict=False):
                if not upper.fits_on(lower):
                    raise DealError(f"pile {pile}: face-up {upper} cannot lie on {lower}: "
                                    "face-up cards build down in alternating colours")
        if len(self.foundation) != 4 or any(not 0 <= r <= 13 for r in self.foundation):
            raise DealError("foundations: four ranks from 0 (empty) to 13")
        if type(self.pass_number) is not int or self.pass_number < 1:
            raise DealError(f"pass number must be at least 1, not {self.pass_number}")
        every = [c for pile in self.tableau for c in pile] + list(self.stock) + list(self.waste)
        every += [Card(rank, suit) for suit, top in enumerate(self.foundation)
                  for rank in range(1, top + 1)]
        _check_cards(every, "layout")

    def check_pass_limit(self, passes: int | None) -> None:
        """Raise :class:`~cardtable.errors.RulesError` when this layout's pass
        number is one a game allowing ``passes`` passes through the stock
        (``None``: unlimited) never reaches.

        >>> Position.parse(str(Position.from_seed(1))[:-1] + "2").check_pass_limit(1)
        Traceback (most recent call last):
        ...
        cardtable.errors.RulesError: the position is in pass 2, but the variant allows 1 pass
        """
        if passes is not None and self.pass_number > passes:
            raise RulesError(f"the position is in pass {self.pass_number}, but the variant allows "
                             f"{passes} pass{'es' if passes > 1 else ''}")

    # ----- deals -----------------------------------------------------------------

    @classmethod
    def from_deal_cards(cls, cards: list[Card] | tuple[Card, ...]) -> Position:
        """Lay out 52 cards in dealing order (see the module documentation)."""
        cards = list(cards)
        _check_cards(cards, "deal")
        piles: list[list[Card]] = [[] for _ in range(PILE_COUNT)]
        it = iter(cards)
        for r in range(PILE_COUNT):
            for p in range(r, PILE_COUNT):
                piles[p].append(next(it))
        stock_top_first = cards[TABLEAU_CARDS:]
        return cls(
            tableau=tuple(tuple(p) for p in piles),
            face_down=tuple(range(PILE_COUNT)),
            stock=tuple(reversed(stock_top_first)),
            waste=(),
            foundation=(0, 0, 0, 0),
        )

    @classmethod
    def from_deal(cls, text: str) -> Position:
        """Read a deal string."""
        return cls.from_deal_cards(deal_cards_from_string(text))

    @classmethod
    def from_seed(cls, seed: int) -> Position:
        """The deal of ``shuffled_deck(seed)`` (the shuffled deck is the deal string)."""
        return cls.from_deal_cards(shuffled_deck(seed))

    @property
    def is_deal(self) -> bool:
        """True for a fresh deal: piles of 1..7 cards with only the top face
        up, a full stock, empty waste and foundations, first pass."""
        return (
            self.face_down == tuple(range(PILE_COUNT))
            and all(len(p) == i + 1 for i, p in enumerate(self.tableau))
            and not self.waste
            and self.foundation == (0, 0, 0, 0)
            and self.pass_number == 1
        )

    def deal_cards(self) -> list[Card]:
        """The 52 cards in dealing order; only for a fresh deal."""
        if not self.is_deal:
            raise DealError("this layout is not a fresh deal, so it has no deal string")
        cards = []
        for r in range(PILE_COUNT):
            for p in range(r, PILE_COUNT):
                cards.append(self.tableau[p][r])
        cards.extend(reversed(self.stock))
        return cards

    def deal_string(self) -> str:
        """The deal string of a fresh deal."""
        return " ".join(map(str, self.deal_cards()))

    # ----- position string ---------------------------------------------------------

    def __str__(self) -> str:
        piles = "/".join(
            "".join(map(str, pile[:down])) + "|" + "".join(map(str, pile[down:]))
            for pile, down in zip(self.tableau, self.face_down, strict=True))
        stock = "".join(map(str, reversed(self.stock))) or "-"
        waste = "".join(map(str, reversed(self.waste))) or "-"
        foundation = "".join(RANK_NAMES[r] if r else "-" for r in self.foundation)
        return f"{piles} {stock} {waste} {foundation} {self.pass_number}"

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read a position string (see the module documentation)."""
        fields = text.removeprefix("\ufeff").split()
        if len(fields) != 5:
            raise DealError(
                f"position string: {len(fields)} fields, expected 5 (piles stock waste foundations pass)")
        piles_text, stock_text, waste_text, found_text, pass_text = fields
        pile_texts = piles_text.split("/")
        if len(pile_texts) != PILE_COUNT:
            raise DealError(f"position string: {len(pile_texts)} piles, expected {PILE_COUNT}")
        tableau, face_down = [], []
        for number, pile_text in enumerate(pile_texts, 1):
            if pile_text.count("|") != 1:
                raise DealError(f"position string, pile {number}: write face-down|face-up, e.g. 9S7D|6H")
            down_text, up_text = pile_text.split("|")
            down = _read_run(down_text, f"pile {number}")
            up = _read_run(up_text, f"pile {number}")
            tableau.append(tuple(down + up))
            face_down.append(len(down))
        stock = _read_run("" if stock_text == "-" else stock_text, "stock")
        waste = _read_run("" if waste_text == "-" else waste_text, "waste")
        if len(found_text) != 4:
            raise DealError(f"position string, foundations: 4 ranks (c d h s), not {clip(found_text)}")
        foundation = []
        for suit, ch in zip("cdhs", found_text, strict=True):
            if ch == "-":
                foundation.append(0)
            elif ch.upper() in RANK_NAMES[1:]:
                foundation.append(RANK_NAMES.index(ch.upper()))
            else:
                raise DealError(f"position string, {suit} foundation: unknown rank {ch!r}")
        if not (pass_text.isascii() and pass_text.isdigit()) or len(pass_text) > _PASS_DIGITS:
            raise DealError(f"position string, pass: a whole number from 1 to {10 ** _PASS_DIGITS - 1}, "
                            f"not {clip(pass_text)}")
        return cls(
            tableau=tuple(tableau),
            face_down=tuple(face_down),
            stock=tuple(reversed(stock)),
            waste=tuple(reversed(waste)),
            foundation=tuple(foundation),  # type: ignore[arg-type]
            pass_number=int(pass_text),
        )


#: The digits a pass number may have: no game goes through its stock more often.
_PASS_DIGITS = 6


def _read_run(text: str, where: str) -> list[Card]:
    """Cards written without separators, two characters each (``10`` allowed for ``T``)."""
    cards = []
    i = 0
    while i < len(text):
        size = 3 if text.startswith("10", i) else 2
        token = text[i:i + size]
        try:
            cards.append(Card.parse(token))
        except CardError as error:
            raise DealError(f"position string, {where}: {error}") from None
        i += size
    return cards
