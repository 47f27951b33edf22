"""The ``expert`` bot: it plans its turn, then checks the best plans by playing the
hand out on guessed deals.

The ``strategic`` search (:mod:`~cardtable.kings_corner.strategic`) lists the
positions the bot can end its turn in, with weights tuned for matches (shed
cards and kings rather than hold them back). When the few best of them differ,
the bot deals the cards it has not seen at random, consistently with what it
sees (each other player's hand size and the deck count), and plays each
candidate out to the end of the hand, every seat playing the ``greedy`` way.
The candidate that leaves it the fewest penalty points on average over these
deals is played; the same deals serve every candidate, so the comparison is
fair. This is determinized (information-set) Monte Carlo: the bot sees only
its own :class:`~cardtable.kings_corner.game.KingsCornerView`, and the guessed
deals come from its own seeded generator.

>>> from cardtable.game import play_out
>>> from cardtable.kings_corner.game import KingsCornerGame
>>> from cardtable.kings_corner.bots import make_bot
>>> game = play_out(KingsCornerGame.from_seed(players=2, seed=3),
...                 [make_bot("expert", seed=1), make_bot("greedy")])
>>> game.is_over()
True
"""

from __future__ import annotations

from cardtable.cards import Card, SplitMix64
from cardtable.errors import UsageError
from cardtable.kings_corner.actions import DRAW, PASS, Action, PlayCard
from cardtable.kings_corner.game import KingsCornerView
from cardtable.kings_corner.strategic import _CHILDREN, StrategicBot, Weights, _key, _Pile, _Search
from cardtable.kings_corner.table import KING

__all__ = ["EXPERT", "ExpertBot"]

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


def _greedy_turn(hand: list[Card], piles: list[_Pile]) -> bool:
    """Play a turn the ``greedy`` bot's way on compact piles: a pile move while there
    is one, else the first card of the hand that fits, until neither is left.
    Returns whether anything was played or moved."""
    acted = False
    while hand:
        moved = False
        for source in range(4):
            pile = piles[source]
            if pile is None:
                continue
            bottom = pile[0]
            for target in range(8):
                if target == source:
                    continue
                onto = piles[target]
                if onto is None:
                    if target >= 4 and bottom.rank == KING:
                        piles[target], piles[source] = pile, None
                        moved = True
                        break
                elif bottom in _CHILDREN[onto[1]]:
                    piles[target], piles[source] = (onto[0], pile[1]), None
                    moved = True
                    break
            if moved:
                break
        if not moved:
            for index, card in enumerate(hand):
                for target in range(8):
                    onto = piles[target]
                    if onto is None:
                        if target < 4 or card.rank == KING:
                            piles[target] = (card, card)
                            moved = True
                            break
                    elif card in _CHILDREN[onto[1]]:
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


def _penalty(hand: list[Card]) -> int:
    return sum(10 if card.rank == KING else 1 for card in hand)


def _play_out(hands: list[list[Card]], piles: list[_Pile], deck: list[Card],
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
    the ``candidates`` best end positions by playing each out on ``samples`` guessed
    deals (see the module documentation)."""

    name = "expert"
    weights = EXPERT

    def __init__(self, seed: int = 0, samples: int = 8, candidates: int = 4, rival: float = 0.0,
                 mode: int = 0) -> None:
        if samples < 1 or candidates < 1:
            raise UsageError("the expert needs at least one sample and one candidate")
        self.samples = samples
        self.candidates = candidates
        self.rival = rival
        self.mode = mode
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
        """The candidate with the lowest mean penalty over the guessed deals."""
        seen: set[Card] = set(view.hand)
        for pile in view.piles:
            seen.update(pile)
        unseen = sorted(_all_cards() - seen)
        players = view.players
        me = view.player
        totals = [0.0] * len(ranked)
        for _ in range(self.samples):
            cards = list(unseen)
            for index in range(len(cards) - 1, 0, -1):
                other = self._rng.below(index + 1)
                cards[index], cards[other] = cards[other], cards[index]
            dealt: list[list[Card]] = []
            for seat in range(players):
                size = 0 if seat == me else view.hand_sizes[seat]
                dealt.append(cards[:size])
                del cards[:size]
            for number, (_, hand, piles, path) in enumerate(ranked):
                hands = [list(h) for h in dealt]
                hands[me] = list(hand)
                deck = list(cards)
                acted = bool(path) or view.turn_actions > 0
                idle = 0
                if deck:
                    hands[me].append(deck.pop())
                elif not acted:
                    idle = 1
                penalties = _play_out(hands, list(piles), deck, (me + 1) % players, idle)
                others = penalties[:me] + penalties[me + 1:]
                if self.mode == 0:
                    totals[number] += penalties[me] - self.rival * min(others)
                elif self.mode == 1:
                    totals[number] += penalties[me] - self.rival * sum(others) / len(others)
                else:
                    totals[number] += (penalties[me] > min(others)) + 0.01 * penalties[me]
        best = min(range(len(ranked)), key=lambda number: (totals[number], number))
        return ranked[best]


def _all_cards() -> set[Card]:
    return set(_CHILDREN)
