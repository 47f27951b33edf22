"""Kings Corner: the multiplayer shedding game of seed 003, for 2 to 6 players.

The rules engine (:mod:`.table`, :mod:`.actions`, :mod:`.game`) does no I/O.
Records (:mod:`.record`), bots (:mod:`.bots`), matches (:mod:`.match`), text
rendering (:mod:`.render`), the human seat (:mod:`.play`) and the command line
(:mod:`.cli`) are clients of it.

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
from cardtable.kings_corner.bots import BOTS, Bot, GreedyBot, RandomBot, StrategicBot, make_bot
from cardtable.kings_corner.errors import (
    DeckError,
    IllegalActionError,
    KingsCornerError,
    RecordError,
)
from cardtable.kings_corner.game import KingsCornerGame, Outcome, PlayerView
from cardtable.kings_corner.record import GameRecord
from cardtable.kings_corner.table import (
    CORNERS,
    REGULAR,
    Deck,
    Pile,
    Player,
    Position,
    penalty_points,
)

__all__ = [
    "BOTS",
    "CORNERS",
    "DRAW",
    "PASS",
    "REGULAR",
    "Action",
    "Bot",
    "Deck",
    "DeckError",
    "Draw",
    "GameRecord",
    "GreedyBot",
    "IllegalActionError",
    "KingsCornerError",
    "KingsCornerGame",
    "MovePile",
    "Outcome",
    "Pass",
    "Pile",
    "PlayCard",
    "Player",
    "PlayerView",
    "Position",
    "RandomBot",
    "RecordError",
    "StrategicBot",
    "make_bot",
    "parse_action",
    "penalty_points",
]
