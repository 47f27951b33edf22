"""benchmarks/solver_per_state.py: the main search timed alone, and two builds
of the core compared on the same deals (here the same build twice, loaded
under a second name, so the two must search alike)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from cardtable.solver import _ccore

Loader = Callable[[str], ModuleType]


@pytest.fixture
def script(load_benchmark: Loader) -> ModuleType:
    return load_benchmark("solver_per_state")


def test_it_reports_the_states_and_the_cost_of_a_state(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert script.main(["--deals", "4", "--draw", "1", "--max-states", "3000"]) == 0
    out = capsys.readouterr().out
    assert "draw 1, seeds 6,000,000 to 6,000,003, up to 3,000 states a deal" in out
    assert "µs a state" in out and "ratio" not in out


def test_a_second_build_runs_on_the_same_deals(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    core = Path(_ccore.__file__)
    assert script.main(["--deals", "3", "--max-states", "2000", "--rounds", "2", "--against", str(core)]) == 0
    out = capsys.readouterr().out
    assert out.count("µs a state") == 2
    ratio = float(out.rsplit("ratio", 1)[1].split(":")[1])
    assert 0 < ratio < 10


def test_two_builds_that_prune_differently_report_their_moves(script: ModuleType,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    # --pruning: two builds may try different moves of a state, so each one's moves tried are reported
    core = Path(_ccore.__file__)
    assert script.main(["--deals", "3", "--max-states", "2000", "--rounds", "1", "--against", str(core),
                        "--pruning"]) == 0
    out = capsys.readouterr().out
    assert out.count("moves tried a state") == 2  # each build's


@pytest.mark.parametrize(("args", "words"), [
    (["--deals", "0"], "--deals must be at least 1, not 0"),
    (["--rounds", "0"], "--rounds must be at least 1, not 0"),
    (["--against", "/no/such/core.so"], "--against: no such file: /no/such/core.so"),
    (["--path-rules", "--with-path-rules"], "--path-rules compares this checkout with itself"),
    (["--with-path-rules", "--schedule", "run.jsonl"], "--with-path-rules is for the main search alone"),
    (["--pruning"], "--pruning compares two builds of the main search: it needs --against"),
])
def test_bad_options_are_refused_before_any_work(script: ModuleType, args: list[str], words: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        script.main(args)
    assert stopped.value.code == 2
    assert words in capsys.readouterr().err


def test_a_file_that_is_not_a_core_is_refused(script: ModuleType, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    bogus = tmp_path / "_ccore.cpython-311-x86_64-linux-gnu.so"
    bogus.write_bytes(b"not a shared object")
    with pytest.raises(SystemExit) as stopped:
        script.main(["--deals", "1", "--against", str(bogus)])
    assert stopped.value.code == 2
    assert "cannot load" in capsys.readouterr().err


def _run_file(path: Path, rows: list[tuple[str, int]], own: float, whole: float) -> Path:
    """A run of benchmarks/solver.py as --schedule reads it: lonelybot's times as given."""
    path.write_text("".join(json.dumps({"mode": mode, "seed": seed, "result": "won", "seconds": 0.001,
                                        "lonelybot_seconds": whole, "lonelybot_own_seconds": own}) + "\n"
                            for mode, seed in rows), encoding="utf-8")
    return path


def test_the_whole_solve_is_timed_on_the_deals_of_a_run(script: ModuleType, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from cardtable.solver import search

    # lonelybot's own clock at a nanosecond: every deal is over three times it; its whole process
    # at an hour: none is
    run = _run_file(tmp_path / "run.jsonl", [("draw1", 6_000_000), ("draw3", 6_000_001), ("draw3", 6_000_002)],
                    own=1e-9, whole=3600.0)
    assert script.main(["--schedule", str(run), "--against", _ccore.__file__]) == 0
    out = capsys.readouterr().out
    assert "the whole solve on the 3 deals of" in out
    assert "draw1 (1 deals), this checkout:" in out and "draw3 (2 deals), this checkout:" in out
    assert out.count("on its own clock") == 4  # two builds, two modes
    assert "over 3x lonelybot's time: 2 on its own clock" in out
    assert "over 3x lonelybot's time: 1 on its own clock" in out
    assert "0 on its whole process" in out and "1 on its whole process" not in out
    assert out.count("time ratio (this checkout / ") == 2
    assert search._ccore is _ccore  # the solver's own core is back


@pytest.mark.parametrize(("line", "words"), [
    ('{"mode": "draw1", "seed": 6000000}', "line 1: no field 'result'"),
    ("not json", "line 1: not JSON"),
])
def test_a_bad_run_is_refused_with_its_line(script: ModuleType, tmp_path: Path, line: str, words: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run.jsonl"
    run.write_text(line + "\n", encoding="utf-8")
    assert script.main(["--schedule", str(run)]) == 2
    assert words in capsys.readouterr().err


def test_the_schedule_takes_no_deal_options(script: ModuleType, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    run = _run_file(tmp_path / "run.jsonl", [("draw1", 6_000_000)], own=1.0, whole=1.0)
    with pytest.raises(SystemExit) as stopped:
        script.main(["--schedule", str(run), "--deals", "5"])
    assert stopped.value.code == 2
    assert "--schedule takes its deals from the run: --deals is not for it" in capsys.readouterr().err


def test_the_path_rules_against_without_them(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert script.main(["--deals", "3", "--max-states", "2000", "--rounds", "1", "--path-rules"]) == 0
    out = capsys.readouterr().out
    assert "with the path rules: states" in out and "without them: states" in out
    tried = float(out.rsplit("moves tried:", 1)[1].split()[0])
    assert 0 < tried <= 1
    assert "losses" not in out  # none of these three is proved lost within 2,000 states


def test_the_losses_are_reported_on_their_own(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    # Deals 6,000,020 and 6,000,021 of draw 3: a win and a loss of 1,502 states (the same with the rules)
    assert script.main(["--start", "6000020", "--deals", "2", "--max-states", "3000", "--rounds", "1",
                        "--path-rules"]) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    assert line.startswith("on the 1 losses (1,502 states, 1,502 a deal): moves tried a state ")
    found = re.search(r"a state ([\d.]+) with the rules, ([\d.]+) without", line)
    assert found is not None, line
    assert 1 < float(found[1]) < float(found[2])


def test_the_path_rules_are_not_compared_with_another_build(script: ModuleType,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        script.main(["--path-rules", "--against", str(Path(_ccore.__file__))])
    assert stopped.value.code == 2
    assert "--path-rules compares this checkout with itself" in capsys.readouterr().err


def test_two_builds_compare_with_the_path_rules_on(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    # The same deals with the path rules on: fewer moves tried a state than with them off, each build alike.
    args = ["--deals", "3", "--draw", "3", "--max-states", "4000", "--rounds", "1",
            "--against", str(Path(_ccore.__file__))]
    assert script.main(args) == 0
    off = capsys.readouterr().out
    assert script.main([*args, "--with-path-rules"]) == 0
    on = capsys.readouterr().out
    assert "the path rules on:" in on and "the path rules on" not in off
    per_state = [float(out.split("moves tried ", 1)[1].split("(", 1)[1].split(" a state", 1)[0]) for out in (on, off)]
    assert per_state[0] < per_state[1]
    assert on.count("µs a state") == 2


def _driver(path: Path, verdict: str) -> Path:
    """A stand-in for lonelybot's lonelybot-solve driver: whatever the deal, it prints ``verdict`` with 1,000
    states and 1,800 table lookups."""
    path.write_text(f"#!/bin/sh\necho 'Run in 1.0 ms'\necho '{verdict}'\necho 'States 1000'\necho 'Visits 1800'\n",
                    encoding="utf-8")
    path.chmod(0o755)
    return path


def test_lonelybot_is_set_beside_the_builds_on_the_losses(script: ModuleType, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    # Deals 6,000,020 and 6,000,021 of draw 3: a win and a loss of 1,502 states; the driver runs on the loss only
    driver = _driver(tmp_path / "lonelybot-solve", "Impossible")
    assert script.main(["--start", "6000020", "--deals", "2", "--max-states", "3000", "--rounds", "2",
                        "--with-path-rules", "--against", str(Path(_ccore.__file__)), "--lonelybot", str(driver)]) == 0
    out = capsys.readouterr().out
    assert "the 1 losses: states 1,502 here, 1,000 lonelybot's; lonelybot: 1.80 children (table lookups) a state" in out
    assert out.count("children a state, ") == 2 and out.count("cost a state / lonelybot's: ") == 2
    assert out.count("moves tried a state") == 2


def test_lonelybot_disagreeing_on_a_loss_stops_the_run(script: ModuleType, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    driver = _driver(tmp_path / "lonelybot-solve", "Solvable in 90 moves")
    assert script.main(["--start", "6000021", "--deals", "1", "--max-states", "3000", "--rounds", "1",
                        "--lonelybot", str(driver)]) == 1
    assert "seed 6000021: lonelybot says won, this checkout's search proves it lost" in capsys.readouterr().err


def test_limited_passes(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert script.main(["--deals", "2", "--draw", "1", "--passes", "1", "--max-states", "2000"]) == 0
    assert "draw 1, 1 pass(es), seeds 6,000,000 to 6,000,001" in capsys.readouterr().out


@pytest.mark.parametrize(("args", "words"), [
    (["--passes", "0"], "--passes must be at least 1, not 0"),
    (["--lonelybot", "/no/such/driver"], "--lonelybot: no such file: /no/such/driver"),
    (["--lonelybot", "/bin/sh", "--passes", "1"], "--lonelybot is for the main search alone with unlimited passes"),
    (["--lonelybot", "/bin/sh", "--path-rules"], "--lonelybot is for the main search alone with unlimited passes"),
])
def test_bad_lonelybot_and_pass_options_are_refused(script: ModuleType, args: list[str], words: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        script.main(args)
    assert stopped.value.code == 2
    assert words in capsys.readouterr().err
