"""Kings Corner as a PettingZoo AEC environment, for 2 to 6 players.

::

    from cardtable.envs.kings_corner import env

    table = env(num_players=3)
    table.reset(seed=42)
    for agent in table.agent_iter():
        observation, reward, terminated, truncated, info = table.last()
        if terminated or truncated:
            action = None
        else:
            action = table.action_space(agent).sample(observation["action_mask"])
        table.step(action)

It follows PettingZoo's conventions: :func:`env` (also
:func:`kings_corner_env`) gives the environment, :func:`raw_env` the
unwrapped :class:`KingsCornerEnv`; agents are ``player_0`` .. ``player_{n-1}``
(seat order, ``player_0`` deals first); ``observation_space(agent)`` is a
:class:`~gymnasium.spaces.Dict` of ``"observation"`` and ``"action_mask"``.
The environment is a thin client of
:class:`~cardtable.kings_corner.KingsCornerGame`: it numbers the actions and
encodes each seat's :class:`~cardtable.kings_corner.KingsCornerView`.

Turns
-----
The seat to move acts again and again (playing cards, moving piles) until it
ends its turn with ``draw`` (or ``pass`` once the deck is empty), so
``agent_selection`` stays on one agent for several steps. For the same
reason the environment is not parallelizable (``metadata["is_parallelizable"]``
is False): PettingZoo's ``aec_to_parallel`` needs every live agent to act
exactly once per cycle, in a fixed order, and a Kings Corner turn is a
variable number of actions by one seat while the others have none, so
``parallel_api_test`` does not apply.

Actions
-------
A fixed :class:`~gymnasium.spaces.Discrete` space of :data:`ACTION_COUNT`
(446) actions with stable indices (:func:`action_table` lists them)::

    index      action                          notation
    0..415     play card c on pile p           play 7h N        8 * c + p
    416..443   move regular pile s onto t      move W E         416 + 7s + t'
    444        end the turn by drawing         draw
    445        end the turn, deck empty        pass

``c`` is ``card.index`` (clubs A..K = 0..12, diamonds, hearts, spades), ``p``
and ``t`` are :class:`~cardtable.kings_corner.PilePosition` values (N E S W
NE SE SW NW = 0..7), ``s`` a regular pile (N E S W = 0..3) and ``t'`` the
target's place among the seven other piles. The mask marks exactly the
engine's :meth:`~cardtable.kings_corner.KingsCornerGame.legal_actions` for
the agent to move (all zeros for the others); an illegal action raises
:class:`~cardtable.kings_corner.IllegalActionError`.

Observations
------------
``"observation"`` is :data:`OBSERVATION_SIZE` (155) ``int8`` values encoded
from the seat's view only: its own hand, the piles, the hand sizes and the
deck count; never another hand or the deck order. Cards are coded
``1 + card.index`` (0: no card). :data:`OBSERVATION_LAYOUT`::

    offset  size  field          what
    0       41    hand           the seat's cards, in the order received
    41      104   piles          pile p (N E S W NE SE SW NW) at 41 + 13p, bottom first
    145     6     hand_sizes     cards held, this seat first, then the seats after it (0: no seat)
    151     1     deck           cards left in the deck
    152     1     turn_actions   actions already taken in this turn (0 when not moving)
    153     1     players        players at the table
    154     1     seat           this seat (0-based)

Rewards and ends
----------------
Rewards come when the hand ends (every agent is then terminated):
``reward="penalty"`` (the default) gives each seat minus its penalty points
(the game's :meth:`~cardtable.kings_corner.KingsCornerGame.returns`: 0 for the
winner), ``"win"`` gives 1 to the seat that emptied its hand and 0 to the
others (0 to all on a stalemate). Every hand ends by the rules; ``max_steps``
(default ``None``: no limit) truncates it after that many actions.

``reset(seed=...)`` deals from the environment's generator (same seed, same
hand); ``options={"deal_seed": N}`` deals cardtable's hand ``N``
(``KingsCornerGame.from_seed(players, N)``). Other option keys are ignored,
as PettingZoo's API test requires.

>>> table = raw_env(num_players=2)
>>> table.reset(options={"deal_seed": 5})
>>> observation = table.observe(table.agent_selection)
>>> observation["observation"].shape, int(observation["action_mask"].sum()) == len(table.game.legal_actions())
((155,), True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, SupportsInt

import numpy as np
from gymnasium import spaces

from cardtable.cards import Card, new_deck
from cardtable.envs._deps import require
from cardtable.envs._settings import check_settings
from cardtable.errors import RulesError
from cardtable.kings_corner.actions import DRAW, PASS, Action, MovePile, PlayCard
from cardtable.kings_corner.errors import IllegalActionError
from cardtable.kings_corner.game import MAX_PLAYERS, MIN_PLAYERS, KingsCornerGame, KingsCornerView
from cardtable.kings_corner.render import describe_action, table_text
from cardtable.kings_corner.table import REGULAR, PilePosition

require("pettingzoo")

from pettingzoo import AECEnv  # type: ignore[import-untyped]  # noqa: E402  (after the check above)
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]  # noqa: E402

__all__ = [
    "ACTION_COUNT",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "REWARDS",
    "KingsCornerEnv",
    "action_index",
    "action_of",
    "action_table",
    "decode_observation",
    "encode_view",
    "env",
    "kings_corner_env",
    "raw_env",
]

# ----- actions ---------------------------------------------------------------------------------

_ACTIONS: tuple[Action, ...] = (
    *(PlayCard(card, position) for card in new_deck() for position in PilePosition),
    *(MovePile(source, target) for source in REGULAR for target in PilePosition if target != source),
    DRAW,
    PASS,
)
#: How many actions the space holds.
ACTION_COUNT = len(_ACTIONS)
_INDEX: dict[Action, int] = {action: index for index, action in enumerate(_ACTIONS)}


def action_table() -> list[str]:
    """Every action's notation, by index.

    >>> table = action_table()
    >>> len(table), table[0], table[416], table[444], table[445]
    (446, 'play Ac N', 'move N E', 'draw', 'pass')
    """
    return [str(action) for action in _ACTIONS]


def action_of(index: SupportsInt) -> Action:
    """The action of an index; out of range raises :class:`~cardtable.errors.RulesError`."""
    i = int(index)
    if not 0 <= i < ACTION_COUNT:
        raise RulesError(f"action {i} is out of range: Kings Corner actions are 0..{ACTION_COUNT - 1}")
    return _ACTIONS[i]


def action_index(action: Action) -> int:
    """The index of an action (one a game could offer)."""
    try:
        return _INDEX[action]
    except KeyError:
        raise IllegalActionError(f"'{action}' is never a legal action: corners never move") from None


def _mask_of(actions: list[Action]) -> np.ndarray:
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    if actions:
        mask[[_INDEX[action] for action in actions]] = 1
    return mask


# ----- observations ------------------------------------------------------------------------------

_HAND_SLOTS = 52 - 4 - 7  # all but the four first pile cards and another player's hand
_PILE_SLOTS = 13

#: The observation's fields: name -> (offset, size), in order.
OBSERVATION_LAYOUT: dict[str, tuple[int, int]] = {
    "hand": (0, _HAND_SLOTS),
    "piles": (41, 8 * _PILE_SLOTS),
    "hand_sizes": (145, MAX_PLAYERS),
    "deck": (151, 1),
    "turn_actions": (152, 1),
    "players": (153, 1),
    "seat": (154, 1),
}
#: The length of an observation.
OBSERVATION_SIZE = 155
_HAND, _PILES, _SIZES, _DECK, _TURN, _PLAYERS, _SEAT = (offset for offset, _ in OBSERVATION_LAYOUT.values())
_CAP = 127


def _bounds() -> tuple[np.ndarray, np.ndarray]:
    low = np.zeros(OBSERVATION_SIZE, dtype=np.int8)
    high = np.zeros(OBSERVATION_SIZE, dtype=np.int8)
    high[_HAND:_SIZES] = 52
    high[_SIZES:_DECK] = 52
    high[_DECK] = 52
    high[_TURN] = _CAP
    low[_PLAYERS], high[_PLAYERS] = MIN_PLAYERS, MAX_PLAYERS
    high[_SEAT] = MAX_PLAYERS - 1
    return low, high


def encode_view(view: KingsCornerView) -> np.ndarray:
    """The observation of a seat's view (see the module documentation)."""
    buf = [0] * OBSERVATION_SIZE
    hand = view.hand
    buf[_HAND:_HAND + len(hand)] = [card.index + 1 for card in hand]
    for position, pile in enumerate(view.piles):
        if pile:
            start = _PILES + position * _PILE_SLOTS
            buf[start:start + len(pile)] = [card.index + 1 for card in pile]
    sizes = view.hand_sizes
    count = len(sizes)
    buf[_SIZES:_SIZES + count] = [sizes[(view.player + k) % count] for k in range(count)]
    buf[_DECK] = view.deck_count
    buf[_TURN] = min(view.turn_actions, _CAP)
    buf[_PLAYERS] = count
    buf[_SEAT] = view.player
    return np.array(buf, dtype=np.int8)


def decode_observation(observation: np.ndarray) -> KingsCornerView:
    """The seat's view that :func:`encode_view` encoded.

    >>> game = KingsCornerGame.from_seed(players=3, seed=8)
    >>> decode_observation(encode_view(game.view(1))) == game.view(1)
    True
    """
    values = [int(v) for v in np.asarray(observation).reshape(-1)]
    if len(values) != OBSERVATION_SIZE:
        raise RulesError(f"a Kings Corner observation has {OBSERVATION_SIZE} values, not {len(values)}")

    def cards(codes: list[int]) -> tuple[Card, ...]:
        return tuple(Card.from_index(code - 1) for code in codes if code)

    count, seat = values[_PLAYERS], values[_SEAT]
    if not MIN_PLAYERS <= count <= MAX_PLAYERS or not 0 <= seat < count:
        raise RulesError(f"not a Kings Corner observation: {count} players, seat {seat}")
    relative = values[_SIZES:_SIZES + count]
    return KingsCornerView(
        player=seat,
        hand=cards(values[_HAND:_PILES]),
        piles=tuple(cards(values[_PILES + p * _PILE_SLOTS:_PILES + (p + 1) * _PILE_SLOTS]) for p in range(8)),
        hand_sizes=tuple(relative[(s - seat) % count] for s in range(count)),
        deck_count=values[_DECK],
        turn_actions=values[_TURN],
    )


# ----- the environment -----------------------------------------------------------------------------

#: The reward choices.
REWARDS = ("penalty", "win")


class KingsCornerEnv(AECEnv):
    """One hand of Kings Corner per episode (see the module documentation).

    ``num_players`` seats 2 to 6 agents; ``reward`` is one of :data:`REWARDS`;
    ``max_steps`` (``None``: no limit) truncates a hand after that many
    actions; ``render_mode="ansi"`` makes :meth:`render` return the table
    and the last action as text.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "render_modes": ["ansi"],
        "name": "cardtable_kings_corner_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, num_players: int = 4, reward: str = "penalty", *, max_steps: int | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if type(num_players) is not int or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
            raise RulesError(f"Kings Corner is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {num_players!r}")
        check_settings(reward, REWARDS, render_mode, self.metadata["render_modes"])
        if max_steps is not None and (type(max_steps) is not int or max_steps < 1):
            raise RulesError(f"max_steps must be a whole number >= 1 or None, not {max_steps!r}")
        self.num_players = num_players
        self.reward_kind = reward
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        low, high = _bounds()
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(low, high, dtype=np.int8),
                "action_mask": spaces.Box(0, 1, (ACTION_COUNT,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(ACTION_COUNT) for agent in self.possible_agents}
        self._rng = np.random.default_rng()
        #: The hand being played (the referee's copy: it knows every card).
        self.game = KingsCornerGame.from_seed(num_players, 0)
        #: The cardtable deal number of the current hand.
        self.deal_seed = 0
        self._steps = 0
        self._last: tuple[int, Action] | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The Dict space of ``agent``'s observations (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The Discrete space of ``agent``'s actions (the same object every time)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand; ``seed`` reseeds the dealing, ``options={"deal_seed": N}`` picks the hand."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        options = options or {}
        if "deal_seed" in options:
            number = options["deal_seed"]
            if isinstance(number, bool) or not isinstance(number, int | np.integer) or not 0 <= number < 2**64:
                raise RulesError(f"'deal_seed' must be a whole number from 0 to 2**64-1, not {number!r}")
            self.deal_seed = int(number)
        else:
            self.deal_seed = int(self._rng.integers(0, 2**63))
        self.game = KingsCornerGame.from_seed(self.num_players, self.deal_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[self.game.turn]
        self._steps = 0
        self._last = None

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation and action mask (zeros unless it is to move)."""
        seat = self.possible_agents.index(agent)
        game = self.game
        moving = game.current_player() == seat
        return {
            "observation": encode_view(game.view(seat)),
            "action_mask": _mask_of(game.legal_actions()) if moving else np.zeros(ACTION_COUNT, dtype=np.int8),
        }

    def step(self, action: SupportsInt | None) -> None:
        """Take ``action`` for ``agent_selection`` (``None`` once it is terminated or truncated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} is to move and must act: None is only for a finished agent")
        game = self.game
        seat = game.turn
        move = action_of(action)
        game.play(move)  # an illegal action raises, saying why, and changes nothing
        self._last = (seat, move)
        self._steps += 1
        self._cumulative_rewards[agent] = 0.0
        outcome = game.outcome()
        if outcome is not None:
            if self.reward_kind == "penalty":
                results = game.returns()
            else:
                results = tuple(1.0 if outcome.winner == s else 0.0 for s in range(self.num_players))
            self.rewards = {a: float(results[s]) for s, a in enumerate(self.possible_agents)}
            self.terminations = dict.fromkeys(self.agents, True)
            for s, a in enumerate(self.possible_agents):
                self.infos[a] = {"winner": outcome.winner, "penalty": outcome.penalties[s]}
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            if self.max_steps is not None and self._steps >= self.max_steps:
                self.truncations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.possible_agents[game.turn]
        self._accumulate_rewards()

    def view(self, agent: str | None = None) -> KingsCornerView:
        """What ``agent`` (default: ``agent_selection``) sees."""
        return self.game.view(self.possible_agents.index(agent or self.agent_selection))

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the piles, the deck, the hand sizes and the last action."""
        if self.render_mode != "ansi":
            return None
        game = self.game
        sizes = "  ".join(f"player_{s}: {n}" for s, n in enumerate(game.hand_sizes))
        lines = [table_text(game.piles, game.deck_count, unicode=False), "", f"hands  {sizes}"]
        if self._last is not None:
            lines.append(describe_action(self._last[1], f"player_{self._last[0]}", unicode=False))
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""


def raw_env(num_players: int = 4, reward: str = "penalty", *, max_steps: int | None = None,
            render_mode: str | None = None) -> KingsCornerEnv:
    """The unwrapped environment (PettingZoo's ``raw_env`` convention)."""
    return KingsCornerEnv(num_players, reward, max_steps=max_steps, render_mode=render_mode)


def env(num_players: int = 4, reward: str = "penalty", *, max_steps: int | None = None,
        render_mode: str | None = None) -> Any:
    """The environment with PettingZoo's usual checks: actions must be in
    range and steps come in order (PettingZoo's ``env()`` convention)."""
    wrapped = wrappers.AssertOutOfBoundsWrapper(raw_env(num_players, reward, max_steps=max_steps,
                                                        render_mode=render_mode))
    return wrappers.OrderEnforcingWrapper(wrapped)


#: The same as :func:`env`.
kings_corner_env: Callable[..., Any] = env
