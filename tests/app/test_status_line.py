"""The Klondike app's status line counts the passes through the stock as
the card table does: the pass under way of the rules' passes."""

from __future__ import annotations

from cardtable.app.status import StatusBar
from cardtable.klondike import DRAW, RECYCLE, KlondikeGame, Variant


def test_the_pass_through_the_stock_is_counted_from_one() -> None:
    game = KlondikeGame.from_seed(7, Variant.preset("vegas3"))  # draw 3, three passes
    status = StatusBar(game, lambda: 0.0)
    assert "Pass 1 of 3" in status.line() and "left" not in status.line()
    while game.stock:
        game.play(DRAW)
    game.play(RECYCLE)
    assert "Pass 2 of 3" in status.line()
    assert "Passes unlimited" in StatusBar(KlondikeGame.from_seed(7, Variant.preset("draw3")), lambda: 0.0).line()
