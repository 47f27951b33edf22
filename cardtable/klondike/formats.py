"""Reading and writing layouts in other tools' formats.

PySol board
-----------
The text PySolFC's solver export and Klondike-Solver use (PyPI ``pyksolve``
writes it with ``get_pysol()``)::

    Talon: 9D TC 2S ... TH
    4D
    <3C> 4C
    <9S> <7D> 6H
    ...

The talon (stock) is listed from its top, the next card drawn, to its bottom;
then one line per tableau pile, left to right, bottom to top, face-down cards
in angle brackets. Lines ``Foundations: H-0 C-0 D-0 S-0`` and a leading ``:``
on pile lines (as in a game diagram) are read too; a ``Waste:`` line, listed
bottom to top, is read and written when the waste is not empty. An empty pile
is written as a line holding ``:`` alone, so that it reads back (a blank
line is skipped).

Solvitaire deal JSON
--------------------
``{"tableau piles": [[...], ...], "stock": [...]}`` with piles bottom to top
and the stock bottom to top (its last card is drawn first); tens are written
``10``. Face-down cards carry a lower-case suit letter (``"3d"``) and face-up
ones an upper-case one (``"4C"``); when every card is upper case, the standard
deal is assumed (only each pile's top card face up). Optional ``"waste"``
(bottom to top) and ``"foundations"`` are read and written when not empty.
Written, ``"foundations"`` is one flat list of cards, each suit from its ace
up, as Solvitaire's deal schema has it; read, it may also hold one list (or
``""``) per foundation, as Solvitaire's ``--deal-only`` prints it, and an empty
pile may be ``""`` (Solvitaire's way of writing an empty list). The key
``"foundation"`` with a list per suit, as cardtable wrote it before, is read
too.

:func:`read_layout` tells the formats apart by their first characters, so a
file in any of them (or a deal string, or a position string) can be read;
:func:`load_start` reads a game record too, giving its last position.

Deals files
-----------
A list of deals to play or solve, one a line: a seed number (the deal of
:meth:`Position.from_seed`), a deal string or a position string; blank lines
and lines starting with ``#`` are skipped. :func:`read_deals` reads one.
"""

from __future__ import annotations

import json
import random
import re

from cardtable._json import read_json_object
from cardtable._text import clip
from cardtable.cards import MAX_SEED, RANK_NAMES, Card, CardError, Suit
from cardtable.klondike.moves import MoveError
from cardtable.klondike.position import PILE_COUNT, DealError, Position
from cardtable.klondike.record import KlondikeRecord

__all__ = [
    "FORMATS",
    "detect_format",
    "from_pysol",
    "from_solvitaire",
    "load_start",
    "read_deals",
    "read_layout",
    "solvitaire_deal",
    "to_pysol",
    "to_solvitaire",
    "write_layout",
]

#: The names :func:`write_layout` accepts.
FORMATS = ("deal", "position", "pysol", "solvitaire")


def _card(token: str, where: str) -> Card:
    try:
        return Card.parse(token)
    except CardError as error:
        raise DealError(f"{where}: {error}") from None


# ----- PySol -------------------------------------------------------------------------------

_FOUNDATION_RE = re.compile(r"([CDHS])-(10|[0-9AJQKT])", re.IGNORECASE | re.ASCII)


def from_pysol(text: str) -> Position:
    """Read a PySol board; errors name the line."""
    talon: list[Card] | None = None
    waste: list[Card] | None = None
    foundation: list[int] | None = None
    piles: list[tuple[list[Card], int]] = []
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        where = f"PySol board, line {number}"
        lower = line.lower()
        if lower.startswith(("talon:", "waste:", "foundations:")) and piles:
            raise DealError(f"{where}: the {line.split(':', 1)[0]} line comes after the tableau lines")
        if lower.startswith("talon:"):
            if talon is not None:
                raise DealError(f"{where}: a second Talon line")
            body = line.split(":", 1)[1].replace("==>", " ").replace("<==", " ")
            talon = [_card(t, where) for t in body.split()]
            continue
        if lower.startswith("waste:"):
            if waste is not None:
                raise DealError(f"{where}: a second Waste line")
            waste = [_card(t, where) for t in line.split(":", 1)[1].split()]
            continue
        if lower.startswith("foundations:"):
            if foundation is not None:
                raise DealError(f"{where}: a second Foundations line")
            foundation = _pysol_foundations(line.split(":", 1)[1], where)
            continue
        if line.startswith(":"):
            line = line[1:].strip()
        cards: list[Card] = []
        down = 0
        for token in line.split():
            if token.startswith("<") and token.endswith(">"):
                if len(cards) != down:
                    raise DealError(f"{where}: face-down card {token} lies above a face-up card")
                cards.append(_card(token[1:-1], where))
                down += 1
            else:
                cards.append(_card(token, where))
        piles.append((cards, down))
    if talon is None:
        raise DealError("PySol board: no 'Talon:' line")
    if len(piles) != PILE_COUNT:
        raise DealError(f"PySol board: {len(piles)} tableau lines, expected {PILE_COUNT}")
    return Position(
        tableau=tuple(tuple(c) for c, _ in piles),
        face_down=tuple(d for _, d in piles),
        stock=tuple(reversed(talon)),
        waste=tuple(waste or ()),
        foundation=tuple(foundation or (0, 0, 0, 0)),  # type: ignore[arg-type]
    )


def _pysol_foundations(text: str, where: str) -> list[int]:
    """The ranks of a ``Foundations:`` line (``H-0 C-A D-10 S-K``), by suit;
    every word must be a foundation, each suit at most once."""
    foundation = [0, 0, 0, 0]
    seen: set[int] = set()
    for word in text.split():
        m = _FOUNDATION_RE.fullmatch(word)
        if m is None:
            raise DealError(f"{where}: foundation {clip(word)} must read suit-rank, e.g. H-0, C-A, D-10")
        suit = Suit.parse(m.group(1))
        if suit in seen:
            raise DealError(f"{where}: the {suit.name.lower()} foundation is given twice")
        seen.add(suit)
        rank_text = m.group(2).upper()
        foundation[suit] = int(rank_text) if rank_text.isdigit() else RANK_NAMES.index(rank_text)
    return foundation


def to_pysol(position: Position) -> str:
    """Write a PySol board, card for card as ``pyksolve``'s ``get_pysol()``
    (no trailing newline); a waste or foundations line only when not empty.
    A board has no place for the pass number: a position after the first pass
    raises :class:`DealError` rather than be written as something else."""
    _refuse_later_passes(position, "a PySol board")
    lines = ["Talon: " + " ".join(str(c).upper() for c in reversed(position.stock))]
    if any(position.foundation):
        lines.append("Foundations: " + " ".join(
            f"{s.upper()}-{RANK_NAMES[r] if r else 0}"
            for s, r in zip("hcds", (position.foundation[i] for i in (2, 0, 1, 3)), strict=True)))
    if position.waste:
        lines.append("Waste: " + " ".join(str(c).upper() for c in position.waste))
    for cards, down in zip(position.tableau, position.face_down, strict=True):
        lines.append(" ".join(
            f"<{str(c).upper()}>" if i < down else str(c).upper() for i, c in enumerate(cards)) or ":")
    return "\n".join(lines)


# ----- Solvitaire ------------------------------------------------------------------------------


def _solvitaire_card(card: Card, face_up: bool) -> str:
    rank = "10" if card.rank == 10 else RANK_NAMES[card.rank]
    suit = card.suit.letter
    return rank + (suit.upper() if face_up else suit)


#: The keys of Solvitaire's deal JSON a Klondike deal may have ("foundation": as cardtable wrote it before).
_SOLVITAIRE_KEYS = ("tableau piles", "foundations", "stock", "waste", "foundation")


def from_solvitaire(text: str) -> Position:
    """Read Solvitaire's deal JSON; errors name the pile and card."""
    shape = "Solvitaire JSON: expected an object with a 'tableau piles' field"
    data = read_json_object(text, error=DealError, what="Solvitaire JSON", nested="a deal", not_object=shape)
    if "tableau piles" not in data:
        raise DealError(shape)
    for key in data:
        if key not in _SOLVITAIRE_KEYS:
            raise DealError(f"Solvitaire JSON: {clip(str(key), 30)} is not a key of a Klondike deal "
                            f"({', '.join(_SOLVITAIRE_KEYS[:-1])})")
    piles_data = data["tableau piles"]
    if not isinstance(piles_data, list) or len(piles_data) != PILE_COUNT:
        raise DealError(f"Solvitaire JSON: 'tableau piles' must list {PILE_COUNT} piles")

    def strings(value: object, where: str) -> list[str]:
        if value == "":  # Solvitaire writes an empty pile as ""
            return []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise DealError(f"Solvitaire JSON, {where}: expected a list of card strings")
        return value

    raw_piles = [strings(p, f"pile {i + 1}") for i, p in enumerate(piles_data)]
    for i, pile in enumerate(raw_piles):
        for j, tok in enumerate(pile):
            if tok.strip() == "##":
                raise DealError(
                    f"Solvitaire JSON, pile {i + 1}, card {j + 1}: '##' is a face-down card that Solvitaire did "
                    "not name (its --deal-only output hides them); for Solvitaire's deal N, use "
                    "'cardtable deal --solvitaire-seed N'")
    # Unmarked cards mean the standard deal (only each top face up) when the
    # piles have the deal's shape; any other layout is all face up.
    marked = any(tok.strip()[-1:].islower() for pile in raw_piles for tok in pile)
    deal_shape = [len(pile) for pile in raw_piles] == list(range(1, PILE_COUNT + 1))
    tableau, face_down = [], []
    for i, pile in enumerate(raw_piles):
        cards = [_card(tok, f"Solvitaire JSON, pile {i + 1}, card {j + 1}") for j, tok in enumerate(pile)]
        if marked:
            down = sum(1 for tok in pile if tok.strip()[-1:].islower())
            if any(tok.strip()[-1:].islower() for tok in pile[down:]):
                raise DealError(f"Solvitaire JSON, pile {i + 1}: a face-down card lies above a face-up one")
        else:
            down = max(0, len(cards) - 1) if deal_shape else 0
        tableau.append(tuple(cards))
        face_down.append(down)
    stock = [_card(t, f"Solvitaire JSON, stock card {j + 1}")
             for j, t in enumerate(strings(data.get("stock", []), "stock"))]
    waste = [_card(t, f"Solvitaire JSON, waste card {j + 1}")
             for j, t in enumerate(strings(data.get("waste", []), "waste"))]
    foundation = _solvitaire_foundations(data)
    return Position(
        tableau=tuple(tableau),
        face_down=tuple(face_down),
        stock=tuple(stock),
        waste=tuple(waste),
        foundation=tuple(foundation),  # type: ignore[arg-type]
    )


def _solvitaire_foundations(data: dict[str, object]) -> list[int]:
    """The foundations' ranks, by suit, from ``"foundations"`` (a flat list
    of cards, or a list of piles, each a list of cards or ``""``) or the older
    ``"foundation"`` (a list of piles)."""
    key = "foundations" if "foundations" in data else "foundation"
    value = data.get(key, [])
    if value == "":
        value = []
    if not isinstance(value, list):
        raise DealError(f"Solvitaire JSON, {key}: expected a list of cards (or of piles of cards)")
    cards: list[tuple[Card, str]] = []
    for j, item in enumerate(value):
        if isinstance(item, str):
            if item:
                cards.append((_card(item, f"Solvitaire JSON, {key} card {j + 1}"), f"{key} card {j + 1}"))
        elif isinstance(item, list) and all(isinstance(t, str) for t in item):
            cards.extend((_card(t, f"Solvitaire JSON, {key} pile {j + 1}, card {k + 1}"),
                          f"{key} pile {j + 1}, card {k + 1}") for k, t in enumerate(item))
        else:
            raise DealError(f"Solvitaire JSON, {key} item {j + 1}: expected a card or a list of cards")
    foundation = [0, 0, 0, 0]
    for card, where in cards:
        if card.rank <= foundation[card.suit]:
            raise DealError(f"Solvitaire JSON, {where}: {card} is already on the "
                            f"{card.suit.name.lower()} foundation")
        if card.rank != foundation[card.suit] + 1:
            raise DealError(f"Solvitaire JSON, {where}: {card} is out of order (each suit goes from its ace up)")
        foundation[card.suit] = card.rank
    return foundation


#: Solvitaire's suits in its own order (``card::suit``): clubs, hearts, spades, diamonds.
_SOLVITAIRE_SUITS = (Suit.CLUBS, Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS)
#: The largest seed Solvitaire's ``--random`` takes (its seed is a C ``int``).
SOLVITAIRE_MAX_SEED = 2**31 - 1


def _mt19937(seed: int) -> random.Random:
    """A Mersenne Twister seeded as C++'s ``std::mt19937(seed)`` seeds it
    (``init_genrand``; Python's own ``seed()`` seeds another way)."""
    state = [seed & 0xFFFFFFFF]
    for i in range(1, 624):
        previous = state[-1]
        state.append((1812433253 * (previous ^ (previous >> 30)) + i) & 0xFFFFFFFF)
    twister = random.Random()
    twister.setstate((3, (*state, 624), None))
    return twister


def solvitaire_deal(seed: int) -> Position:
    """Solvitaire's Klondike deal number ``seed`` (``solvitaire --type klondike
    --random SEED``), dealt as Solvitaire deals it: its 52 cards shuffled by
    Boost's uniform integers over ``std::mt19937(seed)``, 24 cards to the stock,
    then the piles diagonally. Pile 1 holds one card; Solvitaire's
    ``--deal-only`` lists the same piles from pile 7 down.

    >>> solvitaire_deal(5).tableau[0]
    (Card.parse('9c'),)
    """
    if not 0 <= seed <= SOLVITAIRE_MAX_SEED:
        raise DealError(f"a Solvitaire seed is a whole number from 0 to {SOLVITAIRE_MAX_SEED}, not {clip(str(seed))}")
    twister = _mt19937(seed)
    deck = [Card(rank, suit) for rank in range(1, 14) for suit in _SOLVITAIRE_SUITS]
    for i in range(len(deck) - 1, 0, -1):
        bucket = 2**32 // (i + 1)  # boost::random::uniform_int_distribution(0, i) over 32-bit draws
        while (j := twister.getrandbits(32) // bucket) > i:
            pass
        deck[i], deck[j] = deck[j], deck[i]
    stock = [deck.pop() for _ in range(24)]  # the last one dealt is drawn first
    piles: list[list[Card]] = [[] for _ in range(PILE_COUNT)]
    turn = 0
    while deck:
        row, pile = divmod(turn, PILE_COUNT)
        pile = PILE_COUNT - 1 - pile
        if pile >= row:
            piles[pile].append(deck.pop())
        turn += 1
    return Position(tableau=tuple(tuple(p) for p in piles), face_down=tuple(len(p) - 1 for p in piles),
                    stock=tuple(stock), waste=(), foundation=(0, 0, 0, 0))


def _refuse_later_passes(position: Position, form: str) -> None:
    if position.pass_number != 1:
        raise DealError(f"{form} has no place for the pass number (this is pass {position.pass_number}); "
                        "write a position string instead")


def to_solvitaire(position: Position) -> str:
    """Write Solvitaire's deal JSON (face-down cards with a lower-case suit).
    It has no place for the pass number, and a layout of the deal's shape
    with every card face up would read back as a fresh deal: both raise
    :class:`DealError` rather than be written as something else."""
    _refuse_later_passes(position, "Solvitaire JSON")
    if not any(position.face_down) and [len(p) for p in position.tableau] == list(range(1, PILE_COUNT + 1)) and (
            any(len(p) > 1 for p in position.tableau)):
        raise DealError("Solvitaire JSON cannot mark piles of 1 to 7 cards all face up (it would read back as "
                        "a fresh deal); write a position string instead")
    data: dict[str, object] = {
        "tableau piles": [
            [_solvitaire_card(c, i >= down) for i, c in enumerate(cards)]
            for cards, down in zip(position.tableau, position.face_down, strict=True)
        ],
        "stock": [_solvitaire_card(c, True) for c in position.stock],
    }
    if position.waste:
        data["waste"] = [_solvitaire_card(c, True) for c in position.waste]
    if any(position.foundation):
        data["foundations"] = [
            _solvitaire_card(Card(r, suit), True)
            for suit, top in enumerate(position.foundation) for r in range(1, top + 1)
        ]
    piles = ",\n    ".join(json.dumps(p) for p in data["tableau piles"])  # type: ignore[attr-defined]
    rest = "".join(f',\n  "{k}": {json.dumps(v)}' for k, v in data.items() if k != "tableau piles")
    return '{\n  "tableau piles": [\n    ' + piles + "\n  ]" + rest + "\n}\n"


# ----- any of them ---------------------------------------------------------------------------


def detect_format(text: str) -> str:
    """``deal``, ``position``, ``pysol``, ``solvitaire`` or ``record`` (a game record)."""
    stripped = text.removeprefix("\ufeff").lstrip()
    if stripped.startswith("{"):
        # A record's own keys decide, so that a truncated record is still read as one.
        is_record = any(f'"{key}"' in stripped for key in ("moves", "variant", "deal", "position", "headers"))
        return "record" if is_record and '"tableau piles"' not in stripped else "solvitaire"
    if stripped.startswith("["):
        # A header line opens with a name; anything else after "[" is JSON (a list), not a record.
        return "record" if stripped[1:].lstrip()[:1].isalpha() else "solvitaire"
    first = stripped.split("\n", 1)[0].strip().lower()
    if first.startswith(("talon:", "foundations:", "waste:")) or "<" in stripped:
        return "pysol"
    if "/" in first and "|" in first:
        return "position"
    return "deal"


def read_layout(text: str) -> Position:
    """Read a deal string, position string, PySol board or Solvitaire JSON
    (a game record is read by :mod:`cardtable.klondike.record`)."""
    kind = detect_format(text)
    if kind == "pysol":
        return from_pysol(text)
    if kind == "solvitaire":
        return from_solvitaire(text)
    if kind == "position":
        return Position.parse(text.removeprefix("\ufeff").strip())
    if kind == "record":
        raise DealError("this is a game record, not a layout")
    _refuse_json_scalar(text)
    _refuse_patience_position(text)
    return Position.from_deal(text.removeprefix("\ufeff"))


_PATIENCE_PILE = re.compile(r"(?:\d+|[A-Z]\d*|[a-z]):\S*")


def _refuse_patience_position(text: str) -> None:
    """Refuse another patience game's position string (its piles named, as
    ``1:Ks/4sJh 2:9s ... F1: S:8d7c/``), which no Klondike layout is (none
    holds a colon), naming what it is rather than its first card.

    >>> _refuse_patience_position("1:Ah 2:Kd/Qs F1: S:")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardtable.klondike.position.DealError: not a Klondike layout: a patience game's position string ...
    """
    tokens = text.removeprefix("\ufeff").split()
    if len(tokens) >= 2 and sum(bool(_PATIENCE_PILE.fullmatch(token)) for token in tokens) >= 2:
        raise DealError(f"not a Klondike layout: a patience game's position string ({clip(text.strip())}); "
                        "name its game to read it (--game NAME)")


def _refuse_json_scalar(text: str) -> None:
    """Refuse a JSON number, string, true, false or null, which no deal
    string is (no card is written as JSON), as not a layout.

    >>> _refuse_json_scalar('"hello"')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardtable.klondike.position.DealError: not a layout: a JSON string ('"hello"'); give a deal string, ...
    """
    try:
        value = json.loads(text.removeprefix("\ufeff"))
    except ValueError:
        return
    kind = {bool: "boolean", type(None): "null", str: "string", int: "number", float: "number"}.get(
        type(value), "value")
    raise DealError(f"not a layout: a JSON {kind} ({clip(text.strip())}); "
                    f"give a deal string, a position, a PySol board or Solvitaire JSON")


def write_layout(position: Position, fmt: str) -> str:
    """Write a layout in ``fmt`` (one of :data:`FORMATS`), without a trailing newline."""
    if fmt == "deal":
        return position.deal_string()
    if fmt == "position":
        return str(position)
    if fmt == "pysol":
        return to_pysol(position)
    if fmt == "solvitaire":
        return to_solvitaire(position).rstrip("\n")
    raise DealError(f"unknown format {clip(fmt)}; use one of {', '.join(FORMATS)}")


def load_start(text: str) -> tuple[Position, KlondikeRecord | None]:
    """Read where to start from: a layout in any format :func:`read_layout`
    knows, or a game record, which gives its last position (every recorded
    move is replayed, so an illegal one raises
    :class:`~cardtable.errors.ReplayError`). Returns the position and, for a
    record, the record itself (its variant is the game's).

    >>> position, record = load_start(Position.from_seed(7).deal_string())
    >>> position == Position.from_seed(7), record is None
    (True, True)
    >>> from cardtable.klondike.game import KlondikeGame
    >>> from cardtable.klondike.variant import Variant
    >>> game = KlondikeGame.from_seed(7, Variant.preset("draw1"))
    >>> game.play(game.legal_moves()[0])
    >>> position, record = load_start(str(KlondikeRecord.from_game(game)))
    >>> position == game.position(), len(record.moves)
    (True, 1)
    """
    if detect_format(text) == "record":
        record = KlondikeRecord.parse(text)
        return record.replay().position(), record
    return read_layout(text), None


_SIGNED_NUMBER_RE = re.compile(r"[+-]?\d+", re.ASCII)
#: The digits of the largest seed, 2**64 - 1.
_SEED_DIGITS = len(str(MAX_SEED))


def read_deals(text: str, *, source: str = "deals file") -> list[tuple[str, Position]]:
    """Read a deals file: one deal a line, written as a seed number, a deal
    string or a position string; blank lines and ``#`` comments are skipped.

    Returns ``(label, position)`` pairs in file order, the label being the
    line as written (without surrounding blanks). A line that cannot be read
    raises :class:`~cardtable.klondike.position.DealError` naming ``source``
    and the line number; so does a file with no deals.

    >>> text = "# three ways to name a deal\\n2\\n\\n" + Position.from_seed(3).deal_string() + "\\n"
    >>> text += str(Position.from_seed(4)) + "\\n"
    >>> deals = read_deals(text)
    >>> [position == Position.from_seed(n) for (_, position), n in zip(deals, (2, 3, 4))]
    [True, True, True]
    >>> deals[0][0]
    '2'
    >>> try:
    ...     read_deals("2\\n# a comment\\nAh Kd\\n", source="deals.txt")
    ... except DealError as error:
    ...     print(str(error)[:40])
    deals.txt, line 3: deal string: 2 cards,
    """
    deals: list[tuple[str, Position]] = []
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{source}, line {number}"
        if _SIGNED_NUMBER_RE.fullmatch(line):
            shown = line if len(line) <= 30 else line[:29] + "…"
            if line.startswith(("-", "+")):
                raise DealError(f"{where}: a seed is a whole number >= 0, not {shown}")
            if len(line) > _SEED_DIGITS or int(line) > MAX_SEED:
                raise DealError(f"{where}: a seed is a whole number >= 0 and at most 2**64 - 1, not {shown}")
            position = Position.from_seed(int(line))
        elif line.isnumeric():
            raise DealError(f"{where}: write a seed in the digits 0-9, not {clip(line, 30)}")
        elif detect_format(line) not in ("deal", "position"):
            raise DealError(f"{where}: expected a seed number, a deal string or a position string")
        else:
            try:
                position = read_layout(line)
            except DealError as error:
                raise DealError(f"{where}: {error}") from None
        deals.append((line, position))
    if not deals:
        raise DealError(f"{source}: no deals (write one seed number, deal string or position string a line)")
    return deals


# ----- Klondike-Solver move lists --------------------------------------------------------------

_KS_MOVE_RE = re.compile(r"([W1-7CDSH])([1-7CDSH])(?:-(\d{1,2}))?", re.ASCII)
_KS_FOUNDATIONS = {"C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES}


def moves_from_klondike_solver(text: str) -> list[str]:
    """Translate a Klondike-Solver (``pyksolve``) solution into cardtable move
    notation.

    Its moves: ``DRn`` draws n times, ``NEW`` turns the waste over, ``Fn``
    turns up pile n's card (part of the previous move here, so dropped),
    ``XY`` moves one card from X to Y and ``XY-n`` moves n cards, where X and
    Y are ``W`` (waste), ``1``..``7`` (piles) or ``C D S H`` (foundations).
    A token it does not know raises :class:`~cardtable.klondike.moves.MoveError`.
    """
    out: list[str] = []
    for token in text.split():
        tok = token.upper()
        if tok.startswith("DR"):
            count = tok[2:]
            if not (count.isascii() and count.isdigit() and len(count) <= 2 and 1 <= int(count) <= 24):
                raise MoveError(f"Klondike-Solver move {clip(token, 30)}: DR takes a count of draws from 1 to 24")
            out.extend(["D"] * int(count))
        elif tok == "NEW":
            out.append("R")
        elif len(tok) == 2 and tok[0] == "F" and tok[1] in "1234567":
            continue
        else:
            m = _KS_MOVE_RE.fullmatch(tok)
            if m is None:
                raise MoveError(f"unknown Klondike-Solver move {clip(token, 30)}")
            src, dst, count = m.groups()
            source = "F" + _KS_FOUNDATIONS[src].letter if src in _KS_FOUNDATIONS else src
            target = "F" if dst in _KS_FOUNDATIONS else dst
            out.append(f"{source}>{target}" + (f":{count}" if count and int(count) > 1 else ""))
    return out
