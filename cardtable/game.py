"""The one game interface every game, bot, runner and face speaks.

In the style of OpenSpiel's game/state split, a game state offers:

- :meth:`GameState.current_player`: the seat to act (0 in a one-player
  game), or ``None`` once no action is left;
- :meth:`GameState.legal_actions`, :meth:`GameState.play` and
  :meth:`GameState.undo`;
- :meth:`GameState.is_over` and :meth:`GameState.returns`, one number per
  seat;
- :meth:`GameState.view`: what one seat is allowed to see (hidden cards are
  not in it);
- :meth:`GameState.clone`, and action notation both ways
  (:meth:`GameState.action_to_string`, :meth:`GameState.parse_action`).

Klondike (:class:`cardtable.klondike.KlondikeGame`) is its one-player case
and Kings Corner (:class:`cardtable.kings_corner.KingsCornerGame`) its 2-to-6
player case. An :class:`Agent` chooses an action from a view; every Klondike
bot and every Kings Corner bot is one, so :func:`play_out` runs either game,
and every runner (a simulation, a match, a table with a person at it) plays
through it.

A player who guesses what it cannot see asks its view for
:class:`HiddenCards` (the unseen cards and the places they fill) and deals
them with its own seeded generator: both games' experts guess that one way.

>>> from cardtable.klondike import KlondikeGame, Variant
>>> from cardtable.bots.klondike import make_player
>>> game = KlondikeGame.from_seed(3, Variant.preset("seed-002"))
>>> isinstance(game, GameState), isinstance(make_player("priority"), Agent)
(True, True)
>>> _ = play_out(game, [make_player("priority")])
>>> len(game.moves) > 0, game.current_player() in (0, None)
(True, True)
>>> from cardtable.kings_corner import KingsCornerGame
>>> from cardtable.bots.kings_corner import make_bot
>>> table = KingsCornerGame.from_seed(players=2, seed=5)
>>> _ = play_out(table, [make_bot("greedy"), make_bot("strategic")])
>>> table.is_over(), len(table.returns())
(True, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from cardtable.cards import SplitMix64

__all__ = ["Agent", "GameState", "HiddenCards", "play_out"]

A = TypeVar("A")
V_co = TypeVar("V_co", covariant=True)
A_co = TypeVar("A_co", covariant=True)
V_contra = TypeVar("V_contra", contravariant=True)
S = TypeVar("S", bound="GameState[Any, Any]")
C = TypeVar("C")


@runtime_checkable
class GameState(Protocol[A, V_co]):
    """A game in progress: the rules, the position and the actions played.

    ``A`` is the game's action type, ``V_co`` the type of a seat's view.
    """

    @property
    def num_players(self) -> int:
        """How many seats the game has (1 for Klondike)."""
        ...

    def current_player(self) -> int | None:
        """The seat to act, or ``None`` once no action is left."""
        ...

    def legal_actions(self) -> list[A]:
        """Every action the seat to act may take, in the game's fixed order."""
        ...

    def play(self, action: A) -> None:
        """Take ``action`` for the seat to act; an illegal one raises
        :class:`~cardtable.errors.IllegalMoveError` and changes nothing."""
        ...

    def undo(self) -> A:
        """Take back the last action and return it; the state before it is
        restored exactly. With nothing to undo it raises
        :class:`~cardtable.errors.IllegalMoveError`."""
        ...

    def is_over(self) -> bool:
        """True once the game has ended."""
        ...

    def returns(self) -> tuple[float, ...]:
        """What each seat has gained so far (the final result once the game is over)."""
        ...

    def view(self, player: int | None = None) -> V_co:
        """What ``player`` (default: the seat to act) is allowed to see."""
        ...

    def clone(self) -> GameState[A, V_co]:
        """An independent copy, history included."""
        ...

    def action_to_string(self, action: A) -> str:
        """An action in the game's notation."""
        ...

    def parse_action(self, text: str) -> A:
        """Read an action in the game's notation; bad text raises
        :class:`~cardtable.errors.NotationError` naming it."""
        ...


@runtime_checkable
class Agent(Protocol[V_contra, A_co]):
    """Anything that chooses an action from a view: a bot, a policy, a person.

    :meth:`choose` returns one of the view's legal actions, or ``None`` to stop
    (a one-player game then ends there; in a game of several seats an agent
    must always act). :meth:`new_game` clears any memory and seeds any
    randomness the agent uses.
    """

    name: str

    def new_game(self, seed: int = 0) -> None:
        """Forget the last game; ``seed`` feeds any randomness."""
        ...

    def choose(self, view: V_contra) -> A_co | None:
        """The next action, or ``None`` to stop."""
        ...


@dataclass(frozen=True, slots=True)
class HiddenCards(Generic[C]):
    """The cards a seat cannot see and the hidden places they fill, as the
    seat knows them: a game's view gives them (``hidden_cards()``).

    ``unseen`` lists the cards in the game's fixed order (deck order);
    ``slots`` says how many of them each hidden place holds, place by place
    (the face-down cards of a pile, another player's hand); the cards left
    over fill the last place, the stock or the deck. What the seat has seen
    in place (a face-up card, the stock order it saw on an earlier pass) is
    not among them.

    >>> from cardtable.cards import Card
    >>> hidden = HiddenCards(tuple(Card.parse(c) for c in "Ah 2h 3h 4h 5h".split()), (2, 0, 1))
    >>> hidden.rest
    2
    >>> places, rest = hidden.deal(SplitMix64(7))
    >>> [len(place) for place in places], len(rest)
    ([2, 0, 1], 2)
    >>> sorted(places[0] + places[2] + rest) == list(hidden.unseen)
    True
    """

    unseen: tuple[C, ...]
    slots: tuple[int, ...]

    def __post_init__(self) -> None:
        if any(size < 0 for size in self.slots) or sum(self.slots) > len(self.unseen):
            raise ValueError(f"{len(self.unseen)} unseen cards cannot fill places of {list(self.slots)} cards")

    @property
    def rest(self) -> int:
        """How many unseen cards are left for the last place (the stock or the deck)."""
        return len(self.unseen) - sum(self.slots)

    def deal(self, rng: SplitMix64) -> tuple[list[list[C]], list[C]]:
        """A guess that agrees with everything the seat has seen: the unseen
        cards shuffled by ``rng`` (Fisher-Yates, from the last card down, one
        :meth:`~cardtable.cards.SplitMix64.below` draw per card but the first),
        dealt to the slots in order; returns the slots' cards and the cards
        left over, in the shuffled order."""
        cards = list(self.unseen)
        for index in range(len(cards) - 1, 0, -1):
            other = rng.below(index + 1)
            cards[index], cards[other] = cards[other], cards[index]
        places = []
        start = 0
        for size in self.slots:
            places.append(cards[start:start + size])
            start += size
        return places, cards[start:]


def play_out(
    state: S,
    agents: Sequence[Agent[Any, Any] | None],
    *,
    max_actions: int | None = None,
    on_action: Callable[[int, Any], None] | None = None,
) -> S:
    """Let ``agents`` (one per seat) act until no action is left, an agent of
    a one-player game stops, a seat without an agent is to act, or
    ``max_actions`` actions were taken; returns ``state``, which has been
    played on.

    A seat whose agent is ``None`` is played from outside (a person at the
    table): the play stops when its turn comes, to go on once it has acted.
    ``on_action(player, action)`` is called after each action is played.

    An agent that stops in a game of several seats is a bug in that agent and
    raises :class:`RuntimeError`.

    >>> from cardtable.kings_corner import KingsCornerGame
    >>> from cardtable.bots.kings_corner import make_bot
    >>> table = KingsCornerGame.from_seed(players=2, seed=5)
    >>> played = []
    >>> _ = play_out(table, [None, make_bot("greedy")], on_action=lambda seat, action: played.append(seat))
    >>> table.current_player(), played
    (0, [])
    >>> table.play(table.legal_actions()[-1])  # seat 0 ends its turn
    >>> _ = play_out(table, [None, make_bot("greedy")], on_action=lambda seat, action: played.append(seat))
    >>> table.current_player(), set(played)
    (0, {1})
    """
    taken = 0
    while max_actions is None or taken < max_actions:
        player = state.current_player()
        if player is None:
            break
        agent = agents[player]
        if agent is None:
            break
        action = agent.choose(state.view(player))
        if action is None:
            if state.num_players == 1:
                break
            raise RuntimeError(f"agent {agent.name!r} in seat {player} chose no action")
        state.play(action)
        taken += 1
        if on_action is not None:
            on_action(player, action)
    return state
