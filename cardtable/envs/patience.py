"""Any patience game of the registry as a Gymnasium environment: ``cardtable/Patience-v0``.

Importing :mod:`cardtable.envs` registers the id; the game is an argument::

    import gymnasium as gym
    import cardtable.envs  # registers cardtable/Patience-v0

    env = gym.make("cardtable/Patience-v0", game="freecell")
    observation, info = env.reset(seed=7)
    action = int(env.np_random.choice(info["action_mask"].nonzero()[0]))
    observation, reward, terminated, truncated, info = env.step(action)

``game`` is a game's name (``cardtable games`` lists them), with options
after colons (``"golf:wrap"``), a description file (``"my-game.json"``) or a
:class:`~cardtable.patience.Description`. Everything below (the actions, the
observation, what ends an episode) is built from the game's description by
one class, :class:`PatienceEnv`; no game is named in it. The engine
(:class:`~cardtable.patience.PatienceGame`) is the referee: the environment
plays its moves and reads the player's view from it.

Actions
-------
A :class:`~gymnasium.spaces.Discrete` space in which every move the
description allows has one fixed index (:class:`ActionTable`), listed in
this order:

1. for each source pile (tableau piles left to right, free cells, reserve
   piles, the waste, and the foundations when their cards may come back), a
   move to the foundations (``F``: the first that takes the card), to the
   hole, onto each tableau pile (for a pile, each number of cards that may
   move together, one to the most a pile can hold as the description's move
   unit allows; a unit that moves the whole pile only has one action a
   target), and into each free cell: only the pairs the description makes
   possible (no tableau targets where nothing builds and nothing fills a
   space, no pile onto itself, with ``tableau.reach`` only leftwards);
2. in a game whose hole takes pairs (Pyramid), each pair of source piles;
3. the deal ``D`` (stock, or a redeal of the tableau) and the recycle ``R``
   (the waste turned over), where the description has them.

:meth:`ActionTable.notation` gives every index in move notation
(``3>F``, ``1>a``, ``2>7:3``, ``19+W>H``, ``D``; ``2>7:*`` moves the whole
pile); :meth:`ActionTable.move` and :meth:`ActionTable.index` convert.
``info["action_mask"]`` (``np.int8``, one entry per action) and
:meth:`PatienceEnv.action_masks` mark the legal ones: exactly the engine's
legal moves. An illegal action leaves the game as it was and gives no reward
(``illegal_action="ignore"``, the default, which keeps Gymnasium's checker
and unmasked agents working) or raises
:class:`~cardtable.errors.IllegalMoveError` (``illegal_action="raise"``).

Observations
------------
A :class:`~gymnasium.spaces.Box` of ``int16`` values, encoded from the
player's :class:`~cardtable.patience.PatienceView` only: a face-down card is
the code :data:`FACE_DOWN` (53) wherever it lies, never its identity, and the
stock is a count. A face-up card is coded ``1 + card.index`` (clubs A..K =
1..13, diamonds 14..26, hearts 27..39, spades 40..52; both decks' copies
alike), 0 is no card. :attr:`PatienceEnv.layout` names the fields (name ->
offset, size); a field a game has no pile for is left out:

- ``tableau``: each tableau pile bottom to top in a fixed number of slots
  (as many cards as a pile can ever hold: the deal's tallest pile where
  nothing builds on the tableau, else every card of the game);
- ``cells``: one slot a free cell;
- ``reserve``: each reserve pile bottom to top, in slots for its deal;
- ``waste``: the waste, top card first, in slots for the whole stock;
- ``foundations``: each foundation's top card and its card count;
- ``hole``: the hole's top card and its card count;
- ``stock``: the cards in the stock;
- ``pass_number`` and ``passes_left`` (after this pass; -1: no limit),
  where the waste may be turned over; ``redeals_left`` where the tableau
  may be dealt again; ``moves``: the moves played. Counts are capped at
  32,767.

Rewards
-------
``reward="foundation"`` (the default): the change in the game's returns on
each step, which is +1 for each card that reaches a foundation or the hole
and -1 for each that comes back (in a game won with one pile, Accordion: +1
for each pile gathered onto another), plus ``win_bonus`` (default 10) on the
step that wins. ``"win"``: 1 on the step that wins, otherwise 0.

Episode ends
------------
``terminated`` means the game is over by its rules: it is won, or no legal
move is left. ``truncated`` means the environment cut a game that could go
on: ``max_steps`` steps were taken (default 1,000), or ``stall_limit`` steps
went by (default 200; ``None``: never) without progress, that is no step
brought the returns above the episode's best or turned a card up or dealt
one. At the end ``info["outcome"]`` says which (``won``, ``no legal move``,
``max steps``, ``stalled``) and ``info["returns"]`` gives the game's returns.

Starting deals
--------------
``reset(seed=...)`` deals from the environment's random generator, so the
same seed gives the same deal. ``options={"deal_seed": N}`` deals the game's
deal ``N`` (the deal of ``cardtable deal --game NAME --seed N``; ``"ms:N"``
and ``"pysol:N"`` where the game has them); ``options={"deal": TEXT}``
starts from a position string (``cardtable show --game NAME``'s notation).

>>> env = PatienceEnv("freecell")
>>> observation, info = env.reset(options={"deal_seed": "ms:1"})
>>> env.action_space, observation.shape, int(info["action_mask"].sum()) == len(env.game.legal_moves())
(Discrete(804), (429,), True)
>>> env.actions.notation(env.actions.index(env.game.legal_moves()[0]))
'1>a'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, SupportsInt

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from cardtable.envs._settings import IllegalAction, check_settings, whole
from cardtable.errors import IllegalMoveError, RulesError
from cardtable.patience.description import Description, Direction, Fill, Kind, MoveUnit, StockTo
from cardtable.patience.engine import PatienceGame, PatienceView, PileView
from cardtable.patience.moves import ANY_FOUNDATION, DEAL, RECYCLE, Move, Place
from cardtable.patience.registry import load
from cardtable.patience.render import render

__all__ = ["FACE_DOWN", "REWARDS", "ActionTable", "ObservationLayout", "PatienceEnv", "encode_view", "game_of"]

#: The observation's code for a face-down card.
FACE_DOWN = 53
#: The reward choices.
REWARDS = ("foundation", "win")
_CAP = 32_767
_RANKS = 13
_SOURCE_KINDS = (Kind.TABLEAU, Kind.CELL, Kind.RESERVE, Kind.WASTE)

# An action: source, target (None: the deal), count (0: the whole pile), pair.
_Action = tuple[Place, Place | None, int, Place | None]


def game_of(game: str | Description) -> Description:
    """The description ``game`` names: a registry name with options
    (``"golf:wrap"``), a description file, or a description."""
    if isinstance(game, Description):
        return game
    if isinstance(game, str):
        return load(game)
    raise RulesError(f"game must be a game's name, a description file or a Description, not {game!r}")


def _places(description: Description, kind: Kind) -> list[Place]:
    return [Place(kind, i) for i in range(description.count(kind))]


def _dealt(description: Description, kind: Kind) -> list[int]:
    """How many cards the deal lays on each pile of ``kind``."""
    counts = [0] * description.count(kind)
    for step in description.deal:
        if step.to is kind:
            for i, n in enumerate(step.cards):
                counts[i] += n
    return counts


def tableau_capacity(description: Description) -> int:
    """The most cards a tableau pile can ever hold: its deal where no card
    goes on a tableau card (build ``none``, no stock dealing onto the
    tableau, no whole-pile moves), else every card of the game."""
    d = description
    t = d.tableau
    if t.build.direction is Direction.NONE and d.stock.to is not StockTo.TABLEAU and t.moves is not MoveUnit.PILE \
            and not d.redeals.count:
        return max(*_dealt(d, Kind.TABLEAU), 1)
    return d.cards.total


def _stock_size(description: Description) -> int:
    return description.cards.total - sum(sum(step.cards) for step in description.deal)


class ActionTable:
    """The fixed numbering of every move a description allows (see the
    module documentation for the order).

    >>> from cardtable.patience import get
    >>> table = ActionTable(get("golf"))
    >>> table.size, table.notation(0), table.notation(table.size - 1)
    (8, '1>H', 'D')
    """

    def __init__(self, description: Description) -> None:
        self.description = d = description
        t = d.tableau
        whole = t.moves is MoveUnit.PILE
        if t.moves is MoveUnit.ONE:
            counts = [1]
        elif whole:
            counts = [0]
        elif t.moves is MoveUnit.FACE_UP:
            counts = list(range(1, tableau_capacity(d) + 1))
        else:  # runs: at most a suit's ranks, unless a run may wrap
            longest = d.cards.total if t.run_rule.wrap else _RANKS
            counts = list(range(1, min(longest, tableau_capacity(d)) + 1))
        tableau_takes = t.build.direction is not Direction.NONE or t.empty is not Fill.NONE
        sources = [place for kind in _SOURCE_KINDS for place in _places(d, kind)]
        if d.foundations.may_return:
            sources += _places(d, Kind.FOUNDATION)
        home = d.foundations.count > 0 and not d.foundations.complete_runs
        actions: list[_Action] = []
        for source in sources:
            kind = source.kind
            if kind is not Kind.FOUNDATION:
                if home:
                    actions.append((source, ANY_FOUNDATION, 1, None))
                if d.hole.count:
                    actions.append((source, Place(Kind.HOLE), 1, None))
            if tableau_takes:
                for target in _places(d, Kind.TABLEAU):
                    if target == source:
                        continue
                    if kind is Kind.TABLEAU:
                        if t.reach is not None and target.index > source.index:
                            continue
                        actions.extend((source, target, count, None) for count in counts)
                    else:
                        actions.append((source, target, 1, None))
            if kind not in (Kind.CELL, Kind.FOUNDATION):
                actions.extend((source, cell, 1, None) for cell in _places(d, Kind.CELL))
        if d.hole.count and d.hole_pairs is not None:
            free = [place for place in sources if place.kind is not Kind.FOUNDATION]
            hole = Place(Kind.HOLE)
            actions.extend((a, hole, 1, b) for i, a in enumerate(free) for b in free[i + 1:])
        if d.stock.count or d.redeals.count:
            actions.append((DEAL.source, None, 1, None))
        if d.stock.to is StockTo.WASTE and d.stock.passes != 1:
            actions.append((RECYCLE.source, RECYCLE.target, 1, None))
        self._actions: tuple[_Action, ...] = tuple(actions)
        self._whole = whole
        self._index = {action: i for i, action in enumerate(actions)}
        #: How many actions there are.
        self.size = len(actions)

    def _key(self, move: Move) -> _Action:
        count = move.count
        if self._whole and move.source.kind is Kind.TABLEAU and move.target is not None \
                and move.target.kind is Kind.TABLEAU:
            count = 0
        return (move.source, move.target, count, move.pair)

    def index(self, move: Move) -> int:
        """The action index of ``move``; a move the description cannot make
        raises :class:`~cardtable.errors.RulesError`."""
        index = self._index.get(self._key(move))
        if index is None:
            raise RulesError(f"{move} is not a move of {self.description.title}")
        return index

    def move(self, index: SupportsInt, game: PatienceGame) -> Move:
        """The move of action ``index`` in ``game`` (whose piles say how many
        cards a whole-pile action carries); an index out of range raises
        :class:`~cardtable.errors.RulesError`."""
        i = int(index)
        if not 0 <= i < self.size:
            raise RulesError(f"action {i} is out of range: {self.description.title}'s actions are 0..{self.size - 1}")
        source, target, count, pair = self._actions[i]
        if target is None:
            return DEAL
        if count == 0:
            count = max(len(game.pile(source)), 1)
        return Move(source, target, count, pair)

    def action(self, index: int) -> tuple[Place, Place | None, int, Place | None]:
        """What action ``index`` is: its source, target (``None``: the deal),
        count (0: the whole pile) and the pair's place (Pyramid), or ``None``."""
        return self._actions[index]

    def notation(self, index: int) -> str:
        """Action ``index`` in move notation (``:*`` for a whole pile)."""
        source, target, count, pair = self._actions[index]
        if target is None:
            return "D"
        if count == 0:
            return f"{Move(source, target, 1)}:*"
        return str(Move(source, target, count, pair))

    def mask(self, moves: Sequence[Move]) -> np.ndarray:
        """The legal ``moves`` as a mask of ``np.int8`` (1: legal)."""
        mask = np.zeros(self.size, dtype=np.int8)
        for move in moves:
            mask[self.index(move)] = 1
        return mask


@dataclass(frozen=True, slots=True)
class ObservationLayout:
    """Where each field of a description's observation lies (see the module
    documentation): ``fields`` maps a name to (offset, size), ``slots`` the
    slots of one pile of each kind that takes slots."""

    fields: dict[str, tuple[int, int]]
    tableau_slots: int
    reserve_slots: int
    waste_slots: int

    @property
    def size(self) -> int:
        """The observation's length."""
        return sum(size for _, size in self.fields.values())

    @staticmethod
    def of(description: Description) -> ObservationLayout:
        d = description
        tableau_slots = tableau_capacity(d)
        reserve_slots = max(_dealt(d, Kind.RESERVE), default=0)
        waste_slots = _stock_size(d) if d.waste.count else 0
        recycles = d.stock.to is StockTo.WASTE and d.stock.passes != 1
        sizes = [("tableau", d.tableau.count * tableau_slots), ("cells", d.cells.count),
                 ("reserve", d.reserve.count * reserve_slots), ("waste", waste_slots),
                 ("foundations", 2 * d.foundations.count), ("hole", 2 * d.hole.count),
                 ("stock", d.stock.count), ("pass_number", int(recycles)), ("passes_left", int(recycles)),
                 ("redeals_left", int(d.redeals.count > 0)), ("moves", 1)]
        fields = {}
        offset = 0
        for name, size in sizes:
            if size:
                fields[name] = (offset, size)
                offset += size
        return ObservationLayout(fields, tableau_slots, reserve_slots, waste_slots)

    def bounds(self, description: Description) -> tuple[np.ndarray, np.ndarray]:
        """The lowest and highest value of each entry."""
        low = np.zeros(self.size, dtype=np.int16)
        high = np.full(self.size, FACE_DOWN, dtype=np.int16)
        total = description.cards.total
        if "foundations" in self.fields:
            offset, size = self.fields["foundations"]
            high[offset + 1:offset + size:2] = total
        if "hole" in self.fields:
            offset, _ = self.fields["hole"]
            high[offset + 1] = total
        if "stock" in self.fields:
            high[self.fields["stock"][0]] = total
        for name in ("pass_number", "passes_left", "moves"):
            if name in self.fields:
                high[self.fields[name][0]] = _CAP
        if "pass_number" in self.fields:
            low[self.fields["pass_number"][0]] = 1
            low[self.fields["passes_left"][0]] = -1
        if "redeals_left" in self.fields:
            high[self.fields["redeals_left"][0]] = description.redeals.count
        return low, high


def encode_view(view: PatienceView, layout: ObservationLayout | None = None, *, redeals_left: int = 0) -> np.ndarray:
    """The observation of a player's view (see the module documentation):
    only what the view shows, face-down cards as :data:`FACE_DOWN`;
    ``redeals_left`` is what the player knows of the redeals (La Belle Lucie)."""
    layout = layout if layout is not None else ObservationLayout.of(view.description)
    return _Encoder(view.description, layout).encode(view, redeals_left)


#: The order of the pile kinds in an observation.
_OBSERVED = (Kind.TABLEAU, Kind.CELL, Kind.RESERVE, Kind.WASTE, Kind.FOUNDATION, Kind.HOLE, Kind.STOCK)


class _Encoder:
    """:func:`encode_view` for one environment: it keeps each pile's codes
    from the last observation, and a move changes only a few piles."""

    __slots__ = ("_codes", "_description", "_layout", "_order", "_seen", "_size", "_slots")

    def __init__(self, description: Description, layout: ObservationLayout) -> None:
        self._description = description
        self._layout = layout
        self._size = layout.size
        places = [Place(kind, i) for kind in (Kind.TABLEAU, Kind.FOUNDATION, Kind.CELL, Kind.RESERVE, Kind.STOCK,
                                              Kind.WASTE, Kind.HOLE) for i in range(description.count(kind))]
        # the view's pile indices in the observation's order
        self._order = sorted(range(len(places)), key=lambda i: (_OBSERVED.index(places[i].kind), places[i].index))
        slots = {Kind.TABLEAU: layout.tableau_slots, Kind.RESERVE: layout.reserve_slots,
                 Kind.WASTE: layout.waste_slots}
        self._slots = [slots.get(places[i].kind, 0) for i in range(len(places))]
        self._seen: list[tuple[int, tuple[object, ...]] | None] = [None] * len(places)
        self._codes: list[list[int]] = [[] for _ in places]

    def _pile(self, pile: PileView, slots: int) -> list[int]:
        kind = pile.place.kind
        cards = pile.cards
        if kind is Kind.TABLEAU or kind is Kind.RESERVE:
            codes = [FACE_DOWN] * pile.face_down + [card.index + 1 for card in cards]
            return codes + [0] * (slots - len(codes))
        if kind is Kind.WASTE:
            codes = [card.index + 1 for card in reversed(cards)]
            return codes + [0] * (slots - len(codes))
        if kind is Kind.CELL:
            return [cards[-1].index + 1 if cards else (FACE_DOWN if pile.face_down else 0)]
        if kind is Kind.STOCK:
            return [len(pile)]
        return [cards[-1].index + 1 if cards else 0, len(pile)]  # a foundation, the hole

    def encode(self, view: PatienceView, redeals_left: int) -> np.ndarray:
        piles, seen, codes, slots = view.piles, self._seen, self._codes, self._slots
        for i in self._order:
            pile = piles[i]
            key = (pile.face_down, pile.cards)
            if seen[i] != key:
                seen[i] = key
                codes[i] = self._pile(pile, slots[i])
        tail = []
        fields = self._layout.fields
        if "pass_number" in fields:
            passes = self._description.stock.passes
            left = -1 if passes is None else min(max(passes - view.pass_number, 0), _CAP)
            tail += [min(view.pass_number, _CAP), left]
        if "redeals_left" in fields:
            tail.append(redeals_left)
        tail.append(min(view.moves_played, _CAP))
        return np.fromiter(chain(*(codes[i] for i in self._order), tail), np.int16, self._size)


class PatienceEnv(gym.Env[np.ndarray, np.int64]):
    """A patience game for one player, as a Gymnasium environment (see the
    module documentation for the actions, observations, rewards and episode
    ends).

    ``game`` names the game (a registry name with options, a description
    file or a :class:`~cardtable.patience.Description`); ``reward`` is one
    of :data:`REWARDS` and ``win_bonus`` what ``"foundation"`` adds for a
    win. ``max_steps`` and ``stall_limit`` (``None``: no limit) truncate long
    episodes; ``illegal_action`` says what an illegal action does.
    ``render_mode="ansi"`` makes :meth:`render` return the table as text.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (Gymnasium reads it from the class)

    def __init__(
        self,
        game: str | Description = "klondike",
        reward: str = "foundation",
        *,
        win_bonus: float = 10.0,
        max_steps: int = 1000,
        stall_limit: int | None = 200,
        illegal_action: IllegalAction = "ignore",
        render_mode: str | None = None,
    ) -> None:
        self.description = game_of(game)
        check_settings(reward, REWARDS, render_mode, self.metadata["render_modes"], illegal_action)
        if isinstance(win_bonus, bool) or not isinstance(win_bonus, int | float):
            raise RulesError(f"win_bonus must be a number, not {win_bonus!r}")
        self.reward_kind = reward
        self.win_bonus = float(win_bonus)
        self.max_steps = whole(max_steps, "max_steps", 1)
        self.stall_limit = None if stall_limit is None else whole(stall_limit, "stall_limit", 1)
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        #: The numbering of the game's moves.
        self.actions = ActionTable(self.description)
        #: Where each field of an observation lies.
        self.layout = ObservationLayout.of(self.description)
        self.action_space = spaces.Discrete(self.actions.size)
        low, high = self.layout.bounds(self.description)
        self.observation_space = spaces.Box(low, high, dtype=np.int16)
        self._game = PatienceGame.from_seed(self.description, 0)
        self._encoder = _Encoder(self.description, self.layout)
        self._mask = np.zeros(self.actions.size, dtype=np.int8)
        self._steps = self._stalled = 0
        self._best: tuple[float, int] = (0.0, 0)
        self._over = True

    @property
    def game(self) -> PatienceGame:
        """The game being played: the referee's copy, which knows the hidden cards."""
        return self._game

    # ----- starting ----------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new game (see "Starting deals" above); returns the first
        observation and ``{"action_mask": ...}``."""
        super().reset(seed=seed)
        self._game = self._start(options or {})
        self._steps = self._stalled = 0
        self._best = self._progress()
        self._over = False
        observation, mask = self._observe()
        info: dict[str, Any] = {"action_mask": mask}
        if not mask.any():  # a position with nothing left to do: any step ends the episode at once
            info["outcome"] = "won" if self._game.is_won() else "no legal move"
        return observation, info

    def _start(self, options: dict[str, Any]) -> PatienceGame:
        unknown = set(options) - {"deal", "deal_seed"}
        if unknown:
            raise RulesError(f"unknown reset option(s): {', '.join(sorted(map(str, unknown)))}; "
                             "use 'deal' (a position string) or 'deal_seed' (a deal number)")
        if "deal" in options and "deal_seed" in options:
            raise RulesError("give 'deal' or 'deal_seed', not both")
        if "deal" in options:
            from cardtable.patience.position import read_position

            text = options["deal"]
            if not isinstance(text, str):
                raise RulesError(f"the 'deal' option is a position string, not {text!r}")
            return read_position(self.description, text)
        if "deal_seed" in options:
            number = options["deal_seed"]
            if isinstance(number, bool) or not isinstance(number, int | np.integer | str):
                raise RulesError(f"'deal_seed' must be a whole number, ms:N or pysol:N, not {number!r}")
            return PatienceGame.from_seed(self.description, number if isinstance(number, str) else int(number))
        return PatienceGame.from_seed(self.description, int(self.np_random.integers(0, 2**63)))

    # ----- playing -----------------------------------------------------------------------------

    def _progress(self, returns: float | None = None) -> tuple[float, int]:
        game = self._game
        return (game.returns()[0] if returns is None else returns, -sum(game.down))

    def _observe(self) -> tuple[np.ndarray, np.ndarray]:
        view = self._game.view()
        observation = self._encoder.encode(view, self.description.redeals.count - self._game.redeals_used)
        self._mask = self.actions.mask(view.legal_moves)
        return observation, self._mask.copy()

    def step(self, action: SupportsInt) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Take one action; returns ``(observation, reward, terminated, truncated, info)``."""
        if self._over:
            raise RulesError("the episode is over: call reset() first")
        index = int(action)
        game = self._game
        before = game.returns()[0]
        if 0 <= index < self.actions.size and self._mask[index]:
            game.play(self.actions.move(index, game))
        elif self.illegal_action == "raise":
            raise IllegalMoveError(self._why_illegal(index))
        self._steps += 1
        won = game.is_won()
        after = game.returns()[0]
        if self.reward_kind == "win":
            reward = 1.0 if won else 0.0
        else:
            reward = after - before + (self.win_bonus if won else 0.0)
        progress = self._progress(after)
        if progress[0] > self._best[0] or progress[1] > self._best[1]:
            self._stalled = 0
            self._best = (max(progress[0], self._best[0]), max(progress[1], self._best[1]))
        else:
            self._stalled += 1
        observation, mask = self._observe()
        terminated = won or not mask.any()
        truncated = False
        outcome = ""
        if terminated:
            outcome = "won" if won else "no legal move"
        elif self._steps >= self.max_steps:
            truncated, outcome = True, "max steps"
        elif self.stall_limit is not None and self._stalled >= self.stall_limit:
            truncated, outcome = True, "stalled"
        info: dict[str, Any] = {"action_mask": mask}
        if outcome:
            self._over = True
            info["outcome"] = outcome
            info["returns"] = game.returns()[0]
        return observation, reward, terminated, truncated, info

    def _why_illegal(self, index: int) -> str:
        if not 0 <= index < self.actions.size:
            return f"action {index} is out of range: {self.description.title}'s actions are 0..{self.actions.size - 1}"
        move = self.actions.move(index, self._game)
        return f"illegal move {move} (action {index}): {self._game.why_illegal(move)}"

    # ----- what the player sees ------------------------------------------------------------------

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as ``np.int8`` (1: legal), the same as the last ``info["action_mask"]``."""
        return self._mask.copy()

    def view(self) -> PatienceView:
        """The player's view of the position now."""
        return self._game.view()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the table as text (face-down cards as
        ``##``, the stock as a count), as ``cardtable show --game`` draws it."""
        if self.render_mode != "ansi":
            return None
        return render(self._game.view(), unicode=False)
