"""Bots: players that choose Kings Corner actions from a :class:`KingsCornerView`.

A bot sees only what its seat would see at the table (its own hand, the piles,
the other players' hand sizes and the deck count) and is asked for one action
at a time until it ends its turn with ``draw`` or ``pass``. Seeded randomness
comes from :class:`~cardtable.cards.SplitMix64`, so results never depend on
Python's :mod:`random`.

- ``random``: any legal action, uniformly (ending the turn included).
- ``greedy``: the seed authors' AI: move a pile when it can, else play the
  first card of its hand that fits somewhere, repeat, then draw.
- ``strategic``: plans the whole turn (see :mod:`~cardtable.bots.kings_corner.strategic`).
- ``expert``: plans the turn, then checks its best plans on guessed deals
  (see :mod:`~cardtable.bots.kings_corner.expert`).
"""

from __future__ import annotations

from collections.abc import Callable

from cardtable.bots import StrategyResolvers, _policies_need_the_environments, is_policy_name
from cardtable.bots.kings_corner.strategic import StrategicBot
from cardtable.cards import SplitMix64
from cardtable.game import Agent
from cardtable.kings_corner.actions import Action, MovePile, PlayCard
from cardtable.kings_corner.errors import TableError
from cardtable.kings_corner.game import KingsCornerView

__all__ = ["BOTS", "RESOLVERS", "Bot", "GreedyBot", "RandomBot", "StrategicBot", "make_bot"]


#: A Kings Corner bot: a :class:`cardtable.game.Agent` of this game's views and actions.
Bot = Agent[KingsCornerView, Action]


class RandomBot:
    """Picks uniformly among the legal actions, ending the turn included."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = SplitMix64(seed)

    def new_game(self, seed: int = 0) -> None:
        """Reseed the bot's choices."""
        self._rng = SplitMix64(seed)

    def choose(self, view: KingsCornerView) -> Action:
        """A uniformly drawn legal action."""
        actions = view.legal_actions()
        return actions[self._rng.below(len(actions))]


class GreedyBot:
    """The seed authors' AI: pile moves first, then the first card that fits, then draw."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        del seed  # deterministic

    def new_game(self, seed: int = 0) -> None:
        """Nothing to forget: the bot is deterministic."""

    def choose(self, view: KingsCornerView) -> Action:
        """The first pile move, else the first card play, else the end of the turn."""
        actions = view.legal_actions()
        for action in actions:
            if isinstance(action, MovePile):
                return action
        for action in actions:
            if isinstance(action, PlayCard):
                return action
        return actions[-1]


#: Bot factories by name; each takes a seed.
BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "strategic": StrategicBot,
}

#: The bots of names that are not in :data:`BOTS`, such as policies (importing
#: :mod:`cardtable.envs` registers them).
RESOLVERS: StrategyResolvers[Bot] = StrategyResolvers("kings-corner")


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name (``random``, ``greedy``, ``strategic``, ``expert``), or
    of a name a resolver in :data:`RESOLVERS` accepts; raises
    :class:`TableError` for an unknown name. A policy written for the
    environments is named ``module.path:attribute``, and resolved once
    :mod:`cardtable.envs` is imported (see :mod:`cardtable.envs.agents`, which
    needs ``pip install "cardtable[rl]"``)."""
    if is_policy_name(name) or name.strip().lower() not in BOTS:
        bot = RESOLVERS.resolve(name, seed)
        if bot is not None:
            return bot
        if is_policy_name(name):
            raise TableError(_policies_need_the_environments("bot", name))
    try:
        factory = BOTS[name.strip().lower()]
    except KeyError:
        raise TableError(
            f"unknown bot {name!r}: choose from {', '.join(sorted(BOTS))}"
        ) from None
    return factory(seed)


# The expert builds on the strategic search and plays guessed deals out the greedy
# way, so it is registered once both exist.
from cardtable.bots.kings_corner.expert import ExpertBot  # noqa: E402

BOTS["expert"] = ExpertBot
