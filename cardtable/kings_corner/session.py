"""A Kings Corner table: its seats, the hands of a match and the running scores.

A :class:`KingsCornerSession` is what sits around one table: the entries (a
bot, or a person who plays from outside), the hand in play, whose turn it is,
the bots' turns, and the penalty totals of the match (a :class:`MatchScore`).
The bot-versus-bot match runner (:mod:`cardtable.sim.match`), the terminal
app (:mod:`cardtable.app.kings_corner`) and the line seat
(:mod:`cardtable.cli.kings_corner_seat`) all play through it, so a hand is
dealt, seated and seeded the same way wherever it is played.

The seeding rule
----------------
Hand ``h`` of a session with seed ``S`` is dealt from
:func:`~cardtable.cards.shuffled_deck` with seed ``derive_seed(S, h)``. Entry
``e`` (the order the seats were given in) sits in seat ``(e + h) mod
players``, so every entry moves first equally often (seat 0 moves first), and
its bot is made for the hand with seed ``derive_seed(S, h, e + 1)``. A hand
therefore depends only on ``(S, h)``, whoever plays it and wherever.

Why it lives in the rules package: the table session is part of the game as
it is played (penalty points add up to a match), and it names no player. A
seat is given as a factory that makes that seat's agent from its seed (such
as ``functools.partial(make_bot, "expert")``), or ``None`` for a person, so
this module imports no bot, simulator or face; the bots' turns go through
:func:`cardtable.game.play_out`, the loop every runner shares.

>>> from functools import partial
>>> from cardtable.bots.kings_corner import make_bot
>>> session = KingsCornerSession([None, partial(make_bot, "greedy")], seed=4, names=["You", "Bot"])
>>> session.seat_of(0), session.seat_names
(0, ('You', 'Bot'))
>>> session.bot_to_act
False
>>> session.game.play(session.game.legal_actions()[-1])  # you end your turn
>>> session.play_bots() > 0, session.game.turn
(True, 0)
>>> _ = session.deal()  # the next hand: the bot moves first
>>> session.hand, session.seat_names, session.bot_to_act
(1, ('Bot', 'You'), True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from cardtable.cards import SplitMix64
from cardtable.game import Agent, play_out
from cardtable.kings_corner.actions import Action
from cardtable.kings_corner.errors import TableError
from cardtable.kings_corner.game import MAX_PLAYERS, MIN_PLAYERS, HandOutcome, KingsCornerGame, KingsCornerView
from cardtable.kings_corner.record import HandRecord

__all__ = ["MATCH_TARGET", "BotFactory", "KingsCornerSession", "MatchScore", "derive_seed"]

#: The penalty total that ends a match unless told otherwise.
MATCH_TARGET = 25

#: What fills a bot's seat: given the bot's seed for a hand, it makes the bot.
BotFactory = Callable[[int], Agent[KingsCornerView, Action]]

T = TypeVar("T")

_MASK = (1 << 64) - 1


def derive_seed(seed: int, *parts: int) -> int:
    """A 64-bit seed mixed from ``seed`` and ``parts`` with SplitMix64 (stable everywhere).

    >>> derive_seed(0, 1) == derive_seed(0, 1) != derive_seed(0, 2)
    True
    """
    state = seed & _MASK
    for part in parts:
        state = SplitMix64(state ^ ((part * 0xD1B54A32D192ED03) & _MASK)).next()
    return state


class MatchScore:
    """The penalty totals of a match, entry by entry: the match is over once a
    total reaches ``target``, and the lowest total wins it (a tie shares it).

    >>> score = MatchScore(3, target=10)
    >>> score.add([0, 4, 7]); score.add([2, 0, 5])
    >>> score.totals, score.is_over, score.leaders
    ([2, 4, 12], True, (0,))
    """

    __slots__ = ("target", "totals")

    def __init__(self, players: int, target: int = MATCH_TARGET) -> None:
        self.target = target
        #: Each entry's penalty points so far.
        self.totals = [0] * players

    def add(self, penalties: Sequence[int]) -> None:
        """Add one hand's penalty points, entry by entry."""
        if len(penalties) != len(self.totals):
            raise ValueError(f"{len(penalties)} penalties for {len(self.totals)} entries")
        for entry, points in enumerate(penalties):
            self.totals[entry] += points

    @property
    def is_over(self) -> bool:
        """True once some total has reached the target."""
        return max(self.totals) >= self.target

    @property
    def leaders(self) -> tuple[int, ...]:
        """The entries with the lowest total (the winners, once the match is over)."""
        low = min(self.totals)
        return tuple(entry for entry, total in enumerate(self.totals) if total == low)


class KingsCornerSession:
    """A table of ``len(seats)`` entries playing hand after hand, seeded by ``seed``
    (see the module documentation for the seeding rule).

    ``seats`` holds, entry by entry, a :data:`BotFactory` or ``None`` for a
    person, whose actions the caller plays on :attr:`game` itself; ``names``
    are the entries' names (``Player 1``, ``Player 2``... unless given). Hand
    ``hand`` is dealt at once; :meth:`deal` deals the next ones.
    """

    #: The hand in play, counted from 0.
    hand: int
    #: The hand's game.
    game: KingsCornerGame
    #: The entry in each seat this hand.
    seating: tuple[int, ...]
    #: Each seat's agent this hand (``None``: a person's seat).
    agents: tuple[Agent[KingsCornerView, Action] | None, ...]

    def __init__(self, seats: Sequence[BotFactory | None], seed: int = 0, *, target: int = MATCH_TARGET,
                 names: Sequence[str] | None = None, hand: int = 0) -> None:
        if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
            raise TableError(f"a table seats {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(seats)}")
        if names is not None and len(names) != len(seats):
            raise TableError(f"{len(names)} names for {len(seats)} seats")
        self.seats = tuple(seats)
        self.seed = seed
        #: The entries' names, in entry order.
        self.names = tuple(names) if names is not None else tuple(f"Player {e + 1}" for e in range(len(seats)))
        #: The match's penalty totals, entry by entry.
        self.score = MatchScore(len(seats), target)
        self.deal(hand)

    @property
    def players(self) -> int:
        """How many sit at the table."""
        return len(self.seats)

    def deal(self, hand: int | None = None) -> KingsCornerGame:
        """Deal hand ``hand`` (default: the one after the current hand), seat the
        entries and make their bots; returns the new :attr:`game`."""
        hand = self.hand + 1 if hand is None else hand
        if hand < 0:
            raise TableError(f"hands are counted from 0, not {hand}")
        count = self.players
        self.hand = hand
        self.game = KingsCornerGame.from_seed(count, derive_seed(self.seed, hand))
        self.seating = tuple((seat - hand) % count for seat in range(count))
        agents: list[Agent[KingsCornerView, Action] | None] = []
        for entry in self.seating:
            factory = self.seats[entry]
            agents.append(None if factory is None else factory(derive_seed(self.seed, hand, entry + 1)))
        self.agents = tuple(agents)
        self._scored = False
        return self.game

    def seat_of(self, entry: int) -> int:
        """The seat entry ``entry`` sits in this hand."""
        return (entry + self.hand) % self.players

    @property
    def seat_names(self) -> tuple[str, ...]:
        """The entries' names in seat order, seat 0 first."""
        return tuple(self.names[entry] for entry in self.seating)

    def by_entry(self, per_seat: Sequence[T]) -> tuple[T, ...]:
        """Values given seat by seat (a hand's penalty points), put in entry order."""
        return tuple(per_seat[self.seat_of(entry)] for entry in range(self.players))

    @property
    def bot_to_act(self) -> bool:
        """True when the hand goes on and a bot is to act."""
        seat = self.game.current_player()
        return seat is not None and self.agents[seat] is not None

    def play_bots(self, *, max_actions: int | None = None,
                  on_action: Callable[[int, Action], None] | None = None) -> int:
        """Let the bots act in turn until a person is to act, the hand is over or
        ``max_actions`` actions were taken (with :func:`cardtable.game.play_out`;
        ``on_action(seat, action)`` follows each action); returns how many
        actions were taken."""
        before = len(self.game.history)
        play_out(self.game, self.agents, max_actions=max_actions, on_action=on_action)
        return len(self.game.history) - before

    def score_hand(self) -> HandOutcome:
        """Add the finished hand's penalty points to :attr:`score` and return its
        outcome (in seats). Before the hand is over, or a second time, it
        raises :class:`TableError`."""
        outcome = self.game.outcome()
        if outcome is None:
            raise TableError(f"hand {self.hand + 1} is not over yet")
        if self._scored:
            raise TableError(f"hand {self.hand + 1} is already scored")
        self.score.add(self.by_entry(outcome.penalties))
        self._scored = True
        return outcome

    def record(self, *tags: tuple[str, str]) -> HandRecord:
        """The hand so far as a record, with the names in seat order, the session's
        seed and any further ``tags``."""
        return HandRecord.from_game(
            self.game, [("Names", ",".join(self.seat_names)), ("Seed", str(self.seed)), *tags])
