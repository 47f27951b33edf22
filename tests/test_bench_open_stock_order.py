"""benchmarks/open_stock_order.py: Forty Thieves searched best first (the
default) against the hybrid's depth-first and focused passes, deal by deal,
one verdict where both decide, and the deals only one of them wins named."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest
from _benchmarks import table_rows

Loader = Callable[[str], ModuleType]


@pytest.fixture
def script(load_benchmark: Loader) -> ModuleType:
    return load_benchmark("open_stock_order")


def test_best_first_wins_the_deals_the_passes_leave_open(script: ModuleType,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    # deals 1 and 2 are won best first within 20,000 states (16,320 and 13,520);
    # the passes spend the whole budget on each of the three
    assert script.main(["--deals", "1-3", "--max-states", "20000"]) == 0
    rows = table_rows(capsys.readouterr().out)
    assert sorted(rows) == ["forty-thieves"]
    deals, decided, won, lost, only_with, only_without, disagree, states, *_rest = rows["forty-thieves"]
    assert (deals, decided, won, lost, only_with, only_without, disagree) == (
        "3", "2 / 0", "2 / 0", "0 / 0", "1, 2", "-", "0")
    assert states.endswith("/ 60,000")


def test_a_bad_deal_range_is_refused(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        script.main(["--deals", "0-3"])
    assert stop.value.code == 2 and "--deals" in capsys.readouterr().err
