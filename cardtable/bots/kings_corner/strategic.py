"""The ``strategic`` bot: it plans its whole turn before making the first action.

At the start of a turn it searches every order of card plays and pile moves
open to it (depth first, with a transposition table; regular piles are
interchangeable, and so are corners, so positions are compared up to that
symmetry) and ends the turn in the best position found, scored by:

1. cards left in its hand (fewer is better; an empty hand wins outright);
2. penalty points in its hand, so kings go first when there is a choice;
3. kings in the corners: a king is better in a corner than plugging a regular
   pile, where nothing can ever go under it;
4. exposure: the unseen cards (not in its hand nor on the table) that the next
   player could shed on the position it leaves (on each top card, any card on an
   empty regular pile, a king on an empty corner), weighted by the next player's
   hand size, and heavily when the next player is about to go out. So it avoids
   handing over empty piles it cannot fill itself, and it will hold cards back
   rather than feed the next player. Once the deck is empty it holds back less,
   and not at all when nobody has played since its last turn (holding back then
   only ends the hand in a stalemate).

The search works on a compact copy of the view (each pile reduced to its bottom
and top card) and is bounded by a node budget, so a turn always takes little time.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtable.bots.kings_corner._placement import MOVES_ON, PLAYS_ON
from cardtable.cards import Card
from cardtable.kings_corner.actions import DRAW, PASS, Action, MovePile, PlayCard
from cardtable.kings_corner.game import KingsCornerView
from cardtable.kings_corner.table import KING, PilePosition, penalty_points

__all__ = ["STRATEGIC", "StrategicBot", "Weights", "plan_turn"]

# The placement rules, as the rules module answers them (see _placement):
# what may be played on a pile top or moved onto it, by position, and what may
# fill an empty regular pile or corner.
_POSITIONS = tuple(PilePosition)
_PLAYS = [PLAYS_ON[position.is_corner] for position in _POSITIONS]
_MOVES = [MOVES_ON[position.is_corner] for position in _POSITIONS]
_FILLS_REGULAR, _FILLS_CORNER = PLAYS_ON[False][None], PLAYS_ON[True][None]

# (bottom, top) of a pile, or None when it is empty.
_Pile = tuple[Card, Card] | None

@dataclass(frozen=True, slots=True)
class Weights:
    """The weights of the end-of-turn score, in hundredths of a card.

    ``card`` is the cost of a card kept in hand and ``penalty`` the cost of each
    penalty point it carries (10 for a king, 1 for any other card);
    ``king_in_corner`` rewards a king moved out of a regular pile's way;
    ``exposure`` and ``danger`` price the unseen cards the next player could shed
    on the position left (``danger`` only when that player holds one or two
    cards); ``empty_deck`` scales the exposure once the deck is empty.
    """

    card: float = 100.0
    penalty: float = 2.0
    king_in_corner: float = 3.0
    exposure: float = 1500.0
    danger: float = 1500.0
    empty_deck: float = 0.5


# The exposure weights are far above a literal "expected cards handed over":
# denying the other players pays more than shedding a card, and the figures were
# tuned against the greedy bot for the hands it wins.
#: The ``strategic`` bot's weights.
STRATEGIC = Weights()
_WIN = 1e9
_NODE_BUDGET = 4000


def _key(hand: tuple[Card, ...], piles: list[_Pile]) -> tuple[object, ...]:
    codes = [0 if p is None else p[0].index * 64 + p[1].index + 1 for p in piles]
    return (
        frozenset(hand),
        tuple(sorted(codes[:4])),
        tuple(sorted(codes[4:])),
    )


def _has_pile_move(piles: list[_Pile]) -> bool:
    """Whether a pile move is open (to the next player it is as good as an empty pile)."""
    for source, moving in enumerate(piles[:4]):
        if moving is None:
            continue
        bottom = moving[0]
        if any(target != source and bottom in _MOVES[target][None if pile is None else pile[1]]
               for target, pile in enumerate(piles)):
            return True
    return False


class _Search:
    def __init__(self, view: KingsCornerView, hold_back: bool, weights: Weights) -> None:
        self.weights = weights
        self.seen: set[Card] = set(view.hand)
        for pile in view.piles:
            self.seen.update(pile)
        unseen = 52 - len(self.seen)
        sizes = view.hand_sizes
        self.next_size = sizes[(view.player + 1) % len(sizes)]
        self.p_held = min(1.0, self.next_size / unseen) if unseen else 0.0
        if view.deck_count == 0:
            self.p_held *= weights.empty_deck if hold_back else 0.0
        self.unseen_regular = len(_FILLS_REGULAR - self.seen)
        self.unseen_corner = len(_FILLS_CORNER - self.seen)
        self.unseen = unseen
        self.visited: set[tuple[object, ...]] = set()
        self.best_score = float("-inf")
        self.best_path: list[Action] = []

    def consider(self, value: float, hand: tuple[Card, ...], piles: list[_Pile],
                 path: list[Action]) -> None:
        """Note a position reached by ``path``, scored ``value``."""
        del hand, piles
        if value > self.best_score:
            self.best_score = value
            self.best_path = list(path)

    def score(self, hand: tuple[Card, ...], piles: list[_Pile]) -> float:
        if not hand:
            return _WIN
        weights = self.weights
        value = -weights.card * len(hand)
        value -= weights.penalty * penalty_points(hand)
        exposed: set[Card] = set()
        empty_regular = empty_corner = False
        for position, pile in enumerate(piles):
            if pile is None:
                if position < 4:
                    empty_regular = True
                else:
                    empty_corner = True
            else:
                exposed |= _PLAYS[position][pile[1]]
                if position >= 4 and pile[0].rank == KING:
                    value += weights.king_in_corner
        if not empty_regular:
            empty_regular = _has_pile_move(piles)
        count = (
            self.unseen_regular if empty_regular
            else len(exposed - self.seen) + (self.unseen_corner if empty_corner else 0)
        )
        value -= weights.exposure * count * self.p_held
        if self.next_size <= 2 and self.unseen:
            value -= weights.danger * min(1.0, count / self.unseen) / self.next_size
        return value

    def run(self, hand: tuple[Card, ...], piles: list[_Pile], path: list[Action]) -> None:
        key = _key(hand, piles)
        if key in self.visited:
            return
        self.visited.add(key)
        self.consider(self.score(hand, piles), hand, piles, path)
        if not hand or len(self.visited) >= _NODE_BUDGET:
            return
        empty_regular = next((i for i in range(4) if piles[i] is None), None)
        empty_corner = next((i for i in range(4, 8) if piles[i] is None), None)
        for source in range(4):
            moving = piles[source]
            if moving is None:
                continue
            bottom = moving[0]
            for target in range(8):
                pile = piles[target]
                if target == source:
                    continue
                if pile is None:  # empty piles of a kind are alike: only the first is tried
                    if target not in (empty_regular, empty_corner) or bottom not in _MOVES[target][None]:
                        continue
                    merged = moving
                elif bottom in _MOVES[target][pile[1]]:
                    merged = (pile[0], moving[1])
                else:
                    continue
                after = list(piles)
                after[target] = merged
                after[source] = None
                path.append(MovePile(_POSITIONS[source], _POSITIONS[target]))
                self.run(hand, after, path)
                path.pop()
        for index, card in enumerate(hand):
            rest = hand[:index] + hand[index + 1:]
            for target in range(8):
                pile = piles[target]
                if pile is None:
                    if target not in (empty_regular, empty_corner) or card not in _PLAYS[target][None]:
                        continue
                    placed = (card, card)
                elif card in _PLAYS[target][pile[1]]:
                    placed = (pile[0], card)
                else:
                    continue
                after = list(piles)
                after[target] = placed
                path.append(PlayCard(card, _POSITIONS[target]))
                self.run(rest, after, path)
                path.pop()


def plan_turn(
    view: KingsCornerView, hold_back: bool = True, weights: Weights = STRATEGIC
) -> list[Action]:
    """The best sequence of plays and pile moves found for ``view``'s player, ending
    with ``draw``/``pass`` unless it empties the hand.

    With ``hold_back=False`` and the deck empty, it ignores what it hands over and
    sheds what it can (to break a stalemate that would cost it its hand).
    ``weights`` prices the positions (see :class:`Weights`).
    """
    search = _Search(view, hold_back, weights)
    piles: list[_Pile] = [(p[0], p[-1]) if p else None for p in view.piles]
    search.run(tuple(view.hand), piles, [])
    path = search.best_path
    if sum(isinstance(action, PlayCard) for action in path) < len(view.hand):
        path = [*path, DRAW if view.deck_count else PASS]
    return path


class StrategicBot:
    """Plans its whole turn with :func:`plan_turn`, then plays the plan out."""

    name = "strategic"
    #: How the bot prices the position it ends its turn in.
    weights: Weights = STRATEGIC

    def __init__(self, seed: int = 0) -> None:
        self.new_game(seed)

    def new_game(self, seed: int = 0) -> None:
        """Forget any plan (the bot is deterministic: ``seed`` is not used)."""
        del seed
        self._plan: list[Action] = []
        self._expect: tuple[object, ...] | None = None
        self._left: tuple[object, ...] | None = None

    def choose(self, view: KingsCornerView) -> Action:
        """The next action of this turn's plan (planning it when the turn starts).

        Holding back pays while others feed the piles; but when the deck is empty
        and nobody has played since its last turn, holding back would only end the
        hand in a stalemate, so it sheds what it can.
        """
        state = (view.player, view.deck_count, view.turn_actions, len(view.hand))
        if not self._plan or state != self._expect or self._plan[0] not in view.legal_actions():
            stalled = view.deck_count == 0 and self._left == _table(view)
            self._plan = self._make_plan(view, hold_back=not stalled)
        action = self._plan.pop(0)
        played = 1 if isinstance(action, PlayCard) else 0
        self._expect = (view.player, view.deck_count, view.turn_actions + 1,
                        len(view.hand) - played)
        if action is DRAW or action is PASS:
            self._left = _table(view)
        return action

    def _make_plan(self, view: KingsCornerView, hold_back: bool) -> list[Action]:
        """This turn's plan (subclasses may weigh the candidates otherwise)."""
        return plan_turn(view, hold_back=hold_back, weights=self.weights)


def _table(view: KingsCornerView) -> tuple[object, ...]:
    return (view.player, view.piles, view.hand_sizes[:view.player]
            + view.hand_sizes[view.player + 1:])
