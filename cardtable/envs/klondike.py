"""Klondike as a Gymnasium environment: ``cardtable/Klondike-v0``.

Importing :mod:`cardtable.envs` registers the id, so::

    import gymnasium as gym
    import cardtable.envs  # registers cardtable/Klondike-v0

    env = gym.make("cardtable/Klondike-v0", variant="draw3", reward="foundation")
    observation, info = env.reset(seed=7)
    action = int(env.np_random.choice(info["action_mask"].nonzero()[0]))
    observation, reward, terminated, truncated, info = env.step(action)

The environment plays by the rules of :class:`~cardtable.klondike.KlondikeGame`,
the authority, but a step does not go through it: one compiled call
(C, on Klondike's compiled rules library; :mod:`cardtable.envs._fast`)
lists the legal moves with the plain move generator, which lists exactly the
engine's moves, plays the action,
encodes the player's view and keeps the episode's clock, over the solver's
array state. A differential test holds every mask, observation, reward and
episode end to the engine played alone. The engine's copy of the game,
:attr:`KlondikeEnv.game`, catches up with the episode's moves when it is read
(by :meth:`~KlondikeEnv.view`, :meth:`~KlondikeEnv.render` and the
dead-position search).

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

The numbering's one source is :mod:`cardtable.envs._layout`, which both this
module and the compiled step read (the step through a C header generated from it).

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
spades 40..52), 0 for no card. :data:`OBSERVATION_LAYOUT` names the fields
(their one source is :mod:`cardtable.envs._layout`, as for the actions)::

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
from typing import Any, SupportsInt

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from cardtable.cards import Card, Suit
from cardtable.envs import _fast, _layout
from cardtable.envs._settings import IllegalAction, check_settings, whole
from cardtable.errors import IllegalMoveError, RulesError
from cardtable.klondike.formats import read_layout
from cardtable.klondike.game import KlondikeGame, KlondikeOutcome
from cardtable.klondike.moves import DRAW, FOUNDATION, RECYCLE, WASTE, Move
from cardtable.klondike.position import DealError, Position
from cardtable.klondike.render import render
from cardtable.klondike.variant import Variant
from cardtable.klondike.view import KlondikeView
from cardtable.solver._state import STATE_SIZE, encode

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
    """Every move of the move model, in the index order of the one source of
    the numbering, :data:`cardtable.envs._layout.ACTION_BLOCKS` (the stop
    action, last, has no move)."""
    blocks: dict[str, list[Move]] = {
        "pile_to_foundation": [Move(i, FOUNDATION) for i in range(7)],
        "waste_to_foundation": [Move(WASTE, FOUNDATION)],
        "waste_to_pile": [Move(WASTE, j) for j in range(7)],
        "pile_to_pile": [Move(i, j, k) for i in range(7) for j in range(7) if j != i for k in range(1, 14)],
        "foundation_to_pile": [Move(FOUNDATION, j, 1, suit) for suit in Suit for j in range(7)],
        "draw": [DRAW],
        "recycle": [RECYCLE],
    }
    moves: list[Move] = []
    for name, size in _layout.ACTION_BLOCKS[:-1]:  # the last block is the stop action
        if len(moves) != _layout.ACTION_BASE[name] or len(blocks[name]) != size:
            raise AssertionError(f"the action block {name} does not match cardtable/envs/_layout.py")
        moves += blocks[name]
    return moves


_MOVES: tuple[Move, ...] = tuple(_build_moves())
#: The stop action's index: end the game where it stands (legal only with ``allow_stop=True``).
STOP = _layout.ACTION_BASE["stop"]
#: How many actions the space holds: every move, then stop.
ACTION_COUNT = _layout.ACTIONS
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

_PILE_SLOTS = _layout.RUN_LENGTHS
_WASTE_SLOTS = _layout.WASTE_SLOTS
_CAP = _layout.CAP

#: The observation's fields: name -> (offset, size), in order (from their one
#: source, :data:`cardtable.envs._layout.OBSERVATION_FIELDS`).
OBSERVATION_LAYOUT: dict[str, tuple[int, int]] = {
    name: (_layout.OBSERVATION_OFFSET[name], size) for name, size in _layout.OBSERVATION_FIELDS}
#: The length of an observation.
OBSERVATION_SIZE = _layout.OBSERVATION_SIZE
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


def _variant_of(variant: str | Variant) -> Variant:
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, str):
        return Variant.preset(variant)
    raise RulesError(f"variant must be a preset name or a Variant, not {variant!r}")


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

    A step runs in one compiled call (:mod:`cardtable.envs._fast`, over the
    solver core's array state); the engine's copy of the game,
    :attr:`game`, is brought up to date only when it is asked for. The
    settings (``variant``, ``reward_kind``, ``max_steps``, ...) are read at
    each :meth:`reset`.
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
        check_settings(reward, REWARDS, render_mode, self.metadata["render_modes"], illegal_action)
        self.reward_kind = reward
        self.max_steps = whole(max_steps, "max_steps", 1)
        self.stall_limit = None if stall_limit is None else whole(stall_limit, "stall_limit", 1)
        self.truncate_on_repeat = bool(truncate_on_repeat)
        self.dead_search_limit = whole(dead_search_limit, "dead_search_limit", 1)
        self.allow_stop = bool(allow_stop)
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(ACTION_COUNT)
        low, high = _bounds()
        self.observation_space = spaces.Box(low, high, dtype=np.int16)
        #: The cardtable deal number of the current deal, or ``None`` for a given layout.
        self.deal_seed: int | None = 0
        self._b8, self._obs, self._b32, self._b64, self._hist = _fast.new_arrays()
        self._core = _fast.core(self._b8, self._obs, self._b32, self._b64, self._hist)
        self._mask = self._b8[1, :ACTION_COUNT]
        self._ctl = self._b64[0]
        self._settings: tuple[object, ...] = ()
        self._seen: set[bytes] = set()
        self._begin(None, 0)
        self._core.reset()
        self._over = True

    # ----- starting ------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new game (see "Starting deals" above); returns the first
        observation and ``{"action_mask": ...}``."""
        super().reset(seed=seed)
        start, deal_seed = self._start(options or {})
        if start is not None:
            start.check_pass_limit(self.variant.passes)  # a pass the variant never reaches is no game
        self._begin(start, deal_seed)
        self.deal_seed = deal_seed
        status = self._core.reset()
        self._seen.clear()
        if self.truncate_on_repeat:
            self._seen.add(self._b64[3].tobytes())
        self._over = False
        info: dict[str, Any] = {"action_mask": self._mask.copy()}
        if status:  # a layout with nothing left to do: any step ends the episode at once
            info["outcome"] = _OUTCOMES[status]
        return self._obs.copy(), info

    def _begin(self, start: Position | None, deal_seed: int | None) -> None:
        """Load ``start`` (``None``: the deal of ``deal_seed``) into the
        arrays; the engine's game follows when asked for."""
        self._configure()
        self._first = start
        self._first_seed = deal_seed
        self._game: KlondikeGame | None = None
        self._synced = 0
        self._view: KlondikeView | None = None
        ctl = self._ctl
        if start is None:
            assert deal_seed is not None
            self._core.deal(deal_seed)
            ctl[_fast.C_PASS] = 1
        else:
            self._b8[0, :STATE_SIZE] = encode(start)
            ctl[_fast.C_PASS] = start.pass_number
        ctl[_fast.C_MOVES] = ctl[_fast.C_STEPS] = ctl[_fast.C_STALL] = ctl[_fast.C_BANKED] = 0

    def _configure(self) -> None:
        """Give the compiled step the rules and settings (read at each reset)."""
        settings = (self.variant, self.reward_kind, self.max_steps, self.stall_limit, self.truncate_on_repeat,
                    self.allow_stop, self.illegal_action)
        if settings == self._settings:
            return
        if self.reward_kind not in REWARDS:
            raise RulesError(f"unknown reward {self.reward_kind!r}; choose from {', '.join(REWARDS)}")
        self._settings = settings
        ctl, variant = self._ctl, self.variant
        ctl[_fast.C_PASS_LIMIT] = 0 if variant.passes is None else variant.passes
        ctl[_fast.C_MAX_STEPS] = self.max_steps
        ctl[_fast.C_STALL_LIMIT] = 0 if self.stall_limit is None else self.stall_limit
        ctl[_fast.C_REWARD] = _fast.REWARD_KINDS.index(self.reward_kind)
        ctl[_fast.C_RAISE] = self.illegal_action == "raise"
        ctl[_fast.C_REPEAT] = self.truncate_on_repeat
        self._b64[2] = _fast.variant_row(variant)
        self._b64[4, :53] = [variant.scoring.money(cards) for cards in range(53)]
        self._mask[STOP] = self.allow_stop

    def _start(self, options: dict[str, Any]) -> tuple[Position | None, int | None]:
        """The layout to start from, or ``None`` and the deal number."""
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
            return None, int(number)
        return None, int(self.np_random.integers(0, 2**63))

    # ----- playing -----------------------------------------------------------------------------

    def step(self, action: SupportsInt) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Take one action; returns ``(observation, reward, terminated, truncated, info)``."""
        if self._over:
            raise RulesError("the episode is over: call reset() first")
        index = int(action)
        status, reward = self._core.step(index if 0 <= index < ACTION_COUNT else -1)
        if status:
            return self._finish(status, index, reward)
        return self._obs.copy(), reward, False, False, {"action_mask": self._mask.copy()}

    def _finish(self, status: int, index: int, reward: float) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The rest of a step that ends the episode or needs more than the compiled call."""
        if status == _fast.ILLEGAL:
            raise IllegalMoveError(self._why_illegal(index))
        ctl = self._ctl
        terminated = truncated = False
        outcome = event = ""
        if status in _OUTCOMES:
            terminated, outcome = True, _OUTCOMES[status]
        elif status == _fast.STALLED:
            event = "stalled"
        elif status == _fast.CLOCK:
            key = self._b64[3].tobytes()
            if ctl[_fast.C_PROGRESS]:
                self._seen.clear()
            elif key in self._seen:
                event = "repeated position"
            self._seen.add(key)
        if event:
            if self.game.progress_possible(self.dead_search_limit) is False:
                terminated, outcome = True, _OUTCOME_NO_PROGRESS
            else:
                truncated, outcome = True, event
        elif not terminated and ctl[_fast.C_STEPS] >= self.max_steps:
            truncated, outcome = True, "max steps"
        info: dict[str, Any] = {"action_mask": self._mask.copy()}
        if terminated or truncated:
            self._over = True
            info["outcome"] = outcome
            info["foundation"] = int(ctl[_fast.C_FOUND])
        elif ctl[_fast.C_MOVES] == len(self._hist):
            self._hist = np.concatenate([self._hist, np.zeros_like(self._hist)])
            self._core.set_history(self._hist)
        return self._obs.copy(), reward, terminated, truncated, info

    def _why_illegal(self, index: int) -> str:
        if not 0 <= index < ACTION_COUNT:
            return f"action {index} is out of range: Klondike actions are 0..{ACTION_COUNT - 1}"
        if index == STOP:
            return f"action {STOP} (stop) is not allowed: make the environment with allow_stop=True"
        move = _MOVES[index]
        return f"illegal move {move} (action {index}): {self.game.why_illegal(move)}"

    # ----- what the player sees ---------------------------------------------------------------

    @property
    def game(self) -> KlondikeGame:
        """The game being played: the referee's copy, which knows the hidden
        cards. It is the engine's :class:`~cardtable.klondike.KlondikeGame`,
        brought up to date with the episode's moves when read; a new episode
        starts a new one."""
        game = self._game
        if game is None:
            if self._first is None:
                self._first = Position.from_seed(self._first_seed or 0)
            game = self._game = KlondikeGame(self._first, self.variant)
        played = int(self._ctl[_fast.C_MOVES])
        if self._synced < played:
            for index in self._hist[self._synced:played].tolist():
                game.play(_MOVES[index])
            self._synced = played
        return game

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as ``np.int8`` (1: legal), the same as the
        last ``info["action_mask"]``."""
        return self._mask.copy()

    def view(self) -> KlondikeView:
        """The player's view of the position now."""
        view = self._view
        if view is None or view.moves_played != self._ctl[_fast.C_MOVES]:
            view = self._view = self.game.view()
        return view

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the table as text (face-down cards as
        ``##``, the stock as a count), as ``cardtable show`` draws it."""
        if self.render_mode != "ansi":
            return None
        return render(self.game.position(), unicode=False, passes=self.variant.passes, draw=self.variant.draw)


#: What a step result from the compiled call that ends the game by its rules says.
_OUTCOMES = {_fast.WON: "won", _fast.NO_MOVES: "no legal move", _fast.STOPPED: "stopped"}
_OUTCOME_NO_PROGRESS = KlondikeOutcome.NO_PROGRESS.value.removeprefix("lost: ")


def _check_fits(position: Position) -> None:
    """The observation holds 24 stock and waste cards and 13 face-up cards a pile."""
    if len(position.stock) + len(position.waste) > _WASTE_SLOTS:
        raise DealError(f"this layout has {len(position.stock) + len(position.waste)} cards in stock and waste; "
                        f"a Klondike game has at most {_WASTE_SLOTS}")
    for pile, down in enumerate(position.face_down, 1):
        if down > 6:
            raise DealError(f"pile {pile} has {down} face-down cards; a Klondike game has at most 6")
