"""Klondike: the rules engine, its variants and its notations.

>>> from cardtable.klondike import KlondikeGame, Move, Variant
>>> game = KlondikeGame.from_seed(42, Variant.preset("seed-002"))
>>> game.play(Move.parse("D"))
>>> len(game.waste)
1
"""

from cardtable.klondike.formats import load_start, read_deals, read_layout, write_layout
from cardtable.klondike.game import IllegalMoveError, KlondikeGame, KlondikeOutcome, counts_as_loss
from cardtable.klondike.moves import DRAW, FOUNDATION, RECYCLE, STOCK, WASTE, Move, MoveError
from cardtable.klondike.position import DealError, Position
from cardtable.klondike.record import KlondikeRecord, RecordError, ReplayError
from cardtable.klondike.render import render
from cardtable.klondike.variant import PRESETS, Scoring, Variant, VariantError
from cardtable.klondike.view import KlondikeView

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
