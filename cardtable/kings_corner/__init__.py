"""Kings Corner: the multiplayer shedding game of seed 003, for 2 to 6 players.

The rules engine (:mod:`.table`, :mod:`.actions`, :mod:`.game`) does no I/O.
Records (:mod:`.record`) and text rendering (:mod:`.render`) are clients of
it, and so is the table (:mod:`.session`: the seats, the hands of a match and
their scores, with the one rule that deals the hands and seeds the bots). Its
players (:mod:`cardtable.bots.kings_corner`), its matches
(:mod:`cardtable.sim.match`) and the faces outside the library, the terminal
app (:mod:`cardtable.app.kings_corner`), the command line
(:mod:`cardtable.cli.kings_corner`) and its human seat
(:mod:`cardtable.cli.kings_corner_seat`), all sit at that table.

>>> from cardtable.bots.kings_corner import make_bot
>>> game = KingsCornerGame.from_seed(players=3, seed=42)
>>> bots = [make_bot("greedy"), make_bot("strategic"), make_bot("random", seed=1)]
>>> while not game.is_over():
...     game.play(bots[game.turn].choose(game.view()))
>>> sum(game.hand_sizes) + sum(map(len, game.piles)) + game.deck_count
52
"""

from cardtable.kings_corner.actions import (
    DRAW,
    PASS,
    Action,
    Draw,
    MovePile,
    Pass,
    PlayCard,
    parse_action,
)
from cardtable.kings_corner.errors import (
    ActionNotationError,
    DeckError,
    IllegalActionError,
    KingsCornerError,
    RecordError,
    TableError,
)
from cardtable.kings_corner.game import HandOutcome, KingsCornerGame, KingsCornerView
from cardtable.kings_corner.record import HandRecord
from cardtable.kings_corner.session import KingsCornerSession, MatchScore
from cardtable.kings_corner.table import (
    CORNERS,
    REGULAR,
    Deck,
    Pile,
    PilePosition,
    Player,
    penalty_points,
)

__all__ = [
    "CORNERS",
    "DRAW",
    "PASS",
    "REGULAR",
    "Action",
    "ActionNotationError",
    "Deck",
    "DeckError",
    "Draw",
    "HandOutcome",
    "HandRecord",
    "IllegalActionError",
    "KingsCornerError",
    "KingsCornerGame",
    "KingsCornerSession",
    "KingsCornerView",
    "MatchScore",
    "MovePile",
    "Pass",
    "Pile",
    "PilePosition",
    "PlayCard",
    "Player",
    "RecordError",
    "TableError",
    "parse_action",
    "penalty_points",
]
