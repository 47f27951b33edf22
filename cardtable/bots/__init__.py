"""Klondike players: bots that see only what a player at the table sees.

>>> from cardtable.bots import make_player
>>> make_player("priority").name
'priority'
"""

from __future__ import annotations

from cardtable.bots.base import KlondikeBot
from cardtable.bots.priority import PriorityPlayer, play_priority_game
from cardtable.bots.simple import GreedyPlayer, RandomPlayer
from cardtable.bots.turns import TurnsPlayer
from cardtable.errors import RulesError
from cardtable.klondike.view import KlondikeView

__all__ = [
    "STRATEGIES",
    "GreedyPlayer",
    "KlondikeBot",
    "KlondikeView",
    "PriorityPlayer",
    "RandomPlayer",
    "TurnsPlayer",
    "make_player",
    "play_priority_game",
]

#: The strategies by command-line name.
STRATEGIES: dict[str, type[KlondikeBot]] = {
    cls.name: cls for cls in (PriorityPlayer, TurnsPlayer, GreedyPlayer, RandomPlayer)
}

#: The variant each strategy was written for (``cardtable simulate`` plays it
#: unless told otherwise).
HOME_VARIANTS: dict[str, str] = {"priority": "seed-002", "turns": "seed-000", "greedy": "draw1", "random": "draw1"}


def make_player(name: str) -> KlondikeBot:
    """A new player of the named strategy."""
    try:
        return STRATEGIES[name]()
    except KeyError:
        raise RulesError(f"unknown strategy {name!r}; known: {', '.join(STRATEGIES)}") from None
