"""Klondike: the rules engine, its variants and its notations.

>>> from cardtable.klondike import KlondikeGame, Move, Variant
>>> game = KlondikeGame.from_seed(42, Variant.preset("seed-002"))
>>> game.play(Move.parse("D"))
>>> len(game.waste)
1
"""

from typing import TYPE_CHECKING, Any

# ``render`` is also the name of a module of the package: once that module is
# imported, the package's attribute would be the module, so the function is
# bound here, at once (it needs only the cards and the positions). Every
# other name is imported on first use (``__getattr__`` below).
from cardtable.klondike.render import render

if TYPE_CHECKING:
    from cardtable.klondike.formats import load_start, read_deals, read_layout, write_layout
    from cardtable.klondike.game import IllegalMoveError, KlondikeGame, KlondikeOutcome, counts_as_loss
    from cardtable.klondike.moves import DRAW, FOUNDATION, RECYCLE, STOCK, WASTE, Move, MoveError
    from cardtable.klondike.position import DealError, Position
    from cardtable.klondike.record import KlondikeRecord, RecordError, ReplayError
    from cardtable.klondike.variant import PRESETS, Scoring, Variant, VariantError
    from cardtable.klondike.view import KlondikeView

#: Where each name lives. A name is imported on first use, so importing one
#: module of the package (the variants, say) loads only that module and
#: what it needs, not the formats, records and rendering too.
_HOMES = {
    "load_start": "formats", "read_deals": "formats", "read_layout": "formats", "write_layout": "formats",
    "IllegalMoveError": "game", "KlondikeGame": "game", "KlondikeOutcome": "game", "counts_as_loss": "game",
    "DRAW": "moves", "FOUNDATION": "moves", "RECYCLE": "moves", "STOCK": "moves", "WASTE": "moves",
    "Move": "moves", "MoveError": "moves",
    "DealError": "position", "Position": "position",
    "KlondikeRecord": "record", "RecordError": "record", "ReplayError": "record",
    "PRESETS": "variant", "Scoring": "variant", "Variant": "variant", "VariantError": "variant",
    "KlondikeView": "view",
}

__all__ = [
    "DRAW",
    "FOUNDATION",
    "PRESETS",
    "RECYCLE",
    "STOCK",
    "WASTE",
    "DealError",
    "IllegalMoveError",
    "KlondikeGame",
    "KlondikeOutcome",
    "KlondikeRecord",
    "KlondikeView",
    "Move",
    "MoveError",
    "Position",
    "RecordError",
    "ReplayError",
    "Scoring",
    "Variant",
    "VariantError",
    "counts_as_loss",
    "load_start",
    "read_deals",
    "read_layout",
    "render",
    "write_layout",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
