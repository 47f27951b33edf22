"""benchmarks/quick_scans.py: the default search (quick scans first) and the
best-first search alone give one verdict, deal by deal, in the games without
cells whose cards take two cards or more on them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from _benchmarks import table_rows

Loader = Callable[[str], ModuleType]


@pytest.fixture
def script(load_benchmark: Loader) -> ModuleType:
    return load_benchmark("quick_scans")


def test_deals_of_every_game_get_one_verdict(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert script.main(["--deals", "1-6", "--max-states", "20000"]) == 0
    rows = table_rows(capsys.readouterr().out)
    assert sorted(rows) == sorted(script.GAMES)
    for game, (deals, decided, _won, _lost, disagree, *_rest) in rows.items():
        assert deals == "6" and disagree == "0", game
        assert int(decided.split(" / ")[0]) > 0, game


def test_a_run_resumes_where_its_file_stops(script: ModuleType, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "run.jsonl"
    args = ["--games", "beleaguered-castle", "--deals", "1-3", "--max-states", "5000", "--jsonl", str(log)]
    assert script.main(args) == 0
    first = capsys.readouterr().out
    lines = log.read_text().splitlines()
    assert [json.loads(line)["deal"] for line in lines] == [1, 2, 3]
    log.write_text("\n".join(lines[:2]) + "\n")
    assert script.main(args) == 0
    # the verdicts and states are the same whether read back or solved anew (CPU differs)
    again = table_rows(capsys.readouterr().out)
    assert again["beleaguered-castle"][:6] == table_rows(first)["beleaguered-castle"][:6]
    assert [json.loads(line)["deal"] for line in log.read_text().splitlines()] == [1, 2, 3]


def test_a_wrong_line_in_the_file_is_named(script: ModuleType, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "run.jsonl"
    log.write_text('{"game": "beleaguered-castle", "deal": "one"}\n')
    with pytest.raises(SystemExit) as stop:
        script.main(["--games", "beleaguered-castle", "--deals", "1", "--jsonl", str(log)])
    assert stop.value.code == 2
    assert f"{log}, line 1" in capsys.readouterr().err


def test_a_game_that_does_not_exist_is_named(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        script.main(["--games", "no-such-game"])
    assert stop.value.code == 2
    assert "no-such-game" in capsys.readouterr().err
