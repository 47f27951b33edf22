"""Klondike as a Gymnasium environment: ``cardtable/Klondike-v0``.

Importing :mod:`cardtable.envs` registers the id, so::

    import gymnasium as gym
    import cardtable.envs  # registers cardtable/Klondike-v0

    env = gym.make("cardtable/Klondike-v0", variant="draw3", reward="foundation")
    observation, info = env.reset(seed=7)
    action = int(env.np_random.choice(info["action_mask"].nonzero()[0]))
    observation, reward, terminated, truncated, info = env.step(action)

The environment is a thin client of :class:`~cardtable.klondike.KlondikeGame`:
the engine lists the legal moves and plays them; the environment only numbers
the moves, encodes the player's view and keeps the episode's clock.

Actions
-------
A fixed :class:`~gymnasium.spaces.Discrete` space of :data:`ACTION_COUNT`
(592) actions in which every move the engine's move model can express
(:class:`~cardtable.klondike.Move`) has a stable index. Piles are written
1..7, as in move notation; ``j'`` below is the target's place among the six
piles other than the source (0..5, left to right)::

    index      move                          notation
    0..6       pile i to its foundation      1>F .. 7>F             index i-1
    7          waste to its foundation       W>F
    8..14      waste onto pile j             W>1 .. W>7             8 + (j-1)
    15..560    k cards from pile i to j      i>j:k (k = 1..13)      15 + 78(i-1) + 13j' + (k-1)
    561..588   foundation of suit s to j     Fc>1 .. Fs>7           561 + 7s + (j-1), s = c d h s = 0..3
    589        draw                          D
    590        turn the waste over           R
    591        stop: end the game here       (legal only with allow_stop=True)

:func:`action_table` lists every index with its notation; :func:`action_move`
and :func:`action_index` convert. ``info["action_mask"]`` (``np.int8``, one
entry per action) and :meth:`KlondikeEnv.action_masks` mark the legal ones:
exactly the engine's :meth:`~cardtable.klondike.KlondikeGame.legal_moves`
(plus the stop action when allowed). An illegal action leaves the game as it
was and gives no reward (``illegal_action="ignore"``, the default, which keeps
Gymnasium's checker and unmasked agents working) or raises
:class:`~cardtable.errors.IllegalMoveError` (``illegal_action="raise"``).

Observations
------------
A :class:`~gymnasium.spaces.Box` of :data:`OBSERVATION_SIZE` (130) ``int16``
values, encoded from the player's :class:`~cardtable.klondike.KlondikeView`
only (:func:`encode_view`), never from the hidden state: face-down cards and
the stock order are not in it, only their counts. A card is coded
``1 + card.index`` (clubs A..K = 1..13, diamonds 14..26, hearts 27..39,
spades 40..52), 0 for no card. :data:`OBSERVATION_LAYOUT` names the fields::

    offset  size  field         what
    0       91    tableau       face-up cards of pile i (0..6) at 13i.., bottom to top
    91      7     face_down     face-down cards under each pile
    98      1     stock         cards in the stock
    99      24    waste         the waste, top (playable) card first
    123     4     foundation    top rank of the clubs, diamonds, hearts, spades foundations (0: empty)
    127     1     pass_number   which pass through the stock this is (1 for the first)
    128     1     passes_left   passes still to come after this one (-1: unlimited)
    129     1     moves         moves played in this episode

Counts above 32,767 (the pass number of a very long unlimited-pass game) are
capped there. :func:`decode_observation` turns an observation and its mask
back into the same view, which is how a cardtable bot plays in the
environment (:mod:`cardtable.envs.agents`).

Rewards
-------
``reward="foundation"`` (the default): +1 for each card that reaches a
foundation, -1 for each that comes back. ``"win"``: 1 on the move that wins,
otherwise 0. ``"vegas"``: the Vegas dollars of the variant's
:class:`~cardtable.klondike.Scoring` (``Scoring.money``): the first step pays
the ante (less what cards already on the foundations are worth), each card
to a foundation wins ``per_card`` and each card back loses it, so an
episode's return is the game's net result.

Episode ends
------------
``terminated`` means the game is over by its rules, a true end of the
process (a learner must not bootstrap past it):

- the game is won (all 52 cards on the foundations);
- no legal move is left (the engine's ``NO_MOVES``);
- a dead position: moves are left but none can ever turn a card up or add to
  the foundations (the engine's ``NO_PROGRESS``, from
  :meth:`~cardtable.klondike.KlondikeGame.progress_possible`); this search is
  run only when the episode stalls (below), and it looks at no more than
  ``dead_search_limit`` positions;
- the player stopped (the stop action, when allowed).

``truncated`` means the environment cut a game that could go on, a time
limit outside the rules (a learner should bootstrap from the last
observation):

- ``max_steps`` steps were taken (default 1,000);
- ``stall_limit`` steps went by (default 200) without progress, that is no
  card reached a foundation count higher than the episode's best and no card
  was turned face up (cycling the stock, or moving runs back and forth), and
  the position was not found dead;
- with ``truncate_on_repeat=True``, a position repeated since the last
  progress: the player went round a cycle (again only when not dead).

At the end ``info["outcome"]`` says which (``won``, ``no legal move``,
``no progress possible``, ``stopped``, ``max steps``, ``stalled``,
``repeated position``) and ``info["foundation"]`` counts the foundation
cards.

Starting deals
--------------
``reset(seed=...)`` deals from the environment's random generator, so the
same seed gives the same deal. ``options={"deal": TEXT}`` starts from a deal
string, position string, PySol board or Solvitaire JSON (read by
:func:`cardtable.klondike.read_layout`; bad text raises its
:class:`~cardtable.errors.DealError`); ``options={"deal_seed": N}`` starts
from cardtable's deal number ``N`` (the deal of ``cardtable deal --seed N``).

>>> env = KlondikeEnv("seed-002", reward="vegas")
>>> observation, info = env.reset(options={"deal_seed": 3})
>>> observation.shape, info["action_mask"].sum() == len(env.view().legal_moves)
((130,), np.True_)
>>> action_table()[589], action_index(Move.parse("2>6:3"))
('D', 147)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, SupportsInt

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from cardtable.cards import Card, Suit
from cardtable.errors import IllegalMoveError, RulesError
from cardtable.klondike.formats import read_layout
from cardtable.klondike.game import KlondikeGame, KlondikeOutcome
from cardtable.klondike.moves import DRAW, FOUNDATION, RECYCLE, WASTE, Move
from cardtable.klondike.position import DealError, Position
from cardtable.klondike.render import render
from cardtable.klondike.variant import Variant
from cardtable.klondike.view import KlondikeView

__all__ = [
    "ACTION_COUNT",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "REWARDS",
    "STOP",
    "KlondikeEnv",
    "action_index",
    "action_move",
    "action_table",
    "decode_observation",
    "encode_view",
]

# ----- the action table ------------------------------------------------------------------


def _build_moves() -> list[Move]:
    """Every move of the move model, in the documented index order."""
    moves = [Move(i, FOUNDATION) for i in range(7)]
    moves.append(Move(WASTE, FOUNDATION))
    moves += [Move(WASTE, j) for j in range(7)]
    moves += [Move(i, j, k) for i in range(7) for j in range(7) if j != i for k in range(1, 14)]
    moves += [Move(FOUNDATION, j, 1, suit) for suit in Suit for j in range(7)]
    moves += [DRAW, RECYCLE]
    return moves


_MOVES: tuple[Move, ...] = tuple(_build_moves())
#: The stop action's index: end the game where it stands (legal only with ``allow_stop=True``).
STOP = len(_MOVES)
#: How many actions the space holds: every move, then stop.
ACTION_COUNT = STOP + 1
_INDEX: dict[Move, int] = {move: index for index, move in enumerate(_MOVES)}
# Index by the identity of a move object; the engine hands out the same
# objects again and again, so this skips hashing a dataclass on every step.
# The entry keeps the object alive, so its id cannot be reused.
_BY_ID: dict[int, tuple[Move, int]] = {id(move): (move, index) for index, move in enumerate(_MOVES)}
_BY_ID_LIMIT = 4 * ACTION_COUNT


def action_table() -> list[str]:
    """Every action's notation, by index (``"stop"`` last).

    >>> table = action_table()
    >>> len(table), table[0], table[7], table[15], table[590], table[591]
    (592, '1>F', 'W>F', '1>2', 'R', 'stop')
    """
    return [str(move) for move in _MOVES] + ["stop"]


def action_move(index: SupportsInt) -> Move | None:
    """The move of an action index (``None`` for :data:`STOP`); an index out
    of range raises :class:`~cardtable.errors.RulesError`."""
    i = int(index)
    if not 0 <= i < ACTION_COUNT:
        raise RulesError(f"action {i} is out of range: Klondike actions are 0..{ACTION_COUNT - 1}")
    return None if i == STOP else _MOVES[i]


def action_index(move: Move | None) -> int:
    """The action index of a move (``None``: :data:`STOP`)."""
    if move is None:
        return STOP
    entry = _BY_ID.get(id(move))
    if entry is not None and entry[0] is move:
        return entry[1]
    index = _INDEX[move]  # every Move value is in the table
    if len(_BY_ID) < _BY_ID_LIMIT:  # the engine's own move tables fit; moves built afresh each time do not
        _BY_ID[id(move)] = (move, index)
    return index


def _legal_bytes(legal: Sequence[Move], stop: bool) -> bytearray:
    """The legal actions as a bytearray of 0/1 (cheap to index on every step)."""
    flags = bytearray(ACTION_COUNT)
    by_id = _BY_ID
    for move in legal:
        entry = by_id.get(id(move))
        flags[entry[1] if entry is not None and entry[0] is move else action_index(move)] = 1
    if stop:
        flags[STOP] = 1
    return flags


def _mask_of(legal: Sequence[Move], stop: bool) -> np.ndarray:
    return np.frombuffer(_legal_bytes(legal, stop), dtype=np.int8)


# ----- observations ----------------------------------------------------------------------

_PILE_SLOTS = 13
_WASTE_SLOTS = 24
_CAP = 32_767

#: The observation's fields: name -> (offset, size), in order.
OBSERVATION_LAYOUT: dict[str, tuple[int, int]] = {
    "tableau": (0, 7 * _PILE_SLOTS),
    "face_down": (91, 7),
    "stock": (98, 1),
    "waste": (99, _WASTE_SLOTS),
    "foundation": (123, 4),
    "pass_number": (127, 1),
    "passes_left": (128, 1),
    "moves": (129, 1),
}
#: The length of an observation.
OBSERVATION_SIZE = 130
_TABLEAU, _DOWN, _STOCK, _WASTE, _FOUND, _PASS, _LEFT, _MOVES_AT = (
    offset for offset, _ in OBSERVATION_LAYOUT.values())


def _bounds() -> tuple[np.ndarray, np.ndarray]:
    low = np.zeros(OBSERVATION_SIZE, dtype=np.int16)
    high = np.zeros(OBSERVATION_SIZE, dtype=np.int16)
    high[_TABLEAU:_DOWN] = 52
    high[_DOWN:_STOCK] = 6
    high[_STOCK] = _WASTE_SLOTS
    high[_WASTE:_FOUND] = 52
    high[_FOUND:_PASS] = 13
    low[_PASS], high[_PASS] = 1, _CAP
    low[_LEFT], high[_LEFT] = -1, _CAP
    high[_MOVES_AT] = _CAP
    return low, high


def encode_view(view: KlondikeView) -> np.ndarray:
    """The observation of a player's view (see the module documentation)."""
    return _Encoder().encode(view)


_EMPTY_PILE = [0] * _PILE_SLOTS


class _Encoder:
    """:func:`encode_view` for one environment: it keeps each pile's and the
    waste's codes from the last observation, and most moves change only one
    or two of them."""

    __slots__ = ("_pile_codes", "_piles", "_waste", "_waste_codes")

    def __init__(self) -> None:
        self._piles: list[tuple[Card, ...] | None] = [None] * 7
        self._pile_codes: list[list[int]] = [_EMPTY_PILE] * 7
        self._waste: tuple[Card, ...] | None = None
        self._waste_codes: list[int] = [0] * _WASTE_SLOTS

    def encode(self, view: KlondikeView) -> np.ndarray:
        piles, codes = self._piles, self._pile_codes
        for i, run in enumerate(view.face_up):
            if run != piles[i]:
                piles[i] = run
                codes[i] = [card.index + 1 for card in run] + [0] * (_PILE_SLOTS - len(run))
        waste = view.waste
        if waste != self._waste:
            self._waste = waste
            top_first = [card.index + 1 for card in reversed(waste)]
            self._waste_codes = top_first + [0] * (_WASTE_SLOTS - len(top_first))
        passes = view.variant.passes
        pass_number = view.pass_number
        buf = [*codes[0], *codes[1], *codes[2], *codes[3], *codes[4], *codes[5], *codes[6],
               *view.face_down, view.stock_count, *self._waste_codes, *view.foundation,
               min(pass_number, _CAP),
               -1 if passes is None else min(max(passes - pass_number, 0), _CAP),
               min(view.moves_played, _CAP)]
        return np.fromiter(buf, np.int16, OBSERVATION_SIZE)


def decode_observation(observation: np.ndarray, action_mask: np.ndarray, variant: Variant) -> KlondikeView:
    """The player's view that :func:`encode_view` encoded, its legal moves
    read from ``action_mask``; ``variant`` is the environment's (an
    observation does not carry it).

    >>> env = KlondikeEnv("draw3")
    >>> observation, info = env.reset(seed=1)
    >>> decode_observation(observation, info["action_mask"], env.variant) == env.view()
    True
    """
    values = [int(v) for v in np.asarray(observation).reshape(-1)]
    if len(values) != OBSERVATION_SIZE:
        raise RulesError(f"a Klondike observation has {OBSERVATION_SIZE} values, not {len(values)}")

    def cards(codes: list[int]) -> tuple[Card, ...]:
        return tuple(Card.from_index(code - 1) for code in codes if code)

    face_up = tuple(cards(values[i * _PILE_SLOTS:(i + 1) * _PILE_SLOTS]) for i in range(7))
    mask = np.asarray(action_mask).reshape(-1)
    legal = tuple(_MOVES[i] for i in np.flatnonzero(mask[:STOP]))
    return KlondikeView(
        variant=variant,
        face_up=face_up,
        face_down=tuple(values[_DOWN:_STOCK]),
        stock_count=values[_STOCK],
        waste=tuple(reversed(cards(values[_WASTE:_FOUND]))),
        foundation=tuple(values[_FOUND:_PASS]),  # type: ignore[arg-type]
        pass_number=values[_PASS],
        legal_moves=legal,
        moves_played=values[_MOVES_AT],
    )


# ----- the environment -------------------------------------------------------------------

#: The reward choices.
REWARDS = ("foundation", "win", "vegas")
IllegalAction = Literal["ignore", "raise"]


def _variant_of(variant: str | Variant) -> Variant:
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, str):
        return Variant.preset(variant)
    raise RulesError(f"variant must be a preset name or a Variant, not {variant!r}")


def _whole(value: object, what: str, low: int) -> int:
    if type(value) is not int or value < low:
        raise RulesError(f"{what} must be a whole number >= {low}, not {value!r}")
    return value


class KlondikeEnv(gym.Env[np.ndarray, np.int64]):
    """Klondike for one player, as a Gymnasium environment (see the module
    documentation for the actions, observations, rewards and episode ends).

    ``variant`` is a preset name (``cardtable variants``) or a
    :class:`~cardtable.klondike.Variant`; ``reward`` one of :data:`REWARDS`.
    ``max_steps`` and ``stall_limit`` (``None``: no limit) truncate long
    episodes, ``truncate_on_repeat`` also truncates at a repeated position,
    and ``dead_search_limit`` bounds the dead-position search. ``allow_stop``
    makes the stop action legal; ``illegal_action`` says what an illegal
    action does. ``render_mode="ansi"`` makes :meth:`render` return the
    engine's text picture of the table.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (Gymnasium reads it from the class)

    def __init__(
        self,
        variant: str | Variant = "seed-002",
        reward: str = "foundation",
        *,
        max_steps: int = 1000,
        stall_limit: int | None = 200,
        truncate_on_repeat: bool = False,
        dead_search_limit: int = 2000,
        allow_stop: bool = False,
        illegal_action: IllegalAction = "ignore",
        render_mode: str | None = None,
    ) -> None:
        self.variant = _variant_of(variant)
        if reward not in REWARDS:
            raise RulesError(f"unknown reward {reward!r}; choose from {', '.join(REWARDS)}")
        if illegal_action not in ("ignore", "raise"):
            raise RulesError(f"illegal_action must be 'ignore' or 'raise', not {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise RulesError(f"unknown render mode {render_mode!r}; this environment renders 'ansi'")
        self.reward_kind = reward
        self.max_steps = _whole(max_steps, "max_steps", 1)
        self.stall_limit = None if stall_limit is None else _whole(stall_limit, "stall_limit", 1)
        self.truncate_on_repeat = bool(truncate_on_repeat)
        self.dead_search_limit = _whole(dead_search_limit, "dead_search_limit", 1)
        self.allow_stop = bool(allow_stop)
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(ACTION_COUNT)
        low, high = _bounds()
        self.observation_space = spaces.Box(low, high, dtype=np.int16)
        #: The game being played (the referee's copy: it knows the hidden cards).
        self.game = KlondikeGame(Position.from_seed(0), self.variant)
        #: The cardtable deal number of the current deal, or ``None`` for a given layout.
        self.deal_seed: int | None = 0
        self._view = self.game.view()
        self._legal = _legal_bytes(self._view.legal_moves, self.allow_stop)
        self._encoder = _Encoder()
        self._over = True
        self._steps = 0
        self._stall = 0
        self._best_foundation = 0
        self._fewest_down = 0
        self._banked = 0.0
        self._seen: set[tuple[object, ...]] = set()

    # ----- starting ------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new game (see "Starting deals" above); returns the first
        observation and ``{"action_mask": ...}``."""
        super().reset(seed=seed)
        start, deal_seed = self._start(options or {})
        self.game = game = KlondikeGame(start, self.variant)
        self.deal_seed = deal_seed
        self._steps = self._stall = 0
        self._best_foundation = game.foundation_count()
        self._fewest_down = sum(game.face_down)
        self._banked = 0.0
        self._seen = {game.key()} if self.truncate_on_repeat else set()
        self._over = False
        observation, info, terminated, outcome = self._look()
        if terminated:  # a layout with nothing left to do: any step ends the episode at once
            info["outcome"] = outcome
        return observation, info

    def _start(self, options: dict[str, Any]) -> tuple[Position, int | None]:
        unknown = set(options) - {"deal", "deal_seed"}
        if unknown:
            raise RulesError(f"unknown reset option(s): {', '.join(sorted(map(str, unknown)))}; "
                             "use 'deal' (a deal or position) or 'deal_seed' (a deal number)")
        if "deal" in options and "deal_seed" in options:
            raise RulesError("give 'deal' or 'deal_seed', not both")
        if "deal" in options:
            deal = options["deal"]
            if isinstance(deal, Position):
                position = deal
            elif isinstance(deal, str):
                position = read_layout(deal)
            else:
                raise DealError(f"the 'deal' option is a deal string, a position string or a Position, not {deal!r}")
            _check_fits(position)
            return position, None
        if "deal_seed" in options:
            number = options["deal_seed"]
            if isinstance(number, bool) or not isinstance(number, int | np.integer) or not 0 <= number < 2**64:
                raise RulesError(f"'deal_seed' must be a whole number from 0 to 2**64-1, not {number!r}")
            return Position.from_seed(int(number)), int(number)
        number = int(self.np_random.integers(0, 2**63))
        return Position.from_seed(number), number

    # ----- playing -----------------------------------------------------------------------------

    def step(self, action: SupportsInt) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Take one action; returns ``(observation, reward, terminated, truncated, info)``."""
        if self._over:
            raise RulesError("the episode is over: call reset() first")
        game = self.game
        index = int(action)
        self._steps += 1
        before = game.foundation_count()
        stopped = False
        if not 0 <= index < ACTION_COUNT or not self._legal[index]:
            if self.illegal_action == "raise":
                self._steps -= 1
                raise IllegalMoveError(self._why_illegal(index))
        elif index == STOP:
            stopped = True
        else:
            game.play(_MOVES[index])
        after = game.foundation_count()
        if self.reward_kind == "foundation":
            reward = float(after - before)
        elif self.reward_kind == "win":
            reward = 1.0 if after == 52 and before < 52 else 0.0
        else:
            money = float(self.variant.scoring.money(after))
            reward, self._banked = money - self._banked, money
        observation, info, terminated, outcome = self._look()
        truncated = False
        if not terminated and stopped:
            terminated, outcome = True, "stopped"
        if not terminated:
            terminated, truncated, outcome = self._clock()
        if terminated or truncated:
            self._over = True
            info["outcome"] = outcome
            info["foundation"] = after
        return observation, reward, terminated, truncated, info

    def _look(self) -> tuple[np.ndarray, dict[str, Any], bool, str]:
        """Observe the position; note whether the rules have ended the game."""
        view = self._view = self.game.view()
        legal = view.legal_moves
        self._legal = flags = _legal_bytes(legal, self.allow_stop)
        info = {"action_mask": np.frombuffer(bytearray(flags), dtype=np.int8)}
        observation = self._encoder.encode(view)
        if sum(view.foundation) == 52:  # won, even where kings could come back from the foundations
            return observation, info, True, "won"
        if not legal:
            return observation, info, True, "no legal move"
        return observation, info, False, ""

    def _clock(self) -> tuple[bool, bool, str]:
        """The environment's limits: (terminated, truncated, outcome)."""
        view = self._view
        found, down = sum(view.foundation), sum(view.face_down)
        event = ""
        if found > self._best_foundation or down < self._fewest_down:
            self._best_foundation = max(found, self._best_foundation)
            self._fewest_down = min(down, self._fewest_down)
            self._stall = 0
            self._seen.clear()
            if self.truncate_on_repeat:
                self._seen.add(self.game.key())
        else:
            self._stall += 1
            if self.stall_limit is not None and self._stall >= self.stall_limit:
                event = "stalled"
            elif self.truncate_on_repeat:
                key = self.game.key()
                if key in self._seen:
                    event = "repeated position"
                self._seen.add(key)
        if event:
            if self.game.progress_possible(self.dead_search_limit) is False:
                return True, False, KlondikeOutcome.NO_PROGRESS.value.removeprefix("lost: ")
            return False, True, event
        if self._steps >= self.max_steps:
            return False, True, "max steps"
        return False, False, ""

    def _why_illegal(self, index: int) -> str:
        if not 0 <= index < ACTION_COUNT:
            return f"action {index} is out of range: Klondike actions are 0..{ACTION_COUNT - 1}"
        if index == STOP:
            return "action 591 (stop) is not allowed: make the environment with allow_stop=True"
        move = _MOVES[index]
        return f"illegal move {move} (action {index}): {self.game.why_illegal(move)}"

    # ----- what the player sees ---------------------------------------------------------------

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as ``np.int8`` (1: legal), the same as the
        last ``info["action_mask"]``."""
        return np.frombuffer(bytearray(self._legal), dtype=np.int8)

    def view(self) -> KlondikeView:
        """The player's view of the position now."""
        return self._view

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the table as text (face-down cards as
        ``##``, the stock as a count), as ``cardtable show`` draws it."""
        if self.render_mode != "ansi":
            return None
        return render(self.game.position(), unicode=False, passes=self.variant.passes, draw=self.variant.draw)


def _check_fits(position: Position) -> None:
    """The observation holds 24 stock and waste cards and 13 face-up cards a pile."""
    if len(position.stock) + len(position.waste) > _WASTE_SLOTS:
        raise DealError(f"this layout has {len(position.stock) + len(position.waste)} cards in stock and waste; "
                        f"a Klondike game has at most {_WASTE_SLOTS}")
    for pile, down in enumerate(position.face_down, 1):
        if down > 6:
            raise DealError(f"pile {pile} has {down} face-down cards; a Klondike game has at most 6")
