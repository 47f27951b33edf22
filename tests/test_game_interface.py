"""The one game interface: Klondike and Kings Corner speak it alike, and every
bot of either game is an agent of it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.bots.kings_corner import BOTS, make_bot
from cardtable.bots.klondike import STRATEGIES, make_player
from cardtable.cards import Card, SplitMix64
from cardtable.errors import IllegalMoveError, NotationError
from cardtable.game import Agent, GameState, HiddenCards, play_out
from cardtable.kings_corner import KingsCornerGame
from cardtable.klondike import KlondikeGame, Variant


def klondike(seed: int) -> KlondikeGame:
    return KlondikeGame.from_seed(seed, Variant.preset("thoughtful3"))


def kings_corner(seed: int) -> KingsCornerGame:
    return KingsCornerGame.from_seed(players=2 + seed % 5, seed=seed)


GAMES = [klondike, kings_corner]


def snapshot(state: GameState[object, object]) -> tuple[object, ...]:
    return (repr(state.view(state.current_player())) if state.current_player() is not None else None,
            tuple(state.legal_actions()), state.returns(), state.is_over())


@pytest.mark.parametrize("make", GAMES)
def test_both_games_are_game_states(make: object) -> None:
    state = make(1)  # type: ignore[operator]
    assert isinstance(state, GameState)
    assert state.num_players >= 1 and state.current_player() == 0
    assert len(state.returns()) == state.num_players


def test_every_bot_of_both_games_is_an_agent() -> None:
    for name in STRATEGIES:
        assert isinstance(make_player(name), Agent), name
    for name in BOTS:
        assert isinstance(make_bot(name), Agent), name


@given(seed=st.integers(0, 10_000), picks=st.lists(st.integers(0, 1000), max_size=60), which=st.sampled_from(GAMES))
def test_play_undo_clone_and_notation(seed: int, picks: list[int], which: object) -> None:
    state = which(seed)  # type: ignore[operator]
    history = []
    for pick in picks:
        if state.current_player() is None:
            break
        actions = state.legal_actions()
        assert actions
        for action in actions:  # every action is written and read back
            assert state.parse_action(state.action_to_string(action)) == action
        before = snapshot(state)
        copy = state.clone()
        action = actions[pick % len(actions)]
        state.play(action)
        assert snapshot(copy) == before  # the clone is independent
        history.append((before, action))
    while history:
        before, action = history.pop()
        assert state.undo() == action
        assert snapshot(state) == before
    with pytest.raises(IllegalMoveError):
        state.undo()


@pytest.mark.parametrize("make", GAMES)
def test_bad_notation_and_illegal_actions_raise_cardtable_errors(make: object) -> None:
    state = make(3)  # type: ignore[operator]
    with pytest.raises(NotationError):
        state.parse_action("no such action")
    legal = set(state.legal_actions())
    candidates = ["7>1:13", "Fh>3", "R", "play Kd NE", "move N S", "pass"]
    for text in candidates:
        try:
            action = state.parse_action(text)
        except NotationError:
            continue
        if action not in legal:
            with pytest.raises(IllegalMoveError):
                state.play(action)


def test_klondike_play_out_with_each_strategy_ends_where_the_agent_stops() -> None:
    for name in STRATEGIES:
        game = play_out(klondike(11), [make_player(name)])
        agent = make_player(name)
        replay = klondike(11)
        while replay.current_player() is not None:
            move = agent.choose(replay.view())
            if move is None:
                break
            replay.play(move)
        assert replay.moves == game.moves, name


def test_kings_corner_play_out_finishes_the_hand_and_returns_penalties() -> None:
    table = play_out(KingsCornerGame.from_seed(players=3, seed=8), [make_bot("greedy"), make_bot("random", 1),
                                                                     make_bot("strategic")])
    outcome = table.outcome()
    assert table.is_over() and outcome is not None and table.current_player() is None
    assert table.returns() == tuple(-float(p) for p in outcome.penalties)


def test_klondike_returns_follow_the_scoring() -> None:
    vegas = KlondikeGame.from_seed(4, Variant.preset("seed-002"))
    assert vegas.returns() == (-52.0,)
    plain = KlondikeGame.from_seed(4, Variant.preset("draw1"))
    assert plain.returns() == (0.0,)


def test_views_show_only_what_the_seat_sees() -> None:
    game = klondike(5)
    view = game.view()
    face_down = {card for pile, down in zip(game.tableau, game.face_down, strict=True) for card in pile[:down]}
    seen = {card for run in view.face_up for card in run} | set(view.waste)
    assert face_down and not face_down & seen and not set(game.stock) & seen
    with pytest.raises(IllegalMoveError):
        game.view(1)
    table = KingsCornerGame.from_seed(players=4, seed=5)
    mine = table.view(2)
    assert mine.hand == table.hand(2) and mine.hand_sizes == table.hand_sizes
    others = {card for seat in (0, 1, 3) for card in table.hand(seat)}
    assert not others & set(mine.hand) and not hasattr(mine, "deck_cards")


def test_play_out_stops_at_a_seat_without_an_agent_and_reports_each_action() -> None:
    table = KingsCornerGame.from_seed(players=3, seed=2)
    table.play(table.legal_actions()[-1])  # seat 0 ends its first turn
    played: list[tuple[int, object]] = []
    play_out(table, [None, make_bot("greedy"), make_bot("strategic")],
             on_action=lambda seat, action: played.append((seat, action)))
    assert table.current_player() == 0 and not table.is_over()
    assert played == [(seat, action) for seat, action in zip(_seats_of(table), table.history[1:], strict=True)]
    assert {seat for seat, _ in played} == {1, 2}
    before = len(table.history)
    play_out(table, [make_bot("greedy"), None, None], max_actions=1)
    assert len(table.history) == before + 1


def _seats_of(table: KingsCornerGame) -> list[int]:
    """The seat of each action after the first, replayed from the deal."""
    replay = KingsCornerGame(table.players, table.initial_deck)
    seats = []
    for action in table.history:
        seats.append(replay.turn)
        replay.play(action)
    return seats[1:]


def test_hidden_cards_are_dealt_into_their_places_from_the_seeded_generator() -> None:
    cards = tuple(Card.from_index(index) for index in range(20))
    hidden = HiddenCards(cards, (3, 0, 5))
    places, rest = hidden.deal(SplitMix64(4))
    assert [len(place) for place in places] == [3, 0, 5] and len(rest) == hidden.rest == 12
    assert sorted(card for place in [*places, rest] for card in place) == list(cards)
    assert hidden.deal(SplitMix64(4)) == (places, rest)
    assert hidden.deal(SplitMix64(5)) != (places, rest)
    with pytest.raises(ValueError, match="cannot fill"):
        HiddenCards(cards, (15, 6))


def test_each_game_says_which_cards_its_seat_cannot_see() -> None:
    game = klondike(5)
    for _ in range(4):
        game.play(game.legal_actions()[-1])
    hidden = game.view().hidden_cards()
    face_down = [pile[:down] for pile, down in zip(game.tableau, game.face_down, strict=True)]
    assert set(hidden.unseen) == {card for cards in face_down for card in cards} | set(game.stock)
    assert hidden.slots == tuple(game.face_down) and hidden.rest == len(game.stock)
    table = play_out(KingsCornerGame.from_seed(players=4, seed=6), [make_bot("greedy")] * 4, max_actions=9)
    view = table.view(1)
    hidden_kc = view.hidden_cards()
    held = {card for seat in range(4) for card in table.hand(seat)} | {c for pile in table.piles for c in pile}
    others = {card for seat in (0, 2, 3) for card in table.hand(seat)}
    assert set(hidden_kc.unseen) == others | (set(Card._all) - held)
    assert hidden_kc.slots == (table.hand_sizes[0], 0, table.hand_sizes[2], table.hand_sizes[3])
    assert hidden_kc.rest == table.deck_count
