"""benchmarks/solver_path_rules.py: the main search with the path rules and
without them decides the same, deal by deal, in every Klondike variant."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

Loader = Callable[[str], ModuleType]


@pytest.fixture
def script(load_benchmark: Loader) -> ModuleType:
    return load_benchmark("solver_path_rules")


def _rows(out: str) -> dict[str, list[str]]:
    """The report's table rows by variant: the cells after the name."""
    return {cells[0]: cells[1:] for line in out.splitlines() if line.startswith("| d")
            for cells in [[cell.strip() for cell in line.strip("|").split("|")]]}


def test_tens_of_deals_of_every_variant_decide_alike(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    # Every variant, 20 deals each within 5,000 states a search: no disagreement, and each variant has
    # deals both searches decide.
    assert script.main(["--deals", "20", "--max-states", "5000"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert len(rows) == 24
    for variant, (deals, decided, _unknown, disagreements, _tried) in rows.items():
        assert deals == "20" and disagreements == "0", variant
        assert int(decided.split()[0]) > 0, variant


@pytest.mark.slow
def test_hundreds_of_deals_of_every_variant_decide_alike(script: ModuleType,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert script.main(["--deals", "300", "--start", "9300000", "--max-states", "20000"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert len(rows) == 24
    assert all(row[3] == "0" and int(row[1].split()[0]) >= 100 for row in rows.values()), rows


def test_a_run_resumes_where_its_file_stops(script: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "run.jsonl"
    args = ["--deals", "3", "--max-states", "2000", "--variants", "d3-pNone-king-r1", "--jsonl", str(log)]
    assert script.main(args) == 0
    first = capsys.readouterr().out
    assert len(log.read_text(encoding="utf-8").splitlines()) == 3

    def no_search(*_: object) -> None:
        raise AssertionError("a deal of the file searched again")

    monkeypatch.setattr(script, "check_deal", no_search)
    assert script.main(args) == 0
    assert capsys.readouterr().out == first
    assert len(log.read_text(encoding="utf-8").splitlines()) == 3


def test_a_disagreement_is_listed_and_fails_the_run(script: ModuleType, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "run.jsonl"
    rows = [
        {"variant": "d1-pNone-king-r0", "seed": 5, "verdicts": ["won", "unwinnable"], "states": [10, 20],
         "tried": [30, 40], "replayed": True},
        {"variant": "d1-pNone-king-r0", "seed": 6, "verdicts": ["unwinnable", "unwinnable"], "states": [10, 11],
         "tried": [30, 40], "replayed": None},
        {"variant": "d1-pNone-king-r0", "seed": 7, "verdicts": ["won", "won"], "states": [10, 11],
         "tried": [30, 40], "replayed": False},
        {"variant": "d1-pNone-king-r0", "seed": 8, "verdicts": ["unknown", "won"], "states": [10, 11],
         "tried": [30, 40], "replayed": None},
    ]
    log.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    assert script.main(["--deals", "4", "--start", "5", "--variants", "d1-pNone-king-r0", "--jsonl", str(log)]) == 1
    out, err = capsys.readouterr()
    assert _rows(out)["d1-pNone-king-r0"][:4] == ["4", "3 (2 / 1)", "1 / 0", "3"]
    assert "seed 5: won with the rules, unwinnable without" in err
    assert "seed 6: a loss searched in 10 states with the rules, 11 without" in err
    assert "seed 7: the line found with the rules does not win" in err
    assert "seed 8" not in err  # undecided: counted, not compared


@pytest.mark.parametrize(("text", "words"), [
    ("not json\n", "line 1: not JSON"),
    ('{"variant": "d1-pNone-king-r0", "seed": 1, "verdicts": ["won"], "states": [1, 1], "tried": [1, 1]}\n',
     "line 1: verdicts must be a pair of str"),
    ('{"variant": "d1-pNone-king-r0", "verdicts": ["won", "won"]}\n', "line 1: no field 'seed'"),
])
def test_a_bad_file_is_refused_in_one_line(script: ModuleType, tmp_path: Path, text: str, words: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "run.jsonl"
    log.write_text(text, encoding="utf-8")
    assert script.main(["--deals", "1", "--jsonl", str(log)]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("args", "words"), [
    (["--deals", "0"], "--deals 0: at least 1"),
    (["--max-states", "0"], "--max-states 0: at least 1"),
    (["--start", "-1"], "--start -1: a seed"),
    (["--jobs", "0"], "--jobs 0: at least 1"),
])
def test_bad_options_are_refused_before_any_work(script: ModuleType, args: list[str], words: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert script.main(args) == 2
    assert words in capsys.readouterr().err


def test_two_processes_report_what_one_does(script: ModuleType, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--deals", "6", "--max-states", "3000", "--variants", "d1-p3-any-r0", "d3-p1-king-r1"]
    assert script.main(args) == 0
    alone = capsys.readouterr().out
    log = tmp_path / "run.jsonl"
    assert script.main([*args, "--jobs", "2", "--jsonl", str(log)]) == 0
    assert capsys.readouterr().out == alone
    assert len(log.read_text(encoding="utf-8").splitlines()) == 12
