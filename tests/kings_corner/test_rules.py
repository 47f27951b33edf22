"""Every rule of the game: deal, plays, pile moves, turns, the empty deck, the end."""

from __future__ import annotations

import pytest

from cardtable.cards import Card, new_deck, shuffled_deck
from cardtable.kings_corner import (
    DRAW,
    PASS,
    IllegalActionError,
    KingsCornerError,
    KingsCornerGame,
    MovePile,
    PilePosition,
    PlayCard,
)

C = Card.parse
N, E, S, W, NE, SE, SW, NW = PilePosition

HANDS2 = ["8h 7s 6h 5s 4h 3s 2h", "Kc Kd 2c 3c 4c 5c 6c"]


def state(game: KingsCornerGame) -> tuple[object, ...]:
    return (game.piles, [game.hand(s) for s in range(game.players)], game.deck_cards(),
            game.turn, game.turns, game.turn_actions, game.outcome(), game.history)


# -- the deal --------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deal_seven_each_then_the_cross(players: int) -> None:
    deck = shuffled_deck(11)
    game = KingsCornerGame(players, deck)
    for seat in range(players):
        assert game.hand(seat) == tuple(deck[7 * seat: 7 * seat + 7])
    cross = deck[7 * players: 7 * players + 4]
    assert [game.pile(p) for p in (N, E, S, W)] == [(c,) for c in cross]
    assert all(game.pile(p) == () for p in (NE, SE, SW, NW))
    assert game.deck_count == 52 - 7 * players - 4
    assert game.deck_cards() == tuple(deck[7 * players + 4:])
    assert game.turn == 0 and game.outcome() is None


@pytest.mark.parametrize("players", [1, 7, 0])
def test_two_to_six_players(players: int) -> None:
    with pytest.raises(KingsCornerError, match="2 to 6 players"):
        KingsCornerGame(players)


def test_deal_needs_all_52_cards() -> None:
    with pytest.raises(KingsCornerError, match="52 cards"):
        KingsCornerGame(2, new_deck()[:51])


def test_from_seed_is_the_shuffled_deck() -> None:
    assert KingsCornerGame.from_seed(3, 5).initial_deck == tuple(shuffled_deck(5))


# -- the initial cross -----------------------------------------------------------

def test_king_in_the_cross_may_move_to_a_corner(make_game) -> None:
    game = make_game(HANDS2, "Kh 9s 8d 2d")
    moves = [a for a in game.legal_actions() if isinstance(a, MovePile)]
    assert MovePile(N, NE) in moves and MovePile(N, NW) in moves
    assert MovePile(N, E) not in moves and MovePile(N, S) not in moves
    game.play(MovePile(N, NW))
    assert game.pile(NW) == (C("Kh"),) and game.pile(N) == ()
    # the emptied regular pile takes any card
    assert PlayCard(C("4h"), N) in game.legal_actions()


def test_fitting_cards_in_the_cross_may_be_joined(make_game) -> None:
    game = make_game(HANDS2, "Kh 9s 8d 2d")
    assert MovePile(S, E) in game.legal_actions()  # 8d fits on 9s
    game.play(MovePile(S, E))
    assert game.pile(E) == (C("9s"), C("8d")) and game.pile(S) == ()
    game.play(PlayCard(C("7s"), E))
    assert game.pile(E)[-1] == C("7s")


# -- plays -----------------------------------------------------------------------

def test_card_plays_one_lower_other_colour(make_game) -> None:
    game = make_game(HANDS2, "9s 2d 3d Qc")
    plays = {a for a in game.legal_actions() if isinstance(a, PlayCard)}
    assert PlayCard(C("8h"), N) in plays
    assert PlayCard(C("2h"), W) not in plays
    assert plays == {PlayCard(C("8h"), N)}
    game.play(PlayCard(C("8h"), N))
    assert game.pile(N) == (C("9s"), C("8h"))
    assert C("8h") not in game.hand(0)
    assert game.turn == 0  # the turn goes on


def test_nothing_goes_on_an_ace(make_game) -> None:
    game = make_game(["8h 7s 6h 5s 4h 3s 2h", "Kc Kd As 3c 4c 5c 6c"], "Ah 9s 3d Qc")
    assert not any(isinstance(a, PlayCard) and a.target == N for a in game.legal_actions())


def test_only_a_king_starts_a_corner(make_game) -> None:
    game = make_game(["Kh 7s 6h 5s 4h 3s 2h", HANDS2[1]], "9c 9d 3d Qc")
    plays = [a for a in game.legal_actions() if isinstance(a, PlayCard)]
    assert {a.target for a in plays if a.card == C("Kh")} == {NE, SE, SW, NW}
    assert not any(a.target.is_corner for a in plays if a.card != C("Kh"))
    with pytest.raises(IllegalActionError, match="only a king"):
        game.play(PlayCard(C("7s"), NE))


def test_corner_piles_never_move(make_game) -> None:
    game = make_game(["Kh Qs 6h 5s 4h 3s 2h", HANDS2[1]], "9c 9d 3d Ks")
    game.play(PlayCard(C("Kh"), NE))
    assert not any(isinstance(a, MovePile) and a.source == NE for a in game.legal_actions())
    with pytest.raises(IllegalActionError, match="Can't move a corner pile"):
        game.play(MovePile(NE, N))
    # a corner still takes cards like any pile
    game.play(PlayCard(C("Qs"), NE))
    assert game.pile(NE) == (C("Kh"), C("Qs"))


def test_pile_move_needs_bottom_to_fit_top(make_game) -> None:
    game = make_game(HANDS2, "9s Td 8c 2d")
    moves = {a for a in game.legal_actions() if isinstance(a, MovePile)}
    assert moves == {MovePile(N, E)}  # 9s on Td; 8c fits neither 9s nor Td
    with pytest.raises(IllegalActionError, match="Invalid pile move"):
        game.play(MovePile(E, N))


def test_no_pile_move_onto_an_empty_regular_pile(make_game) -> None:
    game = make_game(HANDS2, "9s Td 7h 2d")
    game.play(MovePile(N, E))
    assert game.pile(N) == ()
    with pytest.raises(IllegalActionError, match="Invalid pile move"):
        game.play(MovePile(S, N))
    with pytest.raises(IllegalActionError, match="pile N is empty"):
        game.play(MovePile(N, S))


def test_pile_moves_cannot_cycle_within_a_turn(make_game) -> None:
    # Each pile move leaves one non-empty pile fewer, so no position repeats.
    game = make_game(HANDS2, "Js Td 9c 8d")
    seen = set()
    while True:
        moves = [a for a in game.legal_actions() if isinstance(a, MovePile)]
        if not moves:
            break
        before = sum(1 for pile in game.piles if pile)
        game.play(moves[0])
        assert sum(1 for pile in game.piles if pile) == before - 1
        assert game.piles not in seen
        seen.add(game.piles)
    assert len(seen) == 3 and game.pile(N) == tuple(map(C, ["Js", "Td", "9c", "8d"]))


def test_illegal_action_changes_nothing(make_game) -> None:
    game = make_game(HANDS2, "9s 2d 3d Qc")
    before = state(game)
    for action in [PlayCard(C("8h"), E), PlayCard(C("Kc"), NE), MovePile(W, N), PASS,
                   MovePile(NE, N)]:
        with pytest.raises(IllegalActionError, match="illegal action"):
            game.play(action)
        assert state(game) == before


# -- turns, the deck, the end ---------------------------------------------------

def test_draw_ends_the_turn(make_game) -> None:
    game = make_game(HANDS2, "9s 2d 3d Qc", top="Jh")
    game.play(DRAW)
    assert game.hand(0)[-1] == C("Jh") and len(game.hand(0)) == 8
    assert game.turn == 1 and game.turns == 1 and game.deck_count == 33
    game.play(DRAW)
    assert game.turn == 0


def test_empty_deck_play_goes_on_without_drawing() -> None:
    game = KingsCornerGame.from_seed(6, 3)
    assert game.deck_count == 6
    for _ in range(6):
        game.play(DRAW)
    assert game.deck_count == 0 and game.turn == 0
    assert game.legal_actions()[-1] == PASS and DRAW not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="deck is empty"):
        game.play(DRAW)
    sizes = game.hand_sizes
    game.play(PASS)
    assert game.hand_sizes == sizes and game.turn == 1


def test_stalemate_after_a_full_round_without_play() -> None:
    game = KingsCornerGame.from_seed(6, 3)
    for _ in range(6):
        game.play(DRAW)
    for _ in range(5):
        game.play(PASS)
    assert not game.is_over()
    game.play(PASS)
    outcome = game.outcome()
    assert outcome is not None and outcome.is_stalemate and outcome.winner is None
    assert outcome.penalties == tuple(
        sum(10 if c.rank == 13 else 1 for c in game.hand(s)) for s in range(6)
    )
    assert game.legal_actions() == []
    with pytest.raises(IllegalActionError, match="hand is over"):
        game.play(PASS)


def test_a_play_restarts_the_stalemate_count() -> None:
    for seed in range(200):
        game = KingsCornerGame.from_seed(6, seed)
        for _ in range(6):
            game.play(DRAW)
        for _ in range(5):
            game.play(PASS)
        plays = [a for a in game.legal_actions() if isinstance(a, PlayCard)]
        if plays and len(game.hand(game.turn)) > 1:
            break
    else:
        pytest.fail("no deal with a late play found")
    game.play(plays[0])
    game.play(PASS)
    for _ in range(5):
        game.play(PASS)
    assert not game.is_over()
    game.play(PASS)
    assert game.is_over() and game.outcome().is_stalemate


def test_emptying_the_hand_wins_at_once_and_scores(make_game) -> None:
    game = make_game(HANDS2, "9s 2d 3d Qc")
    for card in ["8h", "7s", "6h", "5s", "4h", "3s"]:
        game.play(PlayCard(C(card), N))
        assert not game.is_over()
    game.play(PlayCard(C("2h"), N))
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == 0 and not outcome.is_stalemate
    assert outcome.penalties == (0, 25)  # two kings and five others
    assert outcome.turns == 0
    assert game.legal_actions() == []


# -- undo, clone, the view ------------------------------------------------------

def test_undo_restores_every_kind_of_action(make_game) -> None:
    game = make_game(HANDS2, "Kh 9s 8d 2d", top="Jh")
    start = state(game)
    actions = [MovePile(N, NW), MovePile(S, E), PlayCard(C("7s"), E), PlayCard(C("4h"), N),
               DRAW]
    states = []
    for action in actions:
        states.append(state(game))
        game.play(action)
    for action, before in zip(reversed(actions), reversed(states), strict=True):
        assert game.undo() == action
        assert state(game) == before
    assert state(game) == start
    with pytest.raises(KingsCornerError, match="nothing to undo"):
        game.undo()


def test_undo_after_a_win_and_stalemate(make_game) -> None:
    game = make_game(HANDS2, "9s 2d 3d Qc")
    for card in ["8h", "7s", "6h", "5s", "4h", "3s", "2h"]:
        game.play(PlayCard(C(card), N))
    game.undo()
    assert not game.is_over() and game.hand(0) == (C("2h"),)


def test_clone_is_independent(make_game) -> None:
    game = make_game(HANDS2, "Kh 9s 8d 2d")
    copy = game.clone()
    copy.play(MovePile(N, NE))
    copy.play(DRAW)
    assert game.pile(N) == (C("Kh"),) and game.turn == 0 and game.history == ()
    assert copy.history == (MovePile(N, NE), DRAW)
    assert state(game.clone()) == state(game)


def test_view_shows_only_what_the_player_sees(make_game, stacked_deck) -> None:
    hands = ["8h 7s 6h 5s 4h 3s 2h", "Kc Kd 2c 3c 4c 5c 6c", "Qc Qd Jc 9c 9h 8c 7c"]
    game = make_game(hands, "9s 2d 3d Qh", top="Ah As")
    view = game.view()
    assert view.player == 0 and view.hand == game.hand(0)
    assert view.piles == game.piles
    assert view.hand_sizes == (7, 7, 7) and view.deck_count == game.deck_count
    assert view.legal_actions() == game.legal_actions()
    # swap the other players' hands and reorder the deck: the view is the same
    swapped = [hands[0], hands[2], hands[1]]
    deck = stacked_deck(swapped, "9s 2d 3d Qh")
    other = KingsCornerGame(3, deck[:25] + deck[25:][::-1])
    assert other.deck_cards() != game.deck_cards() and other.hand(1) != game.hand(1)
    assert other.view() == view
    assert set(type(view).__slots__) == {
        "player", "hand", "piles", "hand_sizes", "deck_count", "turn_actions"
    }
