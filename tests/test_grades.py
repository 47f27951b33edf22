"""Deal grades: what makes them, ``--difficulty`` picking the first deal of a
grade, and bad levels."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from cli_helpers import run

import cardtable.sim.grade as grade_module
from cardtable.bots.klondike import GreedyPlayer
from cardtable.errors import SolverError
from cardtable.game import play_out
from cardtable.klondike import KlondikeGame, Position, Variant
from cardtable.klondike.formats import write_layout
from cardtable.sim.grade import (
    EXPERT_GAMES,
    GRADE_STATE_BUDGET,
    HARD_SEARCH,
    LEVELS,
    Grade,
    deal_of_grade,
    grade_seed,
    level_of,
)
from cardtable.solver import solve

DRAW3 = Variant.preset("seed-001")
#: The deals the tests grade (draw 3, seed-001): grading costs about a second
#: a deal, so each is graded once for the whole module.
SEEDS = range(3, 9)


@pytest.fixture(scope="module")
def graded() -> dict[int, Grade | None]:
    return {seed: grade_seed(seed, DRAW3) for seed in SEEDS}


@pytest.fixture
def once(graded: dict[int, Grade | None], monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The library's searches reuse the module's grades of :data:`SEEDS` (the real ones, graded once)."""
    real = grade_module.grade_seed

    def grade_once(seed: int, variant: Variant) -> Grade | None:
        return graded[seed] if variant == DRAW3 and seed in graded else real(seed, variant)

    monkeypatch.setattr(grade_module, "grade_seed", grade_once)
    yield


def test_the_command_line_names_the_same_levels() -> None:
    from cardtable.cli import _deals

    assert _deals.LEVELS == LEVELS


def test_levels_rise_with_the_points() -> None:
    levels = [level_of(points) for points in range(EXPERT_GAMES + 3)]
    assert levels == sorted(levels, key=LEVELS.index) and set(levels) == set(LEVELS)
    assert levels[0] == "easy" and levels[-1] == "expert"


def test_a_grade_is_made_of_what_it_says(graded: dict[int, Grade | None]) -> None:
    grade = graded[4]
    assert grade is not None
    proof = solve(Position.from_seed(4), DRAW3, max_states=GRADE_STATE_BUDGET, wide=False)  # as grades search
    assert proof.result == "won" and grade.solver_states == proof.states
    greedy = GreedyPlayer()
    greedy.new_game(0)
    assert grade.greedy_won == play_out(KlondikeGame(Position.from_seed(4), DRAW3), [greedy]).is_won()
    assert grade.points == (not grade.greedy_won) + (EXPERT_GAMES - grade.expert_wins) + (proof.states > HARD_SEARCH)
    assert grade.level == level_of(grade.points)
    assert grade_seed(4, DRAW3) == grade  # the same every time


def test_a_deal_not_proven_winnable_has_no_grade() -> None:
    assert solve(Position.from_seed(2), DRAW3).result == "unwinnable"
    assert grade_seed(2, DRAW3) is None


def test_grades_tell_deals_apart(graded: dict[int, Grade | None]) -> None:
    """Deals 3 to 8 of draw 3 do not all get one grade: the easy ones are won
    by the greedy player, the expert ones lost by the quick expert nearly every time."""
    levels = {grade.level for grade in graded.values() if grade is not None}
    assert len(levels) >= 3
    for grade in graded.values():
        if grade is not None and grade.level == "easy":
            assert grade.greedy_won and grade.expert_wins == EXPERT_GAMES
        if grade is not None and grade.level == "expert":
            assert grade.expert_wins <= 1


@pytest.mark.parametrize("level", ["easy", "expert"])
def test_difficulty_picks_the_first_deal_of_that_grade(level: str, graded: dict[int, Grade | None],
                                                      once: None) -> None:
    seed, grade = deal_of_grade(3, level, DRAW3)
    assert grade.level == level and graded[seed] == grade
    for earlier in range(3, seed):
        other = graded[earlier]
        assert other is None or other.level != level


def test_play_and_deal_take_a_difficulty(capsys: pytest.CaptureFixture[str], graded: dict[int, Grade | None],
                                         once: None) -> None:
    seed, _ = deal_of_grade(3, "hard", DRAW3)
    assert seed in graded
    code, out, err = run(capsys, "deal", "--seed", "3", "--difficulty", "HARD", "--variant", "seed-001")
    assert code == 0 and out.strip() == write_layout(Position.from_seed(seed), "deal")
    assert f"seed {seed}, graded hard" in err


@pytest.mark.parametrize(("args", "expected"), [
    (["--seed", "3", "--difficulty", "impossible"],
     "unknown difficulty 'impossible'; known: easy, medium, hard, expert"),
    (["--seed", "3", "--difficulty", ""], "unknown difficulty ''"),
    (["--seed", "3", "--difficulty", "hard", "--winnable"], "--difficulty deals are already proven winnable"),
    (["--file", "x.txt", "--difficulty", "hard"], "--difficulty goes with --seed, not --file"),
])
def test_bad_difficulties_are_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], args: list[str],
                                                  expected: str) -> None:
    for command in ("deal", "play"):
        code, out, err = run(capsys, command, *args)
        assert code == 2 and out == "" and expected in err and len(err.strip().splitlines()) == 1, (command, err)


def test_a_level_the_deals_seldom_have_is_given_up_after_the_graded_deals_it_allows(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # a game whose deals all grade expert (as Spider's do: its players seldom win) is not searched
    # through 2,000 seeds for an easy one: the search stops after MOST_GRADED deals graded, the deals
    # not proven winnable between them not counted, and says what it found
    from cardtable.patience import get
    from cardtable.sim.grade import MOST_GRADED, game_of_grade

    tried: list[int] = []

    def every_other_expert(game: object) -> Grade | None:
        tried.append(len(tried))
        return None if len(tried) % 2 else Grade("expert", 6, 10_000, False, 0, EXPERT_GAMES)

    monkeypatch.setattr(grade_module, "grade_game", every_other_expert)
    with pytest.raises(SolverError) as error:
        game_of_grade(10, "easy", get("spider"))
    assert len(tried) == 2 * MOST_GRADED
    assert str(error.value) == (f"no easy deal of Spider among the {MOST_GRADED} deals graded from seed 10 to "
                                f"{10 + 2 * MOST_GRADED - 1} ({MOST_GRADED} expert): its deals are seldom easy")
    seed, grade = game_of_grade(10, "expert", get("spider"))  # a level it has is found as before
    assert (seed, grade.level) == (11, "expert")
