"""A patience position as an SVG picture, laid out by
:func:`cardtable.patience.layout.table_layout`: the picture of each game in
the docs, or of any position a face wants to show.

The cards have the browser table's look (``cardtable/web/static/cards.js``):
a cream face with corner indices, pips for Ace to Ten and a framed figure
panel for the courts, red and near-black suits, a blue lattice back. The
felt is the table's green. Each pile is labelled with its name in move
notation (``1``, ``a``, ``F1``, ``S``); an empty pile is an outline. Only
what the player sees is drawn: a face-down card is a back.

>>> from cardtable.patience.engine import PatienceGame
>>> from cardtable.patience.registry import get
>>> picture = table_svg(PatienceGame.from_seed(get("golf"), 1).view())
>>> picture.startswith("<svg") and picture.count('href="#back"') == 1  # the stock
True
"""

from __future__ import annotations

from html import escape

from cardtable.cards import RANK_NAMES, Card
from cardtable.patience.description import Fan, Kind
from cardtable.patience.engine import PatienceView, PileView
from cardtable.patience.layout import FAN_STEP, PlacedPile, table_layout

__all__ = ["CARD_HEIGHT", "CARD_WIDTH", "GAP", "table_svg"]

#: A card's size and the gap between two cards, in the picture's pixels.
CARD_WIDTH = 100
CARD_HEIGHT = 140
GAP = 14
_UNIT_X = CARD_WIDTH + GAP
_UNIT_Y = CARD_HEIGHT + GAP
_MARGIN = 18  # around the table, with room for the first row's labels
_RED, _BLACK = "#c0192b", "#1b1b1f"
_FELT, _FELT_DARK = "#1f6b3a", "#174f2b"
_BACK, _BACK_LINE, _BACK_EDGE = "#23478f", "#5b7fd1", "#1a336b"
_SERIF = "Georgia, 'DejaVu Serif', serif"
_SANS = "'DejaVu Sans', Verdana, sans-serif"

# Pip centres on a 100 x 140 card, by rank (the browser table's).
_PIPS = {
    1: ((50, 70),),
    2: ((50, 28), (50, 112)),
    3: ((50, 28), (50, 70), (50, 112)),
    4: ((30, 28), (70, 28), (30, 112), (70, 112)),
    5: ((30, 28), (70, 28), (50, 70), (30, 112), (70, 112)),
    6: ((30, 28), (70, 28), (30, 70), (70, 70), (30, 112), (70, 112)),
    7: ((30, 28), (70, 28), (50, 49), (30, 70), (70, 70), (30, 112), (70, 112)),
    8: ((30, 28), (70, 28), (50, 49), (30, 70), (70, 70), (50, 91), (30, 112), (70, 112)),
    9: ((30, 28), (70, 28), (30, 56), (70, 56), (50, 70), (30, 84), (70, 84), (30, 112), (70, 112)),
    10: ((30, 28), (70, 28), (50, 42), (30, 56), (70, 56), (30, 84), (70, 84), (50, 98), (30, 112), (70, 112)),
}


def _index(label: str, symbol: str) -> str:
    fit = ' textLength="15" lengthAdjust="spacingAndGlyphs"' if len(label) > 1 else ""
    return (f'<text x="{9.5 if len(label) > 1 else 9}" y="23" class="r"{fit}>{label}</text>'
            f'<text x="9" y="37" font-size="15">{symbol}</text>')


def _pips(rank: int, symbol: str) -> str:
    size = 54 if rank == 1 else 22
    out = [f'<g font-size="{size}">']
    for x, y in _PIPS[rank]:
        turn = f' transform="rotate(180 {x} {y})"' if y > 75 and rank != 1 else ""
        out.append(f'<text x="{x}" y="{y + size * 0.35:g}"{turn}>{symbol}</text>')
    return "".join(out) + "</g>"


def _court(label: str, symbol: str, colour: str) -> str:
    """A court card's panel: tinted, framed in the suit's colour, its letter
    large and its suit beside it, mirrored as on a real court card."""
    tint = "#fbeee6" if colour == _RED else "#eef1f8"
    half = (f'<text x="50" y="62" class="c">{label}</text><text x="28" y="36" font-size="15">{symbol}</text>'
            '<path d="M20 70 L80 70" stroke="#e0b13a" stroke-width="1.4"/>')
    return (f'<rect x="16" y="16" width="68" height="108" rx="4" fill="{tint}"/>'
            '<rect x="19" y="19" width="62" height="102" rx="3" fill="none" stroke="#e0b13a" stroke-width="1.2"/>'
            f'<g>{half}</g><g transform="rotate(180 50 70)">{half}</g>'
            f'<rect x="16" y="16" width="68" height="108" rx="4" fill="none" stroke="{colour}" stroke-width="1.5"/>')


def _face(card: Card) -> str:
    colour = _RED if card.is_red else _BLACK
    symbol = card.suit.symbol
    label = "10" if card.rank == 10 else RANK_NAMES[card.rank]
    middle = _court(label, symbol, colour) if card.rank > 10 else _pips(card.rank, symbol)
    return (f'<symbol id="c{card}" viewBox="0 0 100 140"><use href="#blank"/>'
            f'<g fill="{colour}" text-anchor="middle">{_index(label, symbol)}'
            f'<g transform="rotate(180 50 70)">{_index(label, symbol)}</g>{middle}</g></symbol>')


_STYLE = (f"<style>.r{{font: 700 19px {_SERIF}}} .c{{font: 700 38px {_SERIF}}} "
          f".t{{font: 700 13px {_SANS}; fill: #f3f1e6}}</style>")
_BACK_SYMBOL = (
    '<rect id="blank" x="0.75" y="0.75" width="98.5" height="138.5" rx="7" fill="#fffdf7" stroke="#9a968a" '
    'stroke-width="1.5"/>'
    '<pattern id="lattice" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
    f'<rect width="10" height="10" fill="{_BACK}"/>'
    f'<path d="M0 5h10M5 0v10" stroke="{_BACK_LINE}" stroke-width="1.6"/></pattern>'
    '<symbol id="back" viewBox="0 0 100 140"><use href="#blank"/>'
    '<rect x="7" y="7" width="86" height="126" rx="5" fill="url(#lattice)"/>'
    f'<rect x="7" y="7" width="86" height="126" rx="5" fill="none" stroke="{_BACK_EDGE}" stroke-width="2"/>'
    '</symbol>')


#: Piles whose last few cards are shown (as many as their box has room for), not every card.
_SHOW_LAST = (Kind.WASTE, Kind.FOUNDATION, Kind.HOLE, Kind.STOCK)


#: A face-down card of a fanned pile shows this much of the step a face-up one does.
_DOWN_SHARE = 0.5


def _offsets(placed: PlacedPile, shown: list[Card | None]) -> list[float]:
    """Where each card of a pile lies past the first, in pixels along its fan:
    face-down cards closer than face-up ones, and all of them closer than
    :data:`FAN_STEP` when the pile would leave its box."""
    if placed.fan is Fan.NONE or len(shown) < 2:
        return [0.0] * len(shown)
    unit = _UNIT_Y if placed.fan is Fan.DOWN else _UNIT_X
    room = (placed.height * _UNIT_Y - GAP - CARD_HEIGHT if placed.fan is Fan.DOWN
            else placed.width * _UNIT_X - GAP - CARD_WIDTH)
    shares = [_DOWN_SHARE if card is None else 1.0 for card in shown[:-1]]
    step = min(FAN_STEP * unit, room / sum(shares))
    offsets = [0.0]
    for share in shares:
        offsets.append(offsets[-1] + share * step)
    return offsets


def table_svg(view: PatienceView, *, labels: bool = True, title: str | None = None, fit: bool = False) -> str:
    """The position ``view`` shows, as an SVG document (see the module
    documentation); ``title`` becomes its accessible name. The picture is
    the whole table, with the room kept for the piles to grow; with ``fit``
    it ends below the lowest card drawn."""
    table = table_layout(view.description)
    piles: dict[object, PileView] = {pile.place: pile for pile in view.piles}
    width = table.width * _UNIT_X - GAP + 2 * _MARGIN
    height = table.height * _UNIT_Y - GAP + 2 * _MARGIN
    faces: dict[str, str] = {}
    body: list[str] = []
    tags: list[str] = []
    lowest = 0.0
    for placed in table.piles:
        pile = piles[placed.place]
        x = _MARGIN + placed.x * _UNIT_X
        y = _MARGIN + placed.y * _UNIT_Y
        if not len(pile):
            body.append(f'<rect x="{x + 1:g}" y="{y + 1:g}" width="{CARD_WIDTH - 2}" height="{CARD_HEIGHT - 2}" '
                        'rx="7" fill="#000" fill-opacity="0.12" stroke="#fff" stroke-opacity="0.3" '
                        'stroke-width="2"/>')
            lowest = max(lowest, y + CARD_HEIGHT)
        else:
            shown: list[Card | None]
            if placed.fan is Fan.NONE or placed.place.kind is Kind.STOCK:
                shown = [pile.cards[-1] if pile.cards else None]
            else:
                shown = [None] * pile.face_down + list(pile.cards)
                if placed.place.kind in _SHOW_LAST:
                    shown = shown[-placed.room:]
            down = placed.fan is Fan.DOWN
            for offset, card in zip(_offsets(placed, shown), shown, strict=True):
                if card is not None:
                    faces.setdefault(str(card), _face(card))
                ref = "back" if card is None else f"c{card}"
                at_x, at_y = (x, y + offset) if down else (x + offset, y)
                body.append(f'<use href="#{ref}" x="{at_x:g}" y="{at_y:.1f}" '
                            f'width="{CARD_WIDTH}" height="{CARD_HEIGHT}"/>')
                lowest = max(lowest, at_y + CARD_HEIGHT)
        if labels:
            name = escape(placed.name)
            wide = 12 + 8 * len(name)
            tags.append(f'<g><rect x="{x + (CARD_WIDTH - wide) / 2:g}" y="{y - 10:g}" width="{wide}" height="19" '
                        'rx="9.5" fill="#000" fill-opacity="0.62"/>'
                        f'<text x="{x + CARD_WIDTH / 2:g}" y="{y + 4:g}" class="t" text-anchor="middle">'
                        f'{name}</text></g>')
    if fit:
        height = lowest + _MARGIN
    label = escape(title or f"{view.description.title}: the table")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" width="{width:g}" '
            f'height="{height:g}" role="img" aria-label="{label}">'
            f'<title>{label}</title>'
            f'<defs><radialGradient id="felt" cx="50%" cy="30%" r="75%"><stop offset="0" stop-color="{_FELT}"/>'
            f'<stop offset="1" stop-color="{_FELT_DARK}"/></radialGradient>{_STYLE}{_BACK_SYMBOL}'
            + "".join(faces[key] for key in sorted(faces)) +
            '</defs>'
            f'<rect width="{width:g}" height="{height:g}" rx="12" fill="url(#felt)"/>'
            + "\n".join(body) + "\n" + "\n".join(tags) + "</svg>\n")
