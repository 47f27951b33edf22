"""Every patience game's deals graded as Klondike's are (the search's proof,
the greedy player, the quick expert, the same points and levels), and
``cardtable deal --game NAME --difficulty LEVEL`` dealing the first deal of a
grade from a seed."""

from __future__ import annotations

import pytest
from cli_helpers import run

from cardtable.bots.patience import ExpertPlayer, GreedyPlayer
from cardtable.game import play_out
from cardtable.patience import PatienceGame, get
from cardtable.patience.position import write_position
from cardtable.sim.grade import EXPERT_GAMES, HARD_SEARCH, QUICK_PATIENCE_EXPERT, game_of_grade, grade_game, level_of
from cardtable.solver.patience import solve_game


@pytest.mark.parametrize(("name", "seed"), [("tripeaks", 4), ("tripeaks", 3)])  # easy; the search's point
def test_a_grade_is_made_of_the_search_the_greedy_player_and_the_quick_expert(name: str, seed: int) -> None:
    game = PatienceGame.from_seed(get(name), seed)
    grade = grade_game(game)
    assert grade is not None and game.moves == []  # the game graded is left at its start
    proof = solve_game(game, max_states=100_000)
    assert proof.result == "won" and grade.solver_states == proof.states
    greedy = play_out(game.clone(), [GreedyPlayer(0)], max_actions=5000).is_won()
    wins = sum(play_out(game.clone(), [ExpertPlayer(seed, **QUICK_PATIENCE_EXPERT)], max_actions=5000).is_won()
               for seed in range(EXPERT_GAMES))
    points = (not greedy) + (EXPERT_GAMES - wins) + (proof.states > HARD_SEARCH)
    assert (grade.greedy_won, grade.expert_wins, grade.points, grade.level) == (greedy, wins, points,
                                                                                level_of(points))


def test_a_deal_the_search_does_not_prove_winnable_gets_no_grade() -> None:
    game = PatienceGame.from_seed(get("golf"), 0)
    assert solve_game(game, max_states=100_000).result != "won" and grade_game(game) is None


def test_deal_difficulty_deals_the_first_deal_of_the_grade_from_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    first, second = (grade_game(PatienceGame.from_seed(get("tripeaks"), seed)) for seed in (0, 1))
    assert first is not None and second is not None
    expected = 0 if first.level == second.level else 1  # the first deal of deal 1's grade from deal 0
    seed, grade = game_of_grade(0, second.level, get("tripeaks"))
    assert (seed, grade) == (expected, first if expected == 0 else second)
    code, out, err = run(capsys, "deal", "--game", "tripeaks", "--difficulty", second.level.upper(), "--seed", "0")
    assert code == 0 and out == write_position(PatienceGame.from_seed(get("tripeaks"), seed)) + "\n"
    assert f" {second.level} deal of TriPeaks (seed {seed}, {grade.points} difficulty points" in err
    for bad, words in ((("--difficulty", "easy", "--daily"), "not with --daily"),
                       (("--difficulty", "easy", "--seed", "ms:3"), "whole-number --seed"),
                       (("--difficulty", "fiendish", "--seed", "0"), "unknown difficulty 'fiendish'")):
        code, out, err = run(capsys, "deal", "--game", "tripeaks", *bad)
        assert (code, out) == (2, "") and words in err and err.count("\n") == 1, err
