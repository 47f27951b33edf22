"""Bots: only legal actions, cards conserved, and each plays as described."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.bots.kings_corner import GreedyBot, StrategicBot, make_bot
from cardtable.bots.kings_corner.strategic import plan_turn
from cardtable.cards import Card, new_deck
from cardtable.kings_corner import (
    DRAW,
    KingsCornerGame,
    KingsCornerView,
    MovePile,
    PilePosition,
    PlayCard,
)

C = Card.parse
N, E, S, W, NE, SE, SW, NW = PilePosition
bot_names = st.sampled_from(["random", "greedy", "strategic"])


def conserved(game: KingsCornerGame) -> bool:
    cards = [c for s in range(game.players) for c in game.hand(s)]
    cards += [c for pile in game.piles for c in pile] + list(game.deck_cards())
    return len(cards) == 52 and set(cards) == set(new_deck())


@settings(max_examples=40)
@given(st.lists(bot_names, min_size=2, max_size=6), st.integers(0, 2**40))
def test_bots_play_only_legal_actions_and_conserve_the_cards(names, seed) -> None:
    game = KingsCornerGame.from_seed(len(names), seed)
    bots = [make_bot(name, seed + seat) for seat, name in enumerate(names)]
    steps = 0
    while not game.is_over():
        view = game.view()
        action = bots[game.turn].choose(view)
        assert action in game.legal_actions()
        game.play(action)
        steps += 1
        assert conserved(game)
        assert steps < 5000
    outcome = game.outcome()
    assert outcome is not None
    if outcome.winner is not None:
        assert game.hand(outcome.winner) == ()


def test_greedy_moves_piles_first_then_plays_the_first_card(make_game) -> None:
    game = make_game(["Qh 8h 7s 2c 3c 4c 5c", "Kc Kd 2d 3d 4d 6c 6d"], "9s Td Ah Js")
    bot = GreedyBot()
    assert bot.choose(game.view()) == MovePile(N, E)  # 9s onto Td
    game.play(MovePile(N, E))
    assert bot.choose(game.view()) == MovePile(E, W)  # Td 9s onto Js
    game.play(MovePile(E, W))
    assert bot.choose(game.view()) == PlayCard(C("Qh"), N)  # first card, first pile
    game.play(PlayCard(C("Qh"), N))
    assert bot.choose(game.view()) == MovePile(W, N)  # Js Td 9s onto Qh
    game.play(MovePile(W, N))
    assert bot.choose(game.view()) == PlayCard(C("8h"), N)


def test_strategic_finds_a_way_out(make_game) -> None:
    # Going out needs the king on a corner, the pile move and the right order.
    game = make_game(["Kh 8h 7s Qs 5c 4d 3s", "Kc Kd 2d 3d 4h 6c 6d"], "9s Td 6h Js")
    plan = plan_turn(game.view())
    for action in plan:
        game.play(action)
    assert game.outcome() is not None and game.outcome().winner == 0


@settings(max_examples=15)
@given(st.integers(2, 5), st.integers(0, 2**40))
def test_strategic_keeps_kings_for_corners_and_leaves_no_empty_pile(players, seed) -> None:
    game = KingsCornerGame.from_seed(players, seed)
    bots = [StrategicBot()] + [make_bot("greedy") for _ in range(players - 1)]
    while not game.is_over():
        seat = game.turn
        game.play(bots[seat].choose(game.view()))
        if seat == 0 and game.turn != 0 and game.hand(0):
            # the turn is over: no empty regular pile handed on, no king plugging a
            # regular pile while a corner is free
            assert all(game.pile(p) for p in (N, E, S, W))
            if any(not game.pile(p) for p in (NE, SE, SW, NW)):
                assert all(game.pile(p)[0].rank != 13 for p in (N, E, S, W))


def test_strategic_plays_its_plan_one_action_at_a_time(make_game) -> None:
    game = make_game(["Kh 8h 7s Qs 5c 4d 3s", "Kc Kd 2d 3d 4h 6c 6d"], "9s Td 6h Js")
    plan = plan_turn(game.view())
    bot = StrategicBot()
    for expected in plan:
        assert bot.choose(game.view()) == expected
        game.play(expected)


def test_bots_see_nothing_but_the_view() -> None:
    game = KingsCornerGame.from_seed(4, 1)
    view = game.view()
    assert isinstance(view, KingsCornerView)
    for name in ("random", "greedy", "strategic"):
        assert make_bot(name, 3).choose(view) in view.legal_actions()


def test_random_bot_is_seeded() -> None:
    def actions(seed: int) -> list[str]:
        game = KingsCornerGame.from_seed(3, 8)
        bots = [make_bot("random", seed + i) for i in range(3)]
        while not game.is_over():
            game.play(bots[game.turn].choose(game.view()))
        return [str(a) for a in game.history]

    assert actions(1) == actions(1)
    assert actions(1) != actions(2)


def test_unknown_bot() -> None:
    import pytest

    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        make_bot("clever")


def test_draw_is_last_resort_for_greedy(make_game) -> None:
    game = make_game(["Qh 8h 7s 2c 3c 4c 5c", "Kc Kd 2d 3d 4d 6c 6d"], "Ah Ac As Ad")
    assert GreedyBot().choose(game.view()) == DRAW
