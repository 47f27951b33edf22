"""The ``expert`` Kings Corner bot: legal, reproducible, and blind to hidden cards."""

from __future__ import annotations

from collections import Counter

import pytest

from cardtable.bots.kings_corner import make_bot
from cardtable.bots.kings_corner.expert import ExpertBot
from cardtable.cards import Card, SplitMix64, new_deck, shuffled_deck
from cardtable.errors import UsageError
from cardtable.game import play_out
from cardtable.kings_corner.actions import Action, PlayCard
from cardtable.kings_corner.game import KingsCornerGame, KingsCornerView
from cardtable.kings_corner.table import PilePosition
from cardtable.sim.match import play_hand


class _Checked:
    """Wraps a bot: every action it picks must be legal for the view it was given."""

    def __init__(self, bot: ExpertBot) -> None:
        self.bot = bot
        self.name = bot.name
        self.actions = 0

    def new_game(self, seed: int = 0) -> None:
        self.bot.new_game(seed)

    def choose(self, view: KingsCornerView) -> Action:
        action = self.bot.choose(view)
        assert action in view.legal_actions(), f"{action} is not legal"
        self.actions += 1
        return action


def _cards_on_table(game: KingsCornerGame) -> Counter[Card]:
    cards: Counter[Card] = Counter(game.deck_cards())
    for seat in range(game.players):
        cards.update(game.hand(seat))
    for pile in game.piles:
        cards.update(pile)
    return cards


@pytest.mark.parametrize("players", [2, 4])
def test_the_expert_plays_only_legal_actions_and_keeps_every_card(players: int) -> None:
    for seed in range(3):
        seats = [_Checked(ExpertBot(seed))] + [make_bot("greedy") for _ in range(players - 1)]
        game = play_out(KingsCornerGame.from_seed(players, seed), seats)
        assert game.is_over()
        assert seats[0].actions > 0
        assert _cards_on_table(game) == Counter(new_deck())


def test_the_expert_is_reproducible_for_a_fixed_seed() -> None:
    players = ["expert", "greedy", "expert"]
    first = [play_hand(players, index, seed=11)[1].history for index in range(3)]
    again = [play_hand(players, index, seed=11)[1].history for index in range(3)]
    assert first == again


def _same_view_other_hidden_cards(players: int, seed: int) -> tuple[KingsCornerGame, KingsCornerGame]:
    """Two deals that look the same to seat 0 (its hand, the piles, the sizes) but
    give the other seats and the deck different cards."""
    deck = shuffled_deck(seed)
    hidden = list(range(7, 7 * players)) + list(range(7 * players + 4, 52))
    cards = [deck[i] for i in hidden]
    rng = SplitMix64(seed + 99)
    for index in range(len(cards) - 1, 0, -1):
        other = rng.below(index + 1)
        cards[index], cards[other] = cards[other], cards[index]
    scrambled = list(deck)
    for position, card in zip(hidden, cards, strict=True):
        scrambled[position] = card
    assert scrambled != deck
    return KingsCornerGame(players, deck), KingsCornerGame(players, scrambled)


@pytest.mark.parametrize("seed", range(6))
def test_the_expert_decides_from_its_view_alone(seed: int) -> None:
    game, other = _same_view_other_hidden_cards(4, seed)
    assert game.view(0) == other.view(0)
    assert game.hand(1) != other.hand(1) or game.deck_cards() != other.deck_cards()
    turns = []
    for table in (game, other):
        bot = ExpertBot(seed=5)
        actions = []
        while table.current_player() == 0:
            action = bot.choose(table.view(0))
            actions.append(action)
            table.play(action)
        turns.append(actions)
    assert turns[0] == turns[1]


def test_the_expert_sends_a_king_to_an_empty_corner() -> None:
    king = Card.parse("Kh")
    view = KingsCornerView(
        player=0,
        hand=(Card.parse("2c"), king),
        piles=((Card.parse("9s"),), (Card.parse("5d"),), (Card.parse("Tc"),), (Card.parse("4h"),),
               (), (), (), ()),
        hand_sizes=(2, 7, 7, 7),
        deck_count=20,
        turn_actions=0,
    )
    assert ExpertBot(seed=1).choose(view) == PlayCard(king, PilePosition.NE)


def test_the_expert_is_in_the_registry_and_rejects_empty_options() -> None:
    assert make_bot("expert", seed=3).name == "expert"
    with pytest.raises(UsageError):
        ExpertBot(samples=0)
