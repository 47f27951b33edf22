"""The bots: the player view hides what it must, and each strategy's steps."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st
from klondike_helpers import game

from cardtable.bots.klondike import (
    STRATEGIES,
    GreedyPlayer,
    PriorityPlayer,
    RandomPlayer,
    TurnsPlayer,
    make_player,
)
from cardtable.bots.klondike.priority import play_priority_game
from cardtable.cards import Card
from cardtable.klondike import DRAW, RECYCLE, KlondikeGame, Move, Variant

M = Move.parse
SEED_002 = Variant.preset("seed-002")
SEED_000 = Variant.preset("seed-000")


# ----- the view ------------------------------------------------------------------------------


def test_view_hides_face_down_cards_and_stock_order() -> None:
    g = KlondikeGame.from_seed(4, SEED_002)
    view = g.view()
    hidden = set(g.stock) | {c for p, d in zip(g.tableau, g.face_down, strict=True) for c in p[:d]}
    visible: set[Card] = set()
    for f in dataclasses.fields(view):
        value = getattr(view, f.name)
        stack = [value]
        while stack:
            item = stack.pop()
            if isinstance(item, Card):
                visible.add(item)
            elif isinstance(item, tuple | list):
                stack.extend(item)
            assert not isinstance(item, KlondikeGame)
    assert not visible & hidden
    assert view.stock_count == 24 and view.face_down == (0, 1, 2, 3, 4, 5, 6)


def test_view_is_a_copy() -> None:
    g = KlondikeGame.from_seed(4, SEED_002)
    view = g.view()
    g.play(DRAW)
    assert view.waste == () and view.stock_count == 24


# ----- priority: each step of seed 002's order ---------------------------------------------------


def _choose(player: PriorityPlayer, g: KlondikeGame) -> Move | None:
    move = player.choose(g.view())
    if move is not None:
        g.play(move)
    return move


def test_priority_starts_by_drawing() -> None:
    g = game(["Ah"], SEED_002)
    assert PriorityPlayer().choose(g.view()) == DRAW


def test_priority_a_foundation_piles_left_to_right_before_waste() -> None:
    g = game(["5c", "Ah", "As"], SEED_002, waste="Ad")
    g.play(DRAW)  # step 0 is behind us
    p = PriorityPlayer()
    p._last = DRAW
    assert p.choose(g.view()) == M("2>F")


def test_priority_a_waste_to_foundation_then_draw_when_waste_empties() -> None:
    g = game(["5c"], SEED_002, waste="Ac")
    p = PriorityPlayer()
    p._last = DRAW
    assert _choose(p, g) == M("W>F")
    assert _choose(p, g) == DRAW  # the waste emptied and the stock is not empty


def test_priority_b_waste_to_leftmost_pile() -> None:
    g = game(["9s", "9c", "Kd"], SEED_002, waste="8h")
    p = PriorityPlayer()
    p._last = DRAW
    assert p.choose(g.view()) == M("W>1")


def test_priority_b_king_from_waste_only_to_empty_pile() -> None:
    g = game(["9s", ""], SEED_002, waste="Kh")
    p = PriorityPlayer()
    p._last = DRAW
    assert p.choose(g.view()) == M("W>2")


def test_priority_c_moves_whole_face_up_runs_only() -> None:
    # Pile 1's run 9s 8h could go on Th (whole run) -- a part (8h) could go on 9c, but never a part.
    g = game(["2d|9s 8h", "9c", "Th"], SEED_002, waste="")
    p = PriorityPlayer()
    p._last = DRAW
    assert p.choose(g.view()) == M("1>3:2")


def test_priority_c_sources_then_targets_left_to_right() -> None:
    g = game(["2d|8h", "2s|8d", "9s", "9c"], SEED_002)
    p = PriorityPlayer()
    p._last = DRAW
    assert p.choose(g.view()) == M("1>3")


def test_priority_c_king_run_to_empty_only_with_cards_under_it() -> None:
    g = game(["Kd", "", "2c|Ks"], SEED_002)
    p = PriorityPlayer()
    p._last = DRAW
    assert p.choose(g.view()) == M("3>2")
    g2 = game(["Kd", ""], SEED_002, waste="")
    p2 = PriorityPlayer()
    p2._last = DRAW
    assert p2.choose(g2.view()) == DRAW  # a lone king is not moved


def test_priority_e_draws_then_stops_when_stock_is_empty() -> None:
    g = game(["Ac|2c", "Kc Qc Jc Tc 9c 8c 7c 6c 5c 4c|3c"], SEED_002, stock="", foundation=(0, 13, 13, 13))
    p = PriorityPlayer()
    p._last = DRAW
    assert p.choose(g.view()) is None


def test_priority_never_takes_from_foundations_or_recycles_in_seed_002() -> None:
    for seed in range(40):
        g = KlondikeGame.from_seed(seed, SEED_002)
        moves = play_priority_game(g)
        assert moves[0] == DRAW
        assert all(m.source != 9 and m != RECYCLE for m in moves)
        assert not g.stock  # the game ends only when the stock is exhausted


# ----- turns: seed 000's steps ------------------------------------------------------------------


def test_turns_foundation_first() -> None:
    g = game(["Ac", "9s", "8h"], SEED_000)
    assert TurnsPlayer().choose(g.view()) == M("1>F")


def test_turns_moves_runs_only_to_turn_a_card_up() -> None:
    g = game(["9s", "3c|8h", "2d|Th"], SEED_000)
    # 8h can go on 9s and turns up 3c; 9s could go on Th but has nothing under it.
    assert TurnsPlayer().choose(g.view()) == M("2>1")


def test_turns_clears_a_pile_for_a_waiting_king() -> None:
    g = game(["9s", "Th", "3c|Kd"], SEED_000)
    assert TurnsPlayer().pile_move(g.view()) == M("1>2")


def test_turns_king_to_open_pile() -> None:
    g = game(["", "3c|Kd"], SEED_000)
    assert TurnsPlayer().choose(g.view()) == M("2>1")


def test_turns_draws_three_and_plays_the_drawn_cards_in_turn() -> None:
    # The draw fans three stock cards: Kh on top goes to an empty pile, then Ac to its foundation.
    g = game(["9s", "Qc", "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc 9h Th Jh 8s Ts Js Qs|Qh"], SEED_000,
             stock="Ks Kc Kh Ac 8h", foundation=(0, 13, 7, 7))
    player = TurnsPlayer()
    assert player.choose(g.view()) == DRAW
    g.play(DRAW)
    assert [str(c) for c in g.waste] == ["8h", "Ac", "Kh"]
    move = player.choose(g.view())
    assert move is not None and move.source == 7  # the waste top Kh ...
    g.play(move)
    assert player.choose(g.view()) == M("W>F")  # ... then Ac


def test_turns_stops_after_three_passes() -> None:
    for seed in range(30):
        g = KlondikeGame.from_seed(seed, SEED_000)
        p = TurnsPlayer()
        while (m := p.choose(g.view())) is not None:
            g.play(m)
        assert g.pass_number <= 3


def test_turns_stops_after_two_idle_passes_in_unlimited_variant() -> None:
    # Black kings take no red queen from the stock... but Qd/Qh do fit; use a stock that fits nowhere.
    piles = ["Ac 2c 3c 4c 5c|Kc", "6c 7c 8c 9c As|Ks", "2s 3s 4s 5s|Qc", "6s 7s 8s 9s|Qs",
             "Ts Ad 9d Td|Jc", "Jd Qd Kd|Js", "Ah 9h Th Jh Qh Kh|Tc"]
    g = game(piles, Variant.preset("draw3"), stock="2d 3d 4d 5d 6d 7d 8d 2h 3h 4h 5h 6h 7h 8h")
    p = TurnsPlayer()
    while (m := p.choose(g.view())) is not None:
        g.play(m)
    # Nothing ever moves: pass 1 and pass 2 are idle, so the game ends in pass 2.
    assert g.pass_number == 2 and not g.stock
    assert [str(m) for m in g.moves].count("R") == 1


# ----- every bot, every variant ------------------------------------------------------------------


# The expert on a small budget (8 guessed deals of 2,000 states, its default 48 of 20,000): whether its
# moves are legal and its games end does not depend on how deep it looks, and at full budget it took most
# of this test's time.
BOTS = sorted(name if name != "expert" else "expert samples=8 states=2000" for name in STRATEGIES)


@given(seed=st.integers(0, 2**32), name=st.sampled_from(BOTS),
       variant=st.sampled_from(["seed-002", "seed-000", "seed-001", "draw1", "thoughtful1"]))
def test_bots_only_make_legal_moves_and_finish(seed: int, name: str, variant: str) -> None:
    g = KlondikeGame.from_seed(seed, Variant.preset(variant))
    player = make_player(name)
    player.new_game(seed)
    for _ in range(3000):
        view = g.view()
        move = player.choose(view)
        if move is None:
            break
        assert move in view.legal_moves
        g.play(move)
    else:
        pytest.fail(f"{name} did not finish in 3000 moves")


def test_random_is_reproducible_per_seed() -> None:
    def play(seed: int) -> list[Move]:
        g = KlondikeGame.from_seed(seed, Variant.preset("draw1"))
        p = RandomPlayer()
        p.new_game(seed)
        while (m := p.choose(g.view())) is not None:
            g.play(m)
        return g.moves
    assert play(5) == play(5)
    assert play(5) != play(6)


def test_greedy_beats_priority_on_seed_002_rules() -> None:
    totals = {"greedy": 0, "priority": 0}
    for name in totals:
        for seed in range(1, 201):
            g = KlondikeGame.from_seed(seed, SEED_002)
            p = GreedyPlayer() if name == "greedy" else PriorityPlayer()
            while (m := p.choose(g.view())) is not None:
                g.play(m)
            totals[name] += g.foundation_count()
    assert totals["greedy"] > totals["priority"]


def test_unknown_strategy() -> None:
    with pytest.raises(ValueError, match="unknown strategy 'nope'"):
        make_player("nope")
