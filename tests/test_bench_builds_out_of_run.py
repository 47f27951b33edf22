"""benchmarks/builds_out_of_run.py: Spider's games searched best first from
the start (the default) against the hybrid's depth-first part first, deal by
deal, one verdict where both decide, and the deals only one of them wins named."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest
from _benchmarks import table_rows

Loader = Callable[[str], ModuleType]


@pytest.fixture
def script(load_benchmark: Loader) -> ModuleType:
    return load_benchmark("builds_out_of_run")


def test_best_first_wins_the_deal_the_depth_first_part_leaves_open(script: ModuleType,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    # Spider's deal 23 is won best first from the start within 20,000 states (6,367); with a quarter
    # of the budget depth first first the search spends the whole budget
    assert script.main(["--games", "spider", "--deals", "23", "--max-states", "20000"]) == 0
    rows = table_rows(capsys.readouterr().out)
    assert sorted(rows) == ["spider"]
    deals, decided, won, lost, only_with, only_without, disagree, states, *_rest = rows["spider"]
    assert (deals, decided, won, lost, only_with, only_without, disagree) == (
        "1", "1 / 0", "1 / 0", "0 / 0", "23", "-", "0")
    assert states == "6,367 / 20,000"


def test_every_game_it_names_builds_out_of_suit(script: ModuleType) -> None:
    from cardtable.patience import get

    for name in script.GAMES:
        description = get(name)
        assert description.tableau.build.suit != description.tableau.run.suit, name


def test_a_bad_game_is_refused(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        script.main(["--games", "spidr"])
    assert stop.value.code == 2 and "--games" in capsys.readouterr().err
