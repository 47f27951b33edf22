"""The patience search hands a game of Klondike's rules to Klondike's core.

``solve_game`` reads a description's fields (``variant_of``), not its name:
a description that gives Klondike's rules, whatever it is called, is
searched by Klondike's compiled core, and its winning line comes back as the
patience engine's moves, replayed in the engine. The two cores are held to
each other on the same deals and on positions part-way through a game
(foundations filled in the order the cards arrived, a waste, a later pass),
in all 24 rule combinations: wherever both decide, the verdicts agree.
"""

from __future__ import annotations

import json
import random

import pytest
from cli_helpers import run

from cardtable.errors import SolverError
from cardtable.klondike import Variant
from cardtable.klondike.patience import klondike_description
from cardtable.patience import Description, Kind, Move, PatienceGame, get
from cardtable.patience.registry import load
from cardtable.solver import search
from cardtable.solver.patience import PatienceSolveResult, solve_game

VARIANTS = Variant.every()


def _name(variant: Variant) -> str:
    passes = "inf" if variant.passes is None else variant.passes
    return f"d{variant.draw}-p{passes}-{variant.empty}{'-back' if variant.foundation_return else ''}"


def _played(description: Description, seed: int, moves: int) -> PatienceGame:
    """Deal ``seed`` after up to ``moves`` random moves (a move to a
    foundation taken whenever there is one, so cards reach the foundations)."""
    game = PatienceGame.from_seed(description, seed)
    chance = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal or game.is_won():
            break
        home = [move for move in legal if move.target is not None and move.target.kind is Kind.FOUNDATION]
        game.play(home[0] if home else chance.choice(legal))
    return game


def _agree(game: PatienceGame, states: int) -> tuple[PatienceSolveResult, PatienceSolveResult]:
    """Both cores on ``game``: verdicts equal wherever both decide, and every win replays in the engine."""
    klondike = solve_game(game, max_states=states)
    patience = solve_game(game, max_states=states, core="patience")
    if klondike.decided and patience.decided:
        assert klondike.result == patience.result
    for result in (klondike, patience):
        assert result.result != "won" or result.replays(game)
    return klondike, patience


@pytest.mark.parametrize("variant", VARIANTS, ids=_name)
def test_both_cores_agree_on_deals_and_positions_part_way(variant: Variant) -> None:
    description = klondike_description(variant)
    decided = 0
    for seed, moves in ((1, 0), (2, 0), (3, 25), (4, 60)):
        game = _played(description, seed, moves)
        klondike, patience = _agree(game, 20_000)
        decided += klondike.decided and patience.decided
    assert decided >= 1  # not a vacuous agreement


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=_name)
def test_both_cores_agree_on_twenty_deals(variant: Variant) -> None:
    description = klondike_description(variant)
    decided = 0
    for seed in range(1, 21):
        klondike, patience = _agree(_played(description, seed, seed % 3 * 30), 200_000)
        decided += klondike.decided and patience.decided
    assert decided >= 5


def _spy(monkeypatch: pytest.MonkeyPatch) -> list[Variant]:
    """The variants Klondike's core is asked to solve under, from now on."""
    asked: list[Variant] = []
    solve = search.solve

    def spy(position: object, variant: Variant, **options: object) -> search.SolveResult:
        asked.append(variant)
        return solve(position, variant, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(search, "solve", spy)
    return asked


def test_the_rules_not_the_name_pick_klondikes_core(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = _spy(monkeypatch)
    data = get("klondike").with_options("draw-3", "foundation-return").to_json()
    data["name"], data["title"] = "thoughtful", "Thoughtful"
    renamed = Description.from_json(data)
    assert solve_game(PatienceGame.from_seed(renamed, 5), max_states=10_000).result == "won"
    assert asked == [Variant(draw=3, foundation_return=True)]
    # one rule that is not Klondike's (eight columns) makes another game: the patience core's
    data["tableau"]["count"] = 8
    data["deal"][0]["cards"].append(8)
    data["deal"][0]["face-down"].append(7)
    eight = Description.from_json(data)
    solve_game(PatienceGame.from_seed(eight, 5), max_states=2_000)
    solve_game(PatienceGame.from_seed(get("freecell"), 5), max_states=2_000)
    solve_game(PatienceGame.from_seed(renamed, 5), max_states=2_000, core="patience")
    assert len(asked) == 1


def test_the_patience_cores_options_are_refused_for_klondikes_rules() -> None:
    game = PatienceGame.from_seed(get("klondike"), 2)
    for options in ({"search": "best-first"}, {"first_states": 5}, {"focus_states": 0}, {"stock_macros": False}):
        with pytest.raises(SolverError, match="core='patience'"):
            solve_game(game, max_states=1_000, **options)  # type: ignore[arg-type]
        assert solve_game(game, max_states=1_000, core="patience", **options).states > 0  # type: ignore[arg-type]
    with pytest.raises(SolverError, match="core must be auto or patience"):
        solve_game(game, core="klondike")  # type: ignore[arg-type]


def test_a_budget_that_runs_out_says_unknown_with_its_reason() -> None:
    game = PatienceGame.from_seed(load("klondike:draw-3:foundation-return"), 1)
    result = solve_game(game, max_states=500)
    assert result.result == "unknown" and "500" in result.reason and result.memory > 0
    # the two cores word a budget that runs out alike
    patience = solve_game(game, max_states=500, core="patience")
    assert patience.reason == result.reason == "state budget of 500 states reached"


def test_klondikes_rules_get_klondikes_default_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no budget given, Klondike's core searches under its own defaults
    (20 million states, 40 million under a time limit), not the patience
    core's 10 million; a budget given is passed on as it is."""
    asked: list[int | None] = []
    real = search.solve

    def spy(*args: object, **kwargs: object) -> object:
        asked.append(kwargs["max_states"])  # type: ignore[arg-type]
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(search, "solve", spy)
    game = PatienceGame.from_seed(get("klondike"), 5)
    solve_game(game)
    solve_game(game, max_states=1_234)
    assert asked == [None, 1_234]


@pytest.mark.parametrize("seed", ["5", "pysol:7"])
def test_solve_game_with_klondikes_rules_prints_the_engines_moves(capsys: pytest.CaptureFixture[str],
                                                                   seed: str) -> None:
    name = "klondike:draw-3:foundation-return"
    code, out, _ = run(capsys, "solve", "--game", name, "--seed", seed, "--max-states", "200000", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["result"] in ("won", "unwinnable") and data["game"] == "klondike"
    game = PatienceGame.from_seed(load(name), seed)
    for text in data["moves"]:
        game.play(Move.parse(text))
    assert game.is_won() == (data["result"] == "won")
