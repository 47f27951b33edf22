"""The ``expert`` bot: it plans its turn, then checks the best plans by playing the
hand out on guessed deals.

The ``strategic`` search (:mod:`~cardtable.bots.kings_corner.strategic`) lists the
positions the bot can end its turn in, with weights tuned for matches (shed
cards and kings rather than hold them back). When the best of them differ, the
bot deals the cards it has not seen at random, consistently with what it sees
(each other player's hand size and the deck count: the view's
:meth:`~cardtable.kings_corner.game.KingsCornerView.hidden_cards`, dealt by
the game-level sampler :class:`cardtable.game.HiddenCards`, which the Klondike
expert guesses with too), and plays each candidate
out to the end of the hand, every seat playing the ``greedy`` way (its own seat
sheds its kings first). A candidate scores its own penalty points less half
the fewest any other player is left with: a match is won by the lowest total,
so a hand that leaves a rival with more is worth more. The same deals serve
every candidate, so the comparison is fair. The sixteen best candidates are
played out on a quarter of the deals, and the four best of those on the rest;
the one with the best mean is played.

This is determinized (information-set) Monte Carlo: the bot sees only its own
:class:`~cardtable.kings_corner.game.KingsCornerView`, and the guessed deals
come from its own seeded generator. The play-outs run on card indices (a table
says which card fits on which), which makes them several times quicker than on
:class:`~cardtable.cards.Card` objects.

>>> from cardtable.game import play_out
>>> from cardtable.kings_corner.game import KingsCornerGame
>>> from cardtable.bots.kings_corner import make_bot
>>> game = play_out(KingsCornerGame.from_seed(players=2, seed=3),
...                 [make_bot("expert", seed=1), make_bot("greedy")])
>>> game.is_over()
True
"""

from __future__ import annotations

import hashlib

from cardtable.bots.kings_corner._placement import CARDS, EMPTY, MOVE_ROWS, PLAY_ROWS
from cardtable.bots.kings_corner.strategic import StrategicBot, Weights, _key, _Pile, _Search
from cardtable.cards import Card, SplitMix64
from cardtable.errors import UsageError
from cardtable.kings_corner.actions import DRAW, PASS, Action, PlayCard
from cardtable.kings_corner.game import KingsCornerView
from cardtable.kings_corner.table import penalty_points

__all__ = ["EXPERT", "ExpertBot", "expert_plan", "view_seed"]

#: The weights the expert's search ranks its candidate end positions by: a
#: card kept costs more, and holding back is priced lower than ``strategic``'s.
EXPERT = Weights(card=100.0, penalty=20.0, king_in_corner=3.0, exposure=400.0,
                 danger=800.0, empty_deck=0.2)

_TURN_LIMIT = 400  # a played-out hand always ends well before this; a safety net


class _Candidates(_Search):
    """The strategic search, keeping every distinct end position it scores."""

    def __init__(self, view: KingsCornerView, hold_back: bool, weights: Weights) -> None:
        super().__init__(view, hold_back, weights)
        self.found: dict[tuple[object, ...], tuple[float, tuple[Card, ...], list[_Pile], list[Action]]] = {}

    def consider(self, value: float, hand: tuple[Card, ...], piles: list[_Pile],
                 path: list[Action]) -> None:
        super().consider(value, hand, piles, path)
        key = _key(hand, piles)
        kept = self.found.get(key)
        if kept is None or value > kept[0]:
            self.found[key] = (value, hand, list(piles), list(path))


# The rollouts play on card indices, with the rules module's answers as tables
# (see _placement): PLAY_ROWS and MOVE_ROWS say what may go on a pile, and
# _POINTS[card] is a card's penalty points.
_POINTS: list[int] = [penalty_points([card]) for card in CARDS]

# (bottom, top) card indices of a pile, or None when it is empty.
_IntPile = tuple[int, int] | None


def _greedy_turn(hand: list[int], piles: list[_IntPile]) -> bool:
    """Play a turn the ``greedy`` bot's way on compact piles of card indices: a pile
    move while there is one, else the first card of the hand that fits, until
    neither is left. Returns whether anything was played or moved."""
    acted = False
    while hand:
        moved = False
        for source in range(4):
            pile = piles[source]
            if pile is None:
                continue
            bottom = pile[0]
            for target, rows in enumerate(MOVE_ROWS):
                if target == source:
                    continue
                onto = piles[target]
                if onto is None:
                    if rows[EMPTY][bottom]:
                        piles[target], piles[source] = pile, None
                        moved = True
                        break
                elif rows[onto[1]][bottom]:
                    piles[target], piles[source] = (onto[0], pile[1]), None
                    moved = True
                    break
            if moved:
                break
        if not moved:
            for index, card in enumerate(hand):
                for target, rows in enumerate(PLAY_ROWS):
                    onto = piles[target]
                    if onto is None:
                        if rows[EMPTY][card]:
                            piles[target] = (card, card)
                            moved = True
                            break
                    elif rows[onto[1]][card]:
                        piles[target] = (onto[0], card)
                        moved = True
                        break
                if moved:
                    del hand[index]
                    break
        if not moved:
            return acted
        acted = True
    return acted


def _penalty(hand: list[int]) -> int:
    return sum(_POINTS[card] for card in hand)


def _play_out(hands: list[list[int]], piles: list[_IntPile], deck: list[int],
              turn: int, idle: int) -> list[int]:
    """Each seat's penalty points once the hand is played out the greedy way from
    ``turn``'s move (``idle``: turns in a row passed without acting)."""
    players = len(hands)
    for _ in range(_TURN_LIMIT):
        hand = hands[turn]
        acted = _greedy_turn(hand, piles)
        if not hand:
            break
        if deck:
            hand.append(deck.pop())
            idle = 0
        else:
            idle = 0 if acted else idle + 1
            if idle >= players:
                break
        turn = (turn + 1) % players
    return [_penalty(hand) for hand in hands]


class ExpertBot(StrategicBot):
    """Plans with the strategic search under :data:`EXPERT` weights, then chooses among
    the ``candidates`` best end positions by playing each out on a quarter of
    ``samples`` guessed deals, and the ``finalists`` best of them on the rest. A
    play-out scores the bot's penalty points less ``rival`` times the fewest of
    any other player (see the module documentation)."""

    name = "expert"
    weights = EXPERT

    def __init__(self, seed: int = 0, samples: int = 48, candidates: int = 16, finalists: int = 4,
                 rival: float = 0.5) -> None:
        if samples < 1 or candidates < 1 or finalists < 1:
            raise UsageError("the expert needs at least one sample, one candidate and one finalist")
        if not 0 <= rival <= 1:
            raise UsageError(f"the expert's rival weight must be between 0 and 1, not {rival}")
        self.samples = samples
        self.candidates = candidates
        self.finalists = finalists
        self.rival = rival
        super().__init__(seed)

    def new_game(self, seed: int = 0) -> None:
        """Forget any plan and reseed the guessed deals."""
        super().new_game(seed)
        self._rng = SplitMix64(seed ^ 0xE4BE47)

    def _make_plan(self, view: KingsCornerView, hold_back: bool) -> list[Action]:
        search = _Candidates(view, hold_back, self.weights)
        piles: list[_Pile] = [(p[0], p[-1]) if p else None for p in view.piles]
        search.run(tuple(view.hand), piles, [])
        ranked = sorted(search.found.values(), key=lambda item: -item[0])[:self.candidates]
        best = ranked[0]
        if len(ranked) > 1 and best[1]:
            best = self._check(view, ranked)
        path = best[3]
        if sum(isinstance(action, PlayCard) for action in path) < len(view.hand):
            path = [*path, DRAW if view.deck_count else PASS]
        return path

    def _check(
        self, view: KingsCornerView,
        ranked: list[tuple[float, tuple[Card, ...], list[_Pile], list[Action]]],
    ) -> tuple[float, tuple[Card, ...], list[_Pile], list[Action]]:
        """The candidate with the best (lowest) mean score over the guessed deals."""
        hidden = view.hidden_cards()
        players = view.players
        me = view.player
        totals = [0.0] * len(ranked)
        compact = [([card.index for card in hand], [None if pile is None else (pile[0].index, pile[1].index)
                                                    for pile in piles], bool(path))
                   for _, hand, piles, path in ranked]
        deals: list[tuple[list[list[int]], list[int]]] = []
        for _ in range(self.samples):
            guessed, rest = hidden.deal(self._rng)
            deals.append(([[card.index for card in cards] for cards in guessed], [card.index for card in rest]))
        alive = list(range(len(ranked)))
        first = max(1, self.samples // 4) if len(alive) > self.finalists else self.samples
        for count, (dealt, cards) in enumerate(deals):
            if count == first:
                alive = sorted(alive, key=lambda number: (totals[number], number))[:self.finalists]
            for number in alive:
                hand, piles, played = compact[number]
                hands = [list(h) for h in dealt]
                hands[me] = sorted(hand, key=lambda card: -_POINTS[card])  # the costliest (kings) first
                deck = list(cards)
                acted = played or view.turn_actions > 0
                idle = 0
                if deck:
                    hands[me].append(deck.pop())
                elif not acted:
                    idle = 1
                penalties = _play_out(hands, list(piles), deck, (me + 1) % players, idle)
                others = penalties[:me] + penalties[me + 1:]
                totals[number] += penalties[me] - self.rival * min(others)
        best = min(alive, key=lambda number: (totals[number], number))
        return ranked[best]


def view_seed(view: KingsCornerView) -> int:
    """A seed drawn from what ``view``'s player sees (the seat, the hand, the
    piles, the others' hand sizes, the deck count and the actions this turn),
    the same on every machine and in every process, so that the same view
    always gets the same guesses.

    >>> from cardtable.kings_corner.game import KingsCornerGame
    >>> view = KingsCornerGame.from_seed(players=2, seed=3).view(0)
    >>> view_seed(view) == view_seed(KingsCornerGame.from_seed(players=2, seed=3).view(0))
    True
    """
    text = "|".join([str(view.player), " ".join(map(str, view.hand)),
                     ";".join(" ".join(map(str, pile)) for pile in view.piles),
                     ",".join(map(str, view.hand_sizes)), str(view.deck_count), str(view.turn_actions)])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def expert_plan(view: KingsCornerView, *, samples: int = 48) -> list[Action]:
    """The ``expert``'s plan for the rest of ``view``'s player's turn, from that
    view alone: its best plays and pile moves, ending with ``draw`` or ``pass``
    unless they empty the hand. Its guesses of the hidden cards are seeded by
    :func:`view_seed`, so the same view always gets the same plan (a hint).

    >>> from cardtable.kings_corner.game import KingsCornerGame
    >>> view = KingsCornerGame.from_seed(players=3, seed=6).view(0)
    >>> expert_plan(view) == expert_plan(view)
    True
    """
    bot = ExpertBot(seed=view_seed(view), samples=samples)
    return bot._make_plan(view, hold_back=True)
