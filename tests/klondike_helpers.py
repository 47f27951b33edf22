"""Helpers that build Klondike positions for tests."""

from __future__ import annotations

from cardtable.cards import Card
from cardtable.klondike import KlondikeGame, Position, Variant


def cards(text: str) -> list[Card]:
    """``cards("Ah Kd")`` -> the cards."""
    return [Card.parse(t) for t in text.split()]


def layout(piles: list[str], *, stock: str | None = None, waste: str = "",
           foundation: tuple[int, int, int, int] = (0, 0, 0, 0), pass_number: int = 1) -> Position:
    """A position from compact pile texts: ``"Qs Jd | Th"`` has Qs Jd face down
    and Th face up (no ``|``: all face up). Stock and waste are written bottom
    to top. With ``stock=None`` every card not placed elsewhere goes to the
    stock in deck order.
    """
    tableau, down = [], []
    for text in piles + [""] * (7 - len(piles)):
        d, u = text.split("|") if "|" in text else ("", text)
        tableau.append(tuple(cards(d) + cards(u)))
        down.append(len(d.split()))
    waste_cards = cards(waste)
    if stock is None:
        used = [c for p in tableau for c in p] + waste_cards
        stock_cards = rest_of_deck(used, foundation)
    else:
        stock_cards = cards(stock)
    return Position(tuple(tableau), tuple(down), tuple(stock_cards), tuple(waste_cards), foundation, pass_number)


def rest_of_deck(used: list[Card], foundation: tuple[int, int, int, int]) -> list[Card]:
    """The cards neither used nor on the given foundations, in deck order."""
    on_found = {Card(r, s) for s, top in enumerate(foundation) for r in range(1, top + 1)}
    taken = set(used)
    return [c for c in Card._all if c not in taken and c not in on_found]


def game(piles: list[str], variant: str | Variant = "draw1", **kwargs: object) -> KlondikeGame:
    """A game from :func:`layout`."""
    v = Variant.preset(variant) if isinstance(variant, str) else variant
    return KlondikeGame(layout(piles, **kwargs), v)  # type: ignore[arg-type]


def new_game(seed: int = 1, variant: str = "draw1") -> KlondikeGame:
    return KlondikeGame.from_seed(seed, Variant.preset(variant))
