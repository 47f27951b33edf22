"""benchmarks/depth_probe.py: the default search (the hybrid, then the
depth-first probe) and the hybrid alone give one verdict, deal by deal, and
the report names the deals only one of them decides."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest
from _benchmarks import table_rows

Loader = Callable[[str], ModuleType]


@pytest.fixture
def script(load_benchmark: Loader) -> ModuleType:
    return load_benchmark("depth_probe")


def test_deals_of_every_game_get_one_verdict(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert script.main(["--deals", "1-3", "--max-states", "20000"]) == 0
    rows = table_rows(capsys.readouterr().out)
    assert sorted(rows) == sorted(script.GAMES)
    for game, (deals, _decided, _won, _lost, _with, _without, disagree, *_rest) in rows.items():
        assert deals == "3" and disagree == "0", game


def test_the_deal_the_probe_wins_is_named(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    # Spider in one suit, deal 14, 200,000 states: undecided by the hybrid alone, won by the probe
    assert script.main(["--games", "spider-1-suit", "--deals", "14", "--max-states", "200000"]) == 0
    deals, decided, won, _lost, only_with, only_without, disagree, states, *_rest = table_rows(
        capsys.readouterr().out)["spider-1-suit"]
    assert (deals, decided, won, only_with, only_without, disagree) == ("1", "1 / 0", "1 / 0", "14", "-", "0")
    assert states == "191,747 / 200,000"
