"""Klondike players: bots that see only what a player at the table sees.

>>> from cardtable.bots import make_player
>>> make_player("priority").name
'priority'
"""

from __future__ import annotations

import importlib
from types import ModuleType

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
    """A new player of the named strategy, or of a policy written for the
    environments, named ``module.path:attribute`` (see
    :mod:`cardtable.envs.agents`, which needs ``pip install "cardtable[rl]"``)."""
    if ":" in name:
        return _env_adapter(name).klondike_player(name)
    try:
        return STRATEGIES[name]()
    except KeyError:
        raise RulesError(f"unknown strategy {name!r}; known: {', '.join(STRATEGIES)}") from None


def _env_adapter(name: str) -> ModuleType:
    """The environments' adapter module, loaded by name only when a policy is
    asked for: the library never depends on the environments otherwise."""
    try:
        return importlib.import_module("cardtable.envs.agents")
    except ImportError as error:
        raise RulesError(f"strategy {name!r} is a policy, and policies need the environments: {error}") from None


# The expert plays the greedy move when its guesses fail, so it is registered
# once the others are.
from cardtable.bots.expert import ExpertPlayer  # noqa: E402

STRATEGIES[ExpertPlayer.name] = ExpertPlayer
HOME_VARIANTS[ExpertPlayer.name] = "thoughtful3"
