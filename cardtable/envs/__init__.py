"""Reinforcement-learning environments: every patience game and Klondike for Gymnasium, Kings Corner for PettingZoo.

They need the ``rl`` extras (``pip install "cardtable[rl]"``: Gymnasium and
PettingZoo); the rest of cardtable never imports them. Importing this package
registers ``cardtable/Klondike-v0`` and ``cardtable/Patience-v0`` (any game of
the registry, ``game="freecell"``) with Gymnasium, and policies named
``module.path:attribute`` as strategies of both games (in
:data:`cardtable.bots.klondike.RESOLVERS` and
:data:`cardtable.bots.kings_corner.RESOLVERS`, so that
:func:`~cardtable.bots.klondike.make_player` and
:func:`~cardtable.bots.kings_corner.make_bot` play them)::

    import gymnasium as gym
    import cardtable.envs  # registers cardtable/Klondike-v0

    env = gym.make("cardtable/Klondike-v0", variant="seed-002", reward="vegas")
    spider = gym.make("cardtable/Patience-v0", game="spider-2-suits")
    envs = gym.make_vec("cardtable/Klondike-v0", num_envs=8, vectorization_mode="sync")

    from cardtable.envs import kings_corner_env
    table = kings_corner_env(num_players=3)  # a PettingZoo AEC environment

- :mod:`cardtable.envs.klondike`: :class:`KlondikeEnv`, its action table and
  observation encoding;
- :mod:`cardtable.envs.patience`: :class:`PatienceEnv`, any patience game,
  its action table and observation built from the game's description;
- :mod:`cardtable.envs.kings_corner`: :func:`kings_corner_env` (``env()``),
  :class:`KingsCornerEnv` (``raw_env``);
- :mod:`cardtable.envs.agents`: cardtable bots as environment policies, and
  environment policies as cardtable strategies.

The environments are thin clients of the rules engines
(:class:`~cardtable.klondike.KlondikeGame`,
:class:`~cardtable.patience.PatienceGame`,
:class:`~cardtable.kings_corner.KingsCornerGame`): observations are encoded
from a player's view, never from the hidden cards.
"""

from __future__ import annotations

from typing import Any

from cardtable.bots import is_policy_name
from cardtable.bots.kings_corner import RESOLVERS as _KINGS_CORNER_RESOLVERS
from cardtable.bots.kings_corner import Bot
from cardtable.bots.klondike import RESOLVERS as _KLONDIKE_RESOLVERS
from cardtable.bots.klondike import KlondikeBot
from cardtable.envs._deps import INSTALL_HINT, require

require("gymnasium")

import gymnasium  # noqa: E402  (after the check that says how to install it)

from cardtable.envs.klondike import (  # noqa: E402
    ACTION_COUNT,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    REWARDS,
    STOP,
    KlondikeEnv,
    action_index,
    action_move,
    action_table,
    decode_observation,
    encode_view,
)
from cardtable.envs.patience import PatienceEnv  # noqa: E402

__all__ = [
    "ACTION_COUNT",
    "INSTALL_HINT",
    "KLONDIKE_ID",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "PATIENCE_ID",
    "REWARDS",
    "STOP",
    "KingsCornerEnv",
    "KlondikeEnv",
    "PatienceEnv",
    "action_index",
    "action_move",
    "action_table",
    "decode_observation",
    "encode_view",
    "kings_corner_env",
]

#: The Gymnasium id of the Klondike environment.
KLONDIKE_ID = "cardtable/Klondike-v0"

if KLONDIKE_ID not in gymnasium.registry:
    gymnasium.register(id=KLONDIKE_ID, entry_point="cardtable.envs.klondike:KlondikeEnv")

#: The Gymnasium id of the environment of every patience game (``game=`` names it).
PATIENCE_ID = "cardtable/Patience-v0"

if PATIENCE_ID not in gymnasium.registry:
    gymnasium.register(id=PATIENCE_ID, entry_point="cardtable.envs.patience:PatienceEnv")


# Policies as strategies. The adapters are imported when a policy is asked
# for: they need PettingZoo, which Klondike's environment alone does not.
def _klondike_policy_player(name: str, seed: int) -> KlondikeBot:
    from cardtable.envs.agents import klondike_player

    return klondike_player(name, seed)


def _kings_corner_policy_bot(name: str, seed: int) -> Bot:
    from cardtable.envs.agents import kings_corner_bot

    return kings_corner_bot(name, seed)


_KLONDIKE_RESOLVERS.register(is_policy_name, _klondike_policy_player)
_KINGS_CORNER_RESOLVERS.register(is_policy_name, _kings_corner_policy_bot)


def __getattr__(name: str) -> Any:
    # Kings Corner needs PettingZoo: import it only when asked for.
    if name in ("KingsCornerEnv", "kings_corner_env"):
        from cardtable.envs import kings_corner

        return getattr(kings_corner, name)
    raise AttributeError(f"module 'cardtable.envs' has no attribute {name!r}")
