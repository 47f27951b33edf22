"""Patience positions as the board text fc-solve and black-hole-solver read.

A PySol board (fc-solve's format) lists the stock as a ``Talon:`` line
(the next card first), the foundations as a ``Foundations:`` line (the top
rank of each suit, ``H-0 C-A D-0 S-0``, or the hole's top card, ``AS``), the
free cells as a ``Freecells:`` line (``-`` for an empty cell), then one line
per tableau pile, from the covered card to the exposed one (``:`` alone for
an empty pile; a leading ``:`` is read too; the hole shows
only its top card: read back, the cards played before it lie under it in
deck order; foundations are read in the order of the line); a face-down card
is written in angle brackets (``<5H>``), cards in upper case with ``T`` for
ten.

>>> from cardtable.patience.engine import PatienceGame
>>> from cardtable.patience.registry import get
>>> game = PatienceGame.from_seed(get("freecell"), "ms:1")
>>> print(to_pysol(game).splitlines()[2])
JD KD 2S 4C 3S 6D 6S
>>> from_pysol(get("freecell"), to_pysol(game)).key() == game.key()
True
"""

from __future__ import annotations

from collections import Counter

from cardtable.cards import RANK_NAMES, Card, CardError, Suit
from cardtable.errors import NotationError
from cardtable.patience.description import Description, Kind
from cardtable.patience.engine import PatienceGame
from cardtable.patience.moves import Place

__all__ = ["BoardError", "from_pysol", "read_deal", "to_pysol"]

_FC_SUITS = (Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES)  # fc-solve's order on its Foundations line


class BoardError(NotationError):
    """A PySol board that cannot be read for the game, or a game it cannot show."""


def _supported(description: Description) -> None:
    d = description
    if d.waste.count or d.reserve.count:
        raise BoardError(f"{d.name}: a PySol board has no waste or reserve")
    if d.foundations.count and (d.cards.decks > 1 or d.foundations.base != 1 or d.foundations.complete_runs):
        raise BoardError(f"{d.name}: a PySol board shows foundations of one deck built from the Ace only")


def _card(card: Card) -> str:
    return str(card).upper()


def to_pysol(game: PatienceGame) -> str:
    """The position as a PySol board (see the module documentation)."""
    d = game.description
    _supported(d)
    lines = []
    if d.stock.count:
        lines.append("Talon: " + " ".join(_card(c) for c in reversed(game.pile(Place(Kind.STOCK)))))
    if d.hole.count:
        hole = game.pile(Place(Kind.HOLE))
        lines.append("Foundations: " + (_card(hole[-1]) if hole else "-"))
    elif d.foundations.count:
        tops = {suit: 0 for suit in Suit}
        for place in game.places(Kind.FOUNDATION):
            pile = game.pile(place)
            if pile:
                tops[pile[-1].suit] = pile[-1].rank
        lines.append("Foundations: " + " ".join(
            f"{suit.letter.upper()}-{RANK_NAMES[tops[suit]] if tops[suit] else 0}" for suit in _FC_SUITS))
    if d.cells.count:
        lines.append("Freecells: " + " ".join(
            _card(game.pile(p)[0]) if game.pile(p) else "-" for p in game.places(Kind.CELL)))
    for place in game.places(Kind.TABLEAU):
        pile, down = game.pile(place), game.face_down(place)
        lines.append(" ".join(f"<{_card(c)}>" if i < down else _card(c) for i, c in enumerate(pile)) or ":")
    return "\n".join(lines) + "\n"


def _cards(text: str, where: str) -> tuple[list[Card], int]:
    cards: list[Card] = []
    down = 0
    for token in text.split():
        hidden = token.startswith("<") and token.endswith(">")
        if hidden:
            token = token[1:-1]
            if down != len(cards):
                raise BoardError(f"{where}: a face-down card lies on a face-up one")
            down += 1
        try:
            cards.append(Card.parse(token))
        except CardError as error:
            raise BoardError(f"{where}: {error}") from None
    return cards, down


def from_pysol(description: Description, text: str) -> PatienceGame:
    """Read a PySol board for ``description``; a :class:`BoardError` names
    the line and what is wrong. The board must hold exactly the game's cards."""
    d = description
    _supported(d)
    columns: list[tuple[list[Card], int]] = []
    stock: list[Card] = []
    hole: list[Card] = []
    cells: list[list[Card]] = [[] for _ in range(d.cells.count)]
    foundations: list[list[Card]] = [[] for _ in range(d.foundations.count)]
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        where = f"PySol board, line {number}"
        if not line:
            continue
        head, _, rest = line.partition(":")
        head = head.strip().lower()
        if head == "talon" and d.stock.count:
            stock = _cards(rest, where)[0][::-1]
        elif head == "foundations" and d.hole.count:
            hole = [] if rest.strip() in ("", "-") else _cards(rest, where)[0][-1:]
        elif head == "foundations" and d.foundations.count:
            for index, item in enumerate(rest.split()):
                suit_text, _, rank_text = item.partition("-")
                try:
                    suit = Suit.parse(suit_text)
                    rank = 0 if rank_text == "0" else Card.parse(rank_text + "c").rank
                except CardError:
                    raise BoardError(f"{where}: cannot read foundation {item!r}; write e.g. H-0 C-A D-5 S-K") from None
                if index >= len(foundations):
                    raise BoardError(f"{where}: more foundations than the game's {len(foundations)}")
                foundations[index] = [Card(r, suit) for r in range(1, rank + 1)]
        elif head == "freecells" and d.cells.count:
            items = rest.split()
            if len(items) > len(cells):
                raise BoardError(f"{where}: {len(items)} free cells, the game has {len(cells)}")
            for index, item in enumerate(items):
                cells[index] = [] if item == "-" else _cards(item, where)[0]
        elif head in ("talon", "foundations", "freecells"):
            raise BoardError(f"{where}: {d.title} has no {head}")
        else:
            columns.append(_cards(line.removeprefix(":"), where))
    if len(columns) != d.tableau.count:
        raise BoardError(f"PySol board: {len(columns)} columns, {d.title} has {d.tableau.count}")
    order = {Kind.TABLEAU: [c for c, _ in columns], Kind.FOUNDATION: foundations, Kind.CELL: cells,
             Kind.STOCK: [stock] if d.stock.count else [], Kind.HOLE: [hole] if d.hole.count else []}
    piles: list[list[Card]] = []
    down: list[int] = []
    for kind in (Kind.TABLEAU, Kind.FOUNDATION, Kind.CELL, Kind.RESERVE, Kind.STOCK, Kind.WASTE, Kind.HOLE):
        for index, pile in enumerate(order.get(kind, [])):
            piles.append(pile)
            down.append(columns[index][1] if kind is Kind.TABLEAU else len(pile) if kind is Kind.STOCK else 0)
    held = Counter(card for pile in piles for card in pile)
    if d.hole.count and hole:
        # the board shows the hole's top card only: the cards played before it lie under it
        under = Counter(d.cards.deck()) - held
        piles[-1][:0] = [card for card in d.cards.deck() if under[card] > 0 and not under.subtract([card])]
        held = Counter(card for pile in piles for card in pile)
    if held != Counter(d.cards.deck()):
        missing = sorted((Counter(d.cards.deck()) - held).elements())
        extra = sorted((held - Counter(d.cards.deck())).elements())
        what = f"{_card(missing[0])} is missing" if missing else f"{_card(extra[0])} is there too often"
        raise BoardError(f"PySol board: not the cards of {d.title}: {what}")
    return PatienceGame(d, piles, down)


def read_deal(description: Description, text: str) -> PatienceGame:
    """A position in Solvitaire's deal JSON (text that starts with ``{`` or
    ``[``, see :mod:`cardtable.patience.solvitaire`) or a PySol board (any
    other text)."""
    if text.lstrip("\ufeff \t\r\n").startswith(("{", "[")):
        from cardtable.patience.solvitaire import loads

        return loads(description, text)
    return from_pysol(description, text)
