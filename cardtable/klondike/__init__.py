"""Klondike: the rules engine, its variants and its notations.

>>> from cardtable.klondike import KlondikeGame, Move, Variant
>>> game = KlondikeGame.from_seed(42, Variant.preset("seed-002"))
>>> game.play(Move.parse("D"))
>>> len(game.waste)
1
"""

from cardtable.klondike.formats import read_layout, write_layout
from cardtable.klondike.game import IllegalMoveError, KlondikeGame, Outcome
from cardtable.klondike.moves import DRAW, FOUNDATION, RECYCLE, STOCK, WASTE, Move, MoveError
from cardtable.klondike.position import DealError, Position
from cardtable.klondike.record import GameRecord, RecordError, ReplayError
from cardtable.klondike.render import render
from cardtable.klondike.variant import PRESETS, Scoring, Variant, VariantError

__all__ = [
    "DRAW",
    "FOUNDATION",
    "PRESETS",
    "RECYCLE",
    "STOCK",
    "WASTE",
    "DealError",
    "GameRecord",
    "IllegalMoveError",
    "KlondikeGame",
    "Move",
    "MoveError",
    "Outcome",
    "Position",
    "RecordError",
    "ReplayError",
    "Scoring",
    "Variant",
    "VariantError",
    "read_layout",
    "render",
    "write_layout",
]
