"""Klondike players: bots that see only what a player at the table sees.

>>> from cardtable.bots.klondike import make_player
>>> make_player("priority").name
'priority'
"""

from __future__ import annotations

from cardtable.bots import StrategyResolvers, _policies_need_the_environments, is_policy_name
from cardtable.bots.klondike.base import KlondikeBot
from cardtable.bots.klondike.priority import PriorityPlayer, play_priority_game
from cardtable.bots.klondike.simple import GreedyPlayer, RandomPlayer
from cardtable.bots.klondike.turns import TurnsPlayer
from cardtable.errors import RulesError
from cardtable.klondike.view import KlondikeView

__all__ = [
    "RESOLVERS",
    "STRATEGIES",
    "GreedyPlayer",
    "KlondikeBot",
    "KlondikeView",
    "PriorityPlayer",
    "RandomPlayer",
    "TurnsPlayer",
    "make_player",
    "parse_strategy",
    "play_priority_game",
    "strategy_name",
]

#: The strategies by command-line name.
STRATEGIES: dict[str, type[KlondikeBot]] = {
    cls.name: cls for cls in (PriorityPlayer, TurnsPlayer, GreedyPlayer, RandomPlayer)
}

#: The variant each strategy was written for (``cardtable simulate`` plays it
#: unless told otherwise).
HOME_VARIANTS: dict[str, str] = {"priority": "seed-002", "turns": "seed-000", "greedy": "draw1", "random": "draw1"}

#: The players of names that are not in :data:`STRATEGIES`, such as policies
#: (importing :mod:`cardtable.envs` registers them).
RESOLVERS: StrategyResolvers[KlondikeBot] = StrategyResolvers("klondike")


def make_player(name: str) -> KlondikeBot:
    """A new player of the named strategy, or of a name a resolver in
    :data:`RESOLVERS` accepts: a policy written for the environments, named
    ``module.path:attribute``, once :mod:`cardtable.envs` is imported (see
    :mod:`cardtable.envs.agents`, which needs ``pip install "cardtable[rl]"``).

    A strategy's options follow its name, separated by spaces
    (:func:`parse_strategy`):

    >>> make_player("expert samples=16 states=2000").samples
    16
    """
    if is_policy_name(name) or strategy_name(name) not in STRATEGIES:
        player = RESOLVERS.resolve(name)
        if player is not None:
            return player
        if is_policy_name(name):
            raise RulesError(_policies_need_the_environments("strategy", name))
    base, options = parse_strategy(name)
    return STRATEGIES[base](**options)


def parse_strategy(text: str) -> tuple[str, dict[str, object]]:
    """The strategy name and the constructor arguments of a strategy string:
    a name from :data:`STRATEGIES`, then ``option=value`` words that the
    strategy's :attr:`~KlondikeBot.options` list. Raises :class:`RulesError`
    naming what is wrong.

    >>> parse_strategy("expert samples=64 seconds=0.5")
    ('expert', {'samples': 64, 'seconds': 0.5})
    >>> parse_strategy("greedy samples=3")
    Traceback (most recent call last):
    ...
    cardtable.errors.RulesError: strategy 'greedy' takes no options, but 'samples=3' was given
    """
    if not text.split():
        raise RulesError(f"a strategy needs a name, not {text!r}; known: {', '.join(STRATEGIES)}")
    base, *words = text.split()
    if base not in STRATEGIES:
        raise RulesError(f"unknown strategy {base!r}; known: {', '.join(STRATEGIES)}")
    known = STRATEGIES[base].options
    options: dict[str, object] = {}
    for word in words:
        key, equals, value = word.partition("=")
        if not known:
            raise RulesError(f"strategy {base!r} takes no options, but {word!r} was given")
        if key not in known or not equals:
            raise RulesError(f"strategy {base!r}: {word!r} is not an option; give option=value with one of "
                             f"{', '.join(known)}")
        argument, kind, _ = known[key]
        try:
            options[argument] = kind(value)
        except ValueError:
            what = "a whole number" if kind is int else "a number"
            raise RulesError(f"strategy {base!r}: option {key} needs {what}, not {value!r}") from None
    return base, options


def strategy_name(text: str) -> str:
    """The strategy's name alone, without its options."""
    words = text.split()
    return words[0] if words else text


# The expert plays the greedy move when its guesses fail, so it is registered
# once the others are.
from cardtable.bots.klondike.expert import ExpertPlayer  # noqa: E402

STRATEGIES[ExpertPlayer.name] = ExpertPlayer
HOME_VARIANTS[ExpertPlayer.name] = "thoughtful3"
