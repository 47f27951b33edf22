"""Patience positions as Solvitaire's deal JSON.

Solvitaire (thecharlesblake/Solvitaire) reads a deal as a JSON object whose
keys are its kinds of pile; cardtable writes and reads the same shape for
every game that Solvitaire has a preset of (:data:`SOLVITAIRE_PRESETS`):

- ``"tableau piles"``: one list per tableau pile, the bottom card first
  (Accordion's row of piles is ``"accordion"``: one card per pile, left to
  right);
- ``"foundations"``: one flat list of the foundations' cards, foundation by
  foundation, each from its base card up; read, one list (or ``""``) per
  foundation is read too, as Solvitaire's ``--deal-only`` prints them;
- ``"cells"``: one card per free cell, an empty cell as ``""``; read, a cell
  given as a list of at most one card is read too, as Solvitaire's
  ``--deal-only`` prints them (left out
  when every cell is empty: Solvitaire's deal schema has no such key, so as
  shipped it reads FreeCell's and Baker's Game's deals only without it, and
  Eight Off's and Seahaven Towers' only in the fixed build of
  benchmarks/build_solvitaire.sh);
- ``"reserve"``: the reserve pile bottom first (Canfield) or, with several
  reserve piles, one card each (King Albert);
- ``"stock"`` and ``"waste"``: bottom first, so the stock's last card is
  the next one dealt;
- ``"hole"``: the hole's top card (read back, the cards played before it
  lie under it in deck order).

The pass through the stock is not written: a position after the first pass
of a game with a limited number of passes is refused.

Cards are written ``A 2 .. 10 J Q K`` with a suit letter (ranks 1 to 13 and
``T`` are read too); a face-down card is written in lower case (``"10h"``)
and a face-up one in upper case (``"10H"``). When no card is in lower case
and the tableau and reserve piles hold as many cards as the deal gives them,
the deal's face-down cards are assumed, as in a hand-written Solvitaire deal.
A position later in the game that Solvitaire's keys cannot hold is written
in the same shape, read back by cardtable only: a foundation left empty
before a filled one (one list per foundation), an Accordion pile of several
cards (a list) or an empty one (``""``), an emptied reserve pile of King
Albert (``""``).

>>> from cardtable.patience.engine import PatienceGame
>>> from cardtable.patience.registry import get
>>> game = PatienceGame.from_seed(get("freecell"), "ms:1")
>>> to_solvitaire(game)["tableau piles"][0]
['JD', 'KD', '2S', '4C', '3S', '6D', '6S']
>>> from_solvitaire(get("freecell"), to_solvitaire(game)).key() == game.key()
True
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from itertools import pairwise
from typing import Any

from cardtable._json import read_json_object
from cardtable._text import clip
from cardtable.cards import RANK_NAMES, Card, Suit
from cardtable.errors import NotationError
from cardtable.patience.description import Description, Kind
from cardtable.patience.engine import PatienceGame
from cardtable.patience.moves import Place

__all__ = ["SOLVITAIRE_PRESETS", "SolvitaireError", "dumps", "from_solvitaire", "loads", "solvitaire_preset",
           "to_solvitaire"]

#: cardtable's game name -> the Solvitaire preset (``solvitaire --type NAME``)
#: of the same game. Where Solvitaire's rules differ from the description's
#: default, docs/games.md says how (its Klondike draws three and lets cards
#: come back from the foundations, for one).
SOLVITAIRE_PRESETS: Mapping[str, str] = {
    "accordion": "accordion",
    "bakers-game": "bakers-game",
    "beleaguered-castle": "beleaguered-castle",
    "black-hole": "black-hole",
    "canfield": "canfield",
    "eight-off": "eight-off",
    "fan": "fan",
    "forty-thieves": "forty-thieves",
    "freecell": "free-cell",
    "golf": "golf",
    "king-albert": "king-albert",
    "klondike": "klondike",
    "seahaven-towers": "seahaven-towers",
    "spider": "spider",
    "spiderette": "spiderette",
    "streets-and-alleys": "streets-and-alleys",
}

_KEYS = ("tableau piles", "accordion", "cells", "reserve", "foundations", "stock", "waste", "hole", "sequences")
_WHERE = "Solvitaire JSON"


class SolvitaireError(NotationError):
    """Solvitaire deal JSON that cannot be read for the game, or a game it
    cannot show; the message names the key and the card."""


def solvitaire_preset(description: Description) -> str:
    """The Solvitaire preset of ``description``'s game; a game Solvitaire has
    none of raises :class:`SolvitaireError` naming those it has."""
    preset = SOLVITAIRE_PRESETS.get(description.name)
    if preset is None:
        raise SolvitaireError(f"{_WHERE}: Solvitaire has no preset of {description.title}; its deal JSON is "
                              f"written for {', '.join(sorted(SOLVITAIRE_PRESETS))}")
    return preset


def _tableau_key(description: Description, preset: str | None = None) -> str:
    return "accordion" if (preset or solvitaire_preset(description)) == "accordion" else "tableau piles"


def _text(card: Card, face_down: bool = False) -> str:
    text = ("10" if card.rank == 10 else RANK_NAMES[card.rank]) + card.suit.letter.upper()
    return text.lower() if face_down else text


def to_solvitaire(game: PatienceGame, preset: str | None = None) -> dict[str, Any]:
    """The position as Solvitaire's deal JSON (see the module documentation),
    for the game's own preset (:func:`solvitaire_preset`) or, given
    ``preset``, for that one: a description of one's own that plays a
    preset's rules (Fan with foundation cards coming back, as Solvitaire's
    ``fan``) is written for it."""
    d = game.description
    key = _tableau_key(d, preset)
    if d.stock.passes is not None and game.pass_number > 1:
        raise SolvitaireError(f"{_WHERE} has no place for the pass number: this is pass {game.pass_number} "
                              f"of {d.stock.passes} through the stock")

    def pile(place: Place) -> list[str]:
        down = game.face_down(place) if place.kind is not Kind.STOCK else 0
        return [_text(card, i < down) for i, card in enumerate(game.pile(place))]

    data: dict[str, Any] = {}
    tableau = [pile(place) for place in game.places(Kind.TABLEAU)]
    if key == "accordion":
        data[key] = [p[0] if len(p) == 1 else p or "" for p in tableau]
    else:
        data[key] = tableau
    cells = [(pile(place) or [""])[0] for place in game.places(Kind.CELL)]
    if any(cells):
        data["cells"] = cells
    if d.reserve.count == 1:
        data["reserve"] = pile(game.places(Kind.RESERVE)[0])
    elif d.reserve.count:
        data["reserve"] = [p[0] if len(p) == 1 else p or "" for p in map(pile, game.places(Kind.RESERVE))]
    homes = [game.pile(place) for place in game.places(Kind.FOUNDATION)]
    if any(homes):
        split = _split_foundations(d, [card for home in homes for card in home])
        flat = split + [[] for _ in range(len(homes) - len(split))] == homes
        # the flat list when it reads back to the same foundations, else one list per foundation
        data["foundations"] = ([_text(card) for home in homes for card in home] if flat else
                               [[_text(card) for card in home] or "" for home in homes])
    if d.stock.count:
        data["stock"] = pile(game.places(Kind.STOCK)[0])
    if d.waste.count:
        data["waste"] = pile(game.places(Kind.WASTE)[0])
    if d.hole.count and game.pile(Place(Kind.HOLE)):
        data["hole"] = _text(game.pile(Place(Kind.HOLE))[-1])
    return data


def dumps(data: Mapping[str, Any]) -> str:
    """Deal JSON as text: one key a line, a list of piles one pile a line."""
    lines = []
    for key, value in data.items():
        if isinstance(value, list) and any(isinstance(item, list) for item in value):
            inner = ",\n".join("    " + json.dumps(item) for item in value)
            lines.append(f"  {json.dumps(key)}: [\n{inner}\n  ]")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


# ----- reading ---------------------------------------------------------------------------------------


def _card(text: object, where: str) -> Card:
    if not isinstance(text, str) or len(text.strip()) < 2:
        raise SolvitaireError(f"{_WHERE}, {where}: {clip(str(text), 20)} is not a card (e.g. \"10H\", \"as\")")
    token = text.strip()
    rank_text, suit_text = token[:-1].upper(), token[-1]
    rank = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}.get(rank_text)
    if rank is None and rank_text.isdigit() and rank_text.isascii():
        rank = int(rank_text) if 1 <= int(rank_text) <= 13 else None
    if rank is None or suit_text.lower() not in "cdhs":
        raise SolvitaireError(f"{_WHERE}, {where}: {clip(str(text), 20)} is not a card (e.g. \"10H\", \"as\")")
    return Card(rank, Suit.parse(suit_text))


def _down(text: str) -> bool:
    return text.strip()[-1:].islower()


def _cards(value: object, where: str) -> list[str]:
    """A pile's card texts (``""`` is an empty pile)."""
    if value == "":
        return []
    if not isinstance(value, list):
        raise SolvitaireError(f"{_WHERE}, {where}: expected a list of cards, not {type(value).__name__}")
    for index, item in enumerate(value):
        _card(item, f"{where}, card {index + 1}")
    return value


def _cell(value: object, index: int) -> list[Card]:
    """A free cell's card: a card, ``""`` (empty), or a list of at most one
    card, as Solvitaire's ``--deal-only`` prints a cell."""
    where = f"cell {index + 1}"
    if isinstance(value, list):
        if len(value) > 1:
            raise SolvitaireError(f"{_WHERE}, {where}: {len(value)} cards, a cell holds one")
        return [_card(text, where) for text in value]
    return [] if value == "" else [_card(value, where)]


def _split_foundations(d: Description, cards: list[Card]) -> list[list[Card]]:
    """A flat list of foundation cards cut into foundations: a card that does
    not build on the one before it (or a run of 13, with complete runs) begins
    the next foundation."""
    piles: list[list[Card]] = []
    for card in cards:
        top = piles[-1] if piles else None
        if top and (len(top) < 13 if d.foundations.complete_runs else d.foundations.build.fits(card, top[-1])):
            top.append(card)
        else:
            piles.append([card])
    return piles


def _foundations(d: Description, value: object) -> list[list[Card]]:
    if value == "":
        value = []
    if not isinstance(value, list):
        raise SolvitaireError(f"{_WHERE}, foundations: expected a list of cards")
    if any(isinstance(item, list) or item == "" for item in value):  # one list per foundation
        piles = [[_card(t, f"foundation {i + 1}, card {j + 1}") for j, t in enumerate(_cards(p, f"foundation {i + 1}"))]
                 for i, p in enumerate(value)]
    else:
        piles = _split_foundations(d, [_card(t, f"foundations, card {j + 1}") for j, t in enumerate(value)])
    if len(piles) > d.foundations.count:
        raise SolvitaireError(f"{_WHERE}, foundations: {len(piles)} foundations, {d.title} has "
                              f"{d.foundations.count}")
    bases = {p[0].rank for p in piles if p}
    for index, pile in enumerate(piles):
        if not pile:
            continue
        if d.foundations.complete_runs:  # a whole suit, King to Ace, as it lay on the tableau
            if [c.rank for c in pile] != list(range(13, 0, -1)) or len({c.suit for c in pile}) > 1:
                raise SolvitaireError(f"{_WHERE}, foundation {index + 1}: a foundation of {d.title} holds one "
                                      f"suit from King down to Ace")
            continue
        base = d.foundations.base
        if (base is not None and pile[0].rank != base) or (base is None and len(bases) > 1):
            raise SolvitaireError(f"{_WHERE}, foundation {index + 1}: {_text(pile[0])} cannot begin a foundation "
                                  f"of {d.title}")
        for below, card in pairwise(pile):
            if not d.foundations.build.fits(card, below):
                raise SolvitaireError(f"{_WHERE}, foundation {index + 1}: {_text(card)} does not go on "
                                      f"{_text(below)}")
    return piles + [[] for _ in range(d.foundations.count - len(piles))]


def loads(description: Description, text: str) -> PatienceGame:
    """Read deal JSON text for ``description`` (see :func:`from_solvitaire`)."""
    data = read_json_object(text, error=SolvitaireError, what=_WHERE, nested="a deal",
                            not_object=f"{_WHERE}: expected an object with a 'tableau piles' key")
    return from_solvitaire(description, data)


def from_solvitaire(description: Description, data: object) -> PatienceGame:
    """Read Solvitaire's deal JSON (a parsed object) for ``description``; a
    :class:`SolvitaireError` names the key and the card that is wrong: a
    missing card, a card given twice, a card where it cannot lie, a number of
    piles the game does not have. The deal must hold exactly the game's cards."""
    d = description
    key = _tableau_key(d)
    if not isinstance(data, dict):
        raise SolvitaireError(f"{_WHERE}: expected an object with a '{key}' key")
    for name in data:
        if name not in _KEYS:
            raise SolvitaireError(f"{_WHERE}: {clip(str(name), 30)} is not a key of Solvitaire's deals "
                                  f"({', '.join(_KEYS[:-1])})")
    has = {"tableau piles": key == "tableau piles", "accordion": key == "accordion", "cells": d.cells.count,
           "reserve": d.reserve.count, "foundations": d.foundations.count, "stock": d.stock.count,
           "waste": d.waste.count, "hole": d.hole.count, "sequences": 0}
    for name in data:
        if not has[name]:
            raise SolvitaireError(f"{_WHERE}: {d.title} has no {name}")
    if key not in data:
        raise SolvitaireError(f"{_WHERE}: the '{key}' key is missing")
    raw = data[key]
    if not isinstance(raw, list) or len(raw) != d.tableau.count:
        count = len(raw) if isinstance(raw, list) else "no list of"
        raise SolvitaireError(f"{_WHERE}, {key}: {count} piles, {d.title} has {d.tableau.count}")
    if key == "accordion":
        raw = [[item] if isinstance(item, str) and item else item for item in raw]
    tableau = [_cards(pile, f"tableau pile {i + 1}") for i, pile in enumerate(raw)]

    raw_reserve = data.get("reserve", [])
    if d.reserve.count == 1:
        reserve = [_cards(raw_reserve, "reserve")]
    else:
        if not isinstance(raw_reserve, list) or len(raw_reserve) > d.reserve.count:
            raise SolvitaireError(f"{_WHERE}, reserve: expected a list of at most {d.reserve.count} cards")
        reserve = [[item] if isinstance(item, str) and item else _cards(item, f"reserve pile {i + 1}")
                   for i, item in enumerate(raw_reserve)]
        reserve += [[] for _ in range(d.reserve.count - len(reserve))]
    for i, pile in enumerate(reserve):
        for j, text in enumerate(pile):
            _card(text, f"reserve pile {i + 1}, card {j + 1}")

    # face down: marked in lower case, or (nothing marked, the deal's shape) as dealt
    marked = any(_down(t) for pile in (*tableau, *reserve) for t in pile)
    dealt: dict[tuple[Kind, int], tuple[int, int]] = {}
    for step in d.deal:
        for index, (n, n_down) in enumerate(zip(step.cards, step.face_down, strict=True)):
            so_far, so_far_down = dealt.get((step.to, index), (0, 0))
            dealt[step.to, index] = (so_far + n, so_far_down + n_down)
    shape = all(len(pile) == dealt.get((kind, i), (0, 0))[0]
                for kind, piles in ((Kind.TABLEAU, tableau), (Kind.RESERVE, reserve)) for i, pile in enumerate(piles))

    def face_down(kind: Kind, index: int, pile: list[str], where: str) -> int:
        if not marked:
            return dealt.get((kind, index), (0, 0))[1] if shape else 0
        hidden = 0
        while hidden < len(pile) and _down(pile[hidden]):
            hidden += 1
        if any(_down(t) for t in pile[hidden:]):
            card = next(t for t in pile[hidden:] if _down(t))
            raise SolvitaireError(f"{_WHERE}, {where}: the face-down {card} lies on a face-up card")
        return hidden

    piles: dict[Kind, list[list[Card]]] = {kind: [] for kind in Kind}
    down: dict[Kind, list[int]] = {kind: [] for kind in Kind}
    for kind, raw_piles, label in ((Kind.TABLEAU, tableau, "tableau pile"), (Kind.RESERVE, reserve, "reserve pile")):
        for i, pile in enumerate(raw_piles if d.count(kind) else []):
            where = f"{label} {i + 1}"
            down[kind].append(face_down(kind, i, pile, where))
            piles[kind].append([_card(t, f"{where}, card {j + 1}") for j, t in enumerate(pile)])

    if d.cells.count:
        cells = data.get("cells", [])
        if cells == "":
            cells = []
        if not isinstance(cells, list) or len(cells) not in (0, d.cells.count):
            count = len(cells) if isinstance(cells, list) else "no list of"
            raise SolvitaireError(f"{_WHERE}, cells: {count} cells, {d.title} has {d.cells.count}")
        piles[Kind.CELL] = [_cell(c, i) for i, c in enumerate(cells)]
        piles[Kind.CELL] += [[] for _ in range(d.cells.count - len(cells))]
    if d.foundations.count:
        if "foundations" in data:
            piles[Kind.FOUNDATION] = _foundations(d, data["foundations"])
        else:  # Solvitaire lays the cards the deal puts there (Beleaguered Castle's Aces)
            piles[Kind.FOUNDATION] = [[] for _ in range(d.foundations.count)]
            for step in d.deal:
                if step.to is Kind.FOUNDATION and step.card is not None:
                    piles[Kind.FOUNDATION][step.cards.index(1)].append(step.card)
    for kind, name in ((Kind.STOCK, "stock"), (Kind.WASTE, "waste")):
        if d.count(kind):
            piles[kind] = [[_card(t, f"{name}, card {j + 1}") for j, t in enumerate(_cards(data.get(name, []), name))]]
    if d.hole.count:
        hole_text = data.get("hole", "")
        if hole_text == "" and "hole" not in data:
            fixed = [step.card for step in d.deal if step.to is Kind.HOLE and step.card is not None]
            piles[Kind.HOLE] = [fixed]
        else:
            piles[Kind.HOLE] = [[] if hole_text == "" else [_card(hole_text, "hole")]]

    held = Counter(card for group in piles.values() for pile in group for card in pile)
    deck = Counter(d.cards.deck())
    if d.hole.count and piles[Kind.HOLE][0]:
        # only the hole's top card is written: the cards played before it lie under it
        under = deck - held
        piles[Kind.HOLE][0][:0] = [card for card in d.cards.deck() if under[card] > 0 and not under.subtract([card])]
        held = Counter(card for group in piles.values() for pile in group for card in pile)
    if held != deck:
        extra = sorted((held - deck).elements())
        if extra:
            raise SolvitaireError(f"{_WHERE}: {_text(extra[0])} is there "
                                  f"{'twice' if held[extra[0]] == 2 else f'{held[extra[0]]} times'}; "
                                  f"{d.title} has {'it once' if deck[extra[0]] == 1 else f'{deck[extra[0]]} of it'}")
        missing = sorted((deck - held).elements())
        raise SolvitaireError(f"{_WHERE}: {_text(missing[0])} is missing ({len(missing)} card"
                              f"{'s' * (len(missing) > 1)} of {d.title} missing)")
    all_piles: list[list[Card]] = []
    all_down: list[int] = []
    for kind in (Kind.TABLEAU, Kind.FOUNDATION, Kind.CELL, Kind.RESERVE, Kind.STOCK, Kind.WASTE, Kind.HOLE):
        for index, cards in enumerate(piles[kind]):
            all_piles.append(cards)
            all_down.append(len(cards) if kind is Kind.STOCK else down[kind][index] if down[kind] else 0)
    return PatienceGame(d, all_piles, all_down)
