"""Bots as environment policies, and environment policies as cardtable strategies.

A *policy* is what a learner produces: a callable taking an observation and
its action mask and returning an action index, ``policy(observation,
action_mask) -> int`` (for Kings Corner, ``observation`` is the
``"observation"`` array of the observation dict). This module converts both
ways, through the environments' own encoding, so nothing sees more than the
player at the table:

- :func:`klondike_policy` and :func:`kings_corner_policy` turn a cardtable bot
  into a policy. The bot is shown the view decoded from the observation
  (:func:`cardtable.envs.klondike.decode_observation`), which holds only what
  the observation holds.
- :class:`PolicyPlayer` (Klondike) and :class:`PolicyBot` (Kings Corner) turn
  a policy into a cardtable player: the view is encoded as the environment
  would encode it, and the chosen index is played.
- :func:`evaluate` (Gymnasium) and :func:`evaluate_table` (PettingZoo) play
  policies through an environment and return what each episode paid.
- :func:`klondike_player` and :func:`kings_corner_bot` load a policy named
  ``module.path:attribute``; :mod:`cardtable.envs` registers them with the
  games' strategy resolvers when imported, so
  :func:`cardtable.bots.klondike.make_player` and
  :func:`cardtable.bots.kings_corner.make_bot` send such names here, and
  ``cardtable simulate --strategy mypkg.policies:best`` and ``cardtable
  kings-corner match --players mypkg.policies:best,greedy`` play a policy.
  The attribute is a policy, a callable that takes no arguments (or only
  ``seed``) and returns one, or a ready cardtable player.

>>> import gymnasium as gym
>>> from cardtable.bots.klondike import make_player
>>> env = gym.make("cardtable/Klondike-v0", variant="seed-002", allow_stop=True)
>>> policy = klondike_policy(make_player("priority"), "seed-002")
>>> returns = evaluate(env, policy, episodes=3, seed=1)
>>> len(returns), all(r >= 0 for r in returns)
(3, True)
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from cardtable.bots.klondike.base import KlondikeBot
from cardtable.envs import kings_corner as _kc
from cardtable.envs import klondike as _kl
from cardtable.errors import IllegalMoveError, RulesError
from cardtable.game import Agent
from cardtable.kings_corner.actions import Action
from cardtable.kings_corner.errors import IllegalActionError
from cardtable.kings_corner.game import KingsCornerView
from cardtable.klondike.moves import Move
from cardtable.klondike.variant import Variant
from cardtable.klondike.view import KlondikeView

__all__ = [
    "KingsCornerBotPolicy",
    "KlondikeBotPolicy",
    "Policy",
    "PolicyBot",
    "PolicyPlayer",
    "evaluate",
    "evaluate_table",
    "kings_corner_bot",
    "kings_corner_policy",
    "klondike_player",
    "klondike_policy",
    "load_policy",
]


class Policy(Protocol):
    """``policy(observation, action_mask) -> action index``."""

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray, /) -> Any:
        ...


def _new_game(policy: object, seed: int) -> None:
    hook = getattr(policy, "new_game", None)
    if callable(hook):
        hook(seed)


# ----- bots as policies ----------------------------------------------------------------------------


class KlondikeBotPolicy:
    """A Klondike bot as a policy (see :func:`klondike_policy`)."""

    def __init__(self, bot: Agent[KlondikeView, Move], variant: Variant | str, seed: int = 0) -> None:
        self.bot = bot
        self.variant = variant if isinstance(variant, Variant) else Variant.preset(variant)
        self.name = getattr(bot, "name", type(bot).__name__)
        self._games = 0
        self._seed = seed

    def new_game(self, seed: int = 0) -> None:
        """Start the bot on a new game with this seed."""
        self.bot.new_game(seed)

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        view = _kl.decode_observation(observation, action_mask, self.variant)
        if view.moves_played == 0:  # a new episode: the bot forgets the last game
            self.bot.new_game(self._seed + self._games)
            self._games += 1
        move = self.bot.choose(view)
        index = _kl.action_index(move)
        if not np.asarray(action_mask).reshape(-1)[index]:
            if move is None:
                raise RulesError(f"bot {self.name!r} stopped, but this environment has no stop action: "
                                 "make it with allow_stop=True")
            raise IllegalMoveError(f"bot {self.name!r} chose {move}, which the action mask does not allow")
        return index


def klondike_policy(bot: Agent[KlondikeView, Move], variant: Variant | str, seed: int = 0) -> KlondikeBotPolicy:
    """A policy for ``cardtable/Klondike-v0`` that asks ``bot``.

    ``variant`` is the environment's (``env.unwrapped.variant``, or its preset
    name). The bot sees the view decoded from the observation and mask; when
    an episode starts (no move played yet) it is told a new game began, with
    seeds ``seed``, ``seed + 1``, ... A bot that stops needs an environment
    made with ``allow_stop=True``.
    """
    return KlondikeBotPolicy(bot, variant, seed)


class KingsCornerBotPolicy:
    """A Kings Corner bot as a policy (see :func:`kings_corner_policy`)."""

    def __init__(self, bot: Agent[KingsCornerView, Action]) -> None:
        self.bot = bot
        self.name = getattr(bot, "name", type(bot).__name__)

    def new_game(self, seed: int = 0) -> None:
        """Start the bot on a new hand with this seed."""
        self.bot.new_game(seed)

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        action = self.bot.choose(_kc.decode_observation(observation))
        if action is None:
            raise IllegalActionError(f"bot {self.name!r} chose no action; a Kings Corner seat must act")
        index = _kc.action_index(action)
        if not np.asarray(action_mask).reshape(-1)[index]:
            raise IllegalActionError(f"bot {self.name!r} chose '{action}', which the action mask does not allow")
        return index


def kings_corner_policy(bot: Agent[KingsCornerView, Action]) -> KingsCornerBotPolicy:
    """A policy for the Kings Corner environment that asks ``bot``; call it
    with ``observation["observation"]`` and ``observation["action_mask"]``.
    Tell it of each new hand with its ``new_game(seed)``
    (:func:`evaluate_table` does)."""
    return KingsCornerBotPolicy(bot)


# ----- policies as players ---------------------------------------------------------------------------


class PolicyPlayer(KlondikeBot):
    """A policy as a Klondike player: a :class:`~cardtable.bots.KlondikeBot`.

    The view is encoded as ``cardtable/Klondike-v0`` encodes it; the mask
    offers the stop action only with ``allow_stop=True``. An index the mask
    does not allow raises :class:`~cardtable.errors.IllegalMoveError`.

    The player keeps the environment's clock, so a game ends where an
    episode would: it stops after ``max_moves`` moves, or after
    ``stall_limit`` moves without progress (no foundation count above the
    game's best, no card turned up), the environment's defaults.
    """

    summary = "a policy written for the cardtable/Klondike-v0 environment"

    def __init__(self, policy: Policy, name: str = "policy", *, allow_stop: bool = False,
                 max_moves: int = 1000, stall_limit: int | None = 200) -> None:
        self.policy = policy
        self.name = name
        self.allow_stop = allow_stop
        self.max_moves = max_moves
        self.stall_limit = stall_limit
        self._progress: tuple[int, int] | None = None
        self._stall = 0

    def new_game(self, seed: int = 0) -> None:
        """Passed on to the policy's own ``new_game(seed)``, when it has one."""
        self._progress, self._stall = None, 0
        _new_game(self.policy, seed)

    def choose(self, view: KlondikeView) -> Move | None:
        if not view.legal_moves or view.moves_played >= self.max_moves:
            return None
        found, down = sum(view.foundation), sum(view.face_down)
        best = self._progress
        if best is None or found > best[0] or down < best[1]:
            self._progress = (found if best is None else max(found, best[0]),
                              down if best is None else min(down, best[1]))
            self._stall = 0
        elif self.stall_limit is not None and self._stall >= self.stall_limit:
            return None
        self._stall += 1
        mask = _kl._mask_of(view.legal_moves, self.allow_stop)
        chosen = self.policy(_kl.encode_view(view), mask)
        index = _index(chosen, _kl.ACTION_COUNT, self.name)
        if not mask[index]:
            raise IllegalMoveError(f"policy {self.name!r} chose action {index} "
                                   f"({_kl.action_table()[index]}), which is not legal here")
        return _kl.action_move(index)


class PolicyBot:
    """A policy as a Kings Corner bot (a :class:`cardtable.game.Agent`)."""

    def __init__(self, policy: Policy, name: str = "policy") -> None:
        self.policy = policy
        self.name = name

    def new_game(self, seed: int = 0) -> None:
        """Passed on to the policy's own ``new_game(seed)``, when it has one."""
        _new_game(self.policy, seed)

    def choose(self, view: KingsCornerView) -> Action:
        """The action the policy picks from the encoded view."""
        mask = _kc._mask_of(view.legal_actions())
        index = _index(self.policy(_kc.encode_view(view), mask), _kc.ACTION_COUNT, self.name)
        if not mask[index]:
            raise IllegalActionError(f"policy {self.name!r} chose action {index} "
                                     f"('{_kc.action_table()[index]}'), which is not legal here")
        return _kc.action_of(index)


def _index(chosen: object, count: int, name: str) -> int:
    try:
        index = int(chosen)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise RulesError(f"policy {name!r} returned {chosen!r}, not an action index") from None
    if not 0 <= index < count:
        raise RulesError(f"policy {name!r} returned action {index}, outside 0..{count - 1}")
    return index


# ----- loading policies by name ------------------------------------------------------------------------


def load_policy(spec: str, seed: int = 0) -> object:
    """The object ``module.path:attribute`` names: a factory (callable with no
    arguments, or with only ``seed``) is called; anything else is returned as
    it is. Unknown modules and attributes raise :class:`~cardtable.errors.RulesError`."""
    module_name, _, attribute = spec.strip().partition(":")
    if not module_name or not attribute:
        raise RulesError(f"strategy {spec!r}: write a policy as module.path:attribute")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise RulesError(f"strategy {spec!r}: cannot import module {module_name!r} ({error})") from None
    target: object = module
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise RulesError(f"strategy {spec!r}: module {module_name!r} has no attribute {attribute!r}") from None
    if _is_player(target) or not callable(target):
        return target
    factory_args = _factory_arguments(target, seed)
    if factory_args is None:
        return target
    try:
        return target(**factory_args)
    except Exception as error:  # a user's factory that fails is bad input, named
        raise RulesError(f"strategy {spec!r}: calling {attribute} failed: {error}") from error


def _is_player(target: object) -> bool:
    return not isinstance(target, type) and callable(getattr(target, "choose", None))


def _factory_arguments(target: Callable[..., Any], seed: int) -> dict[str, int] | None:
    """Keyword arguments to call ``target`` as a factory, or None when it is a policy."""
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        return None
    required = [p for p in signature.parameters.values()
                if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if not required:
        return {"seed": seed} if "seed" in signature.parameters else {}
    if [p.name for p in required] == ["seed"]:
        return {"seed": seed}
    return None


def _as_policy(loaded: object, spec: str) -> Policy:
    if not callable(loaded):
        raise RulesError(f"strategy {spec!r} is {type(loaded).__name__}, not a policy: "
                         "it should be policy(observation, action_mask) -> action index")
    return loaded


def klondike_player(spec: str, seed: int = 0) -> KlondikeBot:
    """The Klondike player a ``module.path:attribute`` strategy names: a ready
    player is used as it is, a policy is wrapped in a :class:`PolicyPlayer`
    (``seed`` goes to a factory that takes one, see :func:`load_policy`)."""
    loaded = load_policy(spec, seed)
    if isinstance(loaded, KlondikeBot):
        return loaded
    if _is_player(loaded):
        raise RulesError(f"strategy {spec!r} is a {type(loaded).__name__}, not a Klondike player or policy")
    return PolicyPlayer(_as_policy(loaded, spec), spec.strip())


def kings_corner_bot(spec: str, seed: int = 0) -> Agent[KingsCornerView, Action]:
    """The Kings Corner bot a ``module.path:attribute`` strategy names: a
    ready bot is used as it is, a policy is wrapped in a :class:`PolicyBot`."""
    loaded = load_policy(spec, seed)
    if isinstance(loaded, KlondikeBot):
        raise RulesError(f"strategy {spec!r} is a Klondike player, not a Kings Corner bot or policy")
    if _is_player(loaded):
        return loaded  # type: ignore[return-value]
    bot = PolicyBot(_as_policy(loaded, spec), spec.strip())
    bot.new_game(seed)
    return bot


# ----- evaluation ------------------------------------------------------------------------------------------


def evaluate(env: Any, policy: Policy, episodes: int = 100, seed: int = 0,
             options: Sequence[dict[str, Any]] | None = None) -> list[float]:
    """Play ``episodes`` episodes of a Gymnasium environment with ``policy``
    (given ``info["action_mask"]``) and return each episode's return; episode
    ``i`` is reset with ``seed + i`` (and ``options[i]`` when given)."""
    returns = []
    for episode in range(episodes):
        observation, info = env.reset(seed=seed + episode, options=None if options is None else options[episode])
        total, done = 0.0, False
        while not done:
            observation, reward, terminated, truncated, info = env.step(policy(observation, info["action_mask"]))
            total += float(reward)
            done = terminated or truncated
        returns.append(total)
    return returns


def evaluate_table(env: Any, policies: dict[str, Policy], episodes: int = 100, seed: int = 0) -> dict[str, list[float]]:
    """Play ``episodes`` episodes of a PettingZoo AEC environment (such as
    Kings Corner's), each agent choosing with its policy from ``policies``;
    returns each agent's return in every episode. Episode ``i`` is reset with
    ``seed + i``, and a policy with ``new_game`` is told of each new one.

    >>> from cardtable.envs.kings_corner import raw_env
    >>> from cardtable.bots.kings_corner import make_bot
    >>> table = raw_env(num_players=2)
    >>> players = {"player_0": kings_corner_policy(make_bot("strategic")),
    ...            "player_1": kings_corner_policy(make_bot("random"))}
    >>> results = evaluate_table(table, players, episodes=4)
    >>> [len(r) for r in results.values()], all(x <= 0 for r in results.values() for x in r)
    ([4, 4], True)
    """
    results: dict[str, list[float]] = {agent: [] for agent in env.possible_agents}
    for episode in range(episodes):
        env.reset(seed=seed + episode)
        for agent in env.possible_agents:
            _new_game(policies[agent], seed + episode)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            totals[agent] += float(reward)
            if terminated or truncated:
                env.step(None)
            else:
                env.step(policies[agent](observation["observation"], observation["action_mask"]))
        for agent, total in totals.items():
            results[agent].append(total)
    return results
