"""The rule variants in ``benchmarks/winnability/*.json`` (a game with Solvitaire's rule
where it differs from the game's default, for docs/winnability.md and the benchmarks
against Solvitaire): each file is its game with exactly the rules listed here, they
reach the solver, and a study keeps the file's deals apart from the game's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from cardtable.patience import Description, PatienceGame, get, load
from cardtable.patience.description import Kind
from cardtable.solver.patience import rules_blob, solve_game
from cardtable.solver.patience_study import study_key

HERE = Path(__file__).resolve().parent.parent / "benchmarks" / "winnability"

#: Solvitaire deals Fan's 52 cards a row at a time into its 18 fans: 16 of 3
#: and two of 2 (Fan deals 17 of 3 and one of 1).
_SOLVITAIRE_FAN_DEAL = [{"to": "tableau", "cards": [3] * 16 + [2, 2], "face-down": [0] * 18, "order": "rows",
                         "card": None, "kings-to-bottom": False, "right-to-left": False, "face-down-first": False}]

#: Each file's game and the rules it changes, as {path: value}. Canfield's
#: columns under Solvitaire's rules move any part of a built group and count
#: ranks from the foundations' base without wrapping (a card of the rank below
#: the base never goes on one of the base rank).
CHANGES: dict[str, tuple[str, dict[tuple[str, ...], object]]] = {
    "canfield-solvitaire.json": ("canfield", {("tableau", "moves"): "run", ("tableau", "build", "wrap"): False,
                                              ("tableau", "build", "from-base"): True}),
    "fan-solvitaire.json": ("fan", {("foundations", "may-return"): True, ("deal",): _SOLVITAIRE_FAN_DEAL}),
    "king-albert-solvitaire.json": ("king-albert", {("foundations", "may-return"): True}),
    "spider-solvitaire.json": ("spider", {("stock", "needs-no-empty-pile"): False}),
    "spiderette-solvitaire.json": ("spiderette", {("stock", "needs-no-empty-pile"): False}),
}


def _differences(a: Any, b: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    if isinstance(a, dict) and isinstance(b, dict):
        keys = sorted(set(a) | set(b))
        return [found for key in keys for found in _differences(a.get(key), b.get(key), (*path, key))]
    return [] if a == b else [path]


def test_every_variant_file_is_listed() -> None:
    assert sorted(path.name for path in HERE.glob("*.json")) == sorted(CHANGES)


@pytest.mark.parametrize("file", sorted(CHANGES))
def test_a_variant_changes_its_rules_and_is_its_own_study(file: str) -> None:
    game, changes = CHANGES[file]
    variant, default = load(str(HERE / file)), get(game)
    assert _differences(default.rules_json(), variant.rules_json()) == sorted(changes)
    for path, value in changes.items():
        data: Any = variant.rules_json()
        for key in path:
            data = data[key]
        assert data == value
    assert study_key(variant) != study_key(default) and study_key(variant)[1] != study_key(default)[1]
    assert rules_blob(variant) != rules_blob(default)  # the rule reaches the solver's tables


def test_solvitaire_canfield_moves_part_of_a_built_group_where_canfield_may_not() -> None:
    """Deal 25: the file's winning line is playable in Canfield's own rules
    up to a move of 6 cards of a 10-card built group, which only the file
    allows (Canfield moves the top card or the whole pile)."""
    variant, default = load(str(HERE / "canfield-solvitaire.json")), get("canfield")
    line = solve_game(PatienceGame.from_seed(variant, 25), max_states=20_000)
    assert line.result == "won"
    theirs, ours = PatienceGame.from_seed(variant, 25), PatienceGame.from_seed(default, 25)
    refused = None
    for move in line.moves:
        if move not in ours.legal_moves():
            refused = move
            break
        theirs.play(move)
        ours.play(move)
    assert refused is not None and refused.source.kind is Kind.TABLEAU
    assert 1 < refused.count < len(ours.pile(refused.source))
    assert refused in theirs.legal_moves()


def test_an_independent_search_agrees_with_the_solver_on_russian_solitaire_pyramid_and_tripeaks(
        load_benchmark: Callable[[str], ModuleType]) -> None:
    """benchmarks/winnability_check.py writes the rules again apart from the
    engine: its exhaustive verdicts equal the solver's, won and unwinnable."""
    check = load_benchmark("winnability_check")
    # deals with small searches, won (Russian Solitaire's 13 and 17, TriPeaks' 78) and unwinnable
    # (the others)
    for game, seeds in (("russian-solitaire", (2, 4, 5, 7, 9, 13, 14, 17, 21, 23)), ("pyramid", (1,)),
                        ("tripeaks", (78, 238))):
        verdicts = []
        for seed in seeds:
            mine, _ = check.check(game, seed, 200_000)
            verdicts.append(mine)
            assert mine == solve_game(PatienceGame.from_seed(get(game), seed), max_states=200_000).result
        assert "unwinnable" in verdicts
    assert check.check("russian-solitaire", 13, 100_000)[0] == "won"


def test_solvitaire_canfield_never_puts_the_rank_below_the_base_on_the_base() -> None:
    """Deal 60 (base 4): won where the columns wrap (a 3 goes on a 4), and
    unwinnable when they count ranks from the base, as Solvitaire proves it."""
    variant = load(str(HERE / "canfield-solvitaire.json"))
    data = variant.to_json()
    data["tableau"]["build"].update({"wrap": True, "from-base": False})
    wrapping = Description.from_json(data)
    game = PatienceGame.from_seed(variant, 60)
    assert game.foundation_base == 4
    assert solve_game(game, max_states=100_000).result == "unwinnable"
    line = solve_game(PatienceGame.from_seed(wrapping, 60), max_states=100_000)
    assert line.result == "won"
    replay = PatienceGame.from_seed(wrapping, 60)
    threes_on_fours = 0
    for move in line.moves:
        if move.source is not None and move.target is not None and move.target.kind is Kind.TABLEAU:
            target, moved = replay.pile(move.target), replay.pile(move.source)[-move.count]
            threes_on_fours += bool(target) and (moved.rank, target[-1].rank) == (3, 4)
        replay.play(move)
    assert threes_on_fours
