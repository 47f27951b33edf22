"""benchmarks/through_spaces.py: the default search (with the moves of a
sequence through spaces) and the engine's moves alone give one verdict, deal
by deal, and the report names the deals only one of them decides."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest
from _benchmarks import table_rows

Loader = Callable[[str], ModuleType]


@pytest.fixture
def script(load_benchmark: Loader) -> ModuleType:
    return load_benchmark("through_spaces")



def test_deals_of_every_game_get_one_verdict(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert script.main(["--deals", "1-3", "--max-states", "5000"]) == 0
    rows = table_rows(capsys.readouterr().out)
    assert sorted(rows) == sorted(script.GAMES)
    for game, (deals, _decided, _won, _lost, _with, _without, disagree, *_rest) in rows.items():
        assert deals == "3" and disagree == "0", game


def test_the_deal_only_the_moves_through_spaces_win_is_named(script: ModuleType,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    # Spider in two suits, deal 26, 20,000 states: won with the moves through spaces, undecided without
    assert script.main(["--games", "spider-2-suits", "--deals", "26", "--max-states", "20000"]) == 0
    deals, decided, won, _lost, only_with, only_without, disagree, states, *_rest = table_rows(
        capsys.readouterr().out)["spider-2-suits"]
    assert (deals, decided, won, only_with, only_without, disagree) == ("1", "1 / 0", "1 / 0", "26", "-", "0")
    assert states == "1,651 / 20,000"


def test_proofs_in_different_states_disagree(load_benchmark: Loader) -> None:
    # the moves reach no position the engine's moves do not: two proofs of one deal key the same positions
    paired = load_benchmark("_paired")
    row: dict[str, object] = {"with": "unwinnable", "without": "unwinnable", "with_states": 10, "without_states": 12}
    assert paired.disagreement(row, "a", "b") is None
    assert paired.disagreement(row, "a", "b", proofs_alike=True) == "unwinnable in 10 states a, 12 b"
    assert paired.disagreement({**row, "without_states": 10}, "a", "b", proofs_alike=True) is None
    assert paired.disagreement({**row, "without": "won"}, "a", "b") == "unwinnable a, won b"
