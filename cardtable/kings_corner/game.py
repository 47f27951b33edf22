"""The Kings Corner rules engine: a hand of play with legal actions, play and undo.

>>> game = KingsCornerGame.from_seed(players=4, seed=7)
>>> game.turn, game.deck_count, len(game.hand(0))
(0, 20, 7)
>>> action = game.legal_actions()[-1]
>>> str(action)
'draw'
>>> game.play(action); game.turn
1
>>> game.undo() == action
True

Rules
-----
2 to 6 players; each is dealt seven cards from the top of the deck (player 0
first, seven at a time), then one card goes face up on each regular pile
``N E S W`` in that order. On a turn the player to move may play cards and move
piles (see :mod:`~cardtable.kings_corner.table`) as often as they like, then
ends the turn with ``draw`` (or ``pass`` once the deck is empty). Emptying the
hand wins at once. Corners never move, and a pile never moves onto an empty
regular pile, so each pile move leaves one pile fewer: a turn cannot cycle.

Stalemate: once the deck is empty, a full round of turns in which nobody played
a card or moved a pile ends the hand. Since playing is optional, a player who
declines to play is treated like one who cannot. Every action but ``draw`` and
``pass`` lowers *cards in hands + non-empty piles*, and the deck is finite, so
every hand ends.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cardtable.cards import Card, new_deck, shuffled_deck
from cardtable.game import HiddenCards
from cardtable.kings_corner.actions import DRAW, PASS, Action, Draw, MovePile, Pass, PlayCard, parse_action
from cardtable.kings_corner.errors import DeckError, IllegalActionError, TableError
from cardtable.kings_corner.table import (
    REGULAR,
    Deck,
    Pile,
    PilePosition,
    Player,
    can_move,
    can_place,
    penalty_points,
)

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "HandOutcome", "KingsCornerGame", "KingsCornerView"]

MIN_PLAYERS = 2
MAX_PLAYERS = 6


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """How a hand ended: the winner's seat (None on a stalemate), each seat's
    penalty points (0 for the winner) and the number of completed turns."""

    winner: int | None
    penalties: tuple[int, ...]
    turns: int

    @property
    def is_stalemate(self) -> bool:
        """True when nobody emptied their hand."""
        return self.winner is None


def legal_actions_for(
    hand: Iterable[Card], piles: Sequence[Sequence[Card]], deck_count: int
) -> list[Action]:
    """The legal actions for a player holding ``hand`` with these ``piles`` (indexed by
    :class:`PilePosition`, bottom first): pile moves, then card plays in hand order, then
    ``draw`` (or ``pass`` when the deck is empty)."""
    tops = [pile[-1] if pile else None for pile in piles]
    actions: list[Action] = []
    for source in REGULAR:
        if piles[source]:
            bottom = piles[source][0]
            for target in PilePosition:
                if target != source and can_move(bottom, tops[target], corner=target.is_corner):
                    actions.append(MovePile(source, target))
    for card in hand:
        for target in PilePosition:
            if can_place(card, tops[target], corner=target.is_corner):
                actions.append(PlayCard(card, target))
    actions.append(DRAW if deck_count else PASS)
    return actions


@dataclass(frozen=True, slots=True)
class KingsCornerView:
    """What one player sees: their own hand, the piles, the other players' hand sizes
    and the deck count. It holds no reference to the game, so other hands and the
    deck order cannot be read through it."""

    player: int
    hand: tuple[Card, ...]
    piles: tuple[tuple[Card, ...], ...]
    hand_sizes: tuple[int, ...]
    deck_count: int
    turn_actions: int

    @property
    def players(self) -> int:
        """The number of players at the table."""
        return len(self.hand_sizes)

    @property
    def next_player(self) -> int:
        """The seat that moves after this player."""
        return (self.player + 1) % len(self.hand_sizes)

    def top(self, position: PilePosition) -> Card | None:
        """The top card of a pile, or None when it is empty."""
        pile = self.piles[position]
        return pile[-1] if pile else None

    def legal_actions(self) -> list[Action]:
        """The legal actions (same order as :meth:`KingsCornerGame.legal_actions`)."""
        return legal_actions_for(self.hand, self.piles, self.deck_count)

    def hidden_cards(self) -> HiddenCards[Card]:
        """The cards this player cannot see (every card not in its hand or on a
        pile), in deck order, to fill the other players' hands seat by seat
        (its own seat takes none); the rest is the deck.

        >>> view = KingsCornerGame.from_seed(players=3, seed=1).view(0)
        >>> hidden = view.hidden_cards()
        >>> len(hidden.unseen), hidden.slots, hidden.rest
        (41, (0, 7, 7), 27)
        """
        seen = set(self.hand)
        for pile in self.piles:
            seen.update(pile)
        unseen = tuple(card for card in new_deck() if card not in seen)
        slots = tuple(0 if seat == self.player else size for seat, size in enumerate(self.hand_sizes))
        return HiddenCards(unseen, slots)


# What undo needs: the action, the acting seat's hand, the touched piles, the deck
# (for a draw) and the counters, all as they were before the action.
_Snapshot = tuple[
    Action, tuple[Card, ...], tuple[tuple[PilePosition, tuple[Card, ...]], ...],
    "tuple[Card, ...] | None", int, int, int, int, "HandOutcome | None",
]


class KingsCornerGame:
    """One hand of Kings Corner, from the deal to its outcome, with a stack of actions.

    ``deck`` lists all 52 cards, top first (the deal takes from the top). Without
    it the deck is in :func:`~cardtable.cards.new_deck` order; use :meth:`from_seed`
    for a shuffled deal.
    """

    __slots__ = (
        "_deck",
        "_idle",
        "_initial_deck",
        "_outcome",
        "_piles",
        "_players",
        "_stack",
        "_turn",
        "_turn_actions",
        "_turns",
    )

    def __init__(self, players: int = 4, deck: Iterable[Card] | None = None) -> None:
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise TableError(
                f"Kings Corner is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}"
            )
        self._deck = Deck(deck)
        if len(self._deck) != 52:
            raise DeckError(f"a deal needs all 52 cards, not {len(self._deck)}")
        self._initial_deck = self._deck.cards
        self._players = [Player(f"P{seat + 1}") for seat in range(players)]
        for player in self._players:
            self._deck.deal_hand(player)
        self._piles = [Pile(position) for position in PilePosition]
        for position in REGULAR:
            self._piles[position].place(self._deck.take(1)[0])
        self._turn = 0
        self._turns = 0
        self._idle = 0
        self._turn_actions = 0
        self._outcome: HandOutcome | None = None
        self._stack: list[_Snapshot] = []

    @classmethod
    def from_seed(cls, players: int = 4, seed: int = 0) -> KingsCornerGame:
        """A hand dealt from :func:`~cardtable.cards.shuffled_deck` ``(seed)``."""
        return cls(players, shuffled_deck(seed))

    # -- reading the position ------------------------------------------------

    @property
    def players(self) -> int:
        """The number of players."""
        return len(self._players)

    @property
    def turn(self) -> int:
        """The seat to move (0-based)."""
        return self._turn

    @property
    def turns(self) -> int:
        """Completed turns so far."""
        return self._turns

    @property
    def turn_actions(self) -> int:
        """Actions played so far in the current turn."""
        return self._turn_actions

    @property
    def deck_count(self) -> int:
        """Cards left in the deck."""
        return len(self._deck)

    @property
    def initial_deck(self) -> tuple[Card, ...]:
        """The deck as dealt, top first: the deal of this hand."""
        return self._initial_deck

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action played so far, in order."""
        return tuple(snapshot[0] for snapshot in self._stack)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards held by ``seat``, in the order received."""
        return self._players[seat].hand

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        return tuple(len(player) for player in self._players)

    def pile(self, position: PilePosition) -> tuple[Card, ...]:
        """The cards of a pile, bottom first."""
        return self._piles[position].cards

    @property
    def piles(self) -> tuple[tuple[Card, ...], ...]:
        """All eight piles, indexed by :class:`PilePosition`, bottom first."""
        return tuple(pile.cards for pile in self._piles)

    def deck_cards(self) -> tuple[Card, ...]:
        """The cards left in the deck, top first (hidden from players; for tests and
        referees)."""
        return self._deck.cards

    def view(self, seat: int | None = None) -> KingsCornerView:
        """What ``seat`` (default: the player to move) sees."""
        seat = self._turn if seat is None else seat
        return KingsCornerView(
            seat,
            self._players[seat].hand,
            self.piles,
            self.hand_sizes,
            len(self._deck),
            self._turn_actions if seat == self._turn else 0,
        )

    # -- rules -------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The legal actions for the player to move (empty once the hand is over)."""
        if self._outcome is not None:
            return []
        return legal_actions_for(
            self._players[self._turn].hand, self.piles, len(self._deck)
        )

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be played now."""
        return action in self.legal_actions()

    def outcome(self) -> HandOutcome | None:
        """How the hand ended, or None while it goes on."""
        return self._outcome

    def is_over(self) -> bool:
        """True once someone has emptied their hand or a stalemate was reached."""
        return self._outcome is not None

    def play(self, action: Action) -> None:
        """Play ``action`` for the player to move.

        Raises :class:`IllegalActionError` saying why when it breaks the rules; the
        game is then unchanged.
        """
        if self._outcome is not None:
            raise IllegalActionError(f"illegal action '{action}': the hand is over")
        player = self._players[self._turn]
        snapshot_hand = player.hand
        touched: tuple[tuple[PilePosition, tuple[Card, ...]], ...] = ()
        deck: tuple[Card, ...] | None = None
        try:
            if isinstance(action, PlayCard):
                pile = self._piles[action.target]
                touched = ((action.target, pile.cards),)
                player.play(action.card, pile)
            elif isinstance(action, MovePile):
                source, target = self._piles[action.source], self._piles[action.target]
                if source.is_empty and not source.is_corner:
                    raise IllegalActionError(f"pile {action.source} is empty")
                touched = ((action.source, source.cards), (action.target, target.cards))
                player.move_pile(source, target)
            elif isinstance(action, Draw):
                if self._deck.is_empty:
                    raise IllegalActionError("the deck is empty: end the turn with 'pass'")
                deck = self._deck.cards
            elif isinstance(action, Pass):
                if not self._deck.is_empty:
                    raise IllegalActionError("the deck is not empty: end the turn with 'draw'")
            else:
                raise IllegalActionError(f"not a Kings Corner action: {action!r}")
        except IllegalActionError as error:
            raise IllegalActionError(f"illegal action '{action}' by P{self._turn + 1}: {error}")\
                from None
        self._stack.append((
            action, snapshot_hand, touched, deck, self._turn, self._turns, self._idle,
            self._turn_actions, self._outcome,
        ))
        if isinstance(action, (Draw, Pass)):
            if isinstance(action, Draw):
                player.draw(self._deck)
                self._idle = 0
            else:
                self._idle = self._idle + 1 if self._turn_actions == 0 else 0
            self._turns += 1
            self._turn = (self._turn + 1) % len(self._players)
            self._turn_actions = 0
            if self._idle >= len(self._players):
                self._outcome = self._score(None)
        else:
            self._turn_actions += 1
            if player.has_won:
                self._outcome = self._score(self._turn)

    def _score(self, winner: int | None) -> HandOutcome:
        return HandOutcome(
            winner, tuple(penalty_points(p.hand) for p in self._players), self._turns
        )

    def undo(self) -> Action:
        """Take back the last action and return it; raises :class:`IllegalActionError`
        when there is none."""
        if not self._stack:
            raise IllegalActionError("nothing to undo")
        (action, hand, touched, deck, self._turn, self._turns, self._idle,
         self._turn_actions, self._outcome) = self._stack.pop()
        self._players[self._turn]._hand = list(hand)
        for position, cards in touched:
            self._piles[position]._cards = list(cards)
        if deck is not None:
            self._deck = Deck(deck)
        return action

    def clone(self) -> KingsCornerGame:
        """An independent copy, history included."""
        other = object.__new__(KingsCornerGame)
        other._players = [player.copy() for player in self._players]
        other._piles = [pile.copy() for pile in self._piles]
        other._deck = self._deck.copy()
        other._initial_deck = self._initial_deck
        other._turn = self._turn
        other._turns = self._turns
        other._idle = self._idle
        other._turn_actions = self._turn_actions
        other._outcome = self._outcome
        other._stack = list(self._stack)
        return other

    # -- the shared game interface (cardtable.game.GameState) ----------------------

    @property
    def num_players(self) -> int:
        """The number of seats (the same as :attr:`players`)."""
        return len(self._players)

    def current_player(self) -> int | None:
        """The seat to move, or ``None`` once the hand is over."""
        return None if self._outcome is not None else self._turn

    def returns(self) -> tuple[float, ...]:
        """Each seat's penalty points as a loss (``-points``; 0 for the
        winner) once the hand is over; zeros before."""
        if self._outcome is None:
            return (0.0,) * len(self._players)
        return tuple(-float(points) for points in self._outcome.penalties)

    def action_to_string(self, action: Action) -> str:
        """The action in action notation (``play 7h N``, ``move W E``, ``draw``)."""
        return str(action)

    def parse_action(self, text: str) -> Action:
        """Read an action in action notation (see :mod:`cardtable.kings_corner.actions`)."""
        return parse_action(text)

    def __repr__(self) -> str:
        state = "over" if self._outcome else f"P{self._turn + 1} to move"
        return f"<KingsCornerGame {len(self._players)} players, turn {self._turns + 1}, {state}>"
